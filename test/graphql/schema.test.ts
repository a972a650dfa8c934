import { getMetadataStorage } from 'type-graphql';
import { getSchema } from '../../src/graphql/schema';
import { ConnectLink } from '../../src/models';
import { useApp } from '../support/app';
import { countStatements } from '../support/db';
import { makeReview, makeWorld, syncedSourceOf, testimonialsOf, tokenFor } from '../support/factories';

describe('GraphQL business API at /graphql', () => {
  const t = useApp();
  const gql = (token: string | null, query: string, variables: Record<string, unknown> = {}) => {
    const req = t.http().post('/graphql').set('Content-Type', 'application/json');
    if (token) req.set('Authorization', `Bearer ${token}`);
    return req.send({ query, variables });
  };

  it('puts every mutation behind the auth checker, which holds back writes of paused accounts', async () => {
    await getSchema(); // built: class-level @Authorized is merged into each mutation's roles
    const mutations = getMetadataStorage().mutations;
    expect(mutations.length).toBeGreaterThan(50);
    expect(mutations.filter((m) => m.roles === undefined).map((m) => m.schemaName)).toEqual([]);
  });

  it("asks a customer token for its permissions on the agency's tools and the account settings, as REST does", async () => {
    const w = await makeWorld();
    const readOnly = await tokenFor(w.orgOwner, ['reviews:read']);
    const bare = await tokenFor(w.owner, []); // the tenant owner: the role the services let in, no permission
    const forbidden = async (token: string, query: string) => {
      const res = await gql(token, query);
      expect([query, res.body.errors?.[0]?.extensions]).toEqual([query, expect.objectContaining({ code: 'FORBIDDEN', reason: 'missing_permission' })]);
    };
    await forbidden(readOnly, 'mutation { setAccountLanguage(language: "de") { language } }');
    await forbidden(readOnly, 'mutation { setAccountReportEmails(enabled: false) { language } }');
    await forbidden(bare, 'mutation { setTenantLanguage(language: "de") { language } }');
    await forbidden(bare, 'mutation { setTenantBrandColor(color: "#112233") { brandColor } }');
    await forbidden(bare, `mutation { createConnectLink(input: { locationId: ${w.home.id}, provider: "google" }) { token } }`);
    await forbidden(bare, '{ connectLinks(page: 1) { total } }');
    await forbidden(bare, '{ scans(page: 1) { total } }');
    await forbidden(bare, 'mutation { runScan(uuid: "00000000-0000-4000-8000-000000000000") { runId } }');
    // With the permission, the role decides as before: the tenant owner may, and nothing changed for the others.
    const reader = await tokenFor(w.owner, ['organizations:read']);
    expect((await gql(reader, '{ scans(page: 1) { total } }')).body.errors).toBeUndefined();
    const writer = await tokenFor(w.orgOwner, ['organizations:update']);
    expect((await gql(writer, 'mutation { setAccountLanguage(language: "de") { language } }')).body.data.setAccountLanguage.language).toBe('de');
    // A change to what the token cannot read is refused before it is made (not made, then its answer refused).
    const updateOnly = await tokenFor(w.owner, ['organizations:update']);
    await forbidden(updateOnly, `mutation { createConnectLink(input: { locationId: ${w.home.id}, provider: "google" }) { token status } }`);
    expect(await ConnectLink.count({ where: { locationId: w.home.id } })).toBe(0);
  });

  it('answers a query with the caller scope', async () => {
    const w = await makeWorld();
    await makeReview(await testimonialsOf(w.home), { author: 'Visible' });
    const res = await gql(w.tokens.orgOwner, '{ reviews(page: 1) { total items { author source avatar } } }');
    expect(res.status).toBe(200);
    expect(res.body.data.reviews.total).toBe(1);
    expect(res.body.data.reviews.items[0]).toEqual({
      author: 'Visible',
      source: 'Testimonials',
      avatar: expect.stringContaining('/avatars/placeholder.svg?name=Visible'),
    });
  });

  it('carries typed domain errors in extensions: code, reason, fields', async () => {
    const w = await makeWorld();
    const missing = await gql(w.tokens.owner, '{ review(id: 999999999) { id } }');
    expect(missing.body.errors[0].extensions).toEqual({ code: 'NOT_FOUND', reason: null, fields: null });

    const denied = await gql(w.tokens.member, `{ location(id: ${w.home.id}) { id } }`);
    expect(denied.body.errors[0].extensions).toMatchObject({ code: 'FORBIDDEN', reason: 'location_access_denied' });

    const invalid = await gql(
      w.tokens.owner,
      `mutation { createLocation(input: { organizationId: ${w.org.id}, name: "${'x'.repeat(256)}" }) { id } }`,
    );
    expect(invalid.body.errors[0].extensions).toMatchObject({
      code: 'VALIDATION',
      fields: { name: ['The name may not be greater than 255 characters.'] },
    });

    const anonymous = await gql(null, '{ me { id } }');
    expect(anonymous.body.errors[0].extensions.code).toBe('UNAUTHENTICATED');
  });

  it('never leaks internals: an unexpected failure is "Internal server error"', async () => {
    const w = await makeWorld();
    // An id beyond INT range passes GraphQL's Int check only if it fits 32 bits; use a huge page instead.
    const res = await gql(w.tokens.owner, '{ reviews(page: 2147483647, perPage: 100) { total items { id } } }');
    expect(res.status).toBe(200);
    expect(JSON.stringify(res.body)).not.toMatch(/SELECT|sequelize|at .*\.ts/i);
  });

  it('resolves a page of reviews with a constant number of SQL statements (no N+1)', async () => {
    const w = await makeWorld();
    const testimonials = await testimonialsOf(w.home);
    const google = await syncedSourceOf(w.branch);
    const count = async (perPage: number) => {
      const { n, result: res } = await countStatements(t.db(), async () => gql(w.tokens.owner, `{ reviews(page: 1, perPage: ${perPage}) { items { id source sourceLogo avatar } } }`));
      expect(res.body.data.reviews.items).toHaveLength(perPage);
      return n;
    };
    for (let i = 0; i < 20; i++) await makeReview(i % 2 ? testimonials : google, { author: `A${i}` });
    await count(1); // warm-up: token bookkeeping and the once-per-process source catalogue
    const small = await count(2);
    const large = await count(20);
    expect(large).toBe(small);
  });

  it('resolves organisations with their locations in a constant number of statements', async () => {
    const w = await makeWorld();
    const run = async () => {
      const { n, result: res } = await countStatements(t.db(), async () => gql(w.tokens.owner, '{ organizations(page: 1, perPage: 100) { items { id locations { id } } } }'));
      expect(res.body.errors).toBeUndefined();
      return { n, orgs: res.body.data.organizations.items.length };
    };
    await run(); // warm-up: token bookkeeping and the once-per-process source catalogue
    const before = await run();
    const { makeOrganization } = await import('../support/factories');
    for (let i = 0; i < 3; i++) await makeOrganization(w.owner);
    const after = await run();
    expect(after.orgs).toBe(before.orgs + 3);
    expect(after.n).toBe(before.n);
  });

  it("refuses the public pages' and the inbound webhook's operations: only their own edge may run them", async () => {
    const w = await makeWorld();
    const ops = [
      'query { unsubscribePage(token: "x") { businessName } }',
      'mutation { unsubscribe(token: "x") { businessName } }',
      'query { feedbackPage(invite: "00000000-0000-4000-8000-000000000000") { businessName } }',
      'mutation { openReviewLink(invite: "00000000-0000-4000-8000-000000000000") { businessName } }',
      'query { inboundEndpoint(token: "x") { connection } }',
      'query { connectPage(token: "00000000-0000-4000-8000-000000000000") { status } }',
      'mutation { startConnectSignIn(token: "00000000-0000-4000-8000-000000000000", csrf: "x") }',
      'mutation { completeConnectSignIn(state: "x", callbackUrl: "http://127.0.0.1/connect/callback?state=x") { token } }',
      'query { connectSelection(token: "00000000-0000-4000-8000-000000000000") { nonce } }',
      'query { connectBrandForState(state: "x") { name } }',
      'mutation { selectConnectBusiness(token: "00000000-0000-4000-8000-000000000000", nonce: "x", business: "x") { businessName } }',
      'query { scanReportPage(uuid: "00000000-0000-4000-8000-000000000000") { problem } }',
    ];
    for (const op of ops) {
      for (const token of [null, w.tokens.owner]) {
        const res = await gql(token, op);
        expect(res.body.data?.[Object.keys(res.body.data ?? {})[0]] ?? null).toBeNull();
        expect(res.body.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
      }
    }
  });
});
