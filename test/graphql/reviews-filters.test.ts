import { Review, type Integration } from '../../src/models';
import { errorOf, graphql } from '../auto-respond/support';
import { useApp } from '../support/app';
import { countStatements } from '../support/db';
import { makeReview, makeWorld, syncedSourceOf, testimonialsOf } from '../support/factories';

const LIST = `query ($ratings: [Int!], $rating: Int, $dateFrom: String, $dateTo: String, $sentiment: String, $responded: Boolean,
  $verified: Boolean, $query: String, $minMessageLength: Int, $sortBy: ReviewSort, $sourceNames: [String!], $locationId: Int,
  $page: Int, $perPage: Int) {
  reviews(ratings: $ratings, rating: $rating, dateFrom: $dateFrom, dateTo: $dateTo, sentiment: $sentiment, responded: $responded,
    verified: $verified, query: $query, minMessageLength: $minMessageLength, sortBy: $sortBy, sourceNames: $sourceNames,
    locationId: $locationId, page: $page, perPage: $perPage) {
    total page perPage items { id author rating sentiment verified reply publishedAt }
  }
}`;

const at = (iso: string) => new Date(iso);

describe('GraphQL reviews: filters and sort orders (MCP list_reviews)', () => {
  const t = useApp();
  const gql = graphql(t);
  let w: Awaited<ReturnType<typeof makeWorld>>;
  /** Hand-built reviews, by a short name; each differs from the others in the attribute a test looks at. */
  const r: Record<string, Review> = {};

  /** Creates a review, then sets its sentiment by hand (the model would classify the text). */
  async function review(name: string, source: Integration, fields: Partial<Review>) {
    const { sentiment, ...rest } = fields;
    r[name] = await makeReview(source, rest);
    if (sentiment !== undefined) await Review.update({ sentiment }, { where: { id: r[name].id } });
  }

  beforeAll(async () => {
    w = await makeWorld();
    const home = await testimonialsOf(w.home);
    const google = await syncedSourceOf(w.branch);
    await review('ada', home, {
      author: 'Ada Lovelace', rating: 5, message: 'The dentist was wonderful and gentle.', publishedAt: at('2026-01-10T09:00:00Z'),
      reply: 'Thank you, Ada!', replyDate: at('2026-01-10T10:00:00Z'), verified: true, sentiment: 'positive',
    });
    await review('bob', home, {
      author: 'Bob Stone', rating: 1, message: 'Waited two hours. Awful.', publishedAt: at('2026-01-11T23:59:59.999Z'), sentiment: 'negative',
    });
    await review('cy', google, {
      author: 'Cy Young', rating: 3, message: 'ok', publishedAt: at('2026-01-12T00:00:00Z'), reply: '', sentiment: 'neutral',
    });
    await review('dee', google, {
      author: 'Dee Mills', rating: 4, message: 'Teeth whitening was quick; the staff were kind to me.', publishedAt: at('2026-01-12T12:00:00Z'),
      reply: 'Glad the whitening worked.', replyDate: at('2026-01-13T08:00:00Z'), verified: true, sentiment: 'positive',
    });
    await review('eve', home, {
      author: 'Eve Martin', rating: 5, message: 'Café au lait in the waiting room, 100% worth it 👍', publishedAt: at('2026-01-14T08:00:00Z'), sentiment: 'positive',
    });
    await review('fu', google, {
      author: 'Fu Lin', rating: 1, message: '服务很好', publishedAt: at('2026-01-09T08:00:00Z'), reply: 'Thanks', verified: true, sentiment: 'neutral',
    });
    await review('gil', home, {
      author: 'Gil Okafor', rating: 4, message: '👍👍👍', publishedAt: at('2026-01-08T08:00:00Z'), sentiment: 'positive',
    });
    // Another tenant's review that every filter below would match: never listed.
    const other = await makeWorld();
    await makeReview(await testimonialsOf(other.home), {
      author: 'Ada Lovelace', rating: 5, message: 'The dentist was wonderful. ok 100% 服务很好 👍👍👍', publishedAt: at('2026-01-11T12:00:00Z'),
      reply: 'Thanks', verified: true,
    });
  });

  async function names(variables: Record<string, unknown>, token = w.tokens.orgOwner): Promise<{ names: string[]; total: number }> {
    const res = await gql(token, LIST, { perPage: 100, ...variables });
    expect(res.errors).toBeUndefined();
    const byId = new Map(Object.entries(r).map(([name, review]) => [review.id, name]));
    const items = res.data!.reviews.items as Array<{ id: number }>;
    return { names: items.map((i) => byId.get(i.id) ?? `foreign ${i.id}`), total: res.data!.reviews.total };
  }

  it('lists every visible review newest first without filters, the total from the counts table', async () => {
    expect(await names({})).toEqual({ names: ['eve', 'dee', 'cy', 'bob', 'ada', 'fu', 'gil'], total: 7 });
  });

  describe('dateFrom / dateTo (UTC publication days, inclusive)', () => {
    it('includes the whole of both bound days and nothing outside them', async () => {
      expect(await names({ dateFrom: '2026-01-11', dateTo: '2026-01-11' })).toEqual({ names: ['bob'], total: 1 });
      expect(await names({ dateFrom: '2026-01-10', dateTo: '2026-01-12' })).toEqual({ names: ['dee', 'cy', 'bob', 'ada'], total: 4 });
      expect(await names({ dateFrom: '2026-01-12' })).toEqual({ names: ['eve', 'dee', 'cy'], total: 3 });
      expect(await names({ dateTo: '2026-01-09' })).toEqual({ names: ['fu', 'gil'], total: 2 });
      expect(await names({ dateFrom: '2026-02-01' })).toEqual({ names: [], total: 0 });
    });

    it('refuses a malformed date, a date that does not exist and a range that ends before it starts', async () => {
      const malformed = await gql(w.tokens.orgOwner, LIST, { dateFrom: '2026-1-5' });
      expect(errorOf(malformed).code).toBe('VALIDATION');
      expect(malformed.errors![0].extensions.fields).toEqual({ date_from: ['The date from does not match the format Y-m-d.'] });
      const impossible = await gql(w.tokens.orgOwner, LIST, { dateTo: '2026-02-30' });
      expect(impossible.errors![0].extensions.fields).toEqual({ date_to: ['The date to is not a valid date (Y-m-d).'] });
      const backwards = await gql(w.tokens.orgOwner, LIST, { dateFrom: '2026-01-12', dateTo: '2026-01-11' });
      expect(errorOf(backwards).code).toBe('VALIDATION');
      expect(backwards.errors![0].extensions.fields).toEqual({ date_to: ['The date to must be a date after or equal to date from.'] });
    });
  });

  describe('ratings', () => {
    it('takes any of several ratings, and applies rating as well when both are given', async () => {
      expect(await names({ ratings: [1, 5] })).toEqual({ names: ['eve', 'bob', 'ada', 'fu'], total: 4 });
      expect(await names({ ratings: [4] })).toEqual({ names: ['dee', 'gil'], total: 2 });
      expect(await names({ ratings: [5, 5, 1] })).toEqual({ names: ['eve', 'bob', 'ada', 'fu'], total: 4 });
      expect(await names({ ratings: [1, 5], rating: 1 })).toEqual({ names: ['bob', 'fu'], total: 2 });
      expect(await names({ ratings: [2] })).toEqual({ names: [], total: 0 });
      expect(await names({ ratings: [] })).toEqual({ names: ['eve', 'dee', 'cy', 'bob', 'ada', 'fu', 'gil'], total: 7 });
    });

    it('refuses a rating outside 1-5', async () => {
      const res = await gql(w.tokens.orgOwner, LIST, { ratings: [5, 6] });
      expect(errorOf(res).code).toBe('VALIDATION');
      expect(res.errors![0].extensions.fields).toEqual({ ratings: ['Each rating must be between 1 and 5.'] });
    });
  });

  it('filters by sentiment and refuses an unknown one', async () => {
    expect(await names({ sentiment: 'positive' })).toEqual({ names: ['eve', 'dee', 'ada', 'gil'], total: 4 });
    expect(await names({ sentiment: 'negative' })).toEqual({ names: ['bob'], total: 1 });
    expect(await names({ sentiment: 'neutral' })).toEqual({ names: ['cy', 'fu'], total: 2 });
    const res = await gql(w.tokens.orgOwner, LIST, { sentiment: 'angry' });
    expect(errorOf(res).code).toBe('VALIDATION');
    expect(Object.keys(res.errors![0].extensions.fields!)).toEqual(['sentiment']);
  });

  it('filters by responded: a reply with text counts, an empty reply does not', async () => {
    expect(await names({ responded: true })).toEqual({ names: ['dee', 'ada', 'fu'], total: 3 });
    expect(await names({ responded: false })).toEqual({ names: ['eve', 'cy', 'bob', 'gil'], total: 4 });
  });

  it('filters by verified', async () => {
    expect(await names({ verified: true })).toEqual({ names: ['dee', 'ada', 'fu'], total: 3 });
    expect(await names({ verified: false })).toEqual({ names: ['eve', 'cy', 'bob', 'gil'], total: 4 });
  });

  describe('query (full text over author, message and reply)', () => {
    it('finds a term in the message, the author or the reply, in any letter case, also inside a word', async () => {
      expect(await names({ query: 'dentist' })).toEqual({ names: ['ada'], total: 1 });
      expect(await names({ query: 'DENT' })).toEqual({ names: ['ada'], total: 1 });
      expect(await names({ query: 'tist' })).toEqual({ names: ['ada'], total: 1 });
      expect(await names({ query: 'lovelace' })).toEqual({ names: ['ada'], total: 1 });
      expect(await names({ query: 'glad' })).toEqual({ names: ['dee'], total: 1 });
      expect(await names({ query: 'whitening' })).toEqual({ names: ['dee'], total: 1 });
      expect(await names({ query: 'ok' })).toEqual({ names: ['cy', 'gil'], total: 2 }); // "ok" and "Okafor"
      expect(await names({ query: '很好' })).toEqual({ names: ['fu'], total: 1 });
    });

    it('needs every term, wherever each one occurs, and takes a double-quoted phrase as one term', async () => {
      expect(await names({ query: 'teeth kind' })).toEqual({ names: ['dee'], total: 1 });
      expect(await names({ query: 'Dee glad' })).toEqual({ names: ['dee'], total: 1 });
      expect(await names({ query: 'was the' })).toEqual({ names: ['dee', 'ada'], total: 2 });
      expect(await names({ query: 'teeth awful' })).toEqual({ names: [], total: 0 });
      expect(await names({ query: 'were staff' })).toEqual({ names: ['dee'], total: 1 });
      expect(await names({ query: '"staff were"' })).toEqual({ names: ['dee'], total: 1 });
      expect(await names({ query: '"were staff"' })).toEqual({ names: [], total: 0 });
      expect(await names({ query: '"waiting  room" 100%' })).toEqual({ names: ['eve'], total: 1 });
    });

    it('ignores accents as the collation does, takes LIKE wildcards literally and ignores a blank query', async () => {
      expect(await names({ query: 'cafe' })).toEqual({ names: ['eve'], total: 1 });
      expect(await names({ query: '%' })).toEqual({ names: ['eve'], total: 1 });
      expect(await names({ query: '_' })).toEqual({ names: [], total: 0 });
      expect(await names({ query: 'w_rth' })).toEqual({ names: [], total: 0 });
      expect(await names({ query: '   ' })).toEqual({ names: ['eve', 'dee', 'cy', 'bob', 'ada', 'fu', 'gil'], total: 7 });
    });

    it('refuses a query over 255 characters', async () => {
      const res = await gql(w.tokens.orgOwner, LIST, { query: 'x'.repeat(256) });
      expect(errorOf(res).code).toBe('VALIDATION');
      expect(res.errors![0].extensions.fields).toEqual({ query: ['The query may not be greater than 255 characters.'] });
    });
  });

  it('takes at most 100 source names and 100 tags (66,000 were a 500: too many placeholders)', async () => {
    const many = Array.from({ length: 101 }, (_, i) => `Source ${i}`);
    const sources = await gql(w.tokens.orgOwner, LIST, { sourceNames: many });
    expect(errorOf(sources).code).toBe('VALIDATION');
    expect(sources.errors![0].extensions.fields).toEqual({ source_names: ['The source names may not have more than 100 items.'] });
    const tags = await gql(w.tokens.orgOwner, 'query ($tags: [String!]) { reviews(tags: $tags) { total } }', { tags: Array.from({ length: 66_000 }, (_, i) => `t${i}`) });
    expect(errorOf(tags).code).toBe('VALIDATION');
    expect(tags.errors![0].extensions.fields).toEqual({ tags: ['The tags may not have more than 100 items.'] });
    expect(await names({ sourceNames: many.slice(0, 99).concat('Testimonials') })).toEqual({ names: ['eve', 'bob', 'ada', 'gil'], total: 4 });
  });

  it('filters by minMessageLength in characters (an emoji is one) and refuses a negative one', async () => {
    expect(await names({ minMessageLength: 3, ratings: [4] })).toEqual({ names: ['dee', 'gil'], total: 2 });
    expect(await names({ minMessageLength: 4, ratings: [4] })).toEqual({ names: ['dee'], total: 1 });
    expect((await names({ minMessageLength: 3 })).names).not.toContain('cy');
    expect((await names({ minMessageLength: 0 })).total).toBe(7);
    const res = await gql(w.tokens.orgOwner, LIST, { minMessageLength: -1 });
    expect(errorOf(res).code).toBe('VALIDATION');
    expect(res.errors![0].extensions.fields).toEqual({ min_message_length: ['The min message length must be at least 0.'] });
  });

  describe('sortBy', () => {
    it('orders newest first by default and with NEWEST_FIRST, oldest first with OLDEST_FIRST', async () => {
      const newest = ['eve', 'dee', 'cy', 'bob', 'ada', 'fu', 'gil'];
      expect((await names({ sortBy: 'NEWEST_FIRST' })).names).toEqual(newest);
      expect((await names({ sortBy: 'OLDEST_FIRST' })).names).toEqual([...newest].reverse());
    });

    it('orders by rating either way, newest first within a rating', async () => {
      expect((await names({ sortBy: 'HIGHEST_RATING_FIRST' })).names).toEqual(['eve', 'ada', 'dee', 'gil', 'cy', 'bob', 'fu']);
      expect((await names({ sortBy: 'LOWEST_RATING_FIRST' })).names).toEqual(['bob', 'fu', 'cy', 'dee', 'gil', 'eve', 'ada']);
    });

    it('pages through a sorted, filtered list with the filtered total', async () => {
      const page = async (p: number) => names({ sortBy: 'LOWEST_RATING_FIRST', verified: true, page: p, perPage: 2 });
      expect(await page(1)).toEqual({ names: ['fu', 'dee'], total: 3 });
      expect(await page(2)).toEqual({ names: ['ada'], total: 3 });
    });

    it('breaks ties of the same moment by id, in every order (the page is put in order after it is read)', async () => {
      const world = await makeWorld();
      const source = await testimonialsOf(world.home);
      const moment = at('2026-02-01T10:00:00Z');
      const [a, b, c] = [await makeReview(source, { rating: 4, publishedAt: moment }), await makeReview(source, { rating: 4, publishedAt: moment }), await makeReview(source, { rating: 2, publishedAt: moment })];
      const ids = async (sortBy: string) => {
        const res = await gql(world.tokens.orgOwner, LIST, { perPage: 100, sortBy });
        expect(res.errors).toBeUndefined();
        return (res.data!.reviews.items as Array<{ id: number }>).map((i) => i.id);
      };
      expect(await ids('NEWEST_FIRST')).toEqual([c.id, b.id, a.id]);
      expect(await ids('OLDEST_FIRST')).toEqual([a.id, b.id, c.id]);
      expect(await ids('HIGHEST_RATING_FIRST')).toEqual([b.id, a.id, c.id]);
      expect(await ids('LOWEST_RATING_FIRST')).toEqual([c.id, b.id, a.id]);
    });

    it('refuses an unknown order', async () => {
      const res = await gql(w.tokens.orgOwner, LIST, { sortBy: 'RANDOM' });
      expect(res.errors?.[0].message).toMatch(/ReviewSort/);
      expect(res.data).toBeNull();
    });
  });

  it('combines the new filters with each other and with sources, locations and the caller\'s scope', async () => {
    expect(await names({ dateFrom: '2026-01-10', responded: true, sentiment: 'positive' })).toEqual({ names: ['dee', 'ada'], total: 2 });
    expect(await names({ sourceNames: ['Google'], verified: true })).toEqual({ names: ['dee', 'fu'], total: 2 });
    expect(await names({ locationId: w.home.id, ratings: [5], query: 'the' })).toEqual({ names: ['eve', 'ada'], total: 2 });
    // The team member sees the branch only (the synced Google reviews).
    expect(await names({ verified: true }, w.tokens.member)).toEqual({ names: ['dee', 'fu'], total: 2 });
    expect(await names({ query: 'dentist' }, w.tokens.member)).toEqual({ names: [], total: 0 });
    // The tenant owner sees the whole tenant, not the other tenant's matching review.
    expect(await names({ query: 'dentist', verified: true, ratings: [5], dateTo: '2026-01-11' }, w.tokens.owner)).toEqual({ names: ['ada'], total: 1 });
  });

  it('reads a filtered page with the same number of statements whatever its size', async () => {
    const count = async (perPage: number) => {
      const { n, result: res } = await countStatements(t.db(), () =>
        gql(w.tokens.orgOwner, `query ($perPage: Int) {
          reviews(query: "the", sentiment: "positive", sortBy: OLDEST_FIRST, perPage: $perPage) { total items { id source sourceLogo avatar } }
        }`, { perPage }),
      );
      expect(res.errors).toBeUndefined();
      expect(res.data!.reviews.items).toHaveLength(Math.min(perPage, 3));
      return n;
    };
    await count(1); // warm-up: token bookkeeping
    expect(await count(1)).toBe(await count(10));
    // The token lookup, the page (its rows with their source, in one statement) and the count.
    expect(await count(10)).toBe(3);
  });
});
