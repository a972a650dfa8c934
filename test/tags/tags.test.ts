import { OutboxEvent, ReviewTag } from '../../src/models';
import { errorOf, graphql } from '../auto-respond/support';
import { useApp } from '../support/app';
import { countStatements } from '../support/db';
import { makeReview, makeWorld, syncedSourceOf, testimonialsOf, tokenFor, without } from '../support/factories';

const TAG = `mutation ($reviewIds: [Int!]!, $attachTags: [String!], $detachTags: [String!]) {
  tagReviews(reviewIds: $reviewIds, attachTags: $attachTags, detachTags: $detachTags) { reviewId tags }
}`;
const LIST = `query ($tags: [String!], $perPage: Int, $page: Int) { reviews(tags: $tags, perPage: $perPage, page: $page) { total items { id tags } } }`;

describe('review tags (GraphQL tagReviews, the tags filter)', () => {
  const t = useApp();
  const gql = graphql(t);

  async function reviews(w: Awaited<ReturnType<typeof makeWorld>>, n: number) {
    const source = await testimonialsOf(w.home);
    const out = [];
    for (let i = 0; i < n; i++) out.push(await makeReview(source, { author: `Author ${i}`, publishedAt: new Date(Date.UTC(2026, 0, 1 + i)) }));
    return out;
  }

  it('attaches idempotently, detaches, normalises the tags and returns each review with its tags', async () => {
    const w = await makeWorld();
    const [a, b] = await reviews(w, 2);
    const first = await gql(w.tokens.orgOwner, TAG, { reviewIds: [a.id, b.id, a.id], attachTags: ['VIP', '  follow   up ', 'vip'] });
    expect(first.errors).toBeUndefined();
    expect(first.data!.tagReviews).toEqual([
      { reviewId: a.id, tags: ['follow up', 'vip'] },
      { reviewId: b.id, tags: ['follow up', 'vip'] },
    ]);
    const again = await gql(w.tokens.orgOwner, TAG, { reviewIds: [a.id], attachTags: ['Vip'] });
    expect(again.data!.tagReviews).toEqual([{ reviewId: a.id, tags: ['follow up', 'vip'] }]);
    expect(await ReviewTag.count({ where: { reviewId: a.id } })).toBe(2);

    const detached = await gql(w.tokens.orgOwner, TAG, { reviewIds: [a.id, b.id], detachTags: ['FOLLOW UP', 'never attached'], attachTags: ['done'] });
    expect(detached.data!.tagReviews).toEqual([
      { reviewId: a.id, tags: ['done', 'vip'] },
      { reviewId: b.id, tags: ['done', 'vip'] },
    ]);
    expect(await OutboxEvent.count({ where: { aggregateType: 'review', aggregateId: [String(a.id), String(b.id)] } })).toBe(0);
  });

  it('takes up to 50 reviews per call and refuses 51', async () => {
    const w = await makeWorld();
    const many = await reviews(w, 51);
    const fifty = await gql(w.tokens.orgOwner, TAG, { reviewIds: many.slice(0, 50).map((r) => r.id), attachTags: ['bulk'] });
    expect(fifty.errors).toBeUndefined();
    expect(fifty.data!.tagReviews).toHaveLength(50);
    const fiftyOne = await gql(w.tokens.orgOwner, TAG, { reviewIds: many.map((r) => r.id), attachTags: ['bulk2'] });
    expect(errorOf(fiftyOne).code).toBe('VALIDATION');
    expect(fiftyOne.errors![0].extensions.fields).toEqual({ review_ids: ['The review ids may not have more than 50 items.'] });
    expect(await ReviewTag.count({ where: { tag: 'bulk2' } })).toBe(0);

    // A repeated id is the same review: 50 distinct ids and a repeat are 50 reviews, within the limit.
    const ids = many.slice(0, 50).map((r) => r.id);
    const repeated = await gql(w.tokens.orgOwner, TAG, { reviewIds: [...ids, ids[0]], attachTags: ['bulk3'] });
    expect(repeated.errors).toBeUndefined();
    expect(repeated.data!.tagReviews.map((r: { reviewId: number }) => r.reviewId)).toEqual(ids);
    expect(await ReviewTag.count({ where: { tag: 'bulk3' } })).toBe(50);
  });

  it('takes tags of 64 characters, refuses 65, empty tags, the reserved flag sentinel, and a call with nothing to do', async () => {
    const w = await makeWorld();
    const [a] = await reviews(w, 1);
    const max = 'é'.repeat(64);
    expect((await gql(w.tokens.orgOwner, TAG, { reviewIds: [a.id], attachTags: [max] })).data!.tagReviews[0].tags).toEqual([max]);

    const tooLong = await gql(w.tokens.orgOwner, TAG, { reviewIds: [a.id], attachTags: ['ok', 'x'.repeat(65)] });
    expect(errorOf(tooLong).code).toBe('VALIDATION');
    expect(tooLong.errors![0].extensions.fields).toEqual({ 'attach_tags.1': ['A tag may not be greater than 64 characters.'] });

    for (const flag of ['__flag__', ' __FLAG__ ']) {
      const reserved = await gql(w.tokens.orgOwner, TAG, { reviewIds: [a.id], attachTags: [flag] });
      expect(errorOf(reserved)).toEqual({ code: 'VALIDATION', reason: 'reserved_tag' });
      expect(reserved.errors![0].extensions.fields).toEqual({ 'attach_tags.0': ['The tag __flag__ is reserved and cannot be attached.'] });
    }
    expect(errorOf(await gql(w.tokens.orgOwner, TAG, { reviewIds: [a.id], attachTags: ['  '] })).code).toBe('VALIDATION');
    expect(errorOf(await gql(w.tokens.orgOwner, TAG, { reviewIds: [a.id] })).code).toBe('VALIDATION');
    expect(errorOf(await gql(w.tokens.orgOwner, TAG, { reviewIds: [], attachTags: ['x'] })).code).toBe('VALIDATION');
    const both = await gql(w.tokens.orgOwner, TAG, { reviewIds: [a.id], attachTags: ['x'], detachTags: ['X'] });
    expect(both.errors![0].extensions.fields).toHaveProperty('detach_tags');
    expect(await ReviewTag.findAll({ where: { reviewId: a.id } }).then((rows) => rows.map((r) => r.tag))).toEqual([max]);
  });

  it('is all or nothing: a review outside the caller\'s scope is NOT_FOUND and nothing changes', async () => {
    const w = await makeWorld();
    const other = await makeWorld();
    const [mine] = await reviews(w, 1);
    const [theirs] = await reviews(other, 1);
    const res = await gql(w.tokens.orgOwner, TAG, { reviewIds: [mine.id, theirs.id], attachTags: ['x'] });
    expect(errorOf(res).code).toBe('NOT_FOUND');
    expect(await ReviewTag.count({ where: { reviewId: [mine.id, theirs.id] } })).toBe(0);
    expect(errorOf(await gql(w.tokens.orgOwner, TAG, { reviewIds: [999_999_999], attachTags: ['x'] })).code).toBe('NOT_FOUND');
    // A team member tags reviews of assigned locations only (the member has the branch, the review is at home).
    expect(errorOf(await gql(w.tokens.member, TAG, { reviewIds: [mine.id], attachTags: ['x'] })).code).toBe('NOT_FOUND');
  });

  it('needs reviews:read and reviews:update (the mapping of reviews.edit); synced reviews take tags too', async () => {
    const w = await makeWorld();
    const readOnly = await tokenFor(w.orgOwner, without('reviews:update'));
    const synced = await makeReview(await syncedSourceOf(w.home));
    expect(errorOf(await gql(readOnly, TAG, { reviewIds: [synced.id], attachTags: ['x'] }))).toEqual({ code: 'FORBIDDEN', reason: 'missing_permission' });
    expect((await gql(w.tokens.orgOwner, TAG, { reviewIds: [synced.id], attachTags: ['x'] })).data!.tagReviews).toEqual([{ reviewId: synced.id, tags: ['x'] }]);
  });

  it('filters the review list by tags (any of them, any letter case) with an exact total, and shows tags on reviews', async () => {
    const w = await makeWorld();
    const [a, b, c] = await reviews(w, 3);
    await gql(w.tokens.orgOwner, TAG, { reviewIds: [a.id], attachTags: ['vip'] });
    await gql(w.tokens.orgOwner, TAG, { reviewIds: [b.id], attachTags: ['complaint', 'vip'] });
    const list = async (tags: string[] | null, extra: Record<string, unknown> = {}) => (await gql(w.tokens.orgOwner, LIST, { tags, ...extra })).data!.reviews;

    expect(await list(['VIP'])).toEqual({ total: 2, items: [{ id: b.id, tags: ['complaint', 'vip'] }, { id: a.id, tags: ['vip'] }] });
    expect(await list(['complaint', 'nothing'])).toEqual({ total: 1, items: [{ id: b.id, tags: ['complaint', 'vip'] }] });
    expect(await list(['nothing'])).toEqual({ total: 0, items: [] });
    expect((await list(['vip'], { perPage: 1, page: 2 })).items).toEqual([{ id: a.id, tags: ['vip'] }]);
    expect((await list(['vip'], { perPage: 1 })).total).toBe(2);
    const all = await list(null);
    expect(all.total).toBe(3);
    expect(all.items.find((r: { id: number }) => r.id === c.id).tags).toEqual([]);

    // The REST list takes the same filter: tags[]=a&tags[]=b, or tags=a.
    const rest = await t.as(w.tokens.orgOwner).get('/api/v1/reviews?tags[]=complaint&tags[]=VIP');
    expect(rest.status).toBe(200);
    expect(rest.body.data.map((r: { id: number }) => r.id)).toEqual([b.id, a.id]);
    expect(rest.body.meta.total).toBe(2);
    const single = await t.as(w.tokens.orgOwner).get('/api/v1/reviews?tags=complaint');
    expect(single.body.data.map((r: { id: number }) => r.id)).toEqual([b.id]);

    // Another account's tags never show up in the caller's list.
    const other = await makeWorld();
    const [foreign] = await reviews(other, 1);
    await gql(other.tokens.orgOwner, TAG, { reviewIds: [foreign.id], attachTags: ['vip'] });
    expect((await list(['vip'])).total).toBe(2);
  });

  it('resolves the tags of a page of reviews in a constant number of SQL statements (no N+1)', async () => {
    const w = await makeWorld();
    const all = await reviews(w, 12);
    await gql(w.tokens.orgOwner, TAG, { reviewIds: all.map((r) => r.id), attachTags: ['a', 'b'] });
    const count = async (perPage: number) => {
      const { n, result: res } = await countStatements(t.db(), () => gql(w.tokens.orgOwner, LIST, { tags: ['a'], perPage }));
      expect(res.data!.reviews.items).toHaveLength(perPage);
      expect(res.data!.reviews.items[0].tags).toEqual(['a', 'b']);
      return n;
    };
    await count(1); // warm-up: token bookkeeping
    expect(await count(12)).toBe(await count(2));
  });
});
