import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import express, { type Request, type RequestHandler, type Response, type Router } from 'express';
import type { Logger } from 'pino';
import { shownBrandOfHost } from '../services/host-brand.service';
import { graphiqlBundle } from './graphiql-bundle';
import { API_REFERENCES, docsMessagePage, PLATFORM_BRAND, referencePage, webhooksGuidePage, type ApiReference, type DocsBrand } from './docs-page.views';
import { webhooksGuideMarkdown } from './webhooks-guide';

/**
 * The developer pages, public and white-label (the brand is the one of the host the request came in on):
 *
 *   GET /docs                   customer API reference (Redoc over GET /api/v1/openapi.json)
 *   GET /docs/agency            agency API reference (Redoc over GET /api/agency/v1/openapi.json)
 *   GET /docs/webhooks          receiver guide: verifying the Standard Webhooks signature, with a test vector
 *   GET /docs/assets/...        Redoc's standalone bundle (from node_modules) and the GraphiQL bundle
 *
 * Nothing is loaded from another origin: the scripts are ours, the documents same-origin.
 */
export interface DocsPageDeps {
  logger: Logger;
  /** The page rate limit (the other public pages' limiter); assets are not counted. */
  pageLimit?: RequestHandler;
}

/**
 * The policy of the developer pages. Scripts and `<style>` elements only with the response's nonce (Redoc and the
 * GraphiQL bundle are told it and stamp it on the styles they add); `style` attributes as on the other pages (both UIs
 * position and size elements with them; they cannot run code); the documents and GraphQL requests same-origin; fonts
 * also from `data:` (GraphiQL's stylesheet embeds its fonts). `worker-src blob:` is the one relaxation, for the
 * reference pages only: Redoc runs its search index in a worker built from a blob of its own bundle.
 */
export function developerPageCsp(nonce: string, opts: { blobWorker?: boolean } = {}): string {
  return [
    "default-src 'none'",
    `script-src 'nonce-${nonce}'`,
    `style-src 'nonce-${nonce}'`,
    "style-src-attr 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self' data:",
    "connect-src 'self'",
    ...(opts.blobWorker ? ['worker-src blob:'] : []),
    "form-action 'none'",
    "frame-ancestors 'none'",
    "base-uri 'none'",
  ].join('; ');
}

/** A fresh nonce and the developer-page CSP on this response; returns the nonce for the template. */
export function developerPageHeaders(res: Response, opts: { blobWorker?: boolean } = {}): string {
  const nonce = randomBytes(16).toString('base64');
  res.set({ 'Content-Security-Policy': developerPageCsp(nonce, opts), 'Cache-Control': 'no-cache' });
  return nonce;
}

/**
 * The brand of the request's host; the platform's on an unknown host or when the lookup fails. Its logo only when the
 * platform can serve it (`shownBrandOfHost`, as the other pages' brands): otherwise the name alone, not a broken image.
 */
export async function requestBrand(req: Request, logger: Logger): Promise<DocsBrand> {
  try {
    return (await shownBrandOfHost(req.hostname ?? '')) ?? PLATFORM_BRAND;
  } catch (err) {
    (req.log ?? logger).error({ err }, 'brand lookup failed');
    return PLATFORM_BRAND;
  }
}

/**
 * Redoc's standalone bundle, as the installed package ships it, with two changes made when it is first read, each at
 * exactly one known place (a Redoc upgrade that moves one fails loudly here, not silently in a browser):
 *
 * - the webpack runtime's style nonce (`__webpack_nonce__`, minified `r.nc`) is the nonce of the `<script>` element
 *   that loads the bundle. Redoc otherwise learns the nonce in `Redoc.init`, after its bundled stylesheets and
 *   styled-components have already added `<style>` elements without one, which the CSP refuses;
 * - its sidebar credit shows an image from the vendor's CDN (always rendered): a white-label page makes no request to
 *   another host, so that URL becomes an empty inline SVG (the credit itself is hidden by the page's style).
 */
const REDOC_PATCHES: [string, string][] = [
  ['r.nc=void 0', 'r.nc=(document.currentScript&&document.currentScript.nonce)||void 0'],
  ['https://cdn.redoc.ly/redoc/logo-mini.svg', "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg'/%3E"],
];

interface Asset {
  body: Buffer;
  type: string;
  version: string;
}

let redoc: Asset | null = null;

export function redocAsset(): Asset {
  if (!redoc) {
    const file = require.resolve('redoc/bundles/redoc.standalone.js');
    const version = (JSON.parse(fs.readFileSync(require.resolve('redoc/package.json'), 'utf8')) as { version: string }).version;
    let text = fs.readFileSync(file, 'utf8');
    for (const [from, to] of REDOC_PATCHES) {
      const parts = text.split(from);
      if (parts.length !== 2) throw new Error(`redoc ${version}: expected one "${from}" in its standalone bundle, found ${parts.length - 1}`);
      text = parts.join(to);
    }
    redoc = { body: Buffer.from(text, 'utf8'), type: 'application/javascript; charset=utf-8', version };
  }
  return redoc;
}

export const REDOC_PATH = '/docs/assets/redoc.standalone.js';
export const GRAPHIQL_SCRIPT_PATH = '/docs/assets/graphiql.js';
export const GRAPHIQL_STYLE_PATH = '/docs/assets/graphiql.css';

function sendAsset(res: Response, asset: { body: Buffer; type: string }, versioned: boolean): void {
  // A versioned URL never changes content; an unversioned one is revalidated soon.
  res.set('Cache-Control', versioned ? 'public, max-age=31536000, immutable' : 'public, max-age=300').type(asset.type).send(asset.body);
}

export function docsPages(deps: DocsPageDeps): Router {
  const router = express.Router();

  router.get('/assets/redoc.standalone.js', (req, res) => {
    const asset = redocAsset();
    sendAsset(res, asset, req.query.v === asset.version);
  });
  router.get(['/assets/graphiql.js', '/assets/graphiql.css'], async (req, res, next) => {
    try {
      const bundle = await graphiqlBundle();
      const css = req.path.endsWith('.css');
      sendAsset(res, { body: css ? bundle.css : bundle.js, type: css ? 'text/css; charset=utf-8' : 'application/javascript; charset=utf-8' }, req.query.v === bundle.version);
    } catch (err) {
      next(err);
    }
  });
  router.use('/assets', (_req, res) => void res.status(404).json({ message: 'Not found.' }));

  if (deps.pageLimit) router.use(deps.pageLimit);

  const reference = (api: ApiReference) => async (req: Request, res: Response) => {
    const brand = await requestBrand(req, deps.logger);
    const nonce = developerPageHeaders(res, { blobWorker: true });
    res.status(200).type('html').send(referencePage({ brand, api, nonce, redocUrl: `${REDOC_PATH}?v=${encodeURIComponent(redocAsset().version)}` }));
  };
  router.get('/', reference(API_REFERENCES.customer));
  router.get('/agency', reference(API_REFERENCES.agency));

  const guide = webhooksGuideMarkdown();
  router.get('/webhooks', async (req, res) => {
    const brand = await requestBrand(req, deps.logger);
    const nonce = developerPageHeaders(res);
    res.status(200).type('html').send(webhooksGuidePage({ brand, nonce, markdown: guide }));
  });

  router.use(async (req, res) => {
    const brand = await requestBrand(req, deps.logger);
    const nonce = developerPageHeaders(res);
    res.status(404).type('html').send(docsMessagePage({ brand, nonce, current: 'customer', title: 'Page not found', message: 'There is no documentation page at this address.' }));
  });
  return router;
}
