import { createHash } from 'node:crypto';
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
const KEPT = 50;

/** A logo's bytes and their media type. */
export interface LogoImage {
  bytes: Buffer;
  type: 'image/png' | 'image/jpeg' | 'image/gif' | 'image/webp' | 'image/svg+xml';
}

const cache = new Map<string, { at: number; image: LogoImage | null }>();

/** PNG (`\x89PNG\r\n\x1a\n`) or JPEG (`FF D8 FF`): the formats pdfkit draws. */
export function isDrawableImage(bytes: Buffer): boolean {
  const type = imageTypeOf(bytes);
  return type === 'image/png' || type === 'image/jpeg';
}

/** An SVG document: an optional XML declaration, comments and doctype, then the `<svg` element. */
const SVG_START = /^\uFEFF?\s*(<\?xml[^>]*>\s*)?(<!--[\s\S]*?-->\s*)*(<!DOCTYPE[^>]*>\s*)?(<!--[\s\S]*?-->\s*)*<svg[\s>]/i;

/** The image format of `bytes` by their first bytes (what a browser's `<img>` shows of an agency's logo), or null. */
export function imageTypeOf(bytes: Buffer): LogoImage['type'] | null {
  if (bytes.length > 8 && bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'image/png';
  if (bytes.length > 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg';
  if (bytes.length > 6 && /^GIF8[79]a$/.test(bytes.subarray(0, 6).toString('latin1'))) return 'image/gif';
  if (bytes.length > 12 && bytes.subarray(0, 4).toString('latin1') === 'RIFF' && bytes.subarray(8, 12).toString('latin1') === 'WEBP') return 'image/webp';
  if (SVG_START.test(bytes.subarray(0, 4096).toString('utf8'))) return 'image/svg+xml';
  return null;
}

async function fetchLogo(url: string): Promise<LogoImage | null> {
  try {
    const res = await guardedFetch(url, { headers: { Accept: 'image/png, image/jpeg, image/gif, image/webp, image/svg+xml' }, signal: AbortSignal.timeout(TIMEOUT_MS) });
    if (res.status !== 200 || !res.body) return null;
    const declared = Number(res.headers.get('content-length') ?? 0);
    if (declared > LOGO_MAX_BYTES) return null;
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
      size += chunk.length;
      if (size > LOGO_MAX_BYTES) return null;
      chunks.push(Buffer.from(chunk));
    }
    const bytes = Buffer.concat(chunks);
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
  if (hit && Date.now() - hit.at < (hit.image ? KEEP_MS : KEEP_MISSING_MS)) return hit.image;
  const image = await fetchLogo(url);
  if (cache.size >= KEPT) cache.delete(cache.keys().next().value!);
  cache.set(url, { at: Date.now(), image });
  return image;
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
