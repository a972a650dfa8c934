import { QueryTypes } from 'sequelize';
import { reviewSentiment } from '../../src/analytics/sentiment';
import * as backfill from '../../src/db/migrations/20261125000210-backfill-review-sentiment';
import type { Sql } from '../../src/db/umzug';
import { Review } from '../../src/models';
import { upsertProviderReviews } from '../../src/jobs/review-sync';
import { useApp } from '../support/app';
import { makeReview, makeWorld, syncedSourceOf, testimonialsOf } from '../support/factories';

/** The sentiment stored on reviews: set on every write path, and backfilled by the migration for older rows. */
describe('review sentiment storage', () => {
  const t = useApp();
  const gql = (token: string, query: string, variables: Record<string, unknown> = {}) =>
    t.http().post('/graphql').set('Authorization', `Bearer ${token}`).set('Content-Type', 'application/json').send({ query, variables });
  const stored = async (id: number) => {
    const r = (await Review.findByPk(id))!;
    return { sentiment: r.sentiment, score: r.sentimentScore };
  };

  it('computes it when a review is created and when its text changes (createReview, updateReview)', async () => {
    const w = await makeWorld();
    const source = await testimonialsOf(w.home);
    const created = await gql(
      w.tokens.orgOwner,
      `mutation C($input: CreateReviewInput!) { createReview(input: $input) { id sentiment sentimentScore } }`,
      {
        input: { author: 'Ann', rating: 2, publishedOn: '2026-11-01', organizationId: w.org.id, locationId: w.home.id, source: source.id, message: 'Rude staff and a dirty waiting room.' },
      },
    );
    expect(created.body.errors).toBeUndefined();
    const { id } = created.body.data.createReview;
    const expected = reviewSentiment({ message: 'Rude staff and a dirty waiting room.', rating: 2 });
    expect(expected.sentiment).toBe('negative');
    expect(created.body.data.createReview).toMatchObject({ sentiment: 'negative', sentimentScore: expected.score });
    expect(await stored(id)).toEqual({ sentiment: 'negative', score: expected.score });

    const updated = await gql(w.tokens.orgOwner, `mutation { updateReview(id: ${id}, input: { message: "Lovely staff, spotless rooms." }) { sentiment } }`);
    expect(updated.body.data.updateReview.sentiment).toBe('positive');
    expect((await stored(id)).sentiment).toBe('positive');

    // The list (plain SQL reads) shows the stored values too.
    const listed = await gql(w.tokens.orgOwner, `{ reviews(page: 1, perPage: 10) { items { id sentiment sentimentScore } } }`);
    expect(listed.body.data.reviews.items).toEqual([{ id, sentiment: 'positive', sentimentScore: (await stored(id)).score }]);
  });

  it('records the detected language of a review outside the six and answers it (GraphQL Review.language), the stars deciding its tone', async () => {
    const w = await makeWorld();
    const source = await testimonialsOf(w.home);
    const message = 'Heel onvriendelijk personeel en we hebben twee uur gewacht. Nooit meer hierheen.';
    const created = await gql(
      w.tokens.orgOwner,
      `mutation C($input: CreateReviewInput!) { createReview(input: $input) { id language sentiment sentimentReason } }`,
      { input: { author: 'Bram', rating: 1, publishedOn: '2026-11-01', organizationId: w.org.id, locationId: w.home.id, source: source.id, message } },
    );
    expect(created.body.errors).toBeUndefined();
    expect(created.body.data.createReview).toMatchObject({ language: 'nl', sentiment: 'negative', sentimentReason: 'rating_outweighs_text' });
    const row = (await Review.findByPk(created.body.data.createReview.id))!;
    expect([row.language, row.sentiment]).toEqual(['nl', 'negative']);
  });

  it('recomputes only when the text or rating changes', async () => {
    const w = await makeWorld();
    const review = await makeReview(await testimonialsOf(w.home), { message: 'Terrible.', rating: 1 });
    expect(review.sentiment).toBe('negative');
    // A marker value the analyser would never give this text: it survives a change of another field.
    await t.db().query('UPDATE reviews SET sentiment = ?, sentiment_score = 0 WHERE id = ?', { replacements: ['neutral', review.id] });
    await gql(w.tokens.orgOwner, `mutation { updateReview(id: ${review.id}, input: { author: "Renamed" }) { id } }`);
    expect(await stored(review.id)).toEqual({ sentiment: 'neutral', score: 0 });
    await gql(w.tokens.orgOwner, `mutation { updateReview(id: ${review.id}, input: { rating: 2 }) { id } }`);
    expect((await stored(review.id)).sentiment).toBe('negative');
  });

  it('computes it for synced reviews, new and changed', async () => {
    const w = await makeWorld();
    const google = await syncedSourceOf(w.home);
    const base = {
      externalId: 'accounts/1/locations/2/reviews/3',
      author: 'Sync Author',
      avatarUrl: null,
      rating: 5,
      title: null,
      message: 'Fantastic dentist, very gentle.',
      publishedAt: new Date('2026-11-01T10:00:00Z'),
      updatedAt: new Date('2026-11-01T10:00:00Z'),
      reply: null,
      replyDate: null,
      url: null,
    };
    await upsertProviderReviews(google.id, 'google', [base]);
    const review = (await Review.findOne({ where: { integrationId: google.id } }))!;
    expect(review.sentiment).toBe('positive');
    await upsertProviderReviews(google.id, 'google', [{ ...base, rating: 1, message: 'Horrible, they hurt me.', updatedAt: new Date('2026-11-02T10:00:00Z') }]);
    expect((await stored(review.id)).sentiment).toBe('negative');
  });

  it('is backfilled by the migration for rows written without it, in batches', async () => {
    const w = await makeWorld();
    const source = await testimonialsOf(w.home);
    const texts = ['Great service!', 'Awful, never again.', 'We went on Tuesday.', ''];
    const count = backfill.BACKFILL_BATCH + 7; // more than one batch
    const rows = Array.from({ length: count }, (_, i) => ({
      tenantId: source.tenantId,
      customerId: source.customerId,
      organizationId: source.organizationId,
      locationId: source.locationId,
      integrationId: source.id,
      author: `Old ${i}`,
      rating: (i % 5) + 1,
      originalRating: (i % 5) + 1,
      message: texts[i % texts.length],
      publishedAt: new Date('2025-06-01T00:00:00Z'),
    }));
    // As rows stood before the sentiment columns existed: no hooks, no sentiment.
    await Review.bulkCreate(rows, { hooks: false, validate: false });
    const db = t.db();
    const countNull = async () =>
      Number(
        (await db.query<{ n: number }>('SELECT COUNT(*) AS n FROM reviews WHERE integration_id = ? AND sentiment IS NULL', { replacements: [source.id], type: QueryTypes.SELECT }))[0].n,
      );
    expect(await countNull()).toBe(count);

    const sql: Sql = (statement, replacements) => db.query(statement, { replacements, type: QueryTypes.RAW });
    await backfill.up({ name: '20261125000210-backfill-review-sentiment', context: sql } as never);
    expect(await countNull()).toBe(0);

    const after = await Review.findAll({ where: { integrationId: source.id }, order: [['id', 'ASC']] });
    for (const r of after) {
      const expected = reviewSentiment({ message: r.message, rating: r.rating });
      expect({ sentiment: r.sentiment, score: r.sentimentScore }).toEqual({ sentiment: expected.sentiment, score: expected.score });
    }
    expect(new Set(after.map((r) => r.sentiment))).toEqual(new Set(['positive', 'negative', 'neutral']));
    // Running it again changes nothing (only NULL rows are touched).
    await backfill.up({ name: '20261125000210-backfill-review-sentiment', context: sql } as never);
    expect(await countNull()).toBe(0);
  });
});
