import { createHash, randomBytes } from 'node:crypto';
import http from 'node:http';
import { QueryTypes } from 'sequelize';
import bcrypt from 'bcryptjs';
import { ApiToken, User } from '../../src/models';
import { signIn } from '../../src/services/mcp-oauth.service';
import pino from 'pino';
import request from 'supertest';
import { keyring } from '../../src/crypto/secrets';
import { getSchema } from '../../src/graphql/schema';
import { createApp } from '../../src/http/app';
import { providerCount } from '../../src/oauth/provider';
import { auditRows } from '../mcp/support';
import { useServedApp } from '../support/app';
import { makeLocation, makeOrganization, makeOrgOwner, makeReview, testimonialsOf, tokenFor } from '../support/factories';
import { createUser, hashPassword } from '../../src/services/admin.service';
import { Browser, oauthWorld, walkConsent } from './mcp-support';

const sequelizeOf = () => ApiToken.sequelize!;

/**
 * MCP sign-in with OAuth 2.1 (issue 16 item 3), driven over real HTTP as a hosted client does it: discovery from a 401,
 * dynamic client registration, authorization code with PKCE S256, sign-in and consent on the tenant-branded pages,
 * the token, MCP calls with it (same scope, limits and audit as a static AI token), refresh with rotation,
 * revocation, and the refusals (no PKCE, plain PKCE, another resource, a revoked grant).
 */
