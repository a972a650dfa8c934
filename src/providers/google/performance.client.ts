import { loadConfig, simulatorBaseUrl } from '../../config';
import { joinUrl, nestedErrorMessage, platformRequest } from '../http';
import { ProviderRejected } from '../types';
import { dayOf, isoOf, type YearMonth } from '../../gbp/dates';

/**
 * Google Business Profile Performance API v1 (https://businessprofileperformance.googleapis.com), bearer token:
 * - `GET /v1/{location=locations/*}:fetchMultiDailyMetricsTimeSeries?dailyMetrics=A&dailyMetrics=B
 *   &dailyRange.start_date.year=..&..month=..&..day=..&dailyRange.end_date.*` answers
 *   `{multiDailyMetricTimeSeries: [{dailyMetricTimeSeries: [{dailyMetric, timeSeries: {datedValues: [{date: {year,
 *   month, day}, value?}]}}]}]}`; `value` is an int64 as a string and is left out when it is zero.
 * - `GET /v1/{parent=locations/*}/searchkeywords/impressions/monthly?monthlyRange.start_month.year=..&..month=..
 *   &monthlyRange.end_month.*&pageSize=..&pageToken=..` answers `{searchKeywordsCounts: [{searchKeyword,
 *   insightsValue: {value | threshold}}], nextPageToken?}`, the counts summed over the months of the range.
 * Errors use Google's `{error: {code, message, status}}` shape and are sorted like the other Google calls
 * (src/providers/http.ts): 4xx ProviderRejected, 429/5xx/network ProviderUnavailable.
 */
export const GBP_PERFORMANCE_HOST = 'https://businessprofileperformance.googleapis.com';

/** Where the in-process simulator is mounted (src/providers/simulators.ts) while Google runs simulated. */
export const GBP_PERFORMANCE_SIMULATOR_PATH = '/simulators/google/performance';

/** Google's largest keyword page. */
export const KEYWORD_PAGE_SIZE = 100;

export interface DatedValue {
  /** `Y-m-d`. */
  date: string;
  value: number;
}

export interface DailyMetricSeries {
  /** Google's metric name (`CALL_CLICKS`, ...), whatever the answer carried. */
  metric: string;
  values: DatedValue[];
}

export interface KeywordCount {
  keyword: string;
  /** The impressions, or null when Google masked a low count. */
  value: number | null;
  /** The masked count lies below this; null when the value is given. */
  threshold: number | null;
}

export interface KeywordPage {
  keywords: KeywordCount[];
  nextPageToken: string | null;
}

/** Wire shapes (the fields we read). */
interface WireDate {
  year?: number;
  month?: number;
  day?: number;
}
interface WireDatedValue {
  date?: WireDate;
  value?: string | number;
}
interface WireDailyMetricTimeSeries {
  dailyMetric?: string;
  timeSeries?: { datedValues?: WireDatedValue[] };
}
interface WireFetchMultiResponse {
  multiDailyMetricTimeSeries?: Array<{ dailyMetricTimeSeries?: WireDailyMetricTimeSeries[] }>;
}
interface WireKeywordsResponse {
  searchKeywordsCounts?: Array<{ searchKeyword?: string; insightsValue?: { value?: string | number; threshold?: string | number } }>;
  nextPageToken?: string;
}

const errorInfo = (body: unknown) => ({ message: nestedErrorMessage(body) });

