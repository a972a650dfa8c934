import { createHash } from 'node:crypto';
import { readBounded } from '../net/bounded-read';
import { guardedFetch } from '../net/guarded-fetch';

/**
 * The agency's logo (`tenants.logo_url`, an http(s) URL of the agency's choosing), fetched by the platform and never by
 * its customers' browsers: pages show it from the platform's own host (`logoPath`, served by `GET /brand/logo/<key>`),
 * so no page loads anything from another host and the visitor's address goes to no third party; the PDFs draw it.
 * Fetched through the guarded client (http(s) only, no redirects, private addresses refused unless
 * WEBHOOK_ALLOW_PRIVATE_URLS), at most 512 KB, within 3 s, its format checked by its first bytes (not by what the
 * server says), and kept for ten minutes. Anything else shows the agency's name alone: a logo never fails a page or a
 * report.
 */

export const LOGO_MAX_BYTES = 512 * 1024;
const TIMEOUT_MS = 3_000;
const KEEP_MS = 10 * 60_000;
/** A logo that could not be had is asked for again sooner (the agency's server may have been down for a moment). */
const KEEP_MISSING_MS = 60_000;
/**
 * What the cache keeps: the logos of up to 2,000 agencies and 32 MB of their bytes, the least recently shown going
 * first (every page view asks for its agency's logo, so the cache must hold the agencies in use, not 50 of them).
 */
const KEPT = 2_000;
const KEPT_BYTES = 32 * 1024 * 1024;

/** A logo's bytes and their media type. */
export interface LogoImage {
  bytes: Buffer;
  type: 'image/png' | 'image/jpeg' | 'image/gif' | 'image/webp' | 'image/svg+xml';
}

const cache = new Map<string, { at: number; image: LogoImage | null }>();
let cachedBytes = 0;
/** Fetches on their way, by URL: the visitors of a page whose logo is not cached wait for one fetch, not one each. */
const fetching = new Map<string, Promise<LogoImage | null>>();

function keep(url: string, image: LogoImage | null): void {
  forget(url);
  cache.set(url, { at: Date.now(), image });
  cachedBytes += image?.bytes.length ?? 0;
  while (cache.size > KEPT || cachedBytes > KEPT_BYTES) forget(cache.keys().next().value!);
}

function forget(url: string): void {
  const entry = cache.get(url);
  if (!entry) return;
  cachedBytes -= entry.image?.bytes.length ?? 0;
  cache.delete(url);
}

/** PNG (`\x89PNG\r\n\x1a\n`) or JPEG (`FF D8 FF`): the formats pdfkit draws. */
export function isDrawableImage(bytes: Buffer): boolean {
  const type = imageTypeOf(bytes);
  return type === 'image/png' || type === 'image/jpeg';
}

/**
 * Whether `text` is an SVG document: a byte-order mark, white space, an XML declaration, comments and a doctype in any
 * order, then the `<svg` element. A scan, not a regular expression: a pattern with repeated lazy comment groups
 * backtracks exponentially on a crafted prefix (the agency chooses the logo's bytes).
 */
export function isSvgDocument(text: string): boolean {
  let at = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  for (;;) {
    while (at < text.length && /\s/.test(text[at])) at++;
    const rest = text.slice(at, at + 9).toLowerCase();
    const skip = rest.startsWith('<?') ? '?>' : rest.startsWith('<!--') ? '-->' : rest.startsWith('<!doctype') ? '>' : null;
    if (!skip) return /^<svg[\s>]/i.test(text.slice(at, at + 5));
    const end = text.indexOf(skip, at + 2);
    if (end < 0) return false;
    at = end + skip.length;
  }
}

/** The image format of `bytes` by their first bytes (what a browser's `<img>` shows of an agency's logo), or null. */
export function imageTypeOf(bytes: Buffer): LogoImage['type'] | null {
  if (bytes.length > 8 && bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'image/png';
  if (bytes.length > 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg';
  if (bytes.length > 6 && /^GIF8[79]a$/.test(bytes.subarray(0, 6).toString('latin1'))) return 'image/gif';
  if (bytes.length > 12 && bytes.subarray(0, 4).toString('latin1') === 'RIFF' && bytes.subarray(8, 12).toString('latin1') === 'WEBP') return 'image/webp';
  if (isSvgDocument(bytes.subarray(0, 4096).toString('utf8'))) return 'image/svg+xml';
  return null;
}

async function fetchLogo(url: string): Promise<LogoImage | null> {
  try {
    const res = await guardedFetch(url, { headers: { Accept: 'image/png, image/jpeg, image/gif, image/webp, image/svg+xml' }, signal: AbortSignal.timeout(TIMEOUT_MS) });
    if (res.status !== 200 || !res.body) {
      await res.body?.cancel().catch(() => undefined);
      return null;
    }
    // Refused past LOGO_MAX_BYTES (a declared Content-Length first), the rest of the body not read.
    const bytes = await readBounded(res, LOGO_MAX_BYTES);
    const type = imageTypeOf(bytes);
    return type ? { bytes, type } : null;
  } catch {
    return null;
  }
}

/** The logo at `url` (any format a page shows), or null (no logo, unreachable, not an image, too large). */
export async function brandLogo(url: string | null | undefined): Promise<LogoImage | null> {
  if (!url || !/^https?:\/\//i.test(url)) return null;
  const hit = cache.get(url);
  if (hit && Date.now() - hit.at < (hit.image ? KEEP_MS : KEEP_MISSING_MS)) {
    // The most recently shown go last, so the least recently shown are forgotten first.
    cache.delete(url);
    cache.set(url, hit);
    return hit.image;
  }
  let pending = fetching.get(url);
  if (!pending) {
    pending = fetchLogo(url).then((image) => {
      keep(url, image);
      return image;
    });
    fetching.set(url, pending);
    void pending.finally(() => fetching.delete(url));
  }
  return pending;
}

/**
 * The logo URL a page may show: an http(s) URL only when the platform has (or now fetches) its image, the one
 * `/brand/logo/<key>` would serve (the same cached fetch, so that route then answers at once); anything else as it is
 * (`logoPath` decides about paths). Null otherwise: the page shows the brand's name alone, not an image that answers
 * 404 and leaves its alt text beside the name.
 */
export async function shownLogoUrl(url: string | null | undefined): Promise<string | null> {
  if (!url) return null;
  if (!/^https?:\/\//i.test(url)) return url;
  return (await brandLogo(url)) ? url : null;
}

/** The logo's bytes for a PDF, or null (no logo, unreachable, not PNG/JPEG, too large). */
export async function logoImage(url: string | null | undefined): Promise<Buffer | null> {
  const logo = await brandLogo(url);
  return logo && isDrawableImage(logo.bytes) ? logo.bytes : null;
}

/** The key of a logo URL in `/brand/logo/<key>`: 32 hex characters of its SHA-256. */
export const logoKey = (url: string): string => createHash('sha256').update(url).digest('hex').slice(0, 32);

/**
 * Where a page shows the logo at `url`: the platform's own `/brand/logo/<key>` for an http(s) URL, a path of the
 * platform's own (`local`: an uploaded file) as it is, nothing for anything else.
 */
export function logoPath(url: string | null, local = false): string | null {
  if (!url) return null;
  if (/^https?:\/\//i.test(url)) return `/brand/logo/${logoKey(url)}`;
  return local && /^\/(?!\/)/.test(url) ? url : null;
}
