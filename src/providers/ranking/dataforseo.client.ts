import { GridProviderRejected, GridProviderUnavailable, type MapResult, type RankingProvider } from './types';
import { AnswerTooLarge, describeBytes, readBoundedText } from '../../net/bounded-read';
import { operatorFetch } from '../../net/guarded-fetch';
import { PROVIDER_ANSWER_MAX_BYTES } from '../http';

/**
 * DataForSEO's Google Maps SERP API, live mode: one task per pin and keyword,
 * `POST /v3/serp/google/maps/live/advanced` with HTTP Basic auth. Status codes live in the body
 * (20000 = ok; 40xxx = the request is wrong; 50xxx = their side), next to the HTTP status.
 */
export interface DataForSeoOptions {
  login: string;
  password: string;
  baseUrl?: string;
  timeoutMs?: number;
  fetch?: typeof fetch;
}

interface DfsItem {
  type?: string;
  rank_group?: number;
  rank_absolute?: number;
  title?: string;
  place_id?: string;
  cid?: string;
}

interface DfsResponse {
  status_code?: number;
  status_message?: string;
  tasks?: Array<{ status_code?: number; status_message?: string; result?: Array<{ items?: DfsItem[] | null }> | null }>;
}

export const DATAFORSEO_URL = 'https://api.dataforseo.com';

export class DataForSeoClient implements RankingProvider {
  readonly name = 'dataforseo';
  private readonly auth: string;
  private readonly baseUrl: string;

  constructor(private readonly opts: DataForSeoOptions) {
    this.auth = `Basic ${Buffer.from(`${opts.login}:${opts.password}`).toString('base64')}`;
    this.baseUrl = (opts.baseUrl ?? DATAFORSEO_URL).replace(/\/$/, '');
  }

  async searchMaps(q: { keyword: string; lat: number; lng: number; zoom?: number; languageCode?: string }): Promise<MapResult[]> {
    const task = {
      keyword: q.keyword,
      location_coordinate: `${q.lat.toFixed(7)},${q.lng.toFixed(7)},${q.zoom ?? 15}z`,
      language_code: q.languageCode ?? 'en',
      depth: 20,
    };
    let res: Response;
    try {
      res = await (this.opts.fetch ?? operatorFetch)(`${this.baseUrl}/v3/serp/google/maps/live/advanced`, {
        method: 'POST',
        headers: { Authorization: this.auth, 'Content-Type': 'application/json' },
        body: JSON.stringify([task]),
        signal: AbortSignal.timeout(this.opts.timeoutMs ?? 60_000),
      });
    } catch (e) {
      throw new GridProviderUnavailable(this.name, `request failed: ${(e as Error).message}`);
    }
    let text: string;
    try {
      text = await readBoundedText(res, PROVIDER_ANSWER_MAX_BYTES);
    } catch (e) {
      // Too large: the status still sorts it (a 4xx is refused; a 2xx or 5xx is unavailable, like an unreadable answer).
      if (!(e instanceof AnswerTooLarge)) throw new GridProviderUnavailable(this.name, `HTTP ${res.status}: the answer could not be read: ${(e as Error).message}`, retryAfter(res));
      const why = `an answer over ${describeBytes(PROVIDER_ANSWER_MAX_BYTES)}, not read`;
      if (res.status >= 400 && res.status < 500 && res.status !== 429) throw new GridProviderRejected(this.name, `HTTP ${res.status}: ${why}`);
      throw new GridProviderUnavailable(this.name, `HTTP ${res.status}: ${why}`, retryAfter(res));
    }
    let body: DfsResponse;
    try {
      body = JSON.parse(text) as DfsResponse;
    } catch {
      if (res.status >= 500 || res.status === 429) throw new GridProviderUnavailable(this.name, `HTTP ${res.status}`, retryAfter(res));
      throw new GridProviderRejected(this.name, `HTTP ${res.status}: unreadable answer`);
    }
    if (res.status === 429 || res.status >= 500) throw new GridProviderUnavailable(this.name, body.status_message ?? `HTTP ${res.status}`, retryAfter(res));
    if (res.status >= 400 || (body.status_code ?? 20000) >= 40000) {
      const code = body.status_code ?? res.status;
      if (code >= 50000) throw new GridProviderUnavailable(this.name, body.status_message ?? `status ${code}`);
      throw new GridProviderRejected(this.name, body.status_message ?? `HTTP ${res.status}`);
    }
    const t = body.tasks?.[0];
    if (!t) throw new GridProviderUnavailable(this.name, 'the answer held no task');
    const status = t.status_code ?? 20000;
    // 40102 "No Search Results.": the search ran and nothing ranks at this pin, an answer like any other. 40101
    // "Internal SE Server Error.": the search engine failed (after DataForSEO's own retries), which a later try may pass.
    if (status === NO_SEARCH_RESULTS) return [];
    if (status >= 50000 || status === SEARCH_ENGINE_ERROR) throw new GridProviderUnavailable(this.name, t.status_message ?? `task status ${status}`);
    if (status >= 40000) throw new GridProviderRejected(this.name, t.status_message ?? `task status ${status}`);
    const items = t.result?.[0]?.items ?? [];
    const out: MapResult[] = [];
    for (const item of items) {
      if (item.type && item.type !== 'maps_search') continue;
      const rank = item.rank_group ?? item.rank_absolute;
      const placeId = item.place_id ?? item.cid;
      if (!rank || !placeId || rank > 20) continue;
      out.push({ placeId, name: item.title ?? placeId, rank });
    }
    return out.sort((a, b) => a.rank - b.rank);
  }
}

/** Task status codes of DataForSEO's appendix/errors that are not refusals. */
const SEARCH_ENGINE_ERROR = 40101;
const NO_SEARCH_RESULTS = 40102;

function retryAfter(res: Response): number | null {
  const v = res.headers.get('retry-after');
  if (!v) return null;
  const s = Number(v);
  if (Number.isFinite(s)) return s * 1000;
  const at = Date.parse(v);
  return Number.isFinite(at) ? Math.max(0, at - Date.now()) : null;
}
