import { createHmac, timingSafeEqual } from 'node:crypto';
import type { webhooks } from './generated/customer';

/**
 * Receiving webhooks. Deliveries are signed the Standard Webhooks way (https://www.standardwebhooks.com):
 * `webhook-signature` lists `v1,<base64 HMAC-SHA256>` entries, space-separated (two while a secret is rotated), of
 * `<webhook-id>.<webhook-timestamp>.<raw body>`, keyed with the base64 text after `whsec_` decoded to bytes.
 */

/** The event names of the customer API's webhooks (`review-created`, ..., `ping`). */
export type WebhookEventName = keyof webhooks;

type BodyOf<Item> = Item extends { post: { requestBody: { content: { 'application/json': infer Body } } } } ? Body : never;
/** The payload of one event, as documented in the OpenAPI document's `webhooks`. */
export type WebhookPayload<Name extends WebhookEventName> = BodyOf<webhooks[Name]>;
/** Any delivery's payload; narrow it on `webhook_event`. */
export type WebhookEvent = { [Name in WebhookEventName]: WebhookPayload<Name> }[WebhookEventName];

export type WebhookHeaders = Headers | Record<string, string | readonly string[] | undefined>;

export interface VerifyWebhookInput {
  /** The receiver's signing secret, `whsec_...`, as shown when the receiver was created (or rotated). */
  secret: string;
  /** The request's headers: a `Headers` (fetch, Next.js) or a plain object (Node's `req.headers`, Express). */
  headers: WebhookHeaders;
  /** The body exactly as received: the raw bytes or their text, never JSON parsed and serialised again. */
  body: string | Uint8Array;
  /** How far `webhook-timestamp` may be from now, in seconds (default 300): an older delivery is a replay. */
  toleranceSeconds?: number;
  /** The clock (for tests); defaults to now. */
  now?: Date;
}

export type WebhookFailure = 'missing_headers' | 'invalid_timestamp' | 'timestamp_out_of_tolerance' | 'invalid_signature' | 'invalid_body';

export class WebhookVerificationError extends Error {
  override readonly name = 'WebhookVerificationError';
  constructor(
    readonly reason: WebhookFailure,
    message: string,
  ) {
    super(message);
  }
}

const PREFIX = 'whsec_';

/**
 * Checks a delivery's signature and timestamp and returns its parsed event; throws a
 * {@link WebhookVerificationError} (answer 400 then) when it is not a delivery signed with `secret`.
 */
export function verifyWebhook(input: VerifyWebhookInput): WebhookEvent {
  const id = header(input.headers, 'webhook-id');
  const timestamp = header(input.headers, 'webhook-timestamp');
  const signatures = header(input.headers, 'webhook-signature');
  if (!id || !timestamp || !signatures) throw new WebhookVerificationError('missing_headers', 'The webhook-id, webhook-timestamp and webhook-signature headers are required.');
  if (!/^\d{1,12}$/.test(timestamp)) throw new WebhookVerificationError('invalid_timestamp', 'webhook-timestamp is not a number of seconds.');
  const now = Math.floor((input.now ?? new Date()).getTime() / 1000);
  if (Math.abs(now - Number(timestamp)) > (input.toleranceSeconds ?? 300)) {
    throw new WebhookVerificationError('timestamp_out_of_tolerance', 'webhook-timestamp is too old or too new.');
  }
  const body = typeof input.body === 'string' ? input.body : Buffer.from(input.body.buffer, input.body.byteOffset, input.body.byteLength).toString('utf8');
  const expected = mac(input.secret, id, timestamp, body);
  let matched = false;
  for (const entry of signatures.split(' ')) {
    const comma = entry.indexOf(',');
    if (comma < 0 || entry.slice(0, comma) !== 'v1') continue;
    const given = Buffer.from(entry.slice(comma + 1), 'base64');
    // Every entry is compared (no early exit), each in constant time.
    if (given.length === expected.length && timingSafeEqual(given, expected)) matched = true;
  }
  if (!matched) throw new WebhookVerificationError('invalid_signature', 'No webhook-signature entry matches the secret.');
  try {
    return JSON.parse(body) as WebhookEvent;
  } catch {
    throw new WebhookVerificationError('invalid_body', 'The signed body is not JSON.');
  }
}

/**
 * The three signature headers of a delivery, as the platform sends them: for testing a receiver without the
 * platform (and for proxies that re-sign).
 */
export function signWebhook(input: { secret: string; id: string; timestamp: Date; body: string }): Record<'webhook-id' | 'webhook-timestamp' | 'webhook-signature', string> {
  const ts = String(Math.floor(input.timestamp.getTime() / 1000));
  return {
    'webhook-id': input.id,
    'webhook-timestamp': ts,
    'webhook-signature': `v1,${mac(input.secret, input.id, ts, input.body).toString('base64')}`,
  };
}

function mac(secret: string, id: string, timestamp: string, body: string): Buffer {
  const key = Buffer.from(secret.startsWith(PREFIX) ? secret.slice(PREFIX.length) : secret, 'base64');
  if (key.length === 0) throw new TypeError('The webhook secret is empty.');
  return createHmac('sha256', key).update(`${id}.${timestamp}.${body}`, 'utf8').digest();
}

function header(headers: WebhookHeaders, name: string): string | undefined {
  if (typeof (headers as Headers).get === 'function') return (headers as Headers).get(name) ?? undefined;
  // Node gives lower-case names; other frameworks may not.
  const record = headers as Record<string, string | readonly string[] | undefined>;
  const key = name in record ? name : Object.keys(record).find((k) => k.toLowerCase() === name);
  const value = key === undefined ? undefined : record[key];
  return typeof value === 'string' ? value : value?.join(' ');
}
