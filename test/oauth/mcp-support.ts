import { randomBytes } from 'node:crypto';
import http from 'node:http';
import { User } from '../../src/models';
import { hashPassword } from '../../src/services/admin.service';
import { makeOrganization, makeOrgOwner, makeTenant } from '../support/factories';

/**
 * The browser side of MCP's OAuth flow, over plain HTTP (test/oauth/consent-browser.test.ts drives the same pages in
 * Chromium): a cookie jar, and the walk from an authorization URL through sign-in and consent to the redirect.
 */
export class Browser {
  cookies = new Map<string, string>();
  /** `host`: the Host header to send to our loopback server (a tenant's domain: Node resolves no `*.localhost` names, and fetch sends the URL's host). */
  constructor(private readonly host?: string) {}
  async fetch(url: string, init: RequestInit = {}): Promise<Response> {
    const headers = { ...(init.headers as Record<string, string>), cookie: [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ') };
    const res = this.host ? await viaHost(this.host, url, init.method ?? 'GET', headers, init.body as string | undefined) : await fetch(url, { ...init, redirect: 'manual', headers });
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(';');
      const i = pair.indexOf('=');
      const name = pair.slice(0, i);
      const value = pair.slice(i + 1);
      if (value === '' || /expires=Thu, 01 Jan 1970/i.test(c)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return res;
  }
}

/** One request to the loopback server of `url` with another Host header, answered as fetch answers (no redirect followed). */
function viaHost(host: string, url: string, method: string, headers: Record<string, string>, body?: string): Promise<Response> {
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: '127.0.0.1', port: target.port, path: `${target.pathname}${target.search}`, method, headers: { ...headers, host, ...(body ? { 'content-length': String(Buffer.byteLength(body)) } : {}) } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const out = new Headers();
          for (const [name, value] of Object.entries(res.headers)) for (const v of Array.isArray(value) ? value : value === undefined ? [] : [value]) out.append(name, v);
          const status = res.statusCode ?? 500;
          resolve(new Response([204, 304].includes(status) ? null : Buffer.concat(chunks), { status, headers: out }));
        });
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** A tenant with an organisation owner who has a password, and their organisation "Bakery". */
export async function oauthWorld() {
  const { tenant, owner: tenantOwner } = await makeTenant();
  const owner = await makeOrgOwner(tenant.id);
  const password = `pw-${randomBytes(6).toString('hex')}`;
  await User.update({ passwordHash: await hashPassword(password) }, { where: { id: owner.id } });
  const org = await makeOrganization(owner, 'Bakery');
  return { tenant, tenantOwner, owner, password, org };
}

/**
 * From the authorization URL to the client's redirect: signs in, then answers the consent page with `consent` (form
 * fields). Returns the redirect URL (with `code` or `error`), or the first answer that was neither. `host`: the Host
 * header of every request (see Browser).
 */
export async function walkConsent(origin: string, authorizationUrl: string, opts: { email: string; password: string; redirectUri: string; consent?: Record<string, string | string[]>; host?: string }) {
  const b = new Browser(opts.host);
  let res = await b.fetch(authorizationUrl);
  for (let hops = 0; hops < 10; hops++) {
    if (res.status !== 303 && res.status !== 302) return { error: res };
    const location = new URL(res.headers.get('location')!, origin).toString();
    if (location.startsWith(opts.redirectUri)) return { redirect: new URL(location) };
    res = await b.fetch(location);
    if (res.status !== 200) continue;
    const page = await res.text();
    const login = /\/oauth\/interaction\/([^/"]+)\/login/.exec(page);
    if (login) {
      res = await b.fetch(`${origin}/oauth/interaction/${login[1]}/login`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ email: opts.email, password: opts.password }).toString() });
      continue;
    }
    const confirm = /\/oauth\/interaction\/([^/"]+)\/confirm/.exec(page);
    if (!confirm) throw new Error(`neither sign-in nor consent: ${page.slice(0, 200)}`);
    const form = new URLSearchParams();
    for (const [k, v] of Object.entries(opts.consent ?? { scope: ['mcp:writes'], organizations: 'all' })) for (const x of Array.isArray(v) ? v : [v]) form.append(k, x);
    res = await b.fetch(`${origin}/oauth/interaction/${confirm[1]}/confirm`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: form.toString() });
  }
  throw new Error('too many redirects');
}
