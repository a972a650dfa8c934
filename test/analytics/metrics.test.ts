import type { Integration } from '../../src/models';
import { useApp } from '../support/app';
import { countStatements } from '../support/db';
import {
  defaultLocationOf,
  makeOrganization,
  makeReview,
  makeWorld,
  syncedSourceOf,
  testimonialsOf,
  tokenFor,
} from '../support/factories';

/**
 * `reviewMetrics` (MCP get_metrics) against a fixture whose every number below was computed by hand.
 *
 * March 2026 (Sunday 1st = ISO week 9, Monday 2nd starts week 10), organisation owner's account:
 *
 * | review | day        | location / source      | stars | replied | sentiment |
 * |--------|------------|------------------------|-------|---------|-----------|
 * | R1     | 03-01 10:00| home / Testimonials    | 5     | yes     | positive  |
 * | R2     | 03-02 09:00| home / Google          | 4     | no      | positive  |
 * | R3     | 03-02 18:00| home / Google          | 1     | yes     | negative  |
 * | R8     | 03-10 08:00| other org / Testimonials| 4    | yes     | positive  |
 * | R4     | 03-15 12:00| branch / Testimonials  | 3     | no      | neutral   |
 * | R5     | 03-31 23:59| branch / Testimonials  | 2     | yes     | negative  |
 * | R6     | 02-28 23:59| home / Testimonials    | 5     | no      | positive  | (previous period only)
 * | R7     | 04-01 00:00| home / Testimonials    | 1     | no      | negative  | (after the period)
 *
 * Totals of March: 6 reviews, ratings 19 -> 3.17, 4 replied -> 66.7%.
 */

const TOTALS = `{ totalReviews avgRating responded responseRate starDistribution { rating count } sentimentDistribution { positive neutral negative } }`;
const QUERY = `query M($organizationId: Int, $locationId: Int, $sourceName: String, $dateFrom: String, $dateTo: String, $groupBy: String,
    $compareToDateFrom: String, $compareToDateTo: String) {
  reviewMetrics(organizationId: $organizationId, locationId: $locationId, sourceName: $sourceName, dateFrom: $dateFrom, dateTo: $dateTo,
      groupBy: $groupBy, compareToDateFrom: $compareToDateFrom, compareToDateTo: $compareToDateTo) {
    period { from to }
    filters { organizationId locationId sourceName }
    groupBy
    totals ${TOTALS}
    breakdown { bucket id from to totalReviews avgRating responded responseRate }
    comparison { period { from to } totals ${TOTALS} }
  }
}`;

const at = (iso: string) => new Date(iso);
const row = (bucket: string, totalReviews: number, avgRating: number | null, responded: number, responseRate: number | null, extra: object = {}) => ({
  bucket,
  id: null,
  from: null,
  to: null,
  totalReviews,
  avgRating,
  responded,
  responseRate,
  ...extra,
});

