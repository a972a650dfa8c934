import { randomBytes } from 'node:crypto';
import { logoKey } from '../../src/reports/logo';
import type { Express } from 'express';
import request from 'supertest';
import { decryptSecret } from '../../src/crypto/secrets';
import { fixedClock } from '../../src/domain/clock';
import { ConnectLink, Integration, ProviderConnection, ReviewSource } from '../../src/models';
import { issueConnectLink } from '../../src/services/connect-links.service';
import { accessTokenFor, saveConnection } from '../../src/services/provider-connections.service';
import { useAgencyLogo } from '../support/agency-logo';
import { useDatabase } from '../support/db';
import { makeWorld } from '../support/factories';
import { useProviderApis } from '../support/providers/review-platforms';
import { ConnectBrowser, startConnectApp } from './connect-browser';
import type { MockOAuthServer } from './mock-oauth-server';

/**
 * The connect page's OAuth 2 round trip (authorization code + PKCE S256, state bound to the link) against a
 * real OAuth 2 server on loopback (oauth2-mock-server), the business list from the Google wire-format server. The
 * customer's steps run in one browser (`ConnectBrowser`, its cookies kept): the sign-in is bound to the browser that
 * started it (test/oauth/connect-browser-binding.test.ts).
 */
const ENV_KEYS = ['GOOGLE_CLIENT_ID', 'GOOGLE_CLIENT_SECRET', 'GOOGLE_AUTH_URL', 'GOOGLE_TOKEN_URL', 'PUBLIC_URL', 'APP_KEY'] as const;
const PUBLIC_HOST = 'connect.example.test';
const PUBLIC = `http://${PUBLIC_HOST}`;
const saved: Record<string, string | undefined> = Object.fromEntries(ENV_KEYS.map((k) => [k, process.env[k]]));
process.env.GOOGLE_CLIENT_ID = 'reviewgrid-test-client';
process.env.GOOGLE_CLIENT_SECRET = 'reviewgrid-test-secret';
process.env.PUBLIC_URL = PUBLIC;
process.env.APP_KEY = randomBytes(32).toString('base64');

