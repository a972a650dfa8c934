import { ProviderRejected, ProviderUnavailable, type SignInProvider } from './types';
import { AnswerTooLarge, describeBytes, readBoundedText } from '../net/bounded-read';
import { operatorFetch } from '../net/guarded-fetch';

/** One platform call as the clients make it; the answer's JSON, or a typed provider error. */
export interface PlatformRequest {
  method?: 'GET' | 'POST' | 'PUT';
  url: string;
  /** Bearer token (Google); Facebook passes its token as `access_token` in the query or form instead. */
  bearer?: string | null;
  /** A JSON body (Google) or form fields (Facebook). */
  json?: unknown;
  form?: Record<string, string>;
  timeoutMs?: number;
}

export interface ErrorInfo {
  /** The platform's own words (`error.message` in both Google's and Facebook's error shape). */
  message: string | null;
  /** A 4xx the platform marks as passing (Facebook throttling, `is_transient`): retried, not refused. */
  transient?: boolean;
}

export const DEFAULT_TIMEOUT_MS = 30_000;

/**
 * The most of a provider's answer that is read, for `platformRequest` and the operator's other JSON APIs (the grid
 * provider, the geocoder). The largest pages the clients ask for (50 Google reviews, 100 locations, 25 Facebook ratings
 * with their comments, 20 map results) come to tens or a few hundred KB even with long review texts; 8 MB leaves more
 * than ten times that while bounding what a misbehaving or hijacked host can make a worker hold (these are the
 * operator's base URLs, but their DNS or the host itself can still go wrong).
 */
export const PROVIDER_ANSWER_MAX_BYTES = 8 * 1024 * 1024;

/**
 * The longest wait a provider's Retry-After gets (the syncs' longest backoff interval): a platform asking for a day
 * would otherwise hold a sync run until its run timeout, which ends it without recording `last_sync_error` while the
 * schedule skips every run in between, or put a review request off by a day. After the cap the call is simply tried
 * again, and still counts as an attempt.
 */
export const MAX_PROVIDER_RETRY_AFTER_MS = 5 * 60_000;

/** Retry-After in seconds or as an HTTP date, as milliseconds from now. */
export function retryAfterMs(header: string | null, now = Date.now()): number | null {
  if (!header) return null;
  const trimmed = header.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const at = Date.parse(trimmed);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

const describe = (e: unknown): string => {
  if (e instanceof Error && e.name === 'TimeoutError') return 'no answer in time';
  if (e instanceof Error) return e.cause instanceof Error ? e.cause.message : e.message;
  return String(e);
};

/**
 * Sends one request and sorts the outcome: 2xx is the parsed JSON; 429, 5xx, timeouts and connection failures
 * are ProviderUnavailable (with Retry-After); any other answer is ProviderRejected carrying the platform's message.
 */
export async function platformRequest(
  provider: SignInProvider,
  req: PlatformRequest,
  errorInfo: (body: unknown) => ErrorInfo,
): Promise<unknown> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (req.bearer) headers.Authorization = `Bearer ${req.bearer}`;
  let body: string | undefined;
  if (req.json !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(req.json);
  } else if (req.form) {
    headers['Content-Type'] = 'application/x-www-form-urlencoded';
    body = new URLSearchParams(req.form).toString();
  }
  let response: Response;
  try {
    response = await operatorFetch(req.url, {
      method: req.method ?? 'GET',
      headers,
      body,
      redirect: 'error',
      signal: AbortSignal.timeout(req.timeoutMs ?? DEFAULT_TIMEOUT_MS),
    });
  } catch (e) {
    throw new ProviderUnavailable(provider, `${provider} could not be reached: ${describe(e)}`);
  }
  let text: string;
  try {
    text = await readBoundedText(response, PROVIDER_ANSWER_MAX_BYTES);
  } catch (e) {
    if (!(e instanceof AnswerTooLarge)) throw new ProviderUnavailable(provider, `${provider} answer could not be read: ${describe(e)}`);
    // Not read: the status still sorts it (a 4xx is refused), and a 2xx or 5xx counts as unavailable like any
    // answer that is not the platform's JSON.
    const why = `an answer over ${describeBytes(PROVIDER_ANSWER_MAX_BYTES)}, not read`;
    if (response.ok || response.status === 429 || response.status >= 500) {
      throw new ProviderUnavailable(provider, `${provider} answered ${response.status} with ${why}`, retryAfterMs(response.headers.get('retry-after')));
    }
    throw new ProviderRejected(provider, response.status, `HTTP ${response.status} (${why})`);
  }
  let parsed: unknown = null;
  try {
    parsed = text ? JSON.parse(text) : {};
  } catch {
    parsed = null;
  }
  if (response.ok) {
    if (parsed === null) throw new ProviderUnavailable(provider, `${provider} answered ${response.status} without JSON`);
    return parsed;
  }
  const info = errorInfo(parsed);
  const reason = info.message ?? `HTTP ${response.status}`;
  if (response.status === 429 || response.status >= 500 || info.transient) {
    throw new ProviderUnavailable(provider, `${provider} is unavailable (${response.status}): ${reason}`, retryAfterMs(response.headers.get('retry-after')));
  }
  throw new ProviderRejected(provider, response.status, reason);
}

/** `error.message` of `{error: {message}}`, the error shape of both Google APIs and the Graph API. */
export function nestedErrorMessage(body: unknown): string | null {
  const error = (body as { error?: unknown } | null)?.error;
  if (error && typeof error === 'object' && typeof (error as { message?: unknown }).message === 'string') {
    return (error as { message: string }).message;
  }
  if (typeof error === 'string') return error;
  return null;
}

export const joinUrl = (base: string, path: string): string => `${base.replace(/\/+$/, '')}/${path.replace(/^\/+/, '')}`;
