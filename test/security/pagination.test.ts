import { agencyTokenFor, makeReview, makeWorld, testimonialsOf } from '../support/factories';
import { call, mcpWorld, useMcpApp } from '../mcp/support';

/**
 * Bounded work per request (issue 14, docs/security.md): `page` becomes an OFFSET, so a page deeper than 10,000 rows
 * is refused wherever a list is paged: the REST APIs with the documented 422, MCP with -32602, GraphQL with a
 * validation error. The deepest allowed page still answers.
 */
describe('maximum page depth', () => {
  jest.setTimeout(60_000);
  const app = useMcpApp();
  let world: Awaited<ReturnType<typeof mcpWorld>>;
  let agency: string;

  beforeAll(async () => {
    world = await mcpWorld({ scan: false });
    agency = await agencyTokenFor(world.owner);
  });

  const get = (path: string, token: string) => fetch(`${app.origin()}${path}`, { headers: { Authorization: `Bearer ${token}`, Accept: 'application/json' } });

  it.each([
    ['/api/v1/reviews?page=1001', 1000],
    ['/api/v1/reviews?page=101&per_page=100', 100],
    ['/api/v1/reviews?page=999999999', 1000],
    ['/api/v1/organizations?page=1001', 1000],
    ['/api/v1/locations?page=401', 400],
    ['/api/v1/reviews/sources?page=1001', 1000],
  ])('customer REST %s: 422 naming the deepest page (%i)', async (path, max) => {
    const res = await get(path, world.tokens.owner);
    expect(res.status).toBe(422);
    const body = (await res.json()) as { message: string; errors: Record<string, string[]> };
    expect(body.errors.page[0]).toMatch(new RegExp(`^The page must not be greater than ${max}\\b`));
  });

  it.each([['/api/agency/v1/customers?page=1001'], ['/api/agency/v1/scans?page=501'], ['/api/agency/v1/connect-links?page=501']])(
    'agency REST %s: 422',
    async (path) => {
      const res = await get(path, agency);
      expect(res.status).toBe(422);
      expect(((await res.json()) as { errors: Record<string, string[]> }).errors.page[0]).toMatch(/^The page must not be greater than \d+/);
    },
  );

  it('the deepest page itself answers (an empty page past the end)', async () => {
    const source = await testimonialsOf(world.home);
    await makeReview(source);
    const deepest = await get('/api/v1/reviews?page=1000', world.tokens.owner);
    expect(deepest.status).toBe(200);
    expect(((await deepest.json()) as { data: unknown[] }).data).toEqual([]);
    expect((await get('/api/v1/reviews?page=100&per_page=100', world.tokens.owner)).status).toBe(200);
  });

  it('GraphQL: a validation error naming page, no data', async () => {
    const res = await fetch(`${app.origin()}/graphql`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${world.tokens.owner}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ query: '{ reviews(page: 5000, perPage: 10) { total items { id } } }' }),
    });
    const body = (await res.json()) as { data: unknown; errors: { message: string; extensions: { code: string; fields: Record<string, string[]> } }[] };
    expect(body.data).toBeNull();
    expect(body.errors[0].extensions.fields.page[0]).toMatch(/^The page must not be greater than 1000/);
  });

  it('MCP list_reviews: -32602 invalid params', async () => {
    const res = await app.post(call('list_reviews', { page: 5000, per_page: 10 }), { token: world.ai.owner });
    expect(res.status).toBe(200);
    expect(res.json.error.code).toBe(-32602);
    expect(res.json.error.message).toMatch(/page/);
  });

  it('an ordinary world answers page 2 as before', async () => {
    const w = await makeWorld();
    const res = await get('/api/v1/reviews?page=2', w.tokens.owner);
    expect(res.status).toBe(200);
  });
});
