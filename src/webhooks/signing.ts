import { createHmac, randomBytes } from 'node:crypto';

/**
 * Standard Webhooks signing (https://www.standardwebhooks.com): the signed text is
 * `<webhook-id>.<webhook-timestamp>.<body>`, the key is the base64 part of a `whsec_` secret, and
 * `webhook-signature` lists one `v1,<base64 HMAC-SHA256>` per secret, space-separated, so a receiver that
 * still holds the previous secret keeps verifying during a rotation.
 */
export const SECRET_PREFIX = 'whsec_';

export interface SignatureHeaders {
  'webhook-id': string;
  'webhook-timestamp': string;
  'webhook-signature': string;
  [header: string]: string;
}

/** A new signing secret: `whsec_` + base64 of 32 random bytes. */
export function generateSecret(bytes = 32): string {
  if (bytes < 24 || bytes > 64) throw new RangeError('A webhook secret has 24 to 64 random bytes.');
  return `${SECRET_PREFIX}${randomBytes(bytes).toString('base64')}`;
}

function keyOf(secret: string): Buffer {
  const encoded = secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret;
  const key = Buffer.from(encoded, 'base64');
  if (key.length === 0) throw new Error('A webhook secret must not be empty.');
  return key;
}

/** `v1,<signature>` of one message with one secret. */
export function sign(secret: string, id: string, timestampSeconds: number, body: string): string {
  const mac = createHmac('sha256', keyOf(secret)).update(`${id}.${timestampSeconds}.${body}`, 'utf8').digest('base64');
  return `v1,${mac}`;
}

/**
 * The three headers of one attempt. `secrets`: the current secret first, then the previous one while its
 * overlap lasts (duplicates are signed once).
 */
export function signatureHeaders(input: { id: string; timestamp: Date; body: string; secrets: readonly string[] }): SignatureHeaders {
  const secrets = [...new Set(input.secrets)];
  if (secrets.length === 0) throw new Error('A webhook needs at least one signing secret.');
  const ts = Math.floor(input.timestamp.getTime() / 1000);
  return {
    'webhook-id': input.id,
    'webhook-timestamp': String(ts),
    'webhook-signature': secrets.map((s) => sign(s, input.id, ts, input.body)).join(' '),
  };
}

/** The fixed product identifier of outbound webhooks; the `/V1` suffix is the interface's version. */
export const WEBHOOK_USER_AGENT = 'Reviewgrid-Webhooks/V1';
