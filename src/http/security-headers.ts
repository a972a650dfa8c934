import { randomBytes } from 'node:crypto';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import cors from 'cors';
import helmet from 'helmet';
import { loadConfig, type Config } from '../config';

/**
 * Security headers (helmet) for every answer, and a per-response Content-Security-Policy for the HTML pages.
 *
 * Every answer: `X-Content-Type-Options: nosniff`, `X-Frame-Options: DENY`, `Referrer-Policy: no-referrer` (the
 * pages carry tokens in their URLs), `Cross-Origin-Opener-Policy: same-origin`, a CSP that loads nothing
 * (`default-src 'none'; frame-ancestors 'none'`) on JSON answers, and HSTS only when `PUBLIC_URL` is https (a plain
 * http installation must stay reachable). `Cross-Origin-Resource-Policy` is `cross-origin`: avatars, logos and
 * source icons are embedded by integrators' pages and mail.
 *
 * HTML pages: no script at all; styles from the page's own `<style>` elements, admitted by a fresh nonce per
 * response, and `style` attributes (bar widths, legend swatches) through `style-src-attr 'unsafe-inline'`, which
 * cannot run code; images from the same origin (uploaded logos, avatars), `data:` and https (an agency's logo URL on
 * its own site); forms post to the same origin, and the
 * connect page's sign-in form may be redirected to the providers' authorization endpoints.
 */

export type HeaderConfig = Partial<Pick<Config, 'PUBLIC_URL'>>;

const JSON_CSP = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'";

export function securityHeaders(config: HeaderConfig): RequestHandler {
  const https = (config.PUBLIC_URL ?? '').startsWith('https://');
  return helmet({
    contentSecurityPolicy: false,
    strictTransportSecurity: https ? { maxAge: 31_536_000, includeSubDomains: true } : false,
    referrerPolicy: { policy: 'no-referrer' },
    xFrameOptions: { action: 'deny' },
    crossOriginResourcePolicy: { policy: 'cross-origin' },
    crossOriginOpenerPolicy: { policy: 'same-origin' },
    crossOriginEmbedderPolicy: false,
  }) as RequestHandler;
}

/** The restrictive CSP of non-HTML answers (a JSON body opened in a browser runs and loads nothing). */
export function defaultCsp(): RequestHandler {
  return (_req, res, next) => {
    res.setHeader('Content-Security-Policy', JSON_CSP);
    next();
  };
}

function originOf(url: string | undefined): string | null {
  try {
    return url ? new URL(url).origin : null;
  } catch {
    return null;
  }
}

/** The CSP of an HTML page with the given style nonce. */
export function pageCsp(nonce: string, formTargets: readonly string[] = []): string {
  return [
    "default-src 'none'",
    "script-src 'none'",
    `style-src 'nonce-${nonce}'`,
    "style-src-attr 'unsafe-inline'",
    // Images from the platform's own host only: a brand's logo too (`/brand/logo/<key>`), never the agency's.
    "img-src 'self' data:",
    "font-src 'self'",
    `form-action 'self'${formTargets.length ? ` ${formTargets.join(' ')}` : ''}`,
    "frame-ancestors 'none'",
    "base-uri 'none'",
  ].join('; ');
}

/**
 * Page routers: a nonce per response, set in the CSP header and on the page's `<style>` elements when the HTML is
 * sent (the pages' components write it themselves, on the reports' ECharts SVG too; the simulators' pages write a
 * bare `<style>`, which escaped text never contains). `connect` adds the providers'
 * authorization origins to `form-action` (read per request, like the rest of the configuration).
 */
export function pageSecurity(opts: { connect?: boolean } = {}): RequestHandler {
  return (_req: Request, res: Response, next: NextFunction) => {
    const nonce = randomBytes(16).toString('base64');
    let targets: string[] = [];
    if (opts.connect) {
      const config = loadConfig();
      targets = [originOf(config.GOOGLE_AUTH_URL), originOf(config.FACEBOOK_AUTH_URL)].filter((o): o is string => !!o);
    }
    res.setHeader('Content-Security-Policy', pageCsp(nonce, [...new Set(targets)]));
    // The pages rendered by facades/pages write it on their `<style>` elements themselves.
    res.locals.cspNonce = nonce;
    const send = res.send.bind(res);
    res.send = ((body?: unknown) => {
      if (typeof body === 'string' && /html/.test(String(res.getHeader('Content-Type') ?? ''))) {
        body = body.replace(/<style\s*>/g, `<style nonce="${nonce}">`);
      }
      return send(body);
    }) as Response['send'];
    next();
  };
}

/**
 * CORS of the APIs (REST, GraphQL, MCP): origins from `CORS_ORIGINS` only; none by default. The APIs authenticate
 * by bearer token, never by cookie, so credentials are not allowed. A preflight is answered 204 either way; without
 * an allowed origin it carries no `Access-Control-Allow-Origin`, and the browser refuses the call.
 */
export function apiCors(origins: string | undefined): RequestHandler {
  const list = (origins ?? '').split(',').map((o) => o.trim()).filter(Boolean);
  const any = list.includes('*');
  const handler = cors({
    origin: any ? '*' : list.length ? list : false,
    credentials: false,
    methods: ['GET', 'POST', 'PUT', 'DELETE', 'OPTIONS'],
    allowedHeaders: ['Authorization', 'Content-Type', 'Accept', 'X-Request-Id', 'Idempotency-Key', 'Mcp-Session-Id', 'MCP-Protocol-Version', 'Last-Event-ID'],
    exposedHeaders: ['X-Request-Id', 'Retry-After', 'RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset', 'Mcp-Session-Id', 'WWW-Authenticate'],
    maxAge: 600,
    optionsSuccessStatus: 204,
  });
  // `cors` passes a preflight of an origin it refuses on to the routes (401/404); answer every preflight alike.
  return (req, res, next) => handler(req, res, () => (req.method === 'OPTIONS' ? void res.status(204).end() : next()));
}
