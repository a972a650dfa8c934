import { randomUUID } from 'node:crypto';
import { retryAfterSeconds } from './errors';

export interface RetryOptions {
  /** Tries in all, the first included (default 3; 1 never retries). */
  attempts?: number;
  /**
   * The longest wait honoured, in milliseconds (default 60 000). A `Retry-After` asking for longer is not waited
   * for: the 429 is answered (as an `ApiError` with `retryAfter`) so the caller can decide.
   */
  maxDelayMs?: number;
  /** The wait when a 429 has no readable `Retry-After`: this, doubled on each retry (default 1 000 ms). */
  baseDelayMs?: number;
  /** Called before each wait (for logs and metrics). */
  onRetry?: (info: { attempt: number; delayMs: number; method: string; url: string }) => void;
}

export type FetchLike = (request: Request) => Promise<Response>;

interface Policy {
  attempts: number;
  maxDelayMs: number;
  baseDelayMs: number;
  onRetry?: RetryOptions['onRetry'];
}

/** GET, PUT and DELETE say the same thing twice; a POST does only with an `Idempotency-Key`. */
const IDEMPOTENT = new Set(['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE']);

export function retryPolicy(options: RetryOptions | false | undefined): Policy | null {
  if (options === false) return null;
  const attempts = Math.floor(options?.attempts ?? 3);
  if (!(attempts >= 1)) throw new RangeError('retry.attempts must be at least 1.');
  if (attempts === 1) return null;
  return {
    attempts,
    maxDelayMs: Math.max(0, options?.maxDelayMs ?? 60_000),
    baseDelayMs: Math.max(0, options?.baseDelayMs ?? 1_000),
    onRetry: options?.onRetry,
  };
}

/**
 * A fetch that answers a 429 by waiting as the server asked (`Retry-After`) and trying again, at most
 * `policy.attempts` times. Only requests that may be repeated are retried; a POST is given a fresh `Idempotency-Key`
 * (when the caller set none) so that it may: the API then runs it at most once however often it arrives, and frees
 * the key when it answers 429, so the retry is not refused as a replay.
 */
export function retryingFetch(fetchImpl: FetchLike, policy: Policy | null): FetchLike {
  if (!policy) return fetchImpl;
  return async (request) => {
    if (request.method === 'POST' && !request.headers.has('idempotency-key')) request.headers.set('Idempotency-Key', randomUUID());
    if (!IDEMPOTENT.has(request.method) && !request.headers.has('idempotency-key')) return fetchImpl(request);
    for (let attempt = 1; ; attempt++) {
      const last = attempt >= policy.attempts;
      // A body is a stream read once: every try but the last sends a copy.
      const response = await fetchImpl(last ? request : request.clone());
      if (response.status !== 429 || last) return response;
      const asked = retryAfterSeconds(response.headers.get('retry-after'));
      const delayMs = asked !== undefined ? asked * 1000 : policy.baseDelayMs * 2 ** (attempt - 1);
      if (delayMs > policy.maxDelayMs) return response;
      await response.body?.cancel().catch(() => undefined); // frees the connection for the next try
      policy.onRetry?.({ attempt, delayMs, method: request.method, url: request.url });
      await sleep(delayMs, request.signal);
    }
  };
}

function sleep(ms: number, signal: AbortSignal | null): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const done = () => {
      signal?.removeEventListener('abort', abort);
      resolve();
    };
    const timer = setTimeout(done, ms);
    const abort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', abort, { once: true });
  });
}
