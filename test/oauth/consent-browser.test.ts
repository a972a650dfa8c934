import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { QueryTypes } from 'sequelize';
import { User } from '../../src/models';
import { hashPassword } from '../../src/services/admin.service';
import { serveApp, type ServedApp } from '../support/app';
import { launchChromium } from '../support/browser';
import { useDatabase } from '../support/db';
import { useEnv } from '../support/env';
import { makeOrganization, makeOrgOwner } from '../support/factories';
import { brandedTenant, watchedPage } from '../http/page-watch';

/**
 * The sign-in and consent pages of MCP's OAuth flow in a real browser (issue 16 item 3), on a tenant's white-label
 * domain: the tenant's brand, no request to another host, no CSP violation, and the code that comes back works at the
 * MCP endpoint of that domain only.
 */
describe('MCP OAuth consent in Chromium', () => {
  useDatabase();
  // The tenant's logo (brandedTenant) is served by this app on loopback, which the guarded client refuses unless told
  // otherwise: the platform then serves it from `/brand/logo/<key>` as it does an agency's logo on the internet.
  useEnv({ WEBHOOK_ALLOW_PRIVATE_URLS: 'true' });
  let app: ServedApp;
  let browser: Browser;
  let callback: http.Server;
  let callbackUrl = '';
  beforeAll(async () => {
    app = await serveApp();
    browser = await launchChromium();
    // The AI client's redirect URI: a page that just says it got the code.
    callback = http.createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end('signed in'));
    await new Promise<void>((r) => callback.listen(0, '127.0.0.1', r));
    callbackUrl = `http://127.0.0.1:${(callback.address() as AddressInfo).port}/callback`;
  });
  afterAll(async () => {
    await browser?.close();
    await new Promise<void>((r) => callback.close(() => r()));
    await app.close();
  });

  /** A request to our server with the tenant's Host (Node does not resolve `*.localhost` names). */
  function request(host: string, method: string, pathname: string, body?: string, headers: Record<string, string> = {}): Promise<{ status: number; json: Record<string, unknown> }> {
    const url = new URL(app.origin);
    return new Promise((resolve, reject) => {
      const req = http.request({ host: '127.0.0.1', port: url.port, path: pathname, method, headers: { host, ...headers, ...(body ? { 'content-length': Buffer.byteLength(body) } : {}) } }, (res) => {
        let text = '';
        res.on('data', (d) => (text += d));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, json: text ? (JSON.parse(text) as Record<string, unknown>) : {} }));
      });
      req.on('error', reject);
      req.end(body);
    });
  }

  it('signs in and consents on the tenant-branded pages, and the code works at that domain only', async () => {
    const port = Number(new URL(app.origin).port);
    const t = await brandedTenant(port);
    const password = `pw-${randomBytes(6).toString('hex')}`;
    await User.update({ passwordHash: await hashPassword(password) }, { where: { id: t.owner.id } });
    const org = await makeOrganization(t.owner, 'Harbour Dental');
    const host = `${t.host}:${port}`;

    const reg = await request(host, 'POST', '/oauth/reg', JSON.stringify({ client_name: 'Claude', redirect_uris: [callbackUrl], token_endpoint_auth_method: 'none' }), { 'content-type': 'application/json' });
    expect(reg.status).toBe(201);
    const verifier = randomBytes(32).toString('base64url');
    const challenge = createHash('sha256').update(verifier).digest('base64url');
    const q = new URLSearchParams({ client_id: String(reg.json.client_id), response_type: 'code', redirect_uri: callbackUrl, scope: 'mcp:access mcp:writes reviews:pii', state: 's1', code_challenge: challenge, code_challenge_method: 'S256' });

    const w = await watchedPage(browser, [t.host]);
    await w.page.goto(`${t.origin}/oauth/auth?${q}`);
    // Sign-in: the tenant's brand, not the platform's.
    expect(await w.page.title()).toContain(t.brandName);
    expect(await w.page.locator('.brand').textContent()).toContain(t.brandName);
    await w.page.fill('#email', t.owner.email);
    await w.page.fill('#password', password);
    await w.page.click('button[type=submit]:has-text("Sign in")');
    // Consent: the client named by where Allow goes (it states no client_uri there), who is signed in, the organisation;
    // writes and personal data unticked although the client asked for them, no organisations choice made: the user
    // ticks writes and chooses.
    await w.page.waitForSelector('text=It calls itself Claude');
    expect(await w.page.locator('.brand').textContent()).toContain(t.brandName);
    expect(await w.page.locator('.account').textContent()).toContain(`Signed in as ${t.owner.email}`);
    expect(await w.page.locator('.destination').textContent()).toBe(`After you allow it, you go to ${new URL(callbackUrl).host}`);
    expect(await w.page.locator('label', { hasText: 'Harbour Dental' }).isVisible()).toBe(true);
    expect(await w.page.isChecked('input[name=scope][value="mcp:access"]')).toBe(true);
    expect(await w.page.isChecked('input[name=scope][value="mcp:writes"]')).toBe(false);
    expect(await w.page.isChecked('input[name=scope][value="reviews:pii"]')).toBe(false);
    expect(await w.page.locator('input[name=organizations]:checked').count()).toBe(0);
    // Allow without an organisations choice stays on the page (the browser asks for one).
    await w.page.click('button:has-text("Allow")');
    expect(await w.page.locator('h1').textContent()).toBe(`Allow the app at ${new URL(callbackUrl).host}?`);
    await w.page.check('input[name=scope][value="mcp:writes"]');
    await w.page.check('input[name=organizations][value=all]');
    // The logo is shown, from the platform's own host, and it loaded (a broken image would show its alt text).
    const logo = w.page.locator('.brand img');
    expect(await logo.getAttribute('src')).toMatch(/^\/brand\/logo\/[0-9a-f]{32}$/);
    expect(await logo.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
    fs.mkdirSync(path.resolve(__dirname, '..', '..', 'artifacts'), { recursive: true });
    await w.page.screenshot({ path: path.resolve(__dirname, '..', '..', 'artifacts', 'oauth-consent.png'), fullPage: true });
    await Promise.all([w.page.waitForURL((u) => u.toString().startsWith(callbackUrl)), w.page.click('button:has-text("Allow")')]);
    const back = new URL(w.page.url());
    expect(back.searchParams.get('state')).toBe('s1');
    const code = back.searchParams.get('code')!;
    expect(w.foreign()).toEqual([]);
    expect(w.violations).toEqual([]);

    const issued = await request(
      host,
      'POST',
      '/oauth/token',
      new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: callbackUrl, client_id: String(reg.json.client_id), code_verifier: verifier }).toString(),
      { 'content-type': 'application/x-www-form-urlencoded' },
    );
    expect(issued.status).toBe(200);
    expect(String(issued.json.scope).split(' ').sort()).toEqual(['mcp:access', 'mcp:writes']);
    const mcp = (h: string) =>
      request(h, 'POST', '/api/mcp', JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'list_organizations', arguments: {} } }), {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        authorization: `Bearer ${String(issued.json.access_token)}`,
      });
    const own = await mcp(host);
    expect(own.status).toBe(200);
    expect(JSON.stringify(own.json)).toContain('Harbour Dental');
    void org;
    // The same token at the platform's host (another resource) is refused.
    expect((await mcp(`127.0.0.1:${port}`)).status).toBe(401);
    await w.page.context().close();
  });

  it('shows the brand name alone when the logo cannot be served (the guarded client refuses its URL), not a broken image', async () => {
    const port = Number(new URL(app.origin).port);
    const t = await brandedTenant(port);
    // A logo on loopback without WEBHOOK_ALLOW_PRIVATE_URLS: `/brand/logo/<key>` answers 404 for it. A URL of its own,
    // so no earlier fetch of it is remembered.
    const logoUrl = `http://127.0.0.1:${port}/avatars/placeholder.svg?name=${randomBytes(4).toString('hex')}`;
    await t.tenant.update({ logoUrl });
    const allowed = process.env.WEBHOOK_ALLOW_PRIVATE_URLS;
    delete process.env.WEBHOOK_ALLOW_PRIVATE_URLS;
    try {
      const w = await watchedPage(browser, [t.host]);
      const logoAnswers: number[] = [];
      w.page.on('response', (r) => void (new URL(r.url()).pathname.startsWith('/brand/logo/') && logoAnswers.push(r.status())));
      await w.page.goto(await authorizationUrl(t, callbackUrl));
      await w.page.waitForSelector('#password');
      expect(await w.page.locator('.brand img').count()).toBe(0);
      expect((await w.page.locator('.brand').textContent())?.trim()).toBe(t.brandName);
      expect(logoAnswers).toEqual([]);
      expect(w.violations).toEqual([]);
      await w.page.context().close();
    } finally {
      if (allowed === undefined) delete process.env.WEBHOOK_ALLOW_PRIVATE_URLS;
      else process.env.WEBHOOK_ALLOW_PRIVATE_URLS = allowed;
    }
  });

  /** A client registered on the tenant's domain and its authorization URL (PKCE; the verifier is not needed here). */
  async function authorizationUrl(t: { host: string; origin: string }, redirectUri: string, extra: Record<string, string> = {}) {
    const port = Number(new URL(app.origin).port);
    const native = !redirectUri.startsWith('http') ? { application_type: 'native' } : {};
    const reg = await request(`${t.host}:${port}`, 'POST', '/oauth/reg', JSON.stringify({ client_name: 'Claude', redirect_uris: [redirectUri], token_endpoint_auth_method: 'none', ...native }), {
      'content-type': 'application/json',
    });
    expect(reg.status).toBe(201);
    const q = new URLSearchParams({ client_id: String(reg.json.client_id), response_type: 'code', redirect_uri: redirectUri, scope: 'mcp:access', state: 's3', code_challenge: randomBytes(32).toString('base64url'), code_challenge_method: 'S256', ...extra });
    return `${t.origin}/oauth/auth?${q}`;
  }

  async function withPassword(t: Awaited<ReturnType<typeof brandedTenant>>) {
    const password = `pw-${randomBytes(6).toString('hex')}`;
    await User.update({ passwordHash: await hashPassword(password) }, { where: { id: t.owner.id } });
    return password;
  }

  it('Cancel on the sign-in page takes the user back to the client with error=access_denied, and Back then shows the expired page in the brand', async () => {
    const t = await brandedTenant(Number(new URL(app.origin).port));
    const w = await watchedPage(browser, [t.host]);
    const page = await w.page.goto(await authorizationUrl(t, callbackUrl));
    // The redirect after the form (303 to /oauth/auth/{uid}, 303 to the client) must be allowed by form-action.
    expect(page!.headers()['content-security-policy']).toContain(`form-action 'self' ${new URL(callbackUrl).origin};`);
    await Promise.all([w.page.waitForURL((u) => u.toString().startsWith(callbackUrl)), w.page.click('button:has-text("Cancel")')]);
    const back = new URL(w.page.url());
    expect(back.searchParams.get('error')).toBe('access_denied');
    expect(back.searchParams.get('state')).toBe('s3');
    expect(w.violations).toEqual([]);

    const again = await w.page.goBack();
    expect(again!.status()).toBe(400);
    expect(await w.page.textContent('h1')).toBe('This sign-in has expired or is no longer valid');
    expect(await w.page.textContent('body')).toContain('Start again from your AI app.');
    expect(await w.page.locator('.brand').textContent()).toContain(t.brandName);
    expect(w.foreign()).toEqual([]);
    expect(w.violations).toEqual([]);
    await w.page.screenshot({ path: path.resolve(__dirname, '..', '..', 'artifacts', 'oauth-sign-in-expired.png'), fullPage: true });
    await w.page.context().close();
  });

  it('asks for consent again after signing in again (prompt=login, consented before), starting from the choice made', async () => {
    const t = await brandedTenant(Number(new URL(app.origin).port));
    const password = await withPassword(t);
    const w = await watchedPage(browser, [t.host]);
    const url = await authorizationUrl(t, callbackUrl);
    const signIn = async () => {
      await w.page.fill('#email', t.owner.email);
      await w.page.fill('#password', password);
      await w.page.click('button[type=submit]:has-text("Sign in")');
    };
    await w.page.goto(url);
    await signIn();
    await w.page.waitForSelector('text=It calls itself Claude');
    await w.page.check('input[name=organizations][value=all]');
    await Promise.all([w.page.waitForURL((u) => u.toString().startsWith(callbackUrl)), w.page.click('button:has-text("Allow")')]);

    await w.page.goto(`${url}&prompt=login`);
    await w.page.waitForSelector('#password');
    await signIn();
    await w.page.waitForSelector('text=It calls itself Claude');
    expect(await w.page.isChecked('input[name=organizations][value=all]')).toBe(true);
    await Promise.all([w.page.waitForURL((u) => u.toString().startsWith(callbackUrl)), w.page.click('button:has-text("Allow")')]);
    expect(new URL(w.page.url()).searchParams.get('code')).toEqual(expect.any(String));
    expect(w.violations).toEqual([]);
    await w.page.context().close();
  });

  it('lets a native client with a custom-scheme redirect URI finish: the pages admit the scheme and Allow heads for it', async () => {
    const t = await brandedTenant(Number(new URL(app.origin).port));
    const password = await withPassword(t);
    const redirectUri = 'cursor://anysphere.cursor-mcp/oauth/callback';
    const w = await watchedPage(browser, [t.host]);
    const signInPage = await w.page.goto(await authorizationUrl(t, redirectUri));
    expect(signInPage!.headers()['content-security-policy']).toContain("form-action 'self' cursor:;");
    await w.page.fill('#email', t.owner.email);
    await w.page.fill('#password', password);
    const [consent] = await Promise.all([w.page.waitForResponse((r) => r.request().isNavigationRequest() && r.status() === 200), w.page.click('button[type=submit]:has-text("Sign in")')]);
    expect(consent.headers()['content-security-policy']).toContain("form-action 'self' cursor:;");
    await w.page.waitForSelector('text=It calls itself Claude');
    expect(await w.page.locator('.destination strong').textContent()).toBe('cursor://anysphere.cursor-mcp');
    await w.page.check('input[name=organizations][value=all]');
    // Chromium cannot open the app (no handler for the scheme): the navigation towards it is what shows CSP let it go.
    const towards = w.page.waitForEvent('request', (r) => r.url().startsWith(`${redirectUri}?code=`));
    await w.page.click('button:has-text("Allow")');
    expect(new URL((await towards).url()).searchParams.get('state')).toBe('s3');
    expect(w.violations).toEqual([]);
    await w.page.context().close();
  });

  it('"Not you?" on the consent page signs the account out and asks who signs in; the grant is then the other account\'s', async () => {
    const t = await brandedTenant(Number(new URL(app.origin).port));
    const password = await withPassword(t);
    const colleague = await makeOrgOwner(t.tenant.id);
    await User.update({ passwordHash: await hashPassword(password) }, { where: { id: colleague.id } });
    const w = await watchedPage(browser, [t.host]);
    await w.page.goto(await authorizationUrl(t, callbackUrl));
    const signIn = async (email: string) => {
      await w.page.fill('#email', email);
      await w.page.fill('#password', password);
      await w.page.click('button[type=submit]:has-text("Sign in")');
      await w.page.waitForSelector('text=It calls itself Claude');
    };
    await signIn(t.owner.email);
    expect(await w.page.locator('.account').textContent()).toContain(`Signed in as ${t.owner.email}`);
    await w.page.click('button:has-text("Not you? Use another account")');
    await w.page.waitForSelector('#password');
    expect(await w.page.locator('h1').textContent()).toBe('Sign in to continue');
    expect(await w.page.locator('.brand').textContent()).toContain(t.brandName);
    await signIn(colleague.email);
    expect(await w.page.locator('.account').textContent()).toContain(`Signed in as ${colleague.email}`);
    await w.page.check('input[name=organizations][value=all]');
    await Promise.all([w.page.waitForURL((u) => u.toString().startsWith(callbackUrl)), w.page.click('button:has-text("Allow")')]);
    expect(new URL(w.page.url()).searchParams.get('state')).toBe('s3');
    const grants = await User.sequelize!.query<{ userId: number }>('SELECT user_id AS userId FROM mcp_authorizations WHERE tenant_id = ?', { replacements: [t.tenant.id], type: QueryTypes.SELECT });
    expect(grants).toEqual([{ userId: colleague.id }]);
    expect(w.foreign()).toEqual([]);
    expect(w.violations).toEqual([]);
    await w.page.context().close();
  });

  it('says on the branded sign-in page when an email has failed too often, and sends nothing to another host', async () => {
    const port = Number(new URL(app.origin).port);
    const t = await brandedTenant(port);
    const reg = await request(`${t.host}:${port}`, 'POST', '/oauth/reg', JSON.stringify({ client_name: 'Claude', redirect_uris: [callbackUrl], token_endpoint_auth_method: 'none' }), { 'content-type': 'application/json' });
    const q = new URLSearchParams({ client_id: String(reg.json.client_id), response_type: 'code', redirect_uri: callbackUrl, scope: 'mcp:access', state: 's2', code_challenge: randomBytes(32).toString('base64url'), code_challenge_method: 'S256' });
    const w = await watchedPage(browser, [t.host]);
    await w.page.goto(`${t.origin}/oauth/auth?${q}`);
    for (let i = 0; i < 10; i++) {
      await w.page.fill('#email', t.owner.email);
      await w.page.fill('#password', `guess-${i}`);
      await w.page.click('button[type=submit]:has-text("Sign in")');
      await w.page.waitForLoadState();
    }
    expect(await w.page.textContent('body')).toContain('Too many failed sign-ins for this email. Try again in 15 minutes.');
    expect(await w.page.locator('.brand').textContent()).toContain(t.brandName);
    await w.page.screenshot({ path: path.resolve(__dirname, '..', '..', 'artifacts', 'oauth-sign-in-refused.png'), fullPage: true });
    expect(w.foreign()).toEqual([]);
    expect(w.violations).toEqual([]);
    await w.page.context().close();
  });
});