describe('connect page OAuth round trip against a real OAuth 2 server', () => {
  useDatabase();
  const apis = useProviderApis();
  // The agency's logo, which the platform can fetch (a page shows no logo it cannot serve).
  const logo = useAgencyLogo();
  const clock = fixedClock(new Date('2026-11-23T10:00:00.000Z'));
  const syncs: number[] = [];
  let oauth: MockOAuthServer;
  let app: Express;
  let stop: () => Promise<void>;

  beforeAll(async () => {
    ({ oauth, app, stop } = await startConnectApp(clock, async (id) => void syncs.push(id)));
    const google = apis().google;
    google.addAccount('7001', 'Main Street Dental Group');
    google.addLocation('accounts/7001/locations/11', { title: 'Main Street Dental', address: { addressLines: ['1 Main Street'], locality: 'Springfield', postalCode: '12345', regionCode: 'US' } });
    google.addLocation('accounts/7001/locations/12', { title: 'Main Street Dental <Annex>', address: null });
  });
  afterAll(async () => {
    await stop?.();
    await oauth?.stop();
    for (const k of ENV_KEYS) {
      if (saved[k] === undefined) delete process.env[k];
      else process.env[k] = saved[k];
    }
  });

  const http = () => request(app);
  /** A customer's browser on PUBLIC_URL's host (a fresh one: no cookies yet). */
  const browser = () => new ConnectBrowser(app, PUBLIC_HOST);
  const hidden = (html: string, name: string): string => {
    const m = new RegExp(`name="${name}" value="([^"]*)"`).exec(html);
    if (!m) throw new Error(`no hidden field ${name} in ${html}`);
    return m[1];
  };
  const pathOf = (url: string) => {
    const u = new URL(url);
    return `${u.pathname}${u.search}`;
  };

  async function newLink() {
    const w = await makeWorld();
    const logoUrl = logo.reachable();
    await w.tenant.update({ brandName: 'Bright <Agency>', logoUrl });
    const link = await issueConnectLink({ tenantId: w.tenant.id, locationId: w.home.id, provider: 'google' }, { clock });
    return { w, link, logoUrl };
  }

  /** Landing page, start, the provider's authorize endpoint, in `b`: the callback URL the provider sends `b` to. */
  async function signIn(b: ConnectBrowser, token: string): Promise<string> {
    const landing = await b.get(`/connect/${token}`);
    const start = await b.post(`/connect/${token}/start`, { csrf: hidden(landing.text, 'csrf') });
    expect(start.status).toBe(303);
    const authorize = await fetch(start.headers.location, { redirect: 'manual' });
    expect(authorize.status).toBe(302);
    return authorize.headers.get('location')!;
  }

  it('signs in, lists the businesses, attaches the chosen one and stores the tokens encrypted', async () => {
    const { w, link, logoUrl } = await newLink();
    const b = browser();
    const landing = await b.get(`/connect/${link.token}`);
    expect(landing.status).toBe(200);
    expect(landing.headers['content-type']).toMatch(/^text\/html/);
    expect(landing.headers['referrer-policy']).toBe('no-referrer');
    // Escaped by the renderer (`<` as `&lt;`; a `>` in text opens nothing, so it is written as is).
    expect(landing.text).toContain('Bright &lt;Agency>');
    expect(landing.text).not.toContain('<Agency>');
    // The logo from the platform's own host (GET /brand/logo/<key>), never the agency's.
    expect(landing.text).toContain(`<img src="/brand/logo/${logoKey(logoUrl)}"`);
    expect(landing.text).toContain(w.home.name);
    expect(landing.text).toContain('Sign in with Google');

    clock.advance(1000);
    const start = await b.post(`/connect/${link.token}/start`, { csrf: hidden(landing.text, 'csrf') });
    expect(start.status).toBe(303);
    const authUrl = new URL(start.headers.location);
    expect(`${authUrl.origin}${authUrl.pathname}`).toBe(`${oauth.url}/authorize`);
    const callbackUrl = `${PUBLIC}/connect/callback`;
    expect(Object.fromEntries(authUrl.searchParams)).toEqual({
      client_id: 'reviewgrid-test-client',
      redirect_uri: callbackUrl,
      response_type: 'code',
      scope: 'https://www.googleapis.com/auth/business.manage',
      state: expect.stringMatching(/^[\w-]{20,}$/),
      code_challenge: expect.stringMatching(/^[\w-]{43}$/),
      code_challenge_method: 'S256',
      access_type: 'offline',
      prompt: 'consent',
      include_granted_scopes: 'true',
    });
    await link.reload();
    expect(link.lastStartedAt).toEqual(new Date('2026-11-23T10:00:01.000Z'));
    expect(link.oauthState).toBe(authUrl.searchParams.get('state'));
    const verifier = link.pkceVerifier!;

    const authorize = await fetch(start.headers.location, { redirect: 'manual' });
    const back = new URL(authorize.headers.get('location')!);
    expect(`${back.origin}${back.pathname}`).toBe(callbackUrl);
    clock.advance(1000);
    const callback = await b.get(pathOf(back.toString()));
    expect(callback.status).toBe(303);
    expect(callback.headers.location).toBe(`/connect/${link.token}/select`);
    expect(await oauth.tokenRequestReported((r) => r.code === back.searchParams.get('code'))).toEqual({
      grant_type: 'authorization_code',
      code: back.searchParams.get('code'),
      redirect_uri: callbackUrl,
      code_verifier: verifier,
      client_id: 'reviewgrid-test-client',
      client_secret: 'reviewgrid-test-secret',
    });
    await link.reload();
    expect(link.completedOauthAt).toEqual(new Date('2026-11-23T10:00:02.000Z'));
    expect(link.usedAt).toBeNull();
    expect(link.oauthState).toBeNull(); // the state works once

    const select = await b.get(`/connect/${link.token}/select`);
    expect(select.status).toBe(200);
    expect(select.text).toContain('Main Street Dental');
    expect(select.text).toContain('1 Main Street, Springfield, 12345, US');
    expect(select.text).toContain('Main Street Dental &lt;Annex>');
    expect(select.text).not.toContain('<Annex>');
    expect(apis().google.requests.some((r) => r.authorization?.startsWith('Bearer ey'))).toBe(true);

    const done = await b.post(`/connect/${link.token}/select`, { nonce: hidden(select.text, 'nonce'), business: 'accounts/7001/locations/11' });
    expect(done.status).toBe(200);
    expect(done.text).toContain('Connected');
    expect(done.text).toContain('Main Street Dental');

    await link.reload();
    expect(link.usedAt).toEqual(new Date('2026-11-23T10:00:02.000Z'));
    expect(link.pendingCredentials).toBeNull();
    const google = await ReviewSource.findOne({ where: { slug: 'google' } });
    const integration = await Integration.findByPk(link.integrationId!);
    expect(integration).toMatchObject({ locationId: w.home.id, sourceId: google!.id, type: 'synced', externalId: 'accounts/7001/locations/11' });
    expect(syncs).toContain(integration!.id);

    const connection = await ProviderConnection.findByPk(integration!.id);
    expect(connection!.accessTokenEnc).toMatch(/^v2\./);
    const accessToken = decryptSecret(connection!.accessTokenEnc);
    expect(accessToken).toMatch(/^ey/); // the mock server's JWT
    expect(connection!.accessTokenEnc).not.toContain(accessToken.slice(0, 24));
    expect(connection!.refreshTokenEnc).not.toBeNull();
    expect(connection!.scope).toBe('dummy'); // the scope the server answered (oauth2-mock-server does not echo the request's)
    expect(connection!.expiresAt).toEqual(new Date(clock.now().getTime() + 3600 * 1000));
    expect(await accessTokenFor(integration!.id, { clock })).toBe(accessToken);

    // The same link cannot be used again, nor the callback replayed: the callback took the browser's attempt with it,
    // and its state was consumed (it belongs to no open link any more).
    expect((await b.get(pathOf(back.toString()))).status).toBe(400);
    expect((await http().get(`/connect/${link.token}`)).status).toBe(410);
  });

  it('reconnecting the same business on the same location keeps its integration (its reviews are not imported twice) with the new tokens', async () => {
    const { w, link } = await newLink();
    const connect = async (token: string) => {
      const b = browser();
      expect((await b.get(pathOf(await signIn(b, token)))).status).toBe(303);
      const select = await b.get(`/connect/${token}/select`);
      const done = await b.post(`/connect/${token}/select`, { nonce: hidden(select.text, 'nonce'), business: 'accounts/7001/locations/12' });
      expect(done.status).toBe(200);
    };
    await connect(link.token);
    await link.reload();
    // Access was lost (revoked at Google, APP_KEY replaced): the stored sign-in no longer works.
    await saveConnection({ integrationId: link.integrationId!, provider: 'google', accessToken: 'revoked-at-google', refreshToken: null, expiresAt: null, scope: null });

    // The agency sends a new link, the customer picks the same business.
    const again = await issueConnectLink({ tenantId: w.tenant.id, locationId: w.home.id, provider: 'google' }, { clock });
    await connect(again.token);
    await again.reload();
    expect(again.integrationId).toBe(link.integrationId);
    expect(await Integration.count({ where: { locationId: w.home.id, externalId: 'accounts/7001/locations/12' } })).toBe(1);
    const connection = await ProviderConnection.findByPk(link.integrationId!);
    expect(decryptSecret(connection!.accessTokenEnc)).toMatch(/^ey/); // the new sign-in's token
    expect(connection!.refreshTokenEnc).not.toBeNull();
  });

  it('refreshes an expired access token through the token endpoint and stores the new tokens', async () => {
    const { link } = await newLink();
    const b = browser();
    const back = await signIn(b, link.token);
    await b.get(pathOf(back));
    const select = await b.get(`/connect/${link.token}/select`);
    await b.post(`/connect/${link.token}/select`, { nonce: hidden(select.text, 'nonce'), business: 'accounts/7001/locations/12' });
    await link.reload();
    const before = (await ProviderConnection.findByPk(link.integrationId!))!;
    const oldAccess = decryptSecret(before.accessTokenEnc);
    const oldRefresh = decryptSecret(before.refreshTokenEnc!);
    const later = fixedClock(new Date(before.expiresAt!.getTime() - 30_000)); // inside the refresh margin
    const fresh = await accessTokenFor(link.integrationId!, { clock: later });
    expect(fresh).toMatch(/^ey/);
    expect(oldAccess).toMatch(/^ey/);
    expect(await oauth.tokenRequestReported((r) => r.grant_type === 'refresh_token' && r.refresh_token === oldRefresh)).toEqual({
      grant_type: 'refresh_token',
      refresh_token: oldRefresh,
      client_id: 'reviewgrid-test-client',
      client_secret: 'reviewgrid-test-secret',
    });
    const after = (await ProviderConnection.findByPk(link.integrationId!))!;
    expect(decryptSecret(after.accessTokenEnc)).toBe(fresh);
    expect(after.expiresAt).toEqual(new Date(later.now().getTime() + 3600 * 1000));
    expect(await accessTokenFor(link.integrationId!, { clock: later })).toBe(fresh);
  });

  it('answers 422 reconnect when the token expired and no refresh token is held', async () => {
    const { link } = await newLink();
    const b = browser();
    const back = await signIn(b, link.token);
    await b.get(pathOf(back));
    const select = await b.get(`/connect/${link.token}/select`);
    await b.post(`/connect/${link.token}/select`, { nonce: hidden(select.text, 'nonce'), business: 'accounts/7001/locations/11' });
    await link.reload();
    await ProviderConnection.update({ refreshTokenEnc: null, expiresAt: new Date('2026-01-01T00:00:00Z') }, { where: { integrationId: link.integrationId! } });
    await expect(accessTokenFor(link.integrationId!)).rejects.toMatchObject({ code: 'UPSTREAM', reason: 'reconnect_required' });
  });

  it('refuses a callback whose state is not the link\'s (400 page, nothing stored)', async () => {
    const { link } = await newLink();
    const b = browser();
    const back = new URL(await signIn(b, link.token));
    back.searchParams.set('state', 'forged-state-value-0000000000');
    // In the browser that started the sign-in: refused all the same (this browser started no attempt of that state).
    const res = await b.get(pathOf(back.toString()));
    expect(res.status).toBe(400);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.text).toContain('does not belong to any open connect link');
    expect(res.text).not.toContain('Try again'); // no link to go back to
    await link.reload();
    expect(link.completedOauthAt).toBeNull();
    expect(link.pendingCredentials).toBeNull();
  });

  it('shows a cancelled sign-in (error=access_denied) as a 400 page with a way to try again', async () => {
    const { link } = await newLink();
    const b = browser();
    const back = new URL(await signIn(b, link.token));
    const denied = new URL(`${back.origin}${back.pathname}`);
    denied.searchParams.set('error', 'access_denied');
    denied.searchParams.set('state', back.searchParams.get('state')!);
    const res = await b.get(pathOf(denied.toString()));
    expect(res.status).toBe(400);
    expect(res.text).toContain('Sign-in cancelled');
    expect(res.text).toContain('Try again');
    await link.reload();
    expect(link.completedOauthAt).toBeNull();
  });

  it('refuses a start without the page\'s CSRF token and a selection without the link\'s nonce', async () => {
    const { link } = await newLink();
    const forged = await http().post(`/connect/${link.token}/start`).type('form').send({ csrf: 'nope' });
    expect(forged.status).toBe(303);
    expect(forged.headers.location).toBe(`/connect/${link.token}`);
    expect(forged.headers['set-cookie']).toBeUndefined(); // nothing started: no sign-in cookie either
    await link.reload();
    expect(link.lastStartedAt).toBeNull();

    expect((await http().get(`/connect/${link.token}/select`)).headers.location).toBe(`/connect/${link.token}`); // not signed in yet
    const b = browser();
    const back = await signIn(b, link.token);
    expect((await b.get(pathOf(back))).status).toBe(303);
    const noNonce = await b.post(`/connect/${link.token}/select`, { nonce: 'guess', business: 'accounts/7001/locations/11' });
    expect(noNonce.status).toBe(303);
    const select = await b.get(`/connect/${link.token}/select`);
    const notListed = await b.post(`/connect/${link.token}/select`, { nonce: hidden(select.text, 'nonce'), business: 'accounts/9/locations/9' });
    expect(notListed.status).toBe(422);
    expect(notListed.text).toContain('Choose one of the listed');
    await link.reload();
    expect(link.usedAt).toBeNull();
    expect(await Integration.count({ where: { locationId: link.locationId, type: 'synced' } })).toBe(0);
  });

  it('renders unknown, expired, revoked and used links as friendly HTML pages (404/410)', async () => {
    const unknown = await http().get('/connect/00000000-0000-4000-8000-000000000000');
    expect(unknown.status).toBe(404);
    expect(unknown.headers['content-type']).toMatch(/^text\/html/);
    expect(unknown.text).toContain('Link not found');
    expect((await http().get('/connect/not-a-uuid')).status).toBe(404);
    expect((await http().post('/connect/not-a-uuid/start').type('form').send({})).status).toBe(404);

    const { link } = await newLink();
    await ConnectLink.update({ expiresAt: new Date(clock.now().getTime() - 1) }, { where: { token: link.token } });
    const expired = await http().get(`/connect/${link.token}`);
    expect(expired.status).toBe(410);
    expect(expired.text).toContain('Link expired');
    expect(expired.text).toContain('Bright &lt;Agency>');
    expect(expired.text).not.toContain('<Agency>');
    expect(expired.text).not.toMatch(/at \w+ \(|Error:/);

    const revoked = (await newLink()).link;
    await revoked.update({ revokedAt: clock.now() });
    expect((await http().get(`/connect/${revoked.token}`)).status).toBe(410);
    expect((await http().post(`/connect/${revoked.token}/start`).type('form').send({ csrf: 'x' })).status).toBe(303);

    const used = (await newLink()).link;
    await used.update({ usedAt: clock.now() });
    const res = await http().get(`/connect/${used.token}`);
    expect(res.status).toBe(410);
    expect(res.text).toContain('Already connected');
  });
});
