import express, { type Request, type Response, type Router } from 'express';
import { dayAt, dayOf, isoOf, monthIndex, monthOf, type YearMonth } from '../../gbp/dates';
import { LEGACY_VIEW_METRICS } from '../../gbp/metrics';
import { simulatedDailyValue, simulatedMonthKeywords, SIMULATED_KEYWORD_THRESHOLD } from './performance.sim-data';
import { decodeOffset, encodeOffset } from '../sim-data';

/**
 * Google Business Profile Performance API simulator, in its wire format (see src/providers/google/performance.client.ts):
 * `GET /v1/locations/{id}:fetchMultiDailyMetricsTimeSeries` and `GET /v1/locations/{id}/searchkeywords/impressions/monthly`.
 *
 * - Any non-empty bearer token is accepted; tests can refuse one (`revokeToken`) or fail the next calls (`failNext`).
 * - With `seed` (the embedded default) every location has deterministic counts (src/providers/google/performance.sim-data.ts) for every day
 *   before today and keywords for every month before the current one. Tests start empty (`seed: false`) and set
 *   exact values (`setDaily`, `setKeywords`).
 * - With `legacyMetrics` (default on) every daily answer also carries profile-view and photo-view series
 *   (VIEWS_*, PHOTOS_VIEWS_*), as older data does, so the sync is shown to drop them.
 */
export interface GbpPerformanceSimulatorOptions {
  seed?: boolean;
  legacyMetrics?: boolean;
  now?: () => Date;
  /** Largest keyword page (Google's is 100; tests lower it to exercise paging). */
  maxPageSize?: number;
}

/** Google's DailyMetric enum (the request must name metrics from it). */
export const GOOGLE_DAILY_METRICS = [
  'BUSINESS_IMPRESSIONS_DESKTOP_MAPS',
  'BUSINESS_IMPRESSIONS_DESKTOP_SEARCH',
  'BUSINESS_IMPRESSIONS_MOBILE_MAPS',
  'BUSINESS_IMPRESSIONS_MOBILE_SEARCH',
  'BUSINESS_CONVERSATIONS',
  'BUSINESS_DIRECTION_REQUESTS',
  'CALL_CLICKS',
  'WEBSITE_CLICKS',
  'BUSINESS_BOOKINGS',
  'BUSINESS_FOOD_ORDERS',
  'BUSINESS_FOOD_MENU_CLICKS',
];

interface KeywordRow {
  keyword: string;
  value?: number;
  threshold?: number;
}

const googleError = (res: Response, code: number, status: string, message: string) => res.status(code).json({ error: { code, message, status } });
const invalid = (res: Response, message: string) => googleError(res, 400, 'INVALID_ARGUMENT', `Request contains an invalid argument: ${message}`);

/** `prefix.year|month|day` (snake or camel case, as gRPC transcoding accepts both) as a date, or null. */
function queryDate(q: Request['query'], prefixes: string[], withDay: boolean): { year: number; month: number; day: number } | null {
  const get = (part: string) => {
    for (const p of prefixes) {
      const v = q[`${p}.${part}`];
      if (typeof v === 'string' && /^\d+$/.test(v)) return Number(v);
    }
    return null;
  };
  const year = get('year');
  const month = get('month');
  const day = withDay ? get('day') : 1;
  if (!year || !month || month > 12 || !day) return null;
  return { year, month, day };
}

const iso = (d: { year: number; month: number; day: number }) =>
  `${String(d.year).padStart(4, '0')}-${String(d.month).padStart(2, '0')}-${String(d.day).padStart(2, '0')}`;

export class GbpPerformanceSimulator {
  readonly router: Router;
  /** Every request answered (method, path, query string), for tests that check what was called. */
  readonly requests: Array<{ method: string; path: string; query: string; authorization: string | undefined }> = [];
  private readonly seed: boolean;
  private readonly legacy: boolean;
  private readonly now: () => Date;
  private readonly maxPageSize: number;
  private readonly daily = new Map<string, Map<string, Map<string, number>>>(); // location -> metric -> date -> value
  private readonly keywords = new Map<string, Map<number, KeywordRow[]>>(); // location -> month index -> rows
  private readonly revoked = new Set<string>();
  private failures: Array<{ status: number; retryAfter?: string }> = [];

