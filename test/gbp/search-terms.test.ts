import { fixedClock } from '../../src/domain/clock';
import { useApp } from '../support/app';
import { countStatements } from '../support/db';
import { makeWorld, tokenFor, without } from '../support/factories';
import { putKeywords, type KeywordRow } from './support';

/** GET /api/v1/gbp/search-terms (and GraphQL gbpSearchTerms). The app's clock stands in 2026, the default year. */
const NOW = new Date('2026-03-15T10:00:00Z');
const ROW_KEYS = ['below_threshold', 'impressions', 'keyword', 'location_id', 'month', 'month_label', 'organization_id', 'year'];

/** Counted and masked keywords of 2026 (January and February) and one of 2025. */
const FIXTURE: KeywordRow[] = [
  { keyword: 'root canal', year: 2026, month: 2, threshold: 15 },
  { keyword: 'dentist', year: 2026, month: 2, impressions: 300 },
  { keyword: 'veneers', year: 2026, month: 2, threshold: 50 },
  { keyword: 'emergency dentist', year: 2026, month: 2, impressions: 120 },
  { keyword: 'teeth whitening', year: 2026, month: 2, impressions: 16 },
  { keyword: 'invisalign', year: 2026, month: 2, threshold: 15 },
  { keyword: 'dental clinic', year: 2026, month: 2, impressions: 120 },
  { keyword: 'braces', year: 2026, month: 1, threshold: 15 },
  { keyword: 'dentist', year: 2026, month: 1, impressions: 280 },
  { keyword: 'dentist', year: 2025, month: 12, impressions: 999 },
];

const summary = (body: { data: Array<{ keyword: string; month: number; impressions: number; below_threshold: boolean }> }) =>
  body.data.map((r) => `${r.keyword}/${r.month}/${r.impressions}${r.below_threshold ? '<' : ''}`);

