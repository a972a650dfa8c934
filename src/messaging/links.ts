import { timingSafeEqual } from 'node:crypto';
import { publicBaseUrl } from '../config';
import { mac, macsOf } from '../crypto/secrets';

/**
 * The links every review request carries. Both are absolute URLs on `PUBLIC_URL` (the origin the API serves the
 * public pages on); a caller that knows a better origin (a request's own host) passes it.
 *
 * - Review link `{base}/r/{invite uuid}`: the rating gate / private feedback page. The invite UUID is random
 *   (v4), so the link is the share key, like a scan report's.
 * - Unsubscribe link `{base}/u/{token}`: the token names the contact and carries a MAC under the app key, so
 *   nobody can unsubscribe someone else by guessing or editing a link. It never expires (an old message must
 *   keep working: RFC 8058 and the spec's "every message carries a working unsubscribe link").
 *
 * Token format: `<contact uuid as 16 bytes, base64url (22 chars)>.<first 16 bytes of HMAC-SHA256 under APP_KEY
 * of "unsubscribe\0<uuid>", base64url (22 chars)>`: 45 characters, short enough for an SMS.
 */

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/** Each half of a token: 16 bytes in base64url, unpadded. */
const PART_CHARS = 22;
const PART = new RegExp(`^[A-Za-z0-9_-]{${PART_CHARS}}$`);
/** The length of every unsubscribe token: two parts and the dot between them (45). */
export const UNSUBSCRIBE_TOKEN_CHARS = 2 * PART_CHARS + 1;
/** What an unsubscribe link adds to its base before the token. */
export const UNSUBSCRIBE_PATH = '/u/';
const PURPOSE = 'unsubscribe';

const trimBase = (base: string): string => base.replace(/\/+$/, '');

/**
 * The Message-ID of a review request's email step, `<invite.{invite uuid}.{step}@{PUBLIC_URL host}>`: the same on
 * every attempt, so a message sent again after an interrupted attempt is the same message to the receiving
 * servers and mailboxes (they keep one per Message-ID).
 */
export function messageIdOf(inviteUuid: string, stepIndex: number, base: string = publicBaseUrl()): string {
  return platformMessageId(`invite.${inviteUuid}.${stepIndex}`, base);
}

/** A Message-ID of the platform's own making, `<{local}@{PUBLIC_URL host}>`, stable for the same `local`. */
export function platformMessageId(local: string, base: string = publicBaseUrl()): string {
  let host = 'reviewgrid.invalid';
  try {
    host = new URL(base).hostname || host;
  } catch {
    // PUBLIC_URL is checked at boot; a test without it keeps the reserved name.
  }
  return `<${local}@${host}>`;
}

/** `{PUBLIC_URL}/r/{inviteUuid}`. */
export function reviewLinkOf(inviteUuid: string, base: string = publicBaseUrl()): string {
  return `${trimBase(base)}/r/${encodeURIComponent(inviteUuid)}`;
}

const short = (m: string): string => Buffer.from(m, 'base64url').subarray(0, 16).toString('base64url');

function signatureOf(contactUuid: string): string {
  return short(mac(PURPOSE, contactUuid));
}

/** The unforgeable unsubscribe token of a contact. */
export function unsubscribeTokenOf(contactUuid: string): string {
  const uuid = contactUuid.toLowerCase();
  if (!UUID.test(uuid)) throw new Error('Not a contact UUID.');
  const id = Buffer.from(uuid.replace(/-/g, ''), 'hex').toString('base64url');
  return `${id}.${signatureOf(uuid)}`;
}

/** `{PUBLIC_URL}/u/{token}`. */
export function unsubscribeLinkOf(contactUuid: string, base: string = publicBaseUrl()): string {
  return `${trimBase(base)}${UNSUBSCRIBE_PATH}${unsubscribeTokenOf(contactUuid)}`;
}

/** The contact UUID a token names, or null when the token is malformed or its MAC does not check out. */
export function contactUuidOfUnsubscribeToken(token: string): string | null {
  if (typeof token !== 'string') return null;
  const parts = token.split('.');
  if (parts.length !== 2 || !PART.test(parts[0]) || !PART.test(parts[1])) return null;
  const hex = Buffer.from(parts[0], 'base64url').toString('hex');
  if (hex.length !== 32) return null;
  const uuid = `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  // Under any key of the ring: links mailed before a key rotation keep working.
  const given = Buffer.from(parts[1]);
  const ok = macsOf(PURPOSE, uuid).some((m) => {
    const expected = Buffer.from(short(m));
    return expected.length === given.length && timingSafeEqual(expected, given);
  });
  return ok ? uuid : null;
}