  constructor(opts: GbpPerformanceSimulatorOptions = {}) {
    this.seed = opts.seed ?? true;
    this.legacy = opts.legacyMetrics ?? true;
    this.now = opts.now ?? (() => new Date());
    this.maxPageSize = opts.maxPageSize ?? 100;
    this.router = this.buildRouter();
  }

  // ---- test controls -------------------------------------------------------------------------------

  /** Sets one day's count of a metric (`location` as `locations/{id}`); null removes it (a zero day). */
  setDaily(location: string, metric: string, date: string, value: number | null): void {
    const byMetric = this.daily.get(location) ?? new Map<string, Map<string, number>>();
    this.daily.set(location, byMetric);
    const byDate = byMetric.get(metric) ?? new Map<string, number>();
    byMetric.set(metric, byDate);
    if (value === null) byDate.delete(date);
    else byDate.set(date, value);
  }

  /** Replaces a month's keywords: each with `value`, or with `threshold` for a masked count. */
  setKeywords(location: string, month: YearMonth, rows: KeywordRow[]): void {
    const byMonth = this.keywords.get(location) ?? new Map<number, KeywordRow[]>();
    this.keywords.set(location, byMonth);
    byMonth.set(monthIndex(month), rows.map((r) => ({ ...r })));
  }

  failNext(...failures: Array<{ status: number; retryAfter?: string }>): void {
    this.failures.push(...failures);
  }

  revokeToken(token: string): void {
    this.revoked.add(token);
  }

  // ---- data ------------------------------------------------------------------------------------------

  /** A day's count, or null for "no value" (zero, or not known yet). */
  private dailyValue(location: string, metric: string, date: string): number | null {
    const explicit = this.daily.get(location)?.get(metric)?.get(date);
    if (explicit !== undefined) return explicit;
    if (!this.seed || (dayOf(date) ?? 0) >= dayAt(this.now())) return null;
    return simulatedDailyValue(location, metric, date) || null;
  }

  private monthRows(location: string, index: number): KeywordRow[] {
    const explicit = this.keywords.get(location)?.get(index);
    if (explicit) return explicit;
    const current = monthIndex({ year: this.now().getUTCFullYear(), month: this.now().getUTCMonth() + 1 });
    if (!this.seed || index >= current) return [];
    const { year, month } = monthOf(index);
    return simulatedMonthKeywords(location, year, month).map((k) => (k.value === null ? { keyword: k.keyword, threshold: k.threshold! } : { keyword: k.keyword, value: k.value }));
  }

