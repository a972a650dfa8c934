import { createHash, randomUUID } from 'node:crypto';
import type createDOMPurify from 'dompurify';
import type { JSDOM as JSDOMClass } from 'jsdom';
import { Validation } from '../domain/errors';
import { MAX_IMAGE_BYTES } from '../domain/limits';
import { StoredFile } from '../models';
import { isSvgDocument } from '../reports/logo';
import type { ServiceOptions } from './common';
import { svgLimitBreach } from './svg-shape';

const ALLOWED = ['png', 'jpg', 'jpeg', 'svg'] as const;
type Kind = 'png' | 'jpeg' | 'svg';
const CONTENT_TYPES: Record<Kind, string> = { png: 'image/png', jpeg: 'image/jpeg', svg: 'image/svg+xml' };

export interface UploadInput {
  filename: string;
  /** The bytes, base64-encoded: uploads travel through the in-process GraphQL call as a string. */
  base64: string;
}

/** Sniffs the content: the extension alone is never trusted. */
function sniff(bytes: Buffer): Kind | null {
  if (bytes.length >= 8 && bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) {
    return 'png';
  }
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'jpeg';
  // The linear scan of src/reports/logo.ts (prolog, comments and doctype, then `<svg`): a regular expression with a
  // repeated lazy comment group backtracked exponentially here, so a 281-byte logo.svg of `<!---->` x 40 and an `x`
  // held the API process for minutes.
  return isSvgDocument(bytes.subarray(0, 1024).toString('utf8')) ? 'svg' : null;
}

let purifier: ReturnType<typeof createDOMPurify> | null = null;

/**
 * The XML parser keeps SVG's camelCase names, which DOMPurify's (lower-case) SVG allow-lists never match: without these,
 * `viewBox`, gradients and clip paths are stripped. Only names whose lower-case form DOMPurify already allows.
 */
const SVG_CAMEL_TAGS = [
  'altGlyph', 'altGlyphDef', 'altGlyphItem', 'animateColor', 'animateMotion', 'animateTransform', 'clipPath', 'glyphRef',
  'linearGradient', 'radialGradient', 'textPath',
  // Filter primitives (the svgFilters profile, lower-cased by DOMPurify); feImage stays out: it loads images.
  'feBlend', 'feColorMatrix', 'feComponentTransfer', 'feComposite', 'feConvolveMatrix', 'feDiffuseLighting', 'feDisplacementMap',
  'feDistantLight', 'feDropShadow', 'feFlood', 'feFuncA', 'feFuncB', 'feFuncG', 'feFuncR', 'feGaussianBlur', 'feMerge', 'feMergeNode',
  'feMorphology', 'feOffset', 'fePointLight', 'feSpecularLighting', 'feSpotLight', 'feTile', 'feTurbulence',
];
const SVG_CAMEL_ATTRS = [
  'attributeName', 'attributeType', 'baseFrequency', 'clipPathUnits', 'diffuseConstant', 'edgeMode', 'filterUnits', 'glyphRef',
  'gradientTransform', 'gradientUnits', 'kernelMatrix', 'kernelUnitLength', 'keyPoints', 'keySplines', 'keyTimes', 'lengthAdjust',
  'markerHeight', 'markerUnits', 'markerWidth', 'maskContentUnits', 'maskUnits', 'numOctaves', 'pathLength', 'patternContentUnits',
  'patternTransform', 'patternUnits', 'preserveAlpha', 'preserveAspectRatio', 'primitiveUnits', 'refX', 'refY', 'repeatCount',
  'repeatDur', 'specularConstant', 'specularExponent', 'spreadMethod', 'startOffset', 'stdDeviation', 'stitchTiles', 'surfaceScale',
  'systemLanguage', 'tableValues', 'targetX', 'targetY', 'textLength', 'viewBox', 'xChannelSelector', 'yChannelSelector', 'zoomAndPan',
];

/**
 * jsdom and DOMPurify, required at the first SVG upload: loading jsdom took about 0.4 s of every API and worker
 * process's start (the worker reaches this module through the review services) and its heap, for uploads only.
 */
function svgLibs(): { JSDOM: typeof JSDOMClass; createDOMPurify: typeof createDOMPurify } {
  /* eslint-disable @typescript-eslint/no-require-imports */
  return { JSDOM: (require('jsdom') as { JSDOM: typeof JSDOMClass }).JSDOM, createDOMPurify: require('dompurify') as typeof createDOMPurify };
  /* eslint-enable @typescript-eslint/no-require-imports */
}

