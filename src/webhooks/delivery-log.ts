import { readBounded } from '../net/bounded-read';

/**
 * What the delivery log keeps of one attempt's exchange (issue 15 item 7; docs/decisions/webhooks.md, "Delivery log: headers
 * and the first KB"): the headers we sent, the receiver's answer headers and the first KB of its answer. Bounded, so
 * a receiver cannot make the log grow: at most 50 x (100 + 500) characters of answer headers per attempt.
 */

/** Bytes of the answer kept: the first KB, cut back to a whole UTF-8 character. */
export const EXCERPT_BYTES = 1024;
/** Answer headers kept per attempt (by name; the HTTP client orders them by name). */
export const MAX_LOGGED_HEADERS = 50;
/** Longest header name kept (longer ones are cut). */
export const MAX_HEADER_NAME_CHARS = 100;
/** Longest header value kept (longer ones are cut). */
export const MAX_HEADER_VALUE_CHARS = 500;

/** Header name (lower case) -> value. */
export type LoggedHeaders = Record<string, string>;

const cut = (s: string, max: number): string => {
  const chars = [...s];
  return chars.length > max ? chars.slice(0, max).join('') : s;
};

/**
 * Headers as the log keeps them: names in lower case, a repeated header (two `Set-Cookie`s) as one value joined with
 * `, `, at most MAX_LOGGED_HEADERS names with names and values cut to their bounds. Built as own properties, so
 * a header named `__proto__` is kept as a header.
 */
export function loggedHeaders(entries: Iterable<readonly [string, string]>): LoggedHeaders {
  const kept = new Map<string, string>();
  for (const [rawName, rawValue] of entries) {
    const name = cut(rawName.toLowerCase(), MAX_HEADER_NAME_CHARS);
    const previous = kept.get(name);
    if (previous === undefined && kept.size >= MAX_LOGGED_HEADERS) continue;
    kept.set(name, cut(previous === undefined ? rawValue : `${previous}, ${rawValue}`, MAX_HEADER_VALUE_CHARS));
  }
  return Object.fromEntries(kept);
}

/**
 * The first `max` bytes of some UTF-8, decoded, without the character the cut runs through (a streaming decoder holds
 * an incomplete last sequence back). Bytes that are not UTF-8 become U+FFFD, so a binary answer still shows.
 */
export function decodeFirstBytes(bytes: Uint8Array, max = EXCERPT_BYTES): string {
  return new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes.subarray(0, max), { stream: true });
}

/** A text cut to at most `max` bytes of UTF-8, on a character boundary. */
export function firstBytes(text: string, max = EXCERPT_BYTES): string {
  const bytes = Buffer.from(text, 'utf8');
  return bytes.length <= max ? text : decodeFirstBytes(bytes, max);
}

/**
 * The first KB of an answer, reading no more of it than that (a receiver may stream forever); a body that breaks
 * off keeps what was read.
 */
export async function readExcerpt(response: Response, max = EXCERPT_BYTES): Promise<string> {
  return decodeFirstBytes(await readBounded(response, max, 'cut'), max);
}
