import { fixedClock } from '../../src/domain/clock';
import { useApp } from '../support/app';
import { makeWorld, tokenFor, without } from '../support/factories';
import { putMetrics, type MetricRow } from './support';

/**
 * GET /api/v1/gbp/metrics (and GraphQL gbpMetrics). The app's clock stands at 2026-03-15 10:00 UTC, so the default
 * window is 2026-02-13 .. 2026-03-14 (30 days) and its previous period 2026-01-14 .. 2026-02-12.
 */
const NOW = new Date('2026-03-15T10:00:00Z');

const TOTAL_KEYS = [
  'call_clicks',
  'direction_requests',
  'impressions_desktop',
  'impressions_maps',
  'impressions_mobile',
  'impressions_search',
  'impressions_total',
  'website_clicks',
];
const ZERO = Object.fromEntries(TOTAL_KEYS.map((k) => [k, 0]));

/** All seven stored metrics of one day, in the order desktop maps, desktop search, mobile maps, mobile search, calls, website, directions. */
function day(date: string, v: [number, number, number, number, number, number, number]): MetricRow[] {
  const names = [
    'BUSINESS_IMPRESSIONS_DESKTOP_MAPS',
    'BUSINESS_IMPRESSIONS_DESKTOP_SEARCH',
    'BUSINESS_IMPRESSIONS_MOBILE_MAPS',
    'BUSINESS_IMPRESSIONS_MOBILE_SEARCH',
    'CALL_CLICKS',
    'WEBSITE_CLICKS',
    'BUSINESS_DIRECTION_REQUESTS',
  ];
  return names.map((m, i) => [date, m, v[i]] as MetricRow);
}