/** An int64 as Google sends it (a decimal string), or absent = 0; anything else is not a count. */
function count(v: string | number | undefined): number | null {
  if (v === undefined || v === null) return null;
  const n = typeof v === 'number' ? v : /^\d+$/.test(v) ? Number(v) : NaN;
  return Number.isSafeInteger(n) && n >= 0 ? n : null;
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');
function wireDay(d: WireDate | undefined): string | null {
  if (!d?.year || !d.month || !d.day) return null;
  const iso = `${pad(d.year, 4)}-${pad(d.month)}-${pad(d.day)}`;
  return dayOf(iso) === null ? null : iso;
}

/**
 * The Performance API names a location `locations/{id}`; we store the Business Information / v4 name
 * `accounts/{a}/locations/{id}` as the integration's external id. Either (or a bare id) maps to the former.
 */
export function performanceLocationName(externalId: string): string {
  const m = /(?:^|\/)locations\/([^/?#:]+)$/.exec(externalId) ?? /^([0-9A-Za-z_-]+)$/.exec(externalId);
  if (!m) throw new ProviderRejected('google', 400, `"${externalId}" is not a location name (locations/*).`);
  return `locations/${m[1]}`;
}

function dateParams(q: URLSearchParams, prefix: string, iso: string): void {
  const day = dayOf(iso);
  if (day === null) throw new Error(`not a date: ${iso}`);
  const [y, m, d] = isoOf(day).split('-').map(Number);
  q.append(`${prefix}.year`, String(y));
  q.append(`${prefix}.month`, String(m));
  q.append(`${prefix}.day`, String(d));
}

export class GbpPerformanceClient {
  private readonly baseUrl: string;
  private readonly timeoutMs?: number;

  constructor(opts: { baseUrl?: string | null; timeoutMs?: number } = {}) {
    this.baseUrl = (opts.baseUrl ?? GBP_PERFORMANCE_HOST).replace(/\/+$/, '');
    this.timeoutMs = opts.timeoutMs;
  }

  private get(url: string, token: string): Promise<unknown> {
    return platformRequest('google', { url, bearer: token, timeoutMs: this.timeoutMs }, errorInfo);
  }

  /**
   * The daily values of `metrics` from `from` to `to` (both `Y-m-d`, inclusive) in one call. Every series the
   * answer carries is returned (the caller keeps what it stores); a day without `value` is 0, as Google documents.
   */
  async fetchDailyMetrics(accessToken: string, location: string, metrics: readonly string[], range: { from: string; to: string }): Promise<DailyMetricSeries[]> {
    const name = performanceLocationName(location);
    const q = new URLSearchParams();
    for (const m of metrics) q.append('dailyMetrics', m);
    dateParams(q, 'dailyRange.start_date', range.from);
    dateParams(q, 'dailyRange.end_date', range.to);
    const body = (await this.get(`${joinUrl(this.baseUrl, `v1/${name}:fetchMultiDailyMetricsTimeSeries`)}?${q}`, accessToken)) as WireFetchMultiResponse;
    const out: DailyMetricSeries[] = [];
    for (const multi of body.multiDailyMetricTimeSeries ?? []) {
      for (const series of multi.dailyMetricTimeSeries ?? []) {
        if (!series.dailyMetric) continue;
        const values: DatedValue[] = [];
        for (const dv of series.timeSeries?.datedValues ?? []) {
          const date = wireDay(dv.date);
          if (!date) continue;
          const value = dv.value === undefined ? 0 : count(dv.value);
          if (value === null) continue;
          values.push({ date, value });
        }
        out.push({ metric: series.dailyMetric, values });
      }
    }
    return out;
  }

  /** One page of the keyword impressions summed over the months `start`..`end` (inclusive). */
  async listMonthlyKeywords(
    accessToken: string,
    location: string,
    range: { start: YearMonth; end: YearMonth },
    pageToken?: string | null,
    pageSize = KEYWORD_PAGE_SIZE,
  ): Promise<KeywordPage> {
    const name = performanceLocationName(location);
    const q = new URLSearchParams({
      'monthlyRange.start_month.year': String(range.start.year),
      'monthlyRange.start_month.month': String(range.start.month),
      'monthlyRange.end_month.year': String(range.end.year),
      'monthlyRange.end_month.month': String(range.end.month),
      pageSize: String(Math.min(pageSize, KEYWORD_PAGE_SIZE)),
    });
    if (pageToken) q.set('pageToken', pageToken);
    const body = (await this.get(`${joinUrl(this.baseUrl, `v1/${name}/searchkeywords/impressions/monthly`)}?${q}`, accessToken)) as WireKeywordsResponse;
    const keywords: KeywordCount[] = [];
    for (const k of body.searchKeywordsCounts ?? []) {
      if (typeof k.searchKeyword !== 'string' || !k.searchKeyword) continue;
      const value = count(k.insightsValue?.value);
      const threshold = count(k.insightsValue?.threshold);
      if (value !== null) keywords.push({ keyword: k.searchKeyword, value, threshold: null });
      else if (threshold !== null) keywords.push({ keyword: k.searchKeyword, value: null, threshold });
      // An insights value with neither is a keyword with no count at all (0 impressions).
      else keywords.push({ keyword: k.searchKeyword, value: 0, threshold: null });
    }
    return { keywords, nextPageToken: body.nextPageToken || null };
  }

  /**
   * Every keyword of one month (all pages; capped so an endless page token cannot loop us). `onPage` is told after
   * each page (the sync activity heartbeats there: a month can take many pages).
   */
  async monthKeywords(accessToken: string, location: string, month: YearMonth, opts: { maxPages?: number; onPage?: (page: number) => void } = {}): Promise<KeywordCount[]> {
    const all: KeywordCount[] = [];
    let token: string | null = null;
    for (let page = 0; page < (opts.maxPages ?? 100); page++) {
      const result: KeywordPage = await this.listMonthlyKeywords(accessToken, location, { start: month, end: month }, token);
      all.push(...result.keywords);
      opts.onPage?.(page + 1);
      token = result.nextPageToken;
      if (!token) break;
    }
    return all;
  }
}

/**
 * Base URL of the Performance API: `GBP_PERFORMANCE_URL`; else `GOOGLE_API_URL` (one base for every Google path);
 * else, while Google has no OAuth client (the embedded default), the in-process simulator; else Google's host.
 */
export function gbpPerformanceBaseUrl(env: NodeJS.ProcessEnv = process.env): string {
  const config = loadConfig(env);
  if (config.GBP_PERFORMANCE_URL) return config.GBP_PERFORMANCE_URL.replace(/\/+$/, '');
  if (config.GOOGLE_API_URL) return config.GOOGLE_API_URL.replace(/\/+$/, '');
  if (!config.GOOGLE_CLIENT_ID) return `${simulatorBaseUrl(env)}${GBP_PERFORMANCE_SIMULATOR_PATH}`;
  return GBP_PERFORMANCE_HOST;
}

/** The client configured from the environment (read per call, so tests can change it). */
export function gbpPerformanceClient(env: NodeJS.ProcessEnv = process.env): GbpPerformanceClient {
  return new GbpPerformanceClient({ baseUrl: gbpPerformanceBaseUrl(env) });
}