describe('GraphQL reviewMetrics (MCP get_metrics)', () => {
  const t = useApp();
  const gql = (token: string, variables: Record<string, unknown> = {}) =>
    t.http().post('/graphql').set('Authorization', `Bearer ${token}`).set('Content-Type', 'application/json').send({ query: QUERY, variables });
  const MARCH = { dateFrom: '2026-03-01', dateTo: '2026-03-31' };

  let fx: Awaited<ReturnType<typeof fixture>>;
  async function fixture() {
    const w = await makeWorld();
    const homeTestimonials = await testimonialsOf(w.home);
    const homeGoogle = await syncedSourceOf(w.home, 'google');
    const branchTestimonials = await testimonialsOf(w.branch);
    const org2 = await makeOrganization(w.orgOwner, 'Second Org');
    const org2Location = await defaultLocationOf(org2);
    const org2Testimonials = await testimonialsOf(org2Location);
    const review = (source: Integration, publishedAt: string, rating: number, message: string, reply: string | null) =>
      makeReview(source, { publishedAt: at(publishedAt), rating, originalRating: rating, message, reply, replyDate: reply ? at(publishedAt) : null });
    const r = {
      r1: await review(homeTestimonials, '2026-03-01T10:00:00Z', 5, 'Wonderful staff, great service.', 'Thank you!'),
      r2: await review(homeGoogle, '2026-03-02T09:00:00Z', 4, 'Good visit, friendly team.', null),
      r3: await review(homeGoogle, '2026-03-02T18:00:00Z', 1, 'Terrible wait and rude front desk.', 'Sorry to hear that.'),
      r8: await review(org2Testimonials, '2026-03-10T08:00:00Z', 4, 'Nice.', 'Thanks.'),
      r4: await review(branchTestimonials, '2026-03-15T12:00:00Z', 3, 'We came in for a check-up.', null),
      r5: await review(branchTestimonials, '2026-03-31T23:59:59Z', 2, 'Awful parking, bad experience.', 'We hear you.'),
      r6: await review(homeTestimonials, '2026-02-28T23:59:59Z', 5, 'Great.', null),
      r7: await review(homeTestimonials, '2026-04-01T00:00:00Z', 1, 'Horrible.', null),
    };
    return { ...w, org2, org2Location, homeGoogle, r };
  }
  beforeAll(async () => {
    fx = await fixture();
  });

  const metrics = async (token: string, variables: Record<string, unknown>) => {
    const res = await gql(token, variables);
    expect(res.body.errors).toBeUndefined();
    return res.body.data.reviewMetrics;
  };

  it('answers the totals of the period, the filters, and the previous equal-length period as comparison', async () => {
    const m = await metrics(fx.tokens.orgOwner, MARCH);
    expect(m.period).toEqual({ from: '2026-03-01', to: '2026-03-31' });
    expect(m.filters).toEqual({ organizationId: null, locationId: null, sourceName: null });
    expect(m.groupBy).toBeNull();
    expect(m.breakdown).toEqual([]);
    expect(m.totals).toEqual({
      totalReviews: 6,
      avgRating: 3.17,
      responded: 4,
      responseRate: 66.7,
      starDistribution: [
        { rating: 5, count: 1 },
        { rating: 4, count: 2 },
        { rating: 3, count: 1 },
        { rating: 2, count: 1 },
        { rating: 1, count: 1 },
      ],
      sentimentDistribution: { positive: 3, neutral: 1, negative: 2 },
    });
    // 31 days before March 2026: 29 January to 28 February; only R6.
    expect(m.comparison).toEqual({
      period: { from: '2026-01-29', to: '2026-02-28' },
      totals: {
        totalReviews: 1,
        avgRating: 5,
        responded: 0,
        responseRate: 0,
        starDistribution: [5, 4, 3, 2, 1].map((rating) => ({ rating, count: rating === 5 ? 1 : 0 })),
        sentimentDistribution: { positive: 1, neutral: 0, negative: 0 },
      },
    });
  });

  it('compares with compare_to_date_from..compare_to_date_to when given', async () => {
    const m = await metrics(fx.tokens.orgOwner, { ...MARCH, compareToDateFrom: '2026-04-01', compareToDateTo: '2026-04-30' });
    expect(m.comparison.period).toEqual({ from: '2026-04-01', to: '2026-04-30' });
    expect(m.comparison.totals).toMatchObject({ totalReviews: 1, avgRating: 1, responded: 0, responseRate: 0, sentimentDistribution: { positive: 0, neutral: 0, negative: 1 } });
  });

  it('answers null averages and rates for a period without reviews', async () => {
    const m = await metrics(fx.tokens.orgOwner, { dateFrom: '2025-01-01', dateTo: '2025-01-31' });
    expect(m.totals).toMatchObject({ totalReviews: 0, avgRating: null, responded: 0, responseRate: null, sentimentDistribution: { positive: 0, neutral: 0, negative: 0 } });
  });

  it('group_by day: every day of the period in order, empty days included', async () => {
    const m = await metrics(fx.tokens.orgOwner, { ...MARCH, groupBy: 'day' });
    expect(m.breakdown).toHaveLength(31);
    expect(m.breakdown[0]).toEqual(row('2026-03-01', 1, 5, 1, 100, { from: '2026-03-01', to: '2026-03-01' }));
    expect(m.breakdown[1]).toEqual(row('2026-03-02', 2, 2.5, 1, 50, { from: '2026-03-02', to: '2026-03-02' }));
    expect(m.breakdown[2]).toEqual(row('2026-03-03', 0, null, 0, null, { from: '2026-03-03', to: '2026-03-03' }));
    expect(m.breakdown[9]).toEqual(row('2026-03-10', 1, 4, 1, 100, { from: '2026-03-10', to: '2026-03-10' }));
    expect(m.breakdown[14]).toEqual(row('2026-03-15', 1, 3, 0, 0, { from: '2026-03-15', to: '2026-03-15' }));
    expect(m.breakdown[30]).toEqual(row('2026-03-31', 1, 2, 1, 100, { from: '2026-03-31', to: '2026-03-31' }));
    const nonEmpty = m.breakdown.filter((b: { totalReviews: number }) => b.totalReviews > 0).map((b: { bucket: string }) => b.bucket);
    expect(nonEmpty).toEqual(['2026-03-01', '2026-03-02', '2026-03-10', '2026-03-15', '2026-03-31']);
  });

  it('group_by week: ISO weeks (Monday first) labelled YYYY-Www, clipped to the period', async () => {
    const m = await metrics(fx.tokens.orgOwner, { ...MARCH, groupBy: 'week' });
    expect(m.breakdown).toEqual([
      row('2026-W09', 1, 5, 1, 100, { from: '2026-03-01', to: '2026-03-01' }),
      row('2026-W10', 2, 2.5, 1, 50, { from: '2026-03-02', to: '2026-03-08' }),
      row('2026-W11', 2, 3.5, 1, 50, { from: '2026-03-09', to: '2026-03-15' }),
      row('2026-W12', 0, null, 0, null, { from: '2026-03-16', to: '2026-03-22' }),
      row('2026-W13', 0, null, 0, null, { from: '2026-03-23', to: '2026-03-29' }),
      row('2026-W14', 1, 2, 1, 100, { from: '2026-03-30', to: '2026-03-31' }),
    ]);
  });

  it('group_by month: YYYY-MM', async () => {
    const m = await metrics(fx.tokens.orgOwner, { dateFrom: '2026-02-01', dateTo: '2026-04-30', groupBy: 'month' });
    expect(m.breakdown).toEqual([
      row('2026-02', 1, 5, 0, 0, { from: '2026-02-01', to: '2026-02-28' }),
      row('2026-03', 6, 3.17, 4, 66.7, { from: '2026-03-01', to: '2026-03-31' }),
      row('2026-04', 1, 1, 0, 0, { from: '2026-04-01', to: '2026-04-30' }),
    ]);
    expect(m.totals.totalReviews).toBe(8);
  });

  it('group_by location: by name with the id, most reviewed first', async () => {
    const m = await metrics(fx.tokens.orgOwner, { ...MARCH, groupBy: 'location' });
    expect(m.breakdown).toEqual([
      row(fx.home.name, 3, 3.33, 2, 66.7, { id: fx.home.id }),
      row(fx.branch.name, 2, 2.5, 1, 50, { id: fx.branch.id }),
      row(fx.org2Location.name, 1, 4, 1, 100, { id: fx.org2Location.id }),
    ]);
  });

  it('group_by organization', async () => {
    const m = await metrics(fx.tokens.orgOwner, { ...MARCH, groupBy: 'organization' });
    expect(m.breakdown).toEqual([row(fx.org.name, 5, 3, 3, 60, { id: fx.org.id }), row('Second Org', 1, 4, 1, 100, { id: fx.org2.id })]);
  });

  it('group_by source: by source name across locations', async () => {
    const m = await metrics(fx.tokens.orgOwner, { ...MARCH, groupBy: 'source' });
    expect(m.breakdown).toEqual([row('Testimonials', 4, 3.5, 3, 75), row(fx.homeGoogle.name, 2, 2.5, 1, 50)]);
  });

  it('group_by rating: always five buckets, 5 to 1', async () => {
    const m = await metrics(fx.tokens.orgOwner, { ...MARCH, groupBy: 'rating' });
    expect(m.breakdown).toEqual([row('5', 1, 5, 1, 100), row('4', 2, 4, 1, 50), row('3', 1, 3, 0, 0), row('2', 1, 2, 1, 100), row('1', 1, 1, 1, 100)]);
  });

  it('group_by sentiment: positive, neutral, negative', async () => {
    const m = await metrics(fx.tokens.orgOwner, { ...MARCH, groupBy: 'sentiment' });
    expect(m.breakdown).toEqual([row('positive', 3, 4.33, 2, 66.7), row('neutral', 1, 3, 0, 0), row('negative', 2, 1.5, 2, 100)]);
  });

  it('filters by organization, location and source name', async () => {
    const byOrg = await metrics(fx.tokens.orgOwner, { ...MARCH, organizationId: fx.org.id });
    expect(byOrg.filters).toEqual({ organizationId: fx.org.id, locationId: null, sourceName: null });
    expect(byOrg.totals).toMatchObject({ totalReviews: 5, avgRating: 3, responded: 3, responseRate: 60 });
    const byLocation = await metrics(fx.tokens.orgOwner, { ...MARCH, organizationId: fx.org.id, locationId: fx.home.id });
    expect(byLocation.totals).toMatchObject({ totalReviews: 3, avgRating: 3.33, responded: 2, responseRate: 66.7 });
    const bySource = await metrics(fx.tokens.orgOwner, { ...MARCH, sourceName: fx.homeGoogle.name, groupBy: 'day' });
    expect(bySource.filters.sourceName).toBe(fx.homeGoogle.name);
    expect(bySource.totals).toMatchObject({ totalReviews: 2, avgRating: 2.5, sentimentDistribution: { positive: 1, neutral: 0, negative: 1 } });
    expect(bySource.breakdown.filter((b: { totalReviews: number }) => b.totalReviews > 0).map((b: { bucket: string }) => b.bucket)).toEqual(['2026-03-02']);
  });

  it('scopes like the reviews: a team member sees only the assigned locations; the tenant owner the whole tenant', async () => {
    const member = await metrics(fx.tokens.member, { ...MARCH, groupBy: 'location' });
    expect(member.totals).toMatchObject({ totalReviews: 2, avgRating: 2.5 });
    expect(member.breakdown.map((b: { id: number }) => b.id)).toEqual([fx.branch.id]);
    const owner = await metrics(fx.tokens.owner, MARCH);
    expect(owner.totals.totalReviews).toBe(6);
    const stranger = await makeWorld();
    expect((await metrics(stranger.tokens.orgOwner, MARCH)).totals.totalReviews).toBe(0);
  });

  it('refuses an organisation or location outside the scope with FORBIDDEN access denied', async () => {
    const expectDenied = async (token: string, variables: Record<string, unknown>, reason: string) => {
      const res = await gql(token, { ...MARCH, ...variables });
      expect(res.body.data).toBeNull();
      expect(res.body.errors[0].extensions).toMatchObject({ code: 'FORBIDDEN', reason });
    };
    await expectDenied(fx.tokens.member, { locationId: fx.home.id }, 'location_access_denied');
    await expectDenied(fx.tokens.member, { organizationId: fx.org2.id }, 'organization_access_denied');
    const stranger = await makeWorld();
    await expectDenied(stranger.tokens.orgOwner, { organizationId: fx.org.id }, 'organization_access_denied');
    await expectDenied(stranger.tokens.orgOwner, { locationId: fx.home.id }, 'location_access_denied');
    await expectDenied(stranger.tokens.orgOwner, { locationId: 999_999_999 }, 'location_access_denied');
  });

  it('needs reviews:read', async () => {
    const token = await tokenFor(fx.orgOwner, ['organizations:read']);
    const res = await gql(token, MARCH);
    expect(res.body.errors[0].extensions).toMatchObject({ code: 'FORBIDDEN', reason: 'missing_permission' });
  });

  it('answers VALIDATION with field errors for bad input, and invalid_date_range over 540 days', async () => {
    const fields = async (variables: Record<string, unknown>) => {
      const res = await gql(fx.tokens.orgOwner, variables);
      expect(res.body.errors[0].extensions.code).toBe('VALIDATION');
      return res.body.errors[0].extensions;
    };
    expect((await fields({ groupBy: 'year' })).fields).toHaveProperty('group_by');
    expect((await fields({ dateFrom: '2026-3-1' })).fields).toHaveProperty('date_from');
    expect((await fields({ dateFrom: '2026-02-30' })).fields).toHaveProperty('date_from');
    expect((await fields({ dateFrom: '2026-03-02', dateTo: '2026-03-01' })).fields).toHaveProperty('date_to');
    expect((await fields({ ...MARCH, compareToDateFrom: '2026-01-01' })).fields).toHaveProperty('compare_to_date_to');
    expect((await fields({ ...MARCH, organizationId: fx.org2.id, locationId: fx.home.id })).fields).toHaveProperty('location_id');
    const tooLong = await fields({ dateFrom: '2025-01-01', dateTo: '2026-06-25' });
    expect(tooLong.reason).toBe('invalid_date_range');
    const compareTooLong = await fields({ ...MARCH, compareToDateFrom: '2024-01-01', compareToDateTo: '2026-01-01' });
    expect(compareTooLong).toMatchObject({ reason: 'invalid_date_range', fields: { compare_to_date_to: [expect.any(String)] } });
    const longest = await gql(fx.tokens.orgOwner, { dateFrom: '2025-01-01', dateTo: '2026-06-24' });
    expect(longest.body.errors).toBeUndefined();
  });

  it('aggregates in SQL: the number of statements does not grow with the number of reviews', async () => {
    const w = await makeWorld();
    const source = await testimonialsOf(w.branch);
    const count = async () => (await countStatements(t.db(), () => metrics(w.tokens.orgOwner, { ...MARCH, organizationId: w.org.id, groupBy: 'location' }))).n;
    await makeReview(source, { publishedAt: at('2026-03-20T12:00:00Z'), message: 'Fine.' });
    await count(); // warm-up: token bookkeeping
    const before = await count();
    for (let i = 0; i < 30; i++) await makeReview(source, { publishedAt: at('2026-03-20T12:00:00Z'), message: 'Fine.' });
    const after = await count();
    expect(after).toBe(before);
    expect((await metrics(w.tokens.orgOwner, { ...MARCH, organizationId: w.org.id })).totals.totalReviews).toBe(31);
  });
});
