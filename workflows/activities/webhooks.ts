import { ApplicationFailure, Context } from '@temporalio/activity';
import type { AttemptInput } from '../../src/services/webhooks.service';
import { loggedHeaders, readExcerpt, type LoggedHeaders } from '../../src/webhooks/delivery-log';

/** What one attempt needs: the delivery's stored body and id, where it goes, and the secrets that sign it now. */
export interface LoadedDelivery {
  id: string;
  status: 'pending' | 'succeeded' | 'failed';
  body: string;
  url: string;
  secrets: string[];
}

/** One POST as the delivery log records it. */
export type AttemptRecord = AttemptInput;

export interface WebhookActivityDeps {
  load(deliveryId: string): Promise<LoadedDelivery | null>;
  record(deliveryId: string, attempt: AttemptRecord): Promise<void>;
  fail(deliveryId: string, reason: string): Promise<void>;
  sign(input: { id: string; timestamp: Date; body: string; secrets: string[] }): Record<string, string>;
  /** Refuses malformed URLs and private literal addresses before the attempt (names are checked as they connect). */
  checkUrl(url: string): Promise<void>;
  /** The POST: the guarded client (`src/net/guarded-fetch.ts`), which resolves once and connects to checked addresses. */
  post(url: string, init: { headers: Record<string, string>; body: string; signal: AbortSignal }): Promise<Response>;
  /** Whether a failed POST was refused by the address policy: its message and whether a later try may pass. */
  refused(e: unknown): { message: string; transient: boolean } | null;
  timeoutMs: number;
  userAgent: string;
  now(): Date;
}

/** Longest error logged (the column width). */
const ERROR_CHARS = 500;

/** Retry-After in seconds or as an HTTP date, as milliseconds from now. */
function retryAfterMs(header: string | null, now: Date): number | null {
  if (!header) return null;
  if (/^\d+$/.test(header.trim())) return Number(header.trim()) * 1000;
  const at = Date.parse(header);
  return Number.isNaN(at) ? null : Math.max(0, at - now.getTime());
}


export function createWebhookActivities(deps: WebhookActivityDeps) {
  return {
    /** One POST. Throws to have Temporal retry; a PermanentDeliveryFailure is not retried. */
    async attemptWebhookDelivery(deliveryId: string): Promise<void> {
      const attempt = Context.current().info.attempt;
      const delivery = await deps.load(deliveryId);
      if (!delivery) throw ApplicationFailure.nonRetryable('The delivery was removed, or its receiver was deleted or disabled.', 'PermanentDeliveryFailure');
      if (delivery.status === 'succeeded') return;
      const started = Date.now();
      // What the log shows of the exchange: set once the POST is made, and once an answer comes.
      let requestHeaders: LoggedHeaders | null = null;
      let responseHeaders: LoggedHeaders | null = null;
      const fail = async (statusCode: number | null, error: string, excerpt: string | null) => {
        await deps.record(deliveryId, {
          attempt,
          statusCode,
          latencyMs: Date.now() - started,
          error: error.slice(0, ERROR_CHARS),
          responseExcerpt: excerpt,
          requestHeaders,
          responseHeaders,
          succeeded: false,
        });
      };
      try {
        await deps.checkUrl(delivery.url);
      } catch (e) {
        const message = e instanceof Error ? e.message : String(e);
        await fail(null, message, null);
        // A name that does not resolve right now may next time (a DNS hiccup); a private address or a bad URL won't.
        const transient = (e as { reason?: string }).reason === 'unresolvable_host';
        if (transient) throw ApplicationFailure.retryable(message, 'DeliveryFailure');
        throw ApplicationFailure.nonRetryable(message, 'PermanentDeliveryFailure');
      }
      const headers = {
        'Content-Type': 'application/json',
        'User-Agent': deps.userAgent,
        ...deps.sign({ id: delivery.id, timestamp: deps.now(), body: delivery.body, secrets: delivery.secrets }),
      };
      // Exactly what was sent: the signature may be shown to the receiver's owner; the secret is never in a header.
      requestHeaders = loggedHeaders(Object.entries(headers));
      let response: Response;
      try {
        response = await deps.post(delivery.url, { headers, body: delivery.body, signal: AbortSignal.timeout(deps.timeoutMs) });
      } catch (e) {
        const refused = deps.refused(e);
        if (refused) {
          await fail(null, refused.message, null);
          if (refused.transient) throw ApplicationFailure.retryable(refused.message, 'DeliveryFailure');
          throw ApplicationFailure.nonRetryable(refused.message, 'PermanentDeliveryFailure');
        }
        const message = e instanceof Error && e.name === 'TimeoutError' ? `No answer within ${deps.timeoutMs} ms` : `Connection failed: ${e instanceof Error ? (e.cause instanceof Error ? e.cause.message : e.message) : String(e)}`;
        await fail(null, message, null);
        throw ApplicationFailure.retryable(message, 'DeliveryFailure');
      }
      responseHeaders = loggedHeaders(response.headers.entries());
      const text = await readExcerpt(response);
      if (response.status >= 200 && response.status < 300) {
        await deps.record(deliveryId, {
          attempt,
          statusCode: response.status,
          latencyMs: Date.now() - started,
          error: null,
          responseExcerpt: text || null,
          requestHeaders,
          responseHeaders,
          succeeded: true,
        });
        return;
      }
      const message = `The receiver answered ${response.status}`;
      await fail(response.status, message, text || null);
      if (response.status === 429) {
        const wait = retryAfterMs(response.headers.get('retry-after'), deps.now());
        throw ApplicationFailure.create({ message, type: 'DeliveryFailure', nextRetryDelay: wait ?? undefined });
      }
      if (response.status >= 400 && response.status < 500 && response.status !== 408) {
        throw ApplicationFailure.nonRetryable(message, 'PermanentDeliveryFailure');
      }
      throw ApplicationFailure.retryable(message, 'DeliveryFailure');
    },

    async markWebhookDeliveryFailed(deliveryId: string, reason: string): Promise<void> {
      await deps.fail(deliveryId, reason);
    },
  };
}

export type WebhookActivities = ReturnType<typeof createWebhookActivities>;
