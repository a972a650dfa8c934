import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { Review } from '../../src/models';
import { makeReview, syncedSourceOf, testimonialsOf } from '../support/factories';
import { call, connect, mcpWorld, useMcpApp, type RawAnswer } from './support';

/** The MCP tool list_reviews: every filter and sort order of the spec, and the bounds of its arguments. */
describe('MCP list_reviews filters', () => {
  const app = useMcpApp();
  let world: Awaited<ReturnType<typeof mcpWorld>>;
  let client: Client;
  const ids: Record<string, number> = {};

  beforeAll(async () => {
    // mcpWorld's reviews: Ada Home (5, Jan 10), Bob Home (2, Jan 11) on testimonials, Cy Branch (4, Jan 12) on Google.
    world = await mcpWorld({ scan: false });
    [ids.ada, ids.bob, ids.cy] = world.reviews.map((r) => r.id);
    const facebook = await syncedSourceOf(world.branch, 'facebook');
    const home = await testimonialsOf(world.home);
    const dee = await makeReview(facebook, {
      author: 'Dee Facebook', rating: 1, message: 'Parking was a nightmare, staff were rude to my mother.', publishedAt: new Date('2026-01-13T18:30:00Z'),
      reply: 'We are sorry to hear that.', replyDate: new Date('2026-01-14T09:00:00Z'), verified: true,
    });
    const eve = await makeReview(home, { author: 'Eve Home', rating: 5, message: 'Fine', publishedAt: new Date('2026-01-09T07:00:00Z'), verified: true });
    ids.dee = dee.id;
    ids.eve = eve.id;
    // Sentiment by hand (the model classifies the text; the fixture states it).
    await Review.update({ sentiment: 'positive' }, { where: { id: [ids.ada, ids.cy, ids.eve] } });
    await Review.update({ sentiment: 'negative' }, { where: { id: [ids.bob, ids.dee] } });
    await Review.update({ sentiment: 'neutral', reply: 'Thanks, Cy!' }, { where: { id: ids.cy } });
    client = await connect(app, world.ai.owner);
    await client.listTools(); // the SDK then checks each structuredContent against the published outputSchema
  });
  afterAll(async () => {
    await client.close();
  });

  const nameOf = (id: number) => Object.entries(ids).find(([, v]) => v === id)?.[0] ?? `foreign ${id}`;

  async function list(args: Record<string, unknown>): Promise<{ names: string[]; total: number; pagination: Record<string, unknown> }> {
    const res = await client.callTool({ name: 'list_reviews', arguments: { organization_id: world.org.id, ...args } });
    expect(res.isError).toBeFalsy();
    const sc = res.structuredContent as { data: Array<{ id: number }>; pagination: { total: number } };
    return { names: sc.data.map((r) => nameOf(r.id)), total: sc.pagination.total, pagination: sc.pagination };
  }

  it('lists newest first by default', async () => {
    expect(await list({})).toMatchObject({ names: ['dee', 'cy', 'bob', 'ada', 'eve'], total: 5 });
  });

  it('filters by date_from and date_to, both inclusive', async () => {
    expect(await list({ date_from: '2026-01-11', date_to: '2026-01-13' })).toMatchObject({ names: ['dee', 'cy', 'bob'], total: 3 });
    expect(await list({ date_from: '2026-01-13' })).toMatchObject({ names: ['dee'], total: 1 });
    expect(await list({ date_to: '2026-01-10' })).toMatchObject({ names: ['ada', 'eve'], total: 2 });
  });

  it('filters by several ratings at once', async () => {
    expect(await list({ ratings: [1, 2] })).toMatchObject({ names: ['dee', 'bob'], total: 2 });
    expect(await list({ ratings: [5] })).toMatchObject({ names: ['ada', 'eve'], total: 2 });
  });

  it('filters by sentiment', async () => {
    expect(await list({ sentiment: 'positive' })).toMatchObject({ names: ['ada', 'eve'], total: 2 });
    expect(await list({ sentiment: 'negative' })).toMatchObject({ names: ['dee', 'bob'], total: 2 });
    expect(await list({ sentiment: 'neutral' })).toMatchObject({ names: ['cy'], total: 1 });
  });

  it('filters by responded and verified', async () => {
    expect(await list({ responded: true })).toMatchObject({ names: ['dee', 'cy'], total: 2 });
    expect(await list({ responded: false })).toMatchObject({ names: ['bob', 'ada', 'eve'], total: 3 });
    expect(await list({ verified: true })).toMatchObject({ names: ['dee', 'eve'], total: 2 });
    expect(await list({ verified: false })).toMatchObject({ names: ['cy', 'bob', 'ada'], total: 3 });
  });

  it('searches author, message and reply with query', async () => {
    expect(await list({ query: 'parking RUDE' })).toMatchObject({ names: ['dee'], total: 1 });
    expect(await list({ query: 'sorry' })).toMatchObject({ names: ['dee'], total: 1 });
    expect(await list({ query: 'home' })).toMatchObject({ names: ['bob', 'ada', 'eve'], total: 3 });
    expect(await list({ query: 'thanks cy' })).toMatchObject({ names: ['cy'], total: 1 });
    expect(await list({ query: 'parking sorry' })).toMatchObject({ names: ['dee'], total: 1 });
    expect(await list({ query: 'parking great' })).toMatchObject({ names: [], total: 0 });
  });

  it('filters by min_message_length in characters', async () => {
    // Messages: "Great home visit." (17), "Slow." (5), "Nice branch." (12), Dee's (54), "Fine" (4).
    expect(await list({ min_message_length: 12 })).toMatchObject({ names: ['dee', 'cy', 'ada'], total: 3 });
    expect(await list({ min_message_length: 13 })).toMatchObject({ names: ['dee', 'ada'], total: 2 });
    expect(await list({ min_message_length: 0 })).toMatchObject({ total: 5 });
  });

  it('sorts by each sort_by value', async () => {
    expect((await list({ sort_by: 'Newest First' })).names).toEqual(['dee', 'cy', 'bob', 'ada', 'eve']);
    expect((await list({ sort_by: 'Oldest First' })).names).toEqual(['eve', 'ada', 'bob', 'cy', 'dee']);
    expect((await list({ sort_by: 'Highest Rating First' })).names).toEqual(['ada', 'eve', 'cy', 'bob', 'dee']);
    expect((await list({ sort_by: 'Lowest Rating First' })).names).toEqual(['dee', 'bob', 'cy', 'ada', 'eve']);
  });

  it('combines filters with source_names, location_id and paging', async () => {
    expect(await list({ location_id: world.branch.id, source_names: ['Facebook'], responded: true })).toMatchObject({ names: ['dee'], total: 1 });
    const page2 = await list({ verified: false, sort_by: 'Oldest First', per_page: 2, page: 2 });
    expect(page2).toEqual({ names: ['cy'], total: 3, pagination: { page: 2, per_page: 2, total: 3, last_page: 2, has_more: false } });
  });

  it('scopes every filter to the caller: the team member sees the branch only', async () => {
    const member = await connect(app, world.ai.member);
    try {
      const res = await member.callTool({ name: 'list_reviews', arguments: { verified: true, sort_by: 'Highest Rating First' } });
      expect((res.structuredContent as { data: Array<{ id: number }> }).data.map((r) => nameOf(r.id))).toEqual(['dee']);
    } finally {
      await member.close();
    }
  });

  describe('argument bounds (-32602)', () => {
    const expectInvalid = (res: RawAnswer, argument: string) => {
      expect(res.status).toBe(200);
      expect(res.json.error).toMatchObject({ code: -32602 });
      expect(Object.keys(res.json.error.data.errors)).toContain(argument);
    };

    it.each([
      ['per_page 0', { per_page: 0 }, 'per_page'],
      ['per_page 51', { per_page: 51 }, 'per_page'],
      ['page 0', { page: 0 }, 'page'],
      ['an empty ratings list', { ratings: [] }, 'ratings'],
      ['a rating of 0', { ratings: [0] }, 'ratings'],
      ['a rating of 6', { ratings: [1, 6] }, 'ratings'],
      ['a repeated rating', { ratings: [5, 5] }, 'ratings'],
      ['a rating that is not an integer', { ratings: [4.5] }, 'ratings'],
      ['an unknown sentiment', { sentiment: 'angry' }, 'sentiment'],
      ['an unknown sort_by', { sort_by: 'newest' }, 'sort_by'],
      ['responded as text', { responded: 'yes' }, 'responded'],
      ['verified as a number', { verified: 1 }, 'verified'],
      ['a date_from that is not YYYY-MM-DD', { date_from: '13/01/2026' }, 'date_from'],
      ['a date_to that does not exist', { date_to: '2026-02-30' }, 'date_to'],
      ['an empty query', { query: '' }, 'query'],
      ['a query of 256 characters', { query: 'q'.repeat(256) }, 'query'],
      ['a negative min_message_length', { min_message_length: -1 }, 'min_message_length'],
      ['a min_message_length above 100000', { min_message_length: 100_001 }, 'min_message_length'],
      ['location_id without organization_id', { location_id: 1 }, 'location_id'],
    ])('refuses %s', async (_what, args, argument) => {
      expectInvalid(await app.post(call('list_reviews', args), { token: world.ai.owner }), argument);
    });

    it('takes the extremes of every bound', async () => {
      const res = await app.post(
        call('list_reviews', { organization_id: world.org.id, per_page: 50, page: 1, ratings: [1, 2, 3, 4, 5], min_message_length: 100_000, query: 'q'.repeat(255) }),
        { token: world.ai.owner },
      );
      expect(res.json.result.structuredContent.pagination).toEqual({ page: 1, per_page: 50, total: 0, last_page: 1, has_more: false });
    });

    it('refuses date_to before date_from, naming date_to', async () => {
      const res = await app.post(call('list_reviews', { date_from: '2026-01-12', date_to: '2026-01-11' }), { token: world.ai.owner });
      expectInvalid(res, 'date_to');
    });

    it('applies every formerly pending filter instead of refusing it', async () => {
      const all = {
        organization_id: world.org.id, date_from: '2026-01-01', date_to: '2026-12-31', ratings: [1, 4], sentiment: 'negative', responded: true,
        verified: true, query: 'nightmare', min_message_length: 10, sort_by: 'Lowest Rating First',
      };
      const res = await app.post(call('list_reviews', all), { token: world.ai.owner });
      expect(res.json.error).toBeUndefined();
      expect(res.json.result.structuredContent.data.map((r: { id: number }) => r.id)).toEqual([ids.dee]);
    });
  });
});
