import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { useEnv } from './env';
import { solidPng } from './png';

/**
 * An agency's logo server on loopback for the page tests: a real small PNG at `/logo.png`, 404 for anything else.
 * The platform fetches a tenant's logo itself (src/reports/logo.ts) and a page shows it only when it could
 * (`shownLogoUrl`), from its own `/brand/logo/<key>`; the guarded client refuses loopback unless
 * WEBHOOK_ALLOW_PRIVATE_URLS, which this sets for the describe block. Every URL it hands out is new (a query of its
 * own), so no fetch an earlier test made is remembered for it.
 */
export function useAgencyLogo(): {
  /** A logo URL the platform can fetch: the PNG. */
  reachable: () => string;
  /** A logo URL the platform cannot have: the server answers 404. */
  unreachable: () => string;
  png: Buffer;
  /** How many times the server was asked for `url` (one handed out above). */
  fetches: (url: string) => number;
} {
  useEnv({ WEBHOOK_ALLOW_PRIVATE_URLS: 'true' });
  const png = solidPng(24, 12, [10, 120, 200]);
  let server: http.Server;
  let base = '';
  const asked = new Map<string, number>();
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      asked.set(req.url!, (asked.get(req.url!) ?? 0) + 1);
      if (new URL(req.url!, 'http://logo').pathname === '/logo.png') return void res.writeHead(200, { 'Content-Type': 'image/png' }).end(png);
      res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
  const fresh = () => randomBytes(4).toString('hex');
  return {
    reachable: () => `${base}/logo.png?v=${fresh()}`,
    unreachable: () => `${base}/gone.png?v=${fresh()}`,
    png,
    fetches: (url) => asked.get(url.slice(base.length)) ?? 0,
  };
}
