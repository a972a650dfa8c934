import { guardedFetch } from '../net/guarded-fetch';

/**
 * The agency's logo for the PDFs (the pages show it with `<img>`): fetched once from `tenants.logo_url` through the
 * guarded client (http(s) only, no redirects, private addresses refused unless WEBHOOK_ALLOW_PRIVATE_URLS), PNG or
 * JPEG only (checked by its first bytes, not by what the server says), at most 512 KB, within 3 s, and kept for ten
 * minutes. Anything else draws the PDF with the agency's name alone: a logo never fails a report.
 */

export const LOGO_MAX_BYTES = 512 * 1024;
const TIMEOUT_MS = 3_000;
const KEEP_MS = 10 * 60_000;
/** A logo that could not be had is asked for again sooner (the agency's server may have been down for a moment). */
const KEEP_MISSING_MS = 60_000;
const KEPT = 50;

const cache = new Map<string, { at: number; image: Buffer | null }>();

/** PNG (`\x89PNG\r\n\x1a\n`) or JPEG (`FF D8 FF`): the formats pdfkit draws. */
export function isDrawableImage(bytes: Buffer): boolean {
  const png = bytes.length > 8 && bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
  const jpeg = bytes.length > 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff;
  return png || jpeg;
}

async function fetchLogo(url: string): Promise<Buffer | null> {
  try {
    const res = await guardedFetch(url, { headers: { Accept: 'image/png, image/jpeg' }, signal: AbortSignal.timeout(TIMEOUT_MS) });
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
    const image = Buffer.concat(chunks);
    return isDrawableImage(image) ? image : null;
  } catch {
    return null;
  }
}

/** The logo's bytes for a PDF, or null (no logo, unreachable, not PNG/JPEG, too large). */
export async function logoImage(url: string | null | undefined): Promise<Buffer | null> {
  if (!url || !/^https?:\/\//i.test(url)) return null;
  const hit = cache.get(url);
  if (hit && Date.now() - hit.at < (hit.image ? KEEP_MS : KEEP_MISSING_MS)) return hit.image;
  const image = await fetchLogo(url);
  if (cache.size >= KEPT) cache.delete(cache.keys().next().value!);
  cache.set(url, { at: Date.now(), image });
  return image;
}
