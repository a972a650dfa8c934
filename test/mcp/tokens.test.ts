import { setPrincipalCacheTtl } from '../../src/services/principal-cache';
import { makeOrganization, tokenFor } from '../support/factories';
import { call, mcpWorld, READ_TOOLS, rpc, useMcpApp } from './support';

/** The kinds of token and the three roles behind AI tokens: what each one sees through the tools. */
describe('MCP tokens and scope', () => {
  const app = useMcpApp();
  let world: Awaited<ReturnType<typeof mcpWorld>>;
  beforeAll(async () => {
    world = await mcpWorld({ scan: false });
  });
  const structured = async (token: string, name: string, args: object = {}) => {
    const res = await app.post(call(name, args), { token });
    if (!res.json.result) throw new Error(`${name}: ${JSON.stringify(res.json)}`);
    return res.json.result.structuredContent;
  };
  const toolNames = async (token: string) => ((await app.post(rpc('tools/list'), { token })).json.result.tools as Array<{ name: string }>).map((t) => t.name);

  it('takes AI tokens only: customer and agency tokens of the same tenant owner are refused with -32001', async () => {
    const kinds = {
      ai: await tokenFor(world.owner, ['mcp:access', 'reviews:read'], 'ai'),
      customer: await tokenFor(world.owner, ['mcp:access', 'reviews:read'], 'customer'),
      agency: await tokenFor(world.owner, ['mcp:access'], 'agency'),
    };
    const answers = await Promise.all(Object.values(kinds).map((token) => app.post(rpc('tools/list'), { token })));
    expect(answers.map((a) => [a.status, a.json.error?.code ?? 'ok', a.json.error?.data?.reason ?? null])).toEqual([
      [200, 'ok', null],
      [403, -32001, 'wrong_token_kind'],
      [403, -32001, 'wrong_token_kind'],
    ]);
  });

  it('filters tools/list by abilities and permissions', async () => {
    expect(await toolNames(await tokenFor(world.owner, ['mcp:access'], 'ai'))).toEqual(['list_scans', 'get_scan', 'get_scan_data_points', 'list_scan_snapshots', 'get_scan_insights', 'get_scan_report']);
    expect(await toolNames(await tokenFor(world.owner, ['mcp:access', 'mcp:writes'], 'ai'))).toContain('create_scan');
    expect(await toolNames(await tokenFor(world.orgOwner, ['mcp:access', 'mcp:writes'], 'ai'))).toEqual([]);
    // Without organizations:read, no organisation or location lists.
    expect(await toolNames(await tokenFor(world.orgOwner, ['mcp:access', 'reviews:read'], 'ai'))).toEqual(
      READ_TOOLS.filter((t) => t !== 'list_organizations' && t !== 'list_locations'),
    );
    expect(await toolNames(world.ai.member)).toEqual(READ_TOOLS);
  });

  it('scopes reviews like the dashboard: tenant owner, organisation owner, team member', async () => {
    const authors = async (token: string) => ((await structured(token, 'list_reviews', { organization_id: world.org.id })).data as Array<{ author: string }>).map((r) => r.author);
    expect(await authors(world.ai.owner)).toEqual(['Cy Branch', 'Bob Home', 'Ada Home']);
    expect(await authors(world.ai.orgOwner)).toEqual(['Cy Branch', 'Bob Home', 'Ada Home']);
    expect(await authors(world.ai.member)).toEqual(['Cy Branch']);
    const byLocation = await structured(world.ai.member, 'list_reviews', { organization_id: world.org.id, location_id: world.branch.id, ratings: [4] });
    expect(byLocation.data.map((r: { author: string }) => r.author)).toEqual(['Cy Branch']);
    const hidden = await app.post(call('get_review', { review_id: world.reviews[0].id }), { token: world.ai.member });
    expect(hidden.json.error).toMatchObject({ code: -32002 });
  });

  it('filters by source names and one rating, and pages', async () => {
    expect((await structured(world.ai.orgOwner, 'list_reviews', { source_names: ['Google'] })).data.map((r: { author: string }) => r.author)).toEqual(['Cy Branch']);
    expect((await structured(world.ai.orgOwner, 'list_reviews', { ratings: [2] })).data.map((r: { author: string }) => r.author)).toEqual(['Bob Home']);
    const page2 = await structured(world.ai.orgOwner, 'list_reviews', { per_page: 2, page: 2 });
    expect(page2.data.map((r: { author: string }) => r.author)).toEqual(['Ada Home']);
    expect(page2.pagination).toEqual({ page: 2, per_page: 2, total: 3, last_page: 2, has_more: false });
  });

  it('refuses a location_id of another organisation of the caller with -32602 location_id', async () => {
    const second = await makeOrganization(world.orgOwner);
    const res = await app.post(call('list_reviews', { organization_id: world.org.id, location_id: second.defaultLocationId! }), { token: world.ai.orgOwner });
    expect(res.json.error).toMatchObject({ code: -32602, data: { errors: { location_id: [expect.any(String)] } } });
  });

  it('shows organisations, locations and review totals within the scope', async () => {
    const memberOrgs = await structured(world.ai.member, 'list_organizations');
    expect(memberOrgs.data).toHaveLength(1);
    expect(memberOrgs.data[0]).toMatchObject({
      id: world.org.id,
      locations: [{ id: world.branch.id, name: 'Branch' }],
      stats: { review_count: 1, average_rating: 4, star_distribution: { 5: 0, 4: 1, 3: 0, 2: 0, 1: 0 } },
    });
    const locations = await structured(world.ai.member, 'list_locations');
    expect(locations.data.map((l: { id: number }) => l.id)).toEqual([world.branch.id]);

    const detail = await structured(world.ai.orgOwner, 'list_organizations', { organization_id: world.org.id, include_stats: false, per_page: 3, page: 9 });
    expect(detail).toMatchObject({ data: [{ id: world.org.id, stats: null }], pagination: { page: 1, total: 1 } });
    const noReviews = await tokenFor(world.orgOwner, ['mcp:access', 'organizations:read'], 'ai');
    expect((await structured(noReviews, 'list_organizations', { organization_id: world.org.id })).data[0].stats).toBeNull();
    const search = await structured(world.ai.owner, 'list_organizations', { search: world.org.name.slice(4) });
    expect(search.data.map((o: { id: number }) => o.id)).toEqual([world.org.id]);
  });

  it('lists organisations with locations and stats in a constant number of statements (N+1 guard)', async () => {
    const w = await mcpWorld({ scan: false });
    const run = async () => {
      let reads = 0;
      // Only reads count: the audit writer's batched INSERTs and token bookkeeping UPDATEs run beside the call.
      const hook = (options: { type?: string }) => {
        if (options?.type === 'SELECT') reads += 1;
      };
      app.db().addHook('beforeQuery', 'mcp-counter', hook as never);
      // Every call looks its token up (src/services/principal-cache.ts would keep it between the calls otherwise).
      const ttl = setPrincipalCacheTtl(0);
      try {
        const data = await structured(w.ai.orgOwner, 'list_organizations', { per_page: 50 });
        return { orgs: data.data.length, n: reads };
      } finally {
        app.db().removeHook('beforeQuery', 'mcp-counter');
        setPrincipalCacheTtl(ttl);
      }
    };
    await run(); // warm-up
    const before = await run();
    for (let i = 0; i < 3; i++) await makeOrganization(w.orgOwner);
    const after = await run();
    expect(after.orgs).toBe(before.orgs + 3);
    expect(before.n).toBeGreaterThanOrEqual(4); // token, page + total, locations, stats
    expect(after.n).toBe(before.n);
  });
});