  /** Keyword counts summed over the months of a range; a sum of masked counts stays masked. */
  private rangeKeywords(location: string, from: number, to: number): KeywordRow[] {
    const sums = new Map<string, { value: number; masked: boolean; threshold: number }>();
    for (let i = from; i <= to; i++) {
      for (const row of this.monthRows(location, i)) {
        const s = sums.get(row.keyword) ?? { value: 0, masked: false, threshold: 0 };
        if (row.value !== undefined) s.value += row.value;
        else {
          s.masked = true;
          s.threshold = Math.max(s.threshold, row.threshold ?? SIMULATED_KEYWORD_THRESHOLD);
        }
        sums.set(row.keyword, s);
      }
    }
    // Alphabetical: the API promises no order, so clients must sort themselves.
    return [...sums.entries()]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([keyword, s]) => (s.masked && s.value < s.threshold ? { keyword, threshold: s.threshold } : { keyword, value: s.value }));
  }

  // ---- the wire ------------------------------------------------------------------------------------

  private buildRouter(): Router {
    const router = express.Router();
    router.use((req: Request, res: Response, next) => {
      const q = req.originalUrl.includes('?') ? req.originalUrl.slice(req.originalUrl.indexOf('?') + 1) : '';
      this.requests.push({ method: req.method, path: req.path, query: q, authorization: req.headers.authorization });
      const failure = this.failures.shift();
      if (failure) {
        if (failure.retryAfter) res.setHeader('Retry-After', failure.retryAfter);
        googleError(res, failure.status, failure.status === 429 ? 'RESOURCE_EXHAUSTED' : 'UNAVAILABLE', failure.status === 429 ? 'Quota exceeded.' : 'The service is currently unavailable.');
        return;
      }
      const m = /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? '');
      if (!m || this.revoked.has(m[1])) {
        googleError(res, 401, 'UNAUTHENTICATED', 'Request had invalid authentication credentials. Expected OAuth 2 access token.');
        return;
      }
      next();
    });

    // `locations/{id}:fetchMultiDailyMetricsTimeSeries`: the custom verb follows the id after a colon.
    router.get('/v1/locations/:name', (req, res) => {
      const [id, verb] = String(req.params.name).split(':');
      if (verb !== 'fetchMultiDailyMetricsTimeSeries' || !id) return void googleError(res, 404, 'NOT_FOUND', 'The requested URL was not found on this server.');
      const raw = req.query.dailyMetrics;
      const metrics = (Array.isArray(raw) ? raw : raw === undefined ? [] : [raw]).map(String);
      if (!metrics.length) return void invalid(res, "'daily_metrics' is required.");
      const unknown = metrics.find((m) => !GOOGLE_DAILY_METRICS.includes(m));
      if (unknown) return void invalid(res, `Invalid value at 'daily_metrics' (${unknown}).`);
      const start = queryDate(req.query, ['dailyRange.start_date', 'dailyRange.startDate', 'daily_range.start_date'], true);
      const end = queryDate(req.query, ['dailyRange.end_date', 'dailyRange.endDate', 'daily_range.end_date'], true);
      const startDay = start && dayOf(iso(start));
      const endDay = end && dayOf(iso(end));
      if (startDay == null || endDay == null) return void invalid(res, "'daily_range' needs a valid start_date and end_date.");
      if (startDay > endDay) return void invalid(res, 'the start date of daily_range is after its end date.');
      const location = `locations/${id}`;
      const series = (names: string[]) =>
        names.map((metric) => {
          const datedValues = [];
          for (let d = startDay; d <= endDay; d++) {
            const date = isoOf(d);
            const [y, mo, da] = date.split('-').map(Number);
            const value = this.dailyValue(location, metric, date);
            datedValues.push({ date: { year: y, month: mo, day: da }, ...(value ? { value: String(value) } : {}) });
          }
          return { dailyMetric: metric, timeSeries: { datedValues } };
        });
      const all = [...series(metrics), ...(this.legacy ? series([...LEGACY_VIEW_METRICS]) : [])];
      res.json({ multiDailyMetricTimeSeries: [{ dailyMetricTimeSeries: all }] });
    });

    router.get('/v1/locations/:id/searchkeywords/impressions/monthly', (req, res) => {
      const start = queryDate(req.query, ['monthlyRange.start_month', 'monthlyRange.startMonth', 'monthly_range.start_month'], false);
      const end = queryDate(req.query, ['monthlyRange.end_month', 'monthlyRange.endMonth', 'monthly_range.end_month'], false);
      if (!start || !end) return void invalid(res, "'monthly_range' needs a start_month and an end_month.");
      const from = monthIndex(start);
      const to = monthIndex(end);
      if (from > to) return void invalid(res, 'the start month of monthly_range is after its end month.');
      const size = req.query.pageSize === undefined ? 100 : Number(req.query.pageSize);
      const offset = decodeOffset(req.query.pageToken);
      if (!Number.isInteger(size) || size < 1 || size > 100 || offset === null) return void invalid(res, 'page_size or page_token.');
      const rows = this.rangeKeywords(`locations/${req.params.id}`, from, to);
      const take = Math.min(size, this.maxPageSize);
      const items = rows.slice(offset, offset + take);
      res.json({
        searchKeywordsCounts: items.map((r) => ({
          searchKeyword: r.keyword,
          insightsValue: r.value !== undefined ? { value: String(r.value) } : { threshold: String(r.threshold) },
        })),
        ...(offset + take < rows.length ? { nextPageToken: encodeOffset(offset + take) } : {}),
      });
    });

    router.use((_req, res) => googleError(res, 404, 'NOT_FOUND', 'The requested URL was not found on this server.'));
    return router;
  }
}

export function gbpPerformanceSimulator(opts: GbpPerformanceSimulatorOptions = {}): GbpPerformanceSimulator {
  return new GbpPerformanceSimulator(opts);
}