describe('GET /api/v1/gbp/metrics', () => {
  const t = useApp({ clock: fixedClock(NOW) });
  const get = (token: string, query: string) => t.as(token).get(`/api/v1/gbp/metrics?${query}`);

  it('answers the totals of the period and of the equal-length period before it (March 2024 <- 30 January to the leap day)', async () => {
    const w = await makeWorld();
    await putMetrics(w.home, [
      ...day('2024-03-01', [1, 2, 4, 8, 1, 2, 3]),
      ...day('2024-03-31', [10, 0, 0, 20, 5, 0, 0]),
      ...day('2024-02-29', [0, 0, 7, 0, 0, 9, 0]),
      ...day('2024-01-30', [0, 3, 0, 0, 0, 0, 1]),
      // Outside both windows: the day before the previous period and the day after the period.
      ...day('2024-01-29', [0, 0, 0, 1000, 0, 0, 0]),
      ...day('2024-04-01', [0, 0, 0, 0, 1000, 0, 0]),
    ]);
    const res = await get(w.tokens.orgOwner, `location_id=${w.home.id}&from=2024-03-01&to=2024-03-31`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      data: {
        location_id: w.home.id,
        organization_id: w.org.id,
        period: { from: '2024-03-01', to: '2024-03-31' },
        // desktop maps 11, desktop search 2, mobile maps 4, mobile search 28.
        totals: {
          impressions_total: 45,
          impressions_search: 30,
          impressions_maps: 15,
          impressions_desktop: 13,
          impressions_mobile: 32,
          call_clicks: 6,
          website_clicks: 2,
          direction_requests: 3,
        },
        previous_period: {
          from: '2024-01-30',
          to: '2024-02-29',
          // desktop search 3 (30 Jan), mobile maps 7 (29 Feb).
          totals: {
            impressions_total: 10,
            impressions_search: 3,
            impressions_maps: 7,
            impressions_desktop: 3,
            impressions_mobile: 7,
            call_clicks: 0,
            website_clicks: 9,
            direction_requests: 1,
          },
        },
      },
    });
  });

  it('counts a non-leap February: March 2023 <- 29 January to 28 February 2023', async () => {
    const w = await makeWorld();
    await putMetrics(w.home, [...day('2023-01-28', [0, 0, 0, 0, 500, 0, 0]), ...day('2023-01-29', [0, 0, 0, 0, 2, 0, 0]), ...day('2023-02-28', [0, 0, 0, 0, 3, 0, 0]), ...day('2023-03-01', [0, 0, 0, 0, 7, 0, 0])]);
    const res = await get(w.tokens.orgOwner, `location_id=${w.home.id}&from=2023-03-01&to=2023-03-31`);
    expect(res.status).toBe(200);
    expect(res.body.data.previous_period).toEqual({ from: '2023-01-29', to: '2023-02-28', totals: { ...ZERO, call_clicks: 5 } });
    expect(res.body.data.totals).toEqual({ ...ZERO, call_clicks: 7 });
  });

  it('defaults to from 30 days ago and to yesterday; either bound may be given alone', async () => {
    const w = await makeWorld();
    await putMetrics(w.home, [...day('2026-02-13', [0, 0, 0, 0, 1, 0, 0]), ...day('2026-03-14', [0, 0, 0, 0, 2, 0, 0]), ...day('2026-03-15', [0, 0, 0, 0, 100, 0, 0]), ...day('2026-02-12', [0, 0, 0, 0, 4, 0, 0])]);
    const res = await get(w.tokens.orgOwner, `location_id=${w.home.id}`);
    expect(res.status).toBe(200);
    expect(res.body.data.period).toEqual({ from: '2026-02-13', to: '2026-03-14' });
    expect(res.body.data.totals.call_clicks).toBe(3); // today (the 15th) is not in the default window
    expect(res.body.data.previous_period).toMatchObject({ from: '2026-01-14', to: '2026-02-12' });
    expect(res.body.data.previous_period.totals.call_clicks).toBe(4);

    const fromOnly = await get(w.tokens.orgOwner, `location_id=${w.home.id}&from=2026-03-01`);
    expect(fromOnly.body.data.period).toEqual({ from: '2026-03-01', to: '2026-03-14' });
    expect(fromOnly.body.data.previous_period).toMatchObject({ from: '2026-02-15', to: '2026-02-28' });
    const toOnly = await get(w.tokens.orgOwner, `location_id=${w.home.id}&to=2026-03-15`);
    expect(toOnly.body.data.period).toEqual({ from: '2026-02-13', to: '2026-03-15' });
    expect(toOnly.body.data.totals.call_clicks).toBe(103);
  });

  it('accepts 540 days (both ends included) and refuses 541 with 422 invalid_date_range', async () => {
    const w = await makeWorld();
    const ok = await get(w.tokens.orgOwner, `location_id=${w.home.id}&from=2024-01-01&to=2025-06-23`);
    expect(ok.status).toBe(200);
    expect(ok.body.data.period).toEqual({ from: '2024-01-01', to: '2025-06-23' });
    expect(ok.body.data.previous_period).toMatchObject({ from: '2022-07-10', to: '2023-12-31' });

    const over = await get(w.tokens.orgOwner, `location_id=${w.home.id}&from=2024-01-01&to=2025-06-24`);
    expect(over.status).toBe(422);
    expect(over.body).toMatchObject({ code: 'invalid_date_range', message: expect.stringContaining('540'), errors: { to: [expect.stringContaining('541')] } });
  });

  it('refuses from after to with 422 invalid_date_range, and malformed dates with 422 naming the field', async () => {
    const w = await makeWorld();
    const reversed = await get(w.tokens.orgOwner, `location_id=${w.home.id}&from=2026-03-02&to=2026-03-01`);
    expect(reversed.status).toBe(422);
    expect(reversed.body).toMatchObject({ code: 'invalid_date_range', errors: { from: [expect.any(String)] } });
    // Only `to` given, before the default from (30 days ago): the same rule.
    expect((await get(w.tokens.orgOwner, `location_id=${w.home.id}&to=2025-01-01`)).body.code).toBe('invalid_date_range');

    const bad = await get(w.tokens.orgOwner, `location_id=${w.home.id}&from=2026-02-30&to=26-03-01`);
    expect(bad.status).toBe(422);
    expect(bad.body.errors).toEqual({ from: ['The from does not match the format Y-m-d.'], to: ['The to does not match the format Y-m-d.'] });

    const noLocation = await get(w.tokens.orgOwner, 'from=2026-03-01');
    expect(noLocation.status).toBe(422);
    expect(noLocation.body.errors.location_id).toEqual(['The location id field is required.']);
    expect((await get(w.tokens.orgOwner, 'location_id=abc')).body.errors.location_id).toEqual(['The location id must be an integer.']);
    expect((await get(w.tokens.orgOwner, `location_id=${w.home.id}&include_daily=maybe`)).status).toBe(422);
  });

  it('answers 403 location_access_denied for a location outside the caller\'s scope (another account, unassigned, unknown)', async () => {
    const w = await makeWorld();
    const other = await makeWorld();
    for (const [token, id] of [
      [w.tokens.orgOwner, other.home.id],
      [w.tokens.owner, other.home.id], // another tenant
      [w.tokens.member, w.home.id], // the member is assigned the branch only
      [w.tokens.orgOwner, 2_000_000_000],
    ] as const) {
      const res = await get(token, `location_id=${id}`);
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ message: expect.any(String), code: 'location_access_denied' });
    }
    expect((await get(w.tokens.member, `location_id=${w.branch.id}`)).status).toBe(200);
    expect((await get(w.tokens.owner, `location_id=${w.home.id}`)).status).toBe(200); // the tenant owner sees every account

    const noRead = await tokenFor(w.orgOwner, without('reviews:read'));
    const res = await get(noRead, `location_id=${w.home.id}`);
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('missing_permission');
  });

  it('adds one row per day of the period with include_daily (zeros on days without data), and no rows without it', async () => {
    const w = await makeWorld();
    await putMetrics(w.home, [...day('2024-02-28', [1, 2, 3, 4, 5, 6, 7]), ...day('2024-03-01', [0, 0, 0, 10, 0, 0, 1])]);
    const res = await get(w.tokens.orgOwner, `location_id=${w.home.id}&from=2024-02-27&to=2024-03-01&include_daily=true`);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body.data).sort()).toEqual(['daily', 'location_id', 'organization_id', 'period', 'previous_period', 'totals']);
    expect(res.body.data.daily).toEqual([
      { date: '2024-02-27', ...ZERO },
      {
        date: '2024-02-28',
        impressions_total: 10,
        impressions_search: 6,
        impressions_maps: 4,
        impressions_desktop: 3,
        impressions_mobile: 7,
        call_clicks: 5,
        website_clicks: 6,
        direction_requests: 7,
      },
      { date: '2024-02-29', ...ZERO },
      { date: '2024-03-01', ...ZERO, impressions_total: 10, impressions_search: 10, impressions_mobile: 10, direction_requests: 1 },
    ]);
    const sum = (k: string) => res.body.data.daily.reduce((s: number, r: Record<string, number>) => s + r[k], 0);
    for (const k of TOTAL_KEYS) expect(sum(k)).toBe(res.body.data.totals[k]);

    for (const q of ['', '&include_daily=false', '&include_daily=0']) {
      const plain = await get(w.tokens.orgOwner, `location_id=${w.home.id}&from=2024-02-27&to=2024-03-01${q}`);
      expect(Object.keys(plain.body.data).sort()).toEqual(['location_id', 'organization_id', 'period', 'previous_period', 'totals']);
    }
  });

  it('never returns profile views or photo views, even when older data holds them', async () => {
    const w = await makeWorld();
    await putMetrics(w.home, [
      ...day('2024-03-05', [1, 1, 1, 1, 1, 1, 1]),
      ['2024-03-05', 'VIEWS_MAPS', 500],
      ['2024-03-05', 'VIEWS_SEARCH', 600],
      ['2024-03-05', 'PHOTOS_VIEWS_MERCHANT', 700],
      ['2024-03-05', 'PHOTOS_VIEWS_CUSTOMERS', 800],
      ['2024-03-05', 'PROFILE_VIEWS', 900],
    ]);
    const res = await get(w.tokens.orgOwner, `location_id=${w.home.id}&from=2024-03-01&to=2024-03-31&include_daily=true`);
    expect(res.status).toBe(200);
    expect(res.body.data.totals).toEqual({
      impressions_total: 4,
      impressions_search: 2,
      impressions_maps: 2,
      impressions_desktop: 2,
      impressions_mobile: 2,
      call_clicks: 1,
      website_clicks: 1,
      direction_requests: 1,
    });
    for (const row of res.body.data.daily) expect(Object.keys(row).sort()).toEqual([...TOTAL_KEYS, 'date'].sort());
    expect(JSON.stringify(res.body)).not.toMatch(/view|photo/i);
  });

  describe('GraphQL gbpMetrics (the MCP tool list_gbp_metrics)', () => {
    const gql = (token: string, query: string, variables: Record<string, unknown> = {}) =>
      t.http().post('/graphql').set('Authorization', `Bearer ${token}`).set('Content-Type', 'application/json').send({ query, variables });

    it('takes location_id, from, to and include_daily, with the same defaults and rules', async () => {
      const w = await makeWorld();
      await putMetrics(w.home, day('2026-03-10', [0, 0, 0, 3, 0, 0, 0]));
      const q = 'query ($l: Int!, $f: String, $t: String, $d: Boolean) { gbpMetrics(locationId: $l, from: $f, to: $t, includeDaily: $d) { period { from to } totals { impressionsTotal } previousPeriod { from to } daily { date } } }';
      const res = await gql(w.tokens.orgOwner, q, { l: w.home.id });
      expect(res.body.data.gbpMetrics).toEqual({ period: { from: '2026-02-13', to: '2026-03-14' }, totals: { impressionsTotal: 3 }, previousPeriod: { from: '2026-01-14', to: '2026-02-12' }, daily: null });
      const daily = await gql(w.tokens.orgOwner, q, { l: w.home.id, f: '2026-03-09', t: '2026-03-10', d: true });
      expect(daily.body.data.gbpMetrics.daily).toEqual([{ date: '2026-03-09' }, { date: '2026-03-10' }]);

      const over = await gql(w.tokens.orgOwner, q, { l: w.home.id, f: '2024-01-01', t: '2025-06-24' });
      expect(over.body.errors[0].extensions).toMatchObject({ code: 'VALIDATION', reason: 'invalid_date_range' });
      const denied = await gql(w.tokens.member, q, { l: w.home.id });
      expect(denied.body.errors[0].extensions).toMatchObject({ code: 'FORBIDDEN', reason: 'location_access_denied' });
      const noRead = await gql(await tokenFor(w.orgOwner, without('reviews:read')), q, { l: w.home.id });
      expect(noRead.body.errors[0].extensions).toMatchObject({ code: 'FORBIDDEN', reason: 'missing_permission' });
    });
  });
});