describe('MCP OAuth', () => {
  const app = useServedApp();

  const pkce = () => {
    const verifier = randomBytes(32).toString('base64url');
    return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
  };

  const world = oauthWorld;

  async function register(redirectUri = 'http://127.0.0.1:7777/callback') {
    const native = redirectUri.startsWith('http') ? {} : { application_type: 'native' };
    const res = await fetch(`${app.origin}/oauth/reg`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ client_name: 'Test Assistant', redirect_uris: [redirectUri], grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'], token_endpoint_auth_method: 'none', ...native }),
    });
    expect(res.status).toBe(201);
    return (await res.json()) as { client_id: string };
  }

  /** Authorize -> sign in -> consent -> the code on the redirect URI. */
  async function authorize(opts: { clientId: string; email: string; password: string; scope?: string; challenge?: string; method?: string; redirectUri?: string; resource?: string; consent?: Record<string, string | string[]> }) {
    const b = new Browser();
    const redirectUri = opts.redirectUri ?? 'http://127.0.0.1:7777/callback';
    const q = new URLSearchParams({ client_id: opts.clientId, response_type: 'code', redirect_uri: redirectUri, scope: opts.scope ?? 'mcp:access mcp:writes', state: 'xyz' });
    if (opts.challenge) q.set('code_challenge', opts.challenge);
    if (opts.challenge) q.set('code_challenge_method', opts.method ?? 'S256');
    if (opts.resource) q.set('resource', opts.resource);
    let res = await b.fetch(`${app.origin}/oauth/auth?${q}`);
    if (res.status !== 303 && res.status !== 302) return { error: res, browser: b };
    let location = res.headers.get('location')!;
    if (location.startsWith(redirectUri)) return { redirect: new URL(location), browser: b };
    // The sign-in page.
    res = await b.fetch(new URL(location, app.origin).toString());
    expect(res.status).toBe(200);
    const login = await res.text();
    expect(login).toContain('Test Assistant');
    const uid = /\/oauth\/interaction\/([^/"]+)\/login/.exec(login)![1];
    res = await b.fetch(`${app.origin}/oauth/interaction/${uid}/login`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ email: opts.email, password: opts.password }).toString() });
    expect(res.status).toBe(303);
    res = await b.fetch(new URL(res.headers.get('location')!, app.origin).toString());
    location = res.headers.get('location')!;
    // The consent page.
    res = await b.fetch(new URL(location, app.origin).toString());
    expect(res.status).toBe(200);
    const consent = await res.text();
    expect(consent).toContain('It calls itself <strong>Test Assistant</strong>');
    const uid2 = /\/oauth\/interaction\/([^/"]+)\/confirm/.exec(consent)![1];
    const form = new URLSearchParams();
    for (const [k, v] of Object.entries(opts.consent ?? { scope: ['mcp:writes'], organizations: 'all' })) for (const x of Array.isArray(v) ? v : [v]) form.append(k, x);
    res = await b.fetch(`${app.origin}/oauth/interaction/${uid2}/confirm`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: form.toString() });
    expect(res.status).toBe(303);
    res = await b.fetch(new URL(res.headers.get('location')!, app.origin).toString());
    location = res.headers.get('location')!;
    expect(location.startsWith(redirectUri)).toBe(true);
    return { redirect: new URL(location), browser: b };
  }

  async function token(body: Record<string, string>) {
    const res = await fetch(`${app.origin}/oauth/token`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(body).toString() });
    return { status: res.status, json: (await res.json()) as Record<string, string> };
  }

  async function mcp(bearer: string, body: unknown) {
    const res = await fetch(`${app.origin}/api/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${bearer}` },
      body: JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, headers: res.headers, json: text ? JSON.parse(text) : null };
  }

  it('tells a client without a token where to sign in (RFC 9728 and RFC 8414 metadata)', async () => {
    const res = await fetch(`${app.origin}/api/mcp`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }) });
    expect(res.status).toBe(401);
    const challenge = res.headers.get('www-authenticate')!;
    expect(challenge).toContain(`resource_metadata="${app.origin}/.well-known/oauth-protected-resource/api/mcp"`);

    const prm = await (await fetch(`${app.origin}/.well-known/oauth-protected-resource/api/mcp`)).json();
    expect(prm).toMatchObject({ resource: `${app.origin}/api/mcp`, authorization_servers: [`${app.origin}/oauth`], scopes_supported: ['mcp:access', 'mcp:writes', 'reviews:pii'] });

    for (const path of ['/.well-known/oauth-authorization-server/oauth', '/oauth/.well-known/openid-configuration']) {
      const meta = await (await fetch(`${app.origin}${path}`)).json();
      expect(meta).toMatchObject({
        issuer: `${app.origin}/oauth`,
        authorization_endpoint: `${app.origin}/oauth/auth`,
        token_endpoint: `${app.origin}/oauth/token`,
        registration_endpoint: `${app.origin}/oauth/reg`,
        revocation_endpoint: `${app.origin}/oauth/token/revocation`,
        code_challenge_methods_supported: ['S256'],
      });
      expect(meta.grant_types_supported).toEqual(expect.arrayContaining(['authorization_code', 'refresh_token']));
      expect(meta.grant_types_supported).not.toContain('implicit');
    }
  });

  it('signs a user in, issues a token for the MCP endpoint that acts like a static AI token, rotates refresh tokens and revokes', async () => {
    const w = await world();
    const client = await register();
    const { verifier, challenge } = pkce();
    const { redirect } = await authorize({ clientId: client.client_id, email: w.owner.email, password: w.password, challenge });
    expect(redirect!.searchParams.get('state')).toBe('xyz');
    const code = redirect!.searchParams.get('code')!;

    // A wrong verifier is refused; the right one gets the tokens.
    expect((await token({ grant_type: 'authorization_code', code, redirect_uri: 'http://127.0.0.1:7777/callback', client_id: client.client_id, code_verifier: 'x'.repeat(43) })).status).toBe(400);
    const { verifier: v2, challenge: c2 } = pkce();
    const again = await authorize({ clientId: client.client_id, email: w.owner.email, password: w.password, challenge: c2 });
    const issued = await token({ grant_type: 'authorization_code', code: again.redirect!.searchParams.get('code')!, redirect_uri: 'http://127.0.0.1:7777/callback', client_id: client.client_id, code_verifier: v2 });
    expect(issued.status).toBe(200);
    expect(issued.json).toMatchObject({ token_type: 'Bearer', scope: expect.stringContaining('mcp:access') });
    expect(issued.json.refresh_token).toEqual(expect.any(String));
    void verifier;

    // The token calls the MCP endpoint as the user, through the same audit as a static token.
    const list = await mcp(issued.json.access_token, { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'list_organizations', arguments: {} } });
    expect(list.status).toBe(200);
    expect(JSON.stringify(list.json.result.structuredContent)).toContain('Bakery');
    // The grant of the second consent (each sign-in in a new browser made its own grant).
    const grantToken = await ApiToken.findOne({ where: { userId: w.owner.id, kind: 'ai', tokenPrefix: 'oauth' }, order: [['id', 'DESC']] });
    expect(grantToken!.permissions).toEqual(expect.arrayContaining(['mcp:access', 'mcp:writes']));
    expect(grantToken!.permissions).not.toContain('reviews:pii');
    const audit = await auditRows(w.tenant.id, 1);
    expect(audit.map((a) => [a.tokenId, a.tool])).toContainEqual([grantToken!.id, 'list_organizations']);

    // The token is for this origin's MCP endpoint only: the REST API refuses it.
    expect((await fetch(`${app.origin}/api/v1/organizations`, { headers: { authorization: `Bearer ${issued.json.access_token}` } })).status).toBe(401);

    // Refresh rotates: the new refresh token works once, the old one no more.
    const refreshed = await token({ grant_type: 'refresh_token', refresh_token: issued.json.refresh_token, client_id: client.client_id });
    expect(refreshed.status).toBe(200);
    expect(refreshed.json.refresh_token).not.toBe(issued.json.refresh_token);
    expect((await mcp(refreshed.json.access_token, { jsonrpc: '2.0', id: 2, method: 'tools/list' })).status).toBe(200);

    // Revocation (RFC 7009) of the refresh token ends the grant: no refresh, and its access tokens stop working.
    const revoked = await fetch(`${app.origin}/oauth/token/revocation`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token: refreshed.json.refresh_token, client_id: client.client_id }).toString(),
    });
    expect(revoked.status).toBe(200);
    expect((await token({ grant_type: 'refresh_token', refresh_token: refreshed.json.refresh_token, client_id: client.client_id })).status).toBe(400);
    expect((await mcp(refreshed.json.access_token, { jsonrpc: '2.0', id: 3, method: 'tools/list' })).status).toBe(401);
  });

  it('keeps a bounded number of issuers however many names of the host clients send, each answering as its own origin', async () => {
    const port = new URL(app.origin).port;
    const metadata = (host: string) =>
      new Promise<{ status: number; body: { issuer?: string } }>((resolve, reject) => {
        const req = http.get({ host: '127.0.0.1', port, path: '/.well-known/oauth-authorization-server/oauth', headers: { host } }, (res) => {
          let text = '';
          res.on('data', (c: Buffer) => (text += c.toString()));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text ? JSON.parse(text) : {} }));
        });
        req.on('error', reject);
      });
    // Every loopback address is the platform's host; letter case does not make another issuer.
    for (let i = 1; i <= 60; i++) {
      const answer = await metadata(`127.0.0.${i}:${port}`);
      expect(answer.status).toBe(200);
      expect(answer.body.issuer).toBe(`http://127.0.0.${i}:${port}/oauth`);
    }
    expect(providerCount()).toBeLessThanOrEqual(50);
    expect((await metadata(`LOCALHOST:${port}`)).body.issuer).toBe(`http://localhost:${port}/oauth`);
    expect((await metadata(`127.0.0.1:${port}`)).body.issuer).toBe(`${app.origin}/oauth`);
    expect(providerCount()).toBeLessThanOrEqual(50);
  });

  it('refuses authorization without PKCE or with another resource, and a wrong password', async () => {
    const w = await world();
    const client = await register();
    // Refused here, not sent to the redirect URI (the next test).
    const refusal = async (answer: { error?: Response; redirect?: URL }) => [answer.redirect?.toString() ?? null, answer.error?.status, ((await answer.error?.json()) as { error?: string })?.error];
    const none = await authorize({ clientId: client.client_id, email: w.owner.email, password: w.password });
    expect(await refusal(none)).toEqual([null, 400, 'invalid_request']);
    const plain = await authorize({ clientId: client.client_id, email: w.owner.email, password: w.password, challenge: 'a'.repeat(43), method: 'plain' });
    expect(await refusal(plain)).toEqual([null, 400, 'invalid_request']);
    const other = await authorize({ clientId: client.client_id, email: w.owner.email, password: w.password, challenge: pkce().challenge, resource: 'https://elsewhere.example/api/mcp' });
    expect(await refusal(other)).toEqual([null, 400, 'invalid_target']);

    const b = new Browser();
    const q = new URLSearchParams({ client_id: client.client_id, response_type: 'code', redirect_uri: 'http://127.0.0.1:7777/callback', scope: 'mcp:access', code_challenge: pkce().challenge, code_challenge_method: 'S256' });
    const start = await b.fetch(`${app.origin}/oauth/auth?${q}`);
    const page = await (await b.fetch(new URL(start.headers.get('location')!, app.origin).toString())).text();
    const uid = /\/oauth\/interaction\/([^/"]+)\/login/.exec(page)![1];
    const wrong = await b.fetch(`${app.origin}/oauth/interaction/${uid}/login`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: `email=${encodeURIComponent(w.owner.email)}&password=nope-nope` });
    expect(wrong.status).toBe(401);
    expect(await wrong.text()).toContain('The email or password is not right.');
  });

  it('spends one bcrypt comparison on a wrong sign-in whether the email is unknown, has no password or has one', async () => {
    const w = await world();
    const passwordless = await makeOrgOwner(w.tenant.id);
    await User.update({ passwordHash: null }, { where: { id: passwordless.id } });
    const compare = jest.spyOn(bcrypt, 'compare');
    try {
      for (const email of [`nobody-${randomBytes(4).toString('hex')}@example.test`, passwordless.email, w.owner.email]) {
        compare.mockClear();
        expect(await signIn('127.0.0.1', app.origin, email, 'wrong-password')).toBeNull();
        expect(compare).toHaveBeenCalledTimes(1);
      }
    } finally {
      compare.mockRestore();
    }
  });

  it('refuses an email after 10 failed sign-ins (counted per account, not per address), its right password included, until the window passes', async () => {
    const w = await world();
    const client = await register();
    const b = new Browser();
    const q = new URLSearchParams({ client_id: client.client_id, response_type: 'code', redirect_uri: 'http://127.0.0.1:7777/callback', scope: 'mcp:access', code_challenge: pkce().challenge, code_challenge_method: 'S256' });
    const start = await b.fetch(`${app.origin}/oauth/auth?${q}`);
    const page = await (await b.fetch(new URL(start.headers.get('location')!, app.origin).toString())).text();
    const uid = /\/oauth\/interaction\/([^/"]+)\/login/.exec(page)![1];
    const login = (email: string, password: string) =>
      b.fetch(`${app.origin}/oauth/interaction/${uid}/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ email, password }).toString(),
      });
    const statuses: number[] = [];
    // The email as typed varies: the count is per account, not per spelling.
    for (let i = 0; i < 10; i++) statuses.push((await login(i % 2 ? w.owner.email.toUpperCase() : ` ${w.owner.email}`, `guess-${i}`)).status);
    expect(statuses).toEqual([401, 401, 401, 401, 401, 401, 401, 401, 401, 429]);
    const refused = await login(w.owner.email, w.password);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(800);
    const text = await refused.text();
    expect(text).toContain('Too many failed sign-ins for this email.');
    expect(text).toContain('Test Assistant');
    // Another account on the same page and address is not affected.
    const other = await world();
    expect((await login(other.owner.email, 'wrong')).status).toBe(401);
  });

  /** A sign-in page of a new interaction in a new browser, and its login POST. */
  async function signInPage(clientId: string, redirectUri = 'http://127.0.0.1:7777/callback') {
    const b = new Browser();
    const q = new URLSearchParams({ client_id: clientId, response_type: 'code', redirect_uri: redirectUri, scope: 'mcp:access', state: 'xyz', code_challenge: pkce().challenge, code_challenge_method: 'S256' });
    const start = await b.fetch(`${app.origin}/oauth/auth?${q}`);
    const page = await b.fetch(new URL(start.headers.get('location')!, app.origin).toString());
    const html = await page.text();
    const uid = /\/oauth\/interaction\/([^/"]+)\/login/.exec(html)![1];
    const login = (email: string, password: string) =>
      b.fetch(`${app.origin}/oauth/interaction/${uid}/login`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ email, password }).toString() });
    return { b, page, uid, login };
  }

  /** The email with its first vowel accented: the same account to MariaDB's accent-insensitive collation. */
  const accented = (email: string) => email.replace(/[aeiou]/, (c) => ({ a: '\u00e1', e: '\u00e9', i: '\u00ed', o: '\u00f3', u: '\u00fa' })[c as 'a']);

  it('refuses an accented spelling of a locked email, its right password included: every spelling that reaches the account shares its count', async () => {
    const w = await world();
    const client = await register();
    const { login } = await signInPage(client.client_id);
    const statuses: number[] = [];
    for (let i = 0; i < 10; i++) statuses.push((await login(w.owner.email, `guess-${i}`)).status);
    expect(statuses.at(-1)).toBe(429);
    const variant = accented(w.owner.email);
    expect(variant).not.toBe(w.owner.email);
    const res = await login(variant, w.password);
    expect(res.status).not.toBe(303);
    expect(res.headers.get('location')).toBeNull();
    expect([401, 429]).toContain(res.status);
  });

  it('signs in with the stored email only (any letter case), answering another spelling as it answers an unknown email', async () => {
    const w = await world();
    const client = await register();
    const unknown = await (await signInPage(client.client_id)).login(`nobody-${randomBytes(4).toString('hex')}@customer.test`, w.password);
    const variant = await (await signInPage(client.client_id)).login(accented(w.owner.email), w.password);
    expect([unknown.status, variant.status]).toEqual([401, 401]);
    const text = (html: string) => html.replace(/nonce="[^"]+"/g, '').replace(/\/oauth\/interaction\/[^/"]+\//g, '');
    expect(text(await variant.text())).toBe(text(await unknown.text()));
    expect(await signIn('127.0.0.1', app.origin, accented(w.owner.email), w.password)).toBeNull();
    expect((await signIn('127.0.0.1', app.origin, ` ${w.owner.email.toUpperCase()} `, w.password))?.id).toBe(w.owner.id);
    expect((await (await signInPage(client.client_id)).login(w.owner.email.toUpperCase(), w.password)).status).toBe(303);
  });

  it('stores a new user\'s email in NFC, so a sign-in typed in either Unicode form finds an account created in decomposed form', async () => {
    const w = await world();
    const composed = `ren\u00e9-${randomBytes(4).toString('hex')}@example.test`;
    const decomposed = composed.normalize('NFD');
    expect(decomposed).not.toBe(composed);
    const user = await createUser({ tenantId: w.tenant.id, email: ` ${decomposed.toUpperCase()} `, name: 'Ren\u00e9', role: 'organization_owner', password: w.password });
    expect(user.email).toBe(composed);
    expect((await User.findByPk(user.id))!.email).toBe(composed);
    expect((await signIn('127.0.0.1', app.origin, composed, w.password))?.id).toBe(user.id);
    expect((await signIn('127.0.0.1', app.origin, decomposed, w.password))?.id).toBe(user.id);
    await expect(createUser({ tenantId: w.tenant.id, email: composed, name: 'Again', role: 'organization_owner' })).rejects.toThrow('The email has already been taken.');
  });

  it("admits the client's redirect URI in form-action on the sign-in page, first shown and shown again after an error", async () => {
    const w = await world();
    const client = await register();
    const { page, login } = await signInPage(client.client_id);
    expect(page.headers.get('content-security-policy')).toContain("form-action 'self' http://127.0.0.1:7777;");
    const wrong = await login(w.owner.email, 'nope-nope');
    expect(wrong.status).toBe(401);
    expect(wrong.headers.get('content-security-policy')).toContain("form-action 'self' http://127.0.0.1:7777;");
  });

  it('lets a native client with a custom-scheme redirect URI sign in: the pages admit the scheme, the code goes to it', async () => {
    const w = await world();
    const redirectUri = 'cursor://anysphere.cursor-mcp/oauth/callback';
    const client = await register(redirectUri);
    const { b, page, login } = await signInPage(client.client_id, redirectUri);
    expect(page.headers.get('content-security-policy')).toContain("form-action 'self' cursor:;");
    expect((await login(w.owner.email, 'nope-nope')).headers.get('content-security-policy')).toContain("form-action 'self' cursor:;");
    let res = await login(w.owner.email, w.password);
    expect(res.status).toBe(303);
    res = await b.fetch(new URL(res.headers.get('location')!, app.origin).toString());
    const consent = await b.fetch(new URL(res.headers.get('location')!, app.origin).toString());
    expect(consent.headers.get('content-security-policy')).toContain("form-action 'self' cursor:;");
    const uid = /\/oauth\/interaction\/([^/"]+)\/confirm/.exec(await consent.text())![1];
    res = await b.fetch(`${app.origin}/oauth/interaction/${uid}/confirm`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'organizations=all' });
    expect(res.status).toBe(303);
    res = await b.fetch(new URL(res.headers.get('location')!, app.origin).toString());
    expect(res.status).toBe(303);
    const back = new URL(res.headers.get('location')!);
    expect(`${back.protocol}//${back.host}${back.pathname}`).toBe(redirectUri);
    expect(back.searchParams.get('code')).toEqual(expect.any(String));
  });

  /** A 400 page for a person, in the platform's brand, with no script, that says `heading` and what to do. */
  const expectBrandedPage = async (res: Response, heading: string) => {
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(res.headers.get('content-security-policy')).toContain("script-src 'none'");
    const html = await res.text();
    expect(html).toContain(heading);
    expect(html).toContain('Start again from your AI app.');
    expect(html).toContain('Reviewgrid');
  };

  it('answers an unknown, expired or finished interaction with an HTML page, and the token endpoint still with JSON', async () => {
    const expectExpired = (res: Response) => expectBrandedPage(res, 'This sign-in has expired or is no longer valid');
    await expectExpired(await fetch(`${app.origin}/oauth/interaction/abc`, { headers: { accept: 'text/html' } }));
    for (const step of ['login', 'confirm', 'abort']) {
      await expectExpired(await fetch(`${app.origin}/oauth/interaction/abc/${step}`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'email=a%40b.test&password=x' }));
    }
    const tooLarge = await fetch(`${app.origin}/oauth/interaction/abc/login`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: `email=${'a'.repeat(20_000)}` });
    expect([tooLarge.status, tooLarge.headers.get('content-type')]).toEqual([413, expect.stringMatching(/^text\/html/)]);
    expect(await tooLarge.text()).toContain('The request could not be read');
    // Finished: cancelled, then the sign-in page again (Back) with the browser's cookies.
    const client = await register();
    const { b, uid } = await signInPage(client.client_id);
    const cancelled = await b.fetch(`${app.origin}/oauth/interaction/${uid}/abort`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: '' });
    expect((await b.fetch(new URL(cancelled.headers.get('location')!, app.origin).toString())).headers.get('location')).toContain('error=access_denied');
    await expectExpired(await b.fetch(`${app.origin}/oauth/interaction/${uid}`, { headers: { accept: 'text/html' } }));

    const token = await fetch(`${app.origin}/oauth/token`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html' }, body: 'grant_type=authorization_code&code=nope' });
    expect(token.status).toBe(400);
    expect(token.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await token.json()).toMatchObject({ error: expect.any(String) });
  });

  it("answers a person's browser with a branded page for an authorization error that cannot go back to the client, and other callers with JSON", async () => {
    const q = new URLSearchParams({ client_id: 'no-such-client', response_type: 'code', redirect_uri: 'http://127.0.0.1:7777/callback', scope: 'mcp:access', code_challenge: 'a'.repeat(43), code_challenge_method: 'S256' });
    await expectBrandedPage(await fetch(`${app.origin}/oauth/auth?${q}`, { headers: { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' } }), 'This sign-in could not continue');
    const json = await fetch(`${app.origin}/oauth/auth?${q}`, { headers: { accept: 'application/json' } });
    expect(json.status).toBe(400);
    expect(await json.json()).toMatchObject({ error: 'invalid_client' });
  });

  it("shows a person the branded page for an authorization request it refuses, never redirecting to the client's URI; the user's own denial still goes back (RFC 9700 4.11.2)", async () => {
    const client = await register('https://evil.example/landing');
    const html = { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' };
    const auth = (extra: Record<string, string>) =>
      fetch(`${app.origin}/oauth/auth?${new URLSearchParams({ client_id: client.client_id, redirect_uri: 'https://evil.example/landing', response_type: 'code', ...extra })}`, { headers: html, redirect: 'manual' });
    const requests: Record<string, string>[] = [
      {},
      { code_challenge: 'a'.repeat(43), code_challenge_method: 'plain' },
      { code_challenge: pkce().challenge, code_challenge_method: 'S256', scope: 'mcp:access', resource: 'https://elsewhere.example/api/mcp' },
      { code_challenge: pkce().challenge, code_challenge_method: 'S256', response_mode: 'nonsense' },
      { code_challenge: pkce().challenge, code_challenge_method: 'S256', prompt: 'none' },
    ];
    for (const extra of requests) {
      const res = await auth(extra);
      expect([JSON.stringify(extra), res.headers.get('location')]).toEqual([JSON.stringify(extra), null]);
      await expectBrandedPage(res, 'This sign-in could not continue');
    }
    // Deny (here Cancel on the sign-in page) is the user's answer to the client: it goes back, as OAuth requires.
    const b = new Browser();
    const q = new URLSearchParams({ client_id: client.client_id, redirect_uri: 'https://evil.example/landing', response_type: 'code', scope: 'mcp:access', state: 's', code_challenge: pkce().challenge, code_challenge_method: 'S256' });
    const start = await b.fetch(`${app.origin}/oauth/auth?${q}`, { headers: html });
    const uid = /\/oauth\/interaction\/([^/"]+)\/login/.exec(await (await b.fetch(new URL(start.headers.get('location')!, app.origin).toString())).text())![1];
    const cancelled = await b.fetch(`${app.origin}/oauth/interaction/${uid}/abort`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: '' });
    const back = new URL((await b.fetch(new URL(cancelled.headers.get('location')!, app.origin).toString(), { headers: html })).headers.get('location')!);
    expect([back.origin, back.searchParams.get('error'), back.searchParams.get('state')]).toEqual(['https://evil.example', 'access_denied', 's']);
  });

  async function issue(w: Awaited<ReturnType<typeof world>>, consent: Record<string, string | string[]>) {
    const client = await register();
    const { verifier, challenge } = pkce();
    const { redirect } = await authorize({ clientId: client.client_id, email: w.owner.email, password: w.password, challenge, consent });
    const issued = await token({ grant_type: 'authorization_code', code: redirect!.searchParams.get('code')!, redirect_uri: 'http://127.0.0.1:7777/callback', client_id: client.client_id, code_verifier: verifier });
    expect(issued.status).toBe(200);
    return Object.assign({}, issued.json, { client_id: client.client_id }) as Record<string, string>;
  }

  it('treats a rotated refresh token used again as a replay: the whole grant is revoked', async () => {
    const w = await world();
    const first = await issue(w, { scope: [], organizations: 'all' });
    const second = await token({ grant_type: 'refresh_token', refresh_token: first.refresh_token, client_id: first.client_id });
    expect(second.status).toBe(200);
    expect((await mcp(second.json.access_token, { jsonrpc: '2.0', id: 1, method: 'tools/list' })).status).toBe(200);
    expect((await token({ grant_type: 'refresh_token', refresh_token: first.refresh_token, client_id: first.client_id })).status).toBe(400);
    expect((await mcp(second.json.access_token, { jsonrpc: '2.0', id: 2, method: 'tools/list' })).status).toBe(401);
    expect((await token({ grant_type: 'refresh_token', refresh_token: second.json.refresh_token, client_id: first.client_id })).status).toBe(400);
    // The user and the tenant owner see the authorization revoked, not active, and its token is revoked with it.
    const rows = await sequelizeOf().query<{ revokedAt: Date | null; apiTokenId: number }>('SELECT revoked_at AS revokedAt, api_token_id AS apiTokenId FROM mcp_authorizations WHERE user_id = ?', {
      replacements: [w.owner.id],
      type: QueryTypes.SELECT,
    });
    expect(rows).toEqual([{ revokedAt: expect.any(Date), apiTokenId: expect.any(Number) }]);
    expect((await ApiToken.findByPk(rows[0].apiTokenId))!.revokedAt).toEqual(expect.any(Date));
  });

  it('answers two concurrent refreshes with one refresh token as a replay: one succeeds, the other is invalid_grant and the grant is revoked', async () => {
    const w = await world();
    const first = await issue(w, { scope: [], organizations: 'all' });
    const refresh = () => token({ grant_type: 'refresh_token', refresh_token: first.refresh_token, client_id: first.client_id });
    const answers = await Promise.all([refresh(), refresh()]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 400]);
    expect(answers.find((a) => a.status === 400)!.json).toMatchObject({ error: 'invalid_grant' });
    // Rotation's replay rule (RFC 9700 4.14.2): what the winner got is revoked with the grant.
    const winner = answers.find((a) => a.status === 200)!.json;
    expect((await mcp(winner.access_token, { jsonrpc: '2.0', id: 1, method: 'tools/list' })).status).toBe(401);
    expect((await token({ grant_type: 'refresh_token', refresh_token: winner.refresh_token, client_id: first.client_id })).status).toBe(400);
    const [row] = await sequelizeOf().query<{ revokedAt: Date | null }>('SELECT revoked_at AS revokedAt FROM mcp_authorizations WHERE user_id = ?', { replacements: [w.owner.id], type: QueryTypes.SELECT });
    expect(row.revokedAt).toEqual(expect.any(Date));
  });

  it('stores no access token, refresh token or code that works: a database dump holds their hashes only', async () => {
    const w = await world();
    const client = await register();
    const { verifier, challenge } = pkce();
    const { redirect } = await authorize({ clientId: client.client_id, email: w.owner.email, password: w.password, challenge });
    const code = redirect!.searchParams.get('code')!;
    const issued = await token({ grant_type: 'authorization_code', code, redirect_uri: 'http://127.0.0.1:7777/callback', client_id: client.client_id, code_verifier: verifier });
    expect(issued.status).toBe(200);
    const dump = JSON.stringify(await sequelizeOf().query('SELECT * FROM oauth_models', { type: QueryTypes.SELECT }));
    expect([code, issued.json.access_token, issued.json.refresh_token].filter((secret) => dump.includes(secret))).toEqual([]);
    // What a dump holds is no token.
    const hashed = (value: string) => createHash('sha256').update(value).digest('hex');
    expect(dump).toContain(hashed(issued.json.access_token));
    expect((await mcp(hashed(issued.json.access_token), { jsonrpc: '2.0', id: 1, method: 'tools/list' })).status).toBe(401);
    expect((await token({ grant_type: 'refresh_token', refresh_token: hashed(issued.json.refresh_token), client_id: client.client_id })).status).toBe(400);
    // The tokens themselves work.
    expect((await mcp(issued.json.access_token, { jsonrpc: '2.0', id: 2, method: 'tools/list' })).status).toBe(200);
    expect((await token({ grant_type: 'refresh_token', refresh_token: issued.json.refresh_token, client_id: client.client_id })).status).toBe(200);
  });

  it('limits a grant to the organisations chosen on the consent page, ones added later excluded', async () => {
    const w = await world();
    const other = await makeOrganization(w.owner, 'Florist');
    const issued = await issue(w, { scope: [], organizations: 'some', organization: [String(other.id)] });
    const orgs = await mcp(issued.access_token, { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'list_organizations', arguments: {} } });
    const names = JSON.stringify(orgs.json.result.structuredContent);
    expect(names).toContain('Florist');
    expect(names).not.toContain('Bakery');
    // The other organisation answers as unknown, as for a team member.
    const denied = await mcp(issued.access_token, { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'list_locations', arguments: { organization_id: w.org.id } } });
    expect(JSON.stringify(denied.json)).not.toContain('Bakery');
    await makeOrganization(w.owner, 'Later');
    const later = await mcp(issued.access_token, { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'list_organizations', arguments: {} } });
    expect(JSON.stringify(later.json.result.structuredContent)).not.toContain('Later');
    // Without mcp:writes a write tool is refused (-32001), like a static token without the ability.
    const write = await mcp(issued.access_token, { jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 'tag_reviews', arguments: { review_ids: [1], attach_tags: ['x'] } } });
    expect(write.json.error).toMatchObject({ code: -32001 });
  });

  it("limits a tenant owner's grant to the organisations chosen as well: no list reaches the rest of the agency", async () => {
    const w = await world();
    const password = `pw-${randomBytes(6).toString('hex')}`;
    await User.update({ passwordHash: await hashPassword(password) }, { where: { id: w.tenantOwner.id } });
    const florist = await makeOrganization(w.owner, 'Florist');
    const [bakeryShop, floristShop] = [await makeLocation(w.org, 'Bakery Shop'), await makeLocation(florist, 'Florist Shop')];
    await makeReview(await testimonialsOf(bakeryShop), { author: 'Bakery Fan', message: 'Crusty bread.' });
    await makeReview(await testimonialsOf(floristShop), { author: 'Flower Fan', message: 'Fresh tulips.' });
    const issued = await issue({ ...w, owner: w.tenantOwner, password }, { scope: [], organizations: 'some', organization: [String(florist.id)] });
    const call = async (name: string, args: Record<string, unknown> = {}) =>
      JSON.stringify((await mcp(issued.access_token, { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } })).json);
    const orgs = await call('list_organizations');
    expect(orgs).toContain('Florist');
    expect(orgs).not.toContain('Bakery');
    const locations = await call('list_locations');
    expect(locations).toContain('Florist Shop');
    expect(locations).not.toContain('Bakery Shop');
    const reviews = await call('list_reviews');
    expect(reviews).toContain('Fresh tulips.');
    expect(reviews).not.toContain('Crusty bread.');
  });

  it('lists authorizations to the user and the tenant owner over REST and GraphQL, and revoking ends the tokens at once', async () => {
    const w = await world();
    const issued = await issue(w, { scope: ['mcp:writes'], organizations: 'all' });
    const rest = await tokenFor(w.owner, ['organizations:read']);
    const listed = await (await fetch(`${app.origin}/api/v1/ai-authorizations`, { headers: { authorization: `Bearer ${rest}` } })).json();
    expect(listed.data).toEqual([
      expect.objectContaining({ user_id: w.owner.id, client_id: issued.client_id, client_name: 'Test Assistant', scopes: ['mcp:access', 'mcp:writes'], organization_ids: null, revoked_at: null }),
    ]);
    // The tenant owner sees it too; another tenant's owner does not.
    const ownerToken = await tokenFor(w.tenantOwner, ['organizations:read']);
    const gql = await (
      await fetch(`${app.origin}/graphql`, {
        method: 'POST',
        headers: { authorization: `Bearer ${ownerToken}`, 'content-type': 'application/json' },
        body: JSON.stringify({ query: '{ aiAuthorizations { id userId clientName scopes } }' }),
      })
    ).json();
    expect(gql.data.aiAuthorizations).toEqual([expect.objectContaining({ id: listed.data[0].id, userId: w.owner.id })]);
    const stranger = await world();
    const theirs = await tokenFor(stranger.tenantOwner, ['organizations:read']);
    expect((await (await fetch(`${app.origin}/api/v1/ai-authorizations`, { headers: { authorization: `Bearer ${theirs}` } })).json()).data).toEqual([]);
    const theirManager = await tokenFor(stranger.tenantOwner, ['organizations:read', 'organizations:update']);
    expect((await fetch(`${app.origin}/api/v1/ai-authorizations/${listed.data[0].id}`, { method: 'DELETE', headers: { authorization: `Bearer ${theirManager}` } })).status).toBe(404);
    // An AI token cannot manage them.
    const ai = await tokenFor(w.owner, ['mcp:access'], 'ai');
    expect((await mcp(ai, { jsonrpc: '2.0', id: 1, method: 'tools/list' })).status).toBe(200);

    expect((await mcp(issued.access_token, { jsonrpc: '2.0', id: 1, method: 'tools/list' })).status).toBe(200);
    // A customer token needs organizations:read to list them and organizations:update as well to revoke one (a
    // tenant owner's reviews:read token read every user's and revoked them); on REST and GraphQL alike.
    const reviewsOnly = await tokenFor(w.tenantOwner, ['reviews:read']);
    const listRefused = await fetch(`${app.origin}/api/v1/ai-authorizations`, { headers: { authorization: `Bearer ${reviewsOnly}` } });
    expect(listRefused.status).toBe(403);
    expect(await listRefused.json()).toMatchObject({ code: 'missing_permission' });
    const graphql = async (token: string, query: string) =>
      (await fetch(`${app.origin}/graphql`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify({ query }) })).json();
    expect((await graphql(reviewsOnly, '{ aiAuthorizations { id } }')).errors[0].extensions).toMatchObject({ code: 'FORBIDDEN', reason: 'missing_permission' });
    for (const token of [reviewsOnly, rest, ownerToken]) {
      const refused = await fetch(`${app.origin}/api/v1/ai-authorizations/${listed.data[0].id}`, { method: 'DELETE', headers: { authorization: `Bearer ${token}` } });
      expect(refused.status).toBe(403);
      expect(await refused.json()).toMatchObject({ code: 'missing_permission' });
      expect((await graphql(token, `mutation { revokeAiAuthorization(id: ${listed.data[0].id}) { revokedAt } }`)).errors[0].extensions).toMatchObject({ code: 'FORBIDDEN', reason: 'missing_permission' });
    }
    expect((await mcp(issued.access_token, { jsonrpc: '2.0', id: 1, method: 'tools/list' })).status).toBe(200);
    const manager = await tokenFor(w.owner, ['organizations:read', 'organizations:update']);
    const revoked = await fetch(`${app.origin}/api/v1/ai-authorizations/${listed.data[0].id}`, { method: 'DELETE', headers: { authorization: `Bearer ${manager}` } });
    expect(revoked.status).toBe(200);
    expect((await revoked.json()).data.revoked_at).toEqual(expect.any(String));
    const after = await mcp(issued.access_token, { jsonrpc: '2.0', id: 2, method: 'tools/list' });
    expect(after.status).toBe(401);
    expect(after.headers.get('www-authenticate')).toContain('resource_metadata=');
    expect((await token({ grant_type: 'refresh_token', refresh_token: issued.refresh_token, client_id: issued.client_id })).status).toBe(400);
    expect((await (await fetch(`${app.origin}/api/v1/ai-authorizations`, { headers: { authorization: `Bearer ${rest}` } })).json()).data).toEqual([]);
  });

  it('static AI tokens keep working next to OAuth', async () => {
    const w = await world();
    const staticToken = await tokenFor(w.owner, ['mcp:access', 'organizations:read'], 'ai');
    const res = await mcp(staticToken, { jsonrpc: '2.0', id: 1, method: 'tools/list' });
    expect(res.status).toBe(200);
    expect(res.json.result.tools.length).toBeGreaterThan(0);
  });

  it('takes a token at the MCP endpoint whatever the letter case of the Host header (one spelling of an origin on both sides)', async () => {
    const w = await world();
    const port = new URL(app.origin).port;
    const client = await register();
    const { verifier, challenge } = pkce();
    const redirectUri = 'http://127.0.0.1:7777/callback';
    const q = new URLSearchParams({ client_id: client.client_id, response_type: 'code', redirect_uri: redirectUri, scope: 'mcp:access', code_challenge: challenge, code_challenge_method: 'S256' });
    const host = `localhost:${port}`;
    const { redirect } = await walkConsent(app.origin, `${app.origin}/oauth/auth?${q}`, { email: w.owner.email, password: w.password, redirectUri, host });
    const body = new URLSearchParams({ grant_type: 'authorization_code', code: redirect!.searchParams.get('code')!, redirect_uri: redirectUri, client_id: client.client_id, code_verifier: verifier });
    const issued = await new Browser(host).fetch(`${app.origin}/oauth/token`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: body.toString() });
    expect(issued.status).toBe(200);
    const { access_token } = (await issued.json()) as { access_token: string };
    for (const sent of [host, `LocalHost:${port}`, `LOCALHOST:${port}`]) {
      const res = await new Browser(sent).fetch(`${app.origin}/api/mcp`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${access_token}` },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'list_organizations', arguments: {} } }),
      });
      expect([sent, res.status, res.headers.get('www-authenticate')]).toEqual([sent, 200, null]);
      expect(await res.text()).toContain('Bakery');
    }
    // A 401 names the resource metadata of the origin, spelled as the OAuth side spells it.
    const refused = await new Browser(`LocalHost:${port}`).fetch(`${app.origin}/api/mcp`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }) });
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toContain(`resource_metadata="http://localhost:${port}/.well-known/oauth-protected-resource/api/mcp"`);
  });

  it('keeps a sign-in in progress and its session valid across an APP_KEYS rotation (the old key still in the ring)', async () => {
    const w = await world();
    const client = await register();
    const { verifier, challenge } = pkce();
    const redirectUri = 'http://127.0.0.1:7777/callback';
    const b = new Browser();
    const at = (location: string) => new URL(location, app.origin).toString();
    const form = { 'content-type': 'application/x-www-form-urlencoded' };
    // Signed in, at the consent step: an interaction cookie and a session cookie, both signed under the current key.
    const q = new URLSearchParams({ client_id: client.client_id, response_type: 'code', redirect_uri: redirectUri, scope: 'mcp:access', code_challenge: challenge, code_challenge_method: 'S256' });
    let res = await b.fetch(`${app.origin}/oauth/auth?${q}`);
    const uid = /\/oauth\/interaction\/([^/"]+)\/login/.exec(await (await b.fetch(at(res.headers.get('location')!))).text())![1];
    res = await b.fetch(`${app.origin}/oauth/interaction/${uid}/login`, { method: 'POST', headers: form, body: new URLSearchParams({ email: w.owner.email, password: w.password }).toString() });
    expect(res.status).toBe(303);
    res = await b.fetch(at(res.headers.get('location')!));
    const consentUrl = at(res.headers.get('location')!);
    expect(consentUrl).toContain('/oauth/interaction/');

    // The rotation: a new key, the old one kept to read what it signed; every process restarts (no provider kept).
    const saved = process.env.APP_KEYS;
    const old = keyring().newest;
    process.env.APP_KEYS = `old:${old.key.toString('base64')},new:${randomBytes(32).toString('base64')}`;
    const restart = async () => {
      for (let i = 0; i <= 50; i++) expect((await new Browser(`localhost:${30000 + i}`).fetch(`${app.origin}/.well-known/oauth-authorization-server/oauth`)).status).toBe(200);
    };
    try {
      await restart();
      expect(keyring().newest.id).toBe('new');
      res = await b.fetch(consentUrl);
      expect(res.status).toBe(200);
      // The consent page (not "Sign-in expired"): its form.
      const confirm = /\/oauth\/interaction\/([^/"]+)\/confirm/.exec(await res.text())![1];
      res = await b.fetch(`${app.origin}/oauth/interaction/${confirm}/confirm`, { method: 'POST', headers: form, body: new URLSearchParams({ scope: 'mcp:access', organizations: 'all' }).toString() });
      expect(res.status).toBe(303);
      res = await b.fetch(at(res.headers.get('location')!));
      const redirect = new URL(res.headers.get('location')!);
      expect(`${redirect.origin}${redirect.pathname}`).toBe(redirectUri);
      const issued = await token({ grant_type: 'authorization_code', code: redirect.searchParams.get('code')!, redirect_uri: redirectUri, client_id: client.client_id, code_verifier: verifier });
      expect(issued.status).toBe(200);
    } finally {
      if (saved === undefined) delete process.env.APP_KEYS;
      else process.env.APP_KEYS = saved;
      await restart();
    }
  });

  it('behind a trusted proxy answers as the Host header: X-Forwarded-Host changes no URL of the discovery document or a registration, X-Forwarded-Proto gives https', async () => {
    const built = await createApp({
      config: { RATE_LIMIT_PER_MINUTE: 100_000, AGENCY_RATE_LIMIT_PER_MINUTE: 100_000, BODY_LIMIT: '1mb', TRUST_PROXY: 'true', PUBLIC_URL: 'https://reviews.example' },
      schema: await getSchema(),
      logger: pino({ level: 'silent' }),
    });
    try {
      const proxied = (r: request.Test) => r.set('Host', 'reviews.example').set('X-Forwarded-Host', 'evil.example').set('X-Forwarded-Proto', 'https');
      for (const path of ['/.well-known/oauth-authorization-server/oauth', '/oauth/.well-known/openid-configuration']) {
        const meta = (await proxied(request(built.app).get(path)).expect(200)).body as Record<string, unknown>;
        expect(meta).toMatchObject({
          issuer: 'https://reviews.example/oauth',
          authorization_endpoint: 'https://reviews.example/oauth/auth',
          token_endpoint: 'https://reviews.example/oauth/token',
          registration_endpoint: 'https://reviews.example/oauth/reg',
          jwks_uri: 'https://reviews.example/oauth/jwks',
        });
        expect(JSON.stringify(meta)).not.toContain('evil.example');
      }
      const registered = await proxied(request(built.app).post('/oauth/reg')).send({ client_name: 'Proxied Assistant', redirect_uris: ['http://127.0.0.1:7777/callback'], token_endpoint_auth_method: 'none' });
      expect(registered.status).toBe(201);
      expect(registered.body.registration_client_uri).toBe(`https://reviews.example/oauth/reg/${registered.body.client_id}`);
    } finally {
      await built.stop();
    }
  });
});