describe('GET /api/v1/gbp/search-terms', () => {
  const t = useApp({ clock: fixedClock(NOW) });
  const get = (token: string, query: string) => t.as(token).get(`/api/v1/gbp/search-terms?${query}`);

  it('lists the current year by impressions descending, masked rows (below_threshold) last even above a counted value', async () => {
    const w = await makeWorld();
    await putKeywords(w.home, FIXTURE);
    const res = await get(w.tokens.orgOwner, `location_id=${w.home.id}`);
    expect(res.status).toBe(200);
    expect(summary(res.body)).toEqual([
      'dentist/2/300',
      'dentist/1/280',
      'dental clinic/2/120', // ties by keyword
      'emergency dentist/2/120',
      'teeth whitening/2/16',
      'veneers/2/50<', // masked: after every counted row, then by threshold and keyword
      'braces/1/15<',
      'invisalign/2/15<',
      'root canal/2/15<',
    ]);
    expect(res.body.data[0]).toEqual({
      keyword: 'dentist',
      year: 2026,
      month: 2,
      month_label: 'Feb 2026',
      impressions: 300,
      below_threshold: false,
      location_id: w.home.id,
      organization_id: w.org.id,
    });
    expect(res.body.data[5]).toMatchObject({ keyword: 'veneers', impressions: 50, below_threshold: true });
    for (const row of res.body.data) expect(Object.keys(row).sort()).toEqual(ROW_KEYS);
    expect(Object.keys(res.body).sort()).toEqual(['data', 'meta']);
    expect(res.body.meta).toEqual({ current_page: 1, per_page: 50, total: 9, location_id: w.home.id, organization_id: w.org.id, year: 2026, month: null });
  });

  it('filters by year and month', async () => {
    const w = await makeWorld();
    await putKeywords(w.home, FIXTURE);
    const feb = await get(w.tokens.orgOwner, `location_id=${w.home.id}&month=2`);
    expect(summary(feb.body)).toEqual(['dentist/2/300', 'dental clinic/2/120', 'emergency dentist/2/120', 'teeth whitening/2/16', 'veneers/2/50<', 'invisalign/2/15<', 'root canal/2/15<']);
    expect(feb.body.meta).toMatchObject({ year: 2026, month: 2, total: 7 });
    const dec = await get(w.tokens.orgOwner, `location_id=${w.home.id}&year=2025&month=12`);
    expect(dec.body.data).toEqual([expect.objectContaining({ keyword: 'dentist', year: 2025, month: 12, month_label: 'Dec 2025', impressions: 999 })]);
    expect((await get(w.tokens.orgOwner, `location_id=${w.home.id}&year=2024`)).body).toMatchObject({ data: [], meta: { total: 0, year: 2024 } });
  });

  it('pages with per_page (default 50, at most 200) and page', async () => {
    const w = await makeWorld();
    await putKeywords(w.home, FIXTURE);
    const p2 = await get(w.tokens.orgOwner, `location_id=${w.home.id}&per_page=4&page=2`);
    expect(summary(p2.body)).toEqual(['teeth whitening/2/16', 'veneers/2/50<', 'braces/1/15<', 'invisalign/2/15<']);
    expect(p2.body.meta).toMatchObject({ current_page: 2, per_page: 4, total: 9 });
    expect(summary((await get(w.tokens.orgOwner, `location_id=${w.home.id}&per_page=4&page=3`)).body)).toEqual(['root canal/2/15<']);
    expect((await get(w.tokens.orgOwner, `location_id=${w.home.id}&per_page=4&page=4`)).body.data).toEqual([]);

    const many = await makeWorld();
    await putKeywords(
      many.home,
      Array.from({ length: 205 }, (_, i) => ({ keyword: `keyword ${String(i).padStart(3, '0')}`, year: 2026, month: 1, impressions: 1000 - i })),
    );
    const first = await get(many.tokens.orgOwner, `location_id=${many.home.id}`);
    expect(first.body.data).toHaveLength(50);
    expect(first.body.meta).toMatchObject({ per_page: 50, total: 205 });
    const max = await get(many.tokens.orgOwner, `location_id=${many.home.id}&per_page=200&page=2`);
    expect(max.status).toBe(200);
    expect(max.body.data.map((r: { keyword: string }) => r.keyword)).toEqual(['keyword 200', 'keyword 201', 'keyword 202', 'keyword 203', 'keyword 204']);
  });

  it('reads a page in a constant number of SQL statements, however many rows it holds (no N+1)', async () => {
    const w = await makeWorld();
    await putKeywords(w.home, Array.from({ length: 200 }, (_, i) => ({ keyword: `k${i}`, year: 2026, month: 1 + (i % 12), impressions: i })));
    const count = async (perPage: number) => {
      const { n, result: res } = await countStatements(t.db(), async () => get(w.tokens.orgOwner, `location_id=${w.home.id}&per_page=${perPage}`));
      expect(res.body.data).toHaveLength(perPage);
      return n;
    };
    await count(2); // warm-up: token bookkeeping
    const small = await count(5);
    expect(small).toBeGreaterThanOrEqual(3); // the location, the total, the page
    expect(await count(200)).toBe(small);
  });

  it('answers 422 for per_page outside 1-200, month outside 1-12, page below 1 and a missing location_id', async () => {
    const w = await makeWorld();
    const cases: Array<[string, string]> = [
      ['per_page=201', 'per_page'],
      ['per_page=0', 'per_page'],
      ['month=13', 'month'],
      ['month=0', 'month'],
      ['page=0', 'page'],
      ['year=abc', 'year'],
    ];
    for (const [q, field] of cases) {
      const res = await get(w.tokens.orgOwner, `location_id=${w.home.id}&${q}`);
      expect(res.status).toBe(422);
      expect(Object.keys(res.body.errors)).toEqual([field]);
    }
    expect((await get(w.tokens.orgOwner, 'year=2026')).body.errors).toEqual({ location_id: ['The location id field is required.'] });
  });

  it('answers 403 location_access_denied outside the caller\'s scope, and 403 without reviews:read', async () => {
    const w = await makeWorld();
    const other = await makeWorld();
    for (const [token, id] of [
      [w.tokens.orgOwner, other.home.id],
      [w.tokens.member, w.home.id],
      [w.tokens.orgOwner, 2_000_000_000],
    ] as const) {
      const res = await get(token, `location_id=${id}`);
      expect(res.status).toBe(403);
      expect(res.body.code).toBe('location_access_denied');
    }
    const res = await get(await tokenFor(w.orgOwner, without('reviews:read')), `location_id=${w.home.id}`);
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('missing_permission');
  });

  it('is the GraphQL query gbpSearchTerms (the MCP tool list_gbp_search_terms)', async () => {
    const w = await makeWorld();
    await putKeywords(w.home, FIXTURE);
    const res = await t
      .http()
      .post('/graphql')
      .set('Authorization', `Bearer ${w.tokens.orgOwner}`)
      .send({ query: `{ gbpSearchTerms(locationId: ${w.home.id}, month: 1, perPage: 1) { total page perPage year month items { keyword monthLabel impressions belowThreshold } } }` });
    expect(res.body.data.gbpSearchTerms).toEqual({
      total: 2,
      page: 1,
      perPage: 1,
      year: 2026,
      month: 1,
      items: [{ keyword: 'dentist', monthLabel: 'Jan 2026', impressions: 280, belowThreshold: false }],
    });
  });
});
