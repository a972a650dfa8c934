import type { Express } from 'express';
import pino from 'pino';
import request from 'supertest';
import type { Clock } from '../../src/domain/clock';
import { getSchema } from '../../src/graphql/schema';
import { createApp } from '../../src/http/app';
import { startMockOAuthServer, type MockOAuthServer } from './mock-oauth-server';

/**
 * One browser on the connect pages, over supertest: it sends each request with the Host of its URL and keeps the
 * cookies it is given per host (never the port) and path, as a browser does, so a test can tell the browser that
 * started a sign-in from another one (a fresh `ConnectBrowser`), and the platform's host from an agency's link domain.
 * URLs are absolute (`http://host/path?query`) or paths on `defaultHost`.
 */
interface StoredCookie {
  value: string;
  path: string;
  /** The raw Set-Cookie line that set it (its attributes, for the tests that check them). */
  line: string;
}

export class ConnectBrowser {
  private jar = new Map<string, Map<string, StoredCookie>>();

  constructor(
    private readonly app: Express,
    private readonly defaultHost: string,
  ) {}

  private target(url: string): { host: string; path: string } {
    if (url.startsWith('/')) return { host: this.defaultHost, path: url };
    const u = new URL(url);
    return { host: u.host, path: `${u.pathname}${u.search}` };
  }

  private cookieHeader(host: string, path: string): string | null {
    const cookies = this.jar.get(hostnameOf(host));
    if (!cookies) return null;
    const pathname = path.split('?')[0];
    const sent = [...cookies.entries()].filter(([, c]) => pathname === c.path || pathname.startsWith(c.path.endsWith('/') ? c.path : `${c.path}/`));
    return sent.length ? sent.map(([name, c]) => `${name}=${c.value}`).join('; ') : null;
  }

  private keep(host: string, setCookie: string | string[] | undefined): void {
    const lines = Array.isArray(setCookie) ? setCookie : setCookie ? [setCookie] : [];
    for (const line of lines) {
      const [pair, ...attrs] = line.split(';').map((s) => s.trim());
      const at = pair.indexOf('=');
      const name = pair.slice(0, at);
      const value = pair.slice(at + 1);
      const attr = (key: string) => attrs.find((a) => a.toLowerCase().startsWith(`${key.toLowerCase()}=`))?.split('=').slice(1).join('=');
      const path = attr('Path') ?? '/';
      const maxAge = attr('Max-Age');
      const expires = attr('Expires');
      const gone = (maxAge !== undefined && Number(maxAge) <= 0) || (expires !== undefined && new Date(expires).getTime() <= Date.now());
      const cookies = this.jar.get(hostnameOf(host)) ?? new Map<string, StoredCookie>();
      if (gone) cookies.delete(name);
      else cookies.set(name, { value, path, line });
      this.jar.set(hostnameOf(host), cookies);
    }
  }

  private async send(method: 'get' | 'post', url: string, form?: Record<string, string>) {
    const { host, path } = this.target(url);
    let req = request(this.app)[method](path).set('Host', host);
    const cookie = this.cookieHeader(host, path);
    if (cookie) req = req.set('Cookie', cookie);
    const res = form ? await req.type('form').send(form) : await req;
    this.keep(host, res.headers['set-cookie'] as unknown as string[] | undefined);
    return res;
  }

  get(url: string) {
    return this.send('get', url);
  }

  post(url: string, form: Record<string, string>) {
    return this.send('post', url, form);
  }

  /** The cookies this browser holds for `host` (name: its Set-Cookie line). */
  cookies(host: string = this.defaultHost): Record<string, string> {
    return Object.fromEntries([...(this.jar.get(hostnameOf(host)) ?? new Map<string, StoredCookie>()).entries()].map(([n, c]) => [n, c.line]));
  }
}

const hostnameOf = (host: string) => host.replace(/:\d+$/, '').toLowerCase();

/**
 * The app of the connect-page tests with Google's sign-in on a mock OAuth 2 server (GOOGLE_AUTH_URL / _TOKEN_URL set to
 * it): what each of those files starts before its tests. `ensureReviewSync` stands in for the review sync's start.
 */
export async function startConnectApp(clock: Clock, ensureReviewSync: (integrationId: number) => Promise<void> = async () => undefined): Promise<{ oauth: MockOAuthServer; app: Express; stop: () => Promise<void> }> {
  const oauth = await startMockOAuthServer();
  process.env.GOOGLE_AUTH_URL = `${oauth.url}/authorize`;
  process.env.GOOGLE_TOKEN_URL = `${oauth.url}/token`;
  const { app, stop } = await createApp({
    config: { RATE_LIMIT_PER_MINUTE: 100_000, BODY_LIMIT: '1mb', TRUST_PROXY: 'false' },
    schema: await getSchema(),
    logger: pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' }),
    clock,
    connectPage: { ensureReviewSync },
  });
  return { oauth, app, stop };
}