function svgPurifier(): ReturnType<typeof createDOMPurify> {
  if (purifier) return purifier;
  const { JSDOM, createDOMPurify } = svgLibs();
  const { window } = new JSDOM('');
  const p = createDOMPurify(window as unknown as Parameters<typeof createDOMPurify>[0]);
  p.addHook('uponSanitizeAttribute', (_node, data) => {
    const name = data.attrName.toLowerCase();
    const value = data.attrValue.trim();
    // Only same-document references survive: no external images, fonts, stylesheets or scripts.
    if ((name === 'href' || name === 'xlink:href' || name === 'src') && !value.startsWith('#')) data.keepAttr = false;
    // CSS can reach out in many spellings (url(), image-set(), escapes such as \75 rl()): only plain
    // same-document url(#id) references are kept, and any value with a CSS escape is dropped.
    if (/url\s*\(\s*['"]?(?!#)/i.test(value) || /@import|image-set|image\s*\(|expression\s*\(|\\/i.test(value)) data.keepAttr = false;
  });
  purifier = p;
  return p;
}

/**
 * The SVG text the sanitiser parses: an XML declaration, comments or a doctype (and its entities) before the root
 * element make it answer nothing, so the prolog that editors export is dropped first.
 */
function svgRoot(svg: string): string {
  return svg.replace(/^\uFEFF/, '').replace(/^\s*(?:<\?xml[^>]*\?>\s*)?(?:(?:<!--[\s\S]*?-->|<!DOCTYPE\s[^>[]*(?:\[[\s\S]*?\])?\s*>)\s*)*/i, '');
}

/**
 * Removes scripts, event handlers, foreign objects, style sheets and external references from an SVG's text (after
 * `svgRoot`), or null when the sanitiser cannot read it. Only for text within `SVG_LIMITS` (src/services/svg-shape.ts):
 * the parse grows with the nesting (30,000 nested groups took 79 s).
 */
function purify(root: string): string | null {
  const clean = svgPurifier().sanitize(root, {
    USE_PROFILES: { svg: true, svgFilters: true },
    FORBID_TAGS: ['style', 'foreignObject', 'script', 'image', 'a'],
    ADD_TAGS: SVG_CAMEL_TAGS,
    ADD_ATTR: SVG_CAMEL_ATTRS,
    NAMESPACE: 'http://www.w3.org/2000/svg',
    PARSER_MEDIA_TYPE: 'application/xhtml+xml',
  });
  const out = String(clean).trim();
  return /^<svg[\s>]/i.test(out) ? out : null;
}

/**
 * An upload checked and ready to store, or the 422 it gets. Made by `prepareImage` before the caller opens its
 * transaction (sanitising an SVG takes up to about a second, which no transaction should be held open for); the error is
 * thrown by `saveImage`, where the caller stores the file, so the caller's other checks keep coming first.
 */
export type PreparedImage =
  | { error: Validation }
  | { error?: undefined; purpose: string; filename: string; contentType: string; content: Buffer };

/**
 * Validates an uploaded image (png/jpg/jpeg/svg, at most 250 KB, content matching the name; an SVG within
 * `SVG_LIMITS`, then sanitised). Never throws a validation error: it is kept in the result for `saveImage`.
 */
export function prepareImage(field: string, purpose: string, upload: UploadInput): PreparedImage {
  const fail = (message: string): PreparedImage => ({ error: new Validation({ [field]: [message] }) });
  const bytes = Buffer.from(upload.base64, 'base64');
  const ext = upload.filename.toLowerCase().split('.').pop() ?? '';
  if (!(ALLOWED as readonly string[]).includes(ext)) return fail(`The ${field} must be a file of type: ${ALLOWED.join(', ')}.`);
  if (bytes.length > MAX_IMAGE_BYTES) return fail(`The ${field} must not be greater than 250 kilobytes.`);
  if (bytes.length === 0) return fail(`The ${field} failed to upload.`);
  const expected: Kind = ext === 'png' ? 'png' : ext === 'svg' ? 'svg' : 'jpeg';
  const actual = sniff(bytes);
  if (actual !== expected) return fail(`The ${field} content does not match a ${ext} image.`);
  let content = bytes;
  if (expected === 'svg') {
    // Measured before anything parses it: the parse of a deeply nested SVG took minutes.
    const root = svgRoot(bytes.toString('utf8'));
    const breach = svgLimitBreach(root);
    if (breach) return fail(`The ${field} ${breach}.`);
    const clean = purify(root);
    if (!clean) return fail(`The ${field} is not a valid SVG image.`);
    content = Buffer.from(clean, 'utf8');
  }
  return { purpose, filename: upload.filename.slice(0, 255), contentType: CONTENT_TYPES[expected], content };
}

/** Stores an image `prepareImage` accepted, or throws the 422 it was refused with. */
export async function saveImage(tenantId: number, prepared: PreparedImage, opts: ServiceOptions = {}): Promise<StoredFile> {
  if (prepared.error) throw prepared.error;
  const { purpose, filename, contentType, content } = prepared;
  return StoredFile.create(
    {
      id: randomUUID(),
      tenantId,
      purpose,
      filename,
      contentType,
      size: content.length,
      sha256: createHash('sha256').update(content).digest('hex'),
      content,
    },
    { transaction: opts.transaction },
  );
}

/** Public read of a stored file by its unguessable id (avatars and logos are shown on public pages). */
export async function findFile(id: string): Promise<StoredFile | null> {
  if (!/^[0-9a-f-]{36}$/.test(id)) return null;
  return StoredFile.findByPk(id);
}
