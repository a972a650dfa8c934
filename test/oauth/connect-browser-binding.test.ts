import { randomBytes } from 'node:crypto';
import type { Express } from 'express';
import { JSDOM } from 'jsdom';
import { mac } from '../../src/crypto/secrets';
import { fixedClock } from '../../src/domain/clock';
import { t } from '../../src/i18n';
import { ConnectLink, Customer, Integration, ProviderConnection, TenantDomain } from '../../src/models';
import { issueConnectLink } from '../../src/services/connect-links.service';
import { forgetLinkDomains, setLinkDomain } from '../../src/services/link-domain.service';
import { useDatabase } from '../support/db';
import { makeWorld } from '../support/factories';
import { useProviderApis } from '../support/providers/review-platforms';
import { ConnectBrowser, startConnectApp } from './connect-browser';
import type { MockOAuthServer } from './mock-oauth-server';

/**
 * The connect sign-in is bound to the browser that started it: `/connect/{token}/start` sets a cookie with a MAC of
 * the attempt's state, and `/connect/callback` completes nothing without it. Otherwise anyone holding a connect link
 * could start its sign-in, send the provider's authorization URL to a business owner, and attach the owner's business
 * (tokens and all) to the link's location once the owner consented. With an agency link domain the page is on the
 * agency's host while the providers call back on PUBLIC_URL's: the callback is relayed there, once, to the cookie.
 */
const ENV_KEYS = ['GOOGLE_CLIENT_ID', 'GOOGLE_CLIENT_SECRET', 'GOOGLE_AUTH_URL', 'GOOGLE_TOKEN_URL', 'PUBLIC_URL', 'APP_KEY'] as const;
const PUBLIC_HOST = 'connect.example.test';
const PUBLIC = `http://${PUBLIC_HOST}`;
const saved: Record<string, string | undefined> = Object.fromEntries(ENV_KEYS.map((k) => [k, process.env[k]]));
process.env.GOOGLE_CLIENT_ID = 'reviewgrid-test-client';
process.env.GOOGLE_CLIENT_SECRET = 'reviewgrid-test-secret';
process.env.PUBLIC_URL = PUBLIC;
process.env.APP_KEY = randomBytes(32).toString('base64');

const COOKIE = 'connect_sign_in';

describe('connect page: the sign-in is bound to the browser that started it', () => {
  useDatabase();
  const apis = useProviderApis();
  const clock = fixedClock(new Date('2026-11-23T10:00:00.000Z'));
  let oauth: MockOAuthServer;
  let app: Express;
  let stop: () => Promise<void>;

  beforeAll(async () => {
    ({ oauth, app, stop } = await startConnectApp(clock));
    const google = apis().google;
    google.addAccount('7101', 'Victim Dental Group');
    google.addLocation('accounts/7101/locations/31', { title: 'Victim Dental', address: null });
  });
  afterEach(() => {
    process.env.PUBLIC_URL = PUBLIC;
    forgetLinkDomains();
  });
  afterAll(async () => {
    await stop?.();
    await oauth?.stop();
    for (const k of ENV_KEYS) {
      if (saved[k] === undefined) delete process.env[k];
      else process.env[k] = saved[k];
    }
  });

  const browser = () => new ConnectBrowser(app, PUBLIC_HOST);
  const hidden = (html: string, name: string): string => {
    const m = new RegExp(`name="${name}" value="([^"]*)"`).exec(html);
    if (!m) throw new Error(`no hidden field ${name} in ${html}`);
    return m[1];
  };

  async function newLink() {
    const w = await makeWorld();
    const link = await issueConnectLink({ tenantId: w.tenant.id, locationId: w.home.id, provider: 'google' }, { clock });
    return { w, link };
  }

  /** `b` opens the link's page at `origin` and presses "Sign in": the provider's authorization URL (the 303's Location). */
  async function start(b: ConnectBrowser, token: string, origin = PUBLIC) {
    const landing = await b.get(`${origin}/connect/${token}`);
    expect(landing.status).toBe(200);
    const res = await b.post(`${origin}/connect/${token}/start`, { csrf: hidden(landing.text, 'csrf') });
    expect(res.status).toBe(303);
    return { res, authorizeUrl: res.headers.location as string };
  }

  /** Whoever holds the authorization URL consents at the provider, which answers at once: the callback URL it sends them to. */
  async function consent(authorizeUrl: string): Promise<string> {
    const authorize = await fetch(authorizeUrl, { redirect: 'manual' });
    expect(authorize.status).toBe(302);
    return authorize.headers.get('location')!;
  }

  async function expectNothingStored(link: ConnectLink) {
    await link.reload();
    expect(link.completedOauthAt).toBeNull();
    expect(link.pendingCredentials).toBeNull();
    expect(link.selectionNonce).toBeNull();
    expect(link.usedAt).toBeNull();
    expect(link.integrationId).toBeNull();
    expect(await Integration.count({ where: { locationId: link.locationId, type: 'synced' } })).toBe(0);
  }

  /** The rest of the flow in `b` once the callback went through: the selection page, the choice, the success page. */
  async function selectAndFinish(b: ConnectBrowser, token: string, origin = PUBLIC) {
    const select = await b.get(`${origin}/connect/${token}/select`);
    expect(select.status).toBe(200);
    expect(select.text).toContain('Victim Dental');
    const done = await b.post(`${origin}/connect/${token}/select`, { nonce: hidden(select.text, 'nonce'), business: 'accounts/7101/locations/31' });
    expect(done.status).toBe(200);
    expect(done.text).toContain('Connected');
  }

  it('refuses a callback that reaches another browser than the one that started the sign-in: the link stays unused, without tokens', async () => {
    const { link } = await newLink();
    const attacker = browser();
    const { authorizeUrl } = await start(attacker, link.token);

    // The victim consents at the provider and lands on the callback, in a browser that never saw the link.
    const victim = browser();
    const callback = await consent(authorizeUrl);
    const res = await victim.get(callback);
    expect(res.status).toBe(400);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.text).toContain(t('en', 'connect.otherBrowserText'));
    expect(res.text).not.toContain('Try again'); // no one-click start of a link this browser never opened
    expect(res.headers.location).toBeUndefined();
    await expectNothingStored(link);

    // The attacker gets no selection of the victim's businesses: the link was never signed in.
    const select = await attacker.get(`/connect/${link.token}/select`);
    expect(select.status).toBe(303);
    expect(select.headers.location).toBe(`/connect/${link.token}`);
  });

  /** A link whose agency has a brand of its own and whose account reads Spanish (the agency English). */
  async function spanishLink() {
    const { w, link } = await newLink();
    const brandName = `Harbour Marketing ${randomBytes(3).toString('hex')}`;
    await w.tenant.update({ brandName, language: 'en' });
    await Customer.update({ language: 'es' }, { where: { id: w.home.customerId } });
    return { w, link, brandName };
  }

  const documentOf = (html: string) => new JSDOM(html).window.document;

  it("shows that refusal in the link's agency brand and its account's language while the state still names the link, still without Try again", async () => {
    const { link, brandName } = await spanishLink();
    const { authorizeUrl } = await start(browser(), link.token);
    const res = await browser().get(await consent(authorizeUrl));
    expect(res.status).toBe(400);
    const doc = documentOf(res.text);
    expect(doc.documentElement.lang).toBe('es');
    expect(doc.title).toContain(brandName);
    expect(doc.querySelector('header .brand')?.textContent).toBe(brandName);
    // It says what happened: the sign-in was started in another browser (the link is open, only not here).
    expect(doc.querySelector('main')?.textContent).toContain(t('es', 'connect.otherBrowserText'));
    expect(res.text).not.toContain(t('es', 'connect.strayText'));
    expect(res.text).not.toContain(t('en', 'connect.otherBrowserText'));
    expect(doc.querySelector('form')).toBeNull(); // no "Try again" (intentar de nuevo) in a browser that never opened the link
    expect(res.text).not.toContain(link.token);
    await expectNothingStored(link); // read only: the attempt is still the starter's
    await link.reload();
    expect(link.oauthState).toBe(new URL(authorizeUrl).searchParams.get('state'));
  });

  it('keeps the neutral English page when nothing names a link (the state of an attempt the link no longer has)', async () => {
    const { link, brandName } = await spanishLink();
    const b = browser();
    const first = await start(b, link.token);
    await start(b, link.token); // supersedes the first attempt: its state is no link's any more
    const res = await browser().get(await consent(first.authorizeUrl));
    expect(res.status).toBe(400);
    const doc = documentOf(res.text);
    expect(doc.documentElement.lang).toBe('en');
    expect(doc.querySelector('header .brand')?.textContent).toBe('Review connection');
    expect(res.text).not.toContain(brandName);
    expect(doc.querySelector('main')?.textContent).toContain(t('en', 'connect.strayText'));
    expect(doc.querySelector('form')).toBeNull();
  });

  it("refuses it too when the other browser holds a sign-in cookie of its own (another attempt's), and keeps that one", async () => {
    const { link } = await newLink();
    const own = (await newLink()).link;
    const attacker = browser();
    const { authorizeUrl } = await start(attacker, link.token);
    const victim = browser();
    const mine = await start(victim, own.token);
    const victimCookie = victim.cookies()[COOKIE];
    expect(victimCookie).toBeDefined();

    const res = await victim.get(await consent(authorizeUrl));
    expect(res.status).toBe(400);
    await expectNothingStored(link);
    expect(victim.cookies()[COOKIE]).toBe(victimCookie);

    // The victim's own sign-in still completes in the victim's browser.
    const back = await victim.get(await consent(mine.authorizeUrl));
    expect(back.status).toBe(303);
    expect(back.headers.location).toBe(`/connect/${own.token}/select`);
  });

  it('completes in the browser that started it: an HttpOnly, SameSite=Lax cookie on /connect, cleared by the callback', async () => {
    const { link } = await newLink();
    const b = browser();
    const { res, authorizeUrl } = await start(b, link.token);
    const setCookie = ([] as string[]).concat(res.headers['set-cookie'] ?? []);
    expect(setCookie).toHaveLength(1);
    const line = setCookie[0];
    expect(line).toMatch(new RegExp(`^${COOKIE}=[\\w-]{43};`));
    expect(line).toMatch(/; Path=\/connect(;|$)/);
    expect(line).toMatch(/; HttpOnly(;|$)/);
    expect(line).toMatch(/; SameSite=Lax(;|$)/);
    expect(line).not.toMatch(/Secure/); // PUBLIC_URL is plain http
    expect(line).not.toMatch(/Domain=/i); // host-only
    // It holds a MAC of the attempt's state, not the state.
    const state = new URL(authorizeUrl).searchParams.get('state')!;
    expect(line).not.toContain(state);
    expect(line).toContain(`${COOKIE}=${mac('connect-sign-in-browser', state)};`);

    const callback = await b.get(await consent(authorizeUrl));
    expect(callback.status).toBe(303);
    expect(callback.headers.location).toBe(`/connect/${link.token}/select`);
    expect(b.cookies()[COOKIE]).toBeUndefined(); // cleared: the attempt is over
    await selectAndFinish(b, link.token);
    await link.reload();
    expect(link.usedAt).not.toBeNull();
    expect(await ProviderConnection.count({ where: { integrationId: link.integrationId! } })).toBe(1);
  });

  it('marks the cookie Secure when PUBLIC_URL is https', async () => {
    process.env.PUBLIC_URL = 'https://connect.example.test';
    const { link } = await newLink();
    const { res } = await start(browser(), link.token);
    expect(([] as string[]).concat(res.headers['set-cookie'] ?? [])[0]).toMatch(/; Secure(;|$)/);
  });

  it('keeps two sign-ins of one browser apart (two links open at once): each completes, the cookie goes with the last', async () => {
    const first = (await newLink()).link;
    const second = (await newLink()).link;
    const b = browser();
    const a1 = await start(b, first.token);
    const a2 = await start(b, second.token);
    expect(b.cookies()[COOKIE]).toMatch(new RegExp(`^${COOKIE}=[\\w-]{43}\\.[\\w-]{43};`));
    expect((await b.get(await consent(a1.authorizeUrl))).headers.location).toBe(`/connect/${first.token}/select`);
    expect(b.cookies()[COOKIE]).toMatch(new RegExp(`^${COOKIE}=[\\w-]{43};`));
    expect((await b.get(await consent(a2.authorizeUrl))).headers.location).toBe(`/connect/${second.token}/select`);
    expect(b.cookies()[COOKIE]).toBeUndefined();
  });

  it('refuses, in the browser that started it, an attempt superseded by a later start of the same link (two tabs); the later one completes', async () => {
    const { link } = await newLink();
    const b = browser();
    const first = await start(b, link.token);
    const second = await start(b, link.token);
    // The cookie lets the first through to the service, which no longer knows its state.
    const stale = await b.get(await consent(first.authorizeUrl));
    expect(stale.status).toBe(400);
    expect(stale.text).toContain('does not belong to any open connect link');
    await expectNothingStored(link);
    const res = await b.get(await consent(second.authorizeUrl));
    expect(res.headers.location).toBe(`/connect/${link.token}/select`);
    expect(b.cookies()[COOKIE]).toBeUndefined();
  });

  describe("with the agency's link domain", () => {
    async function linkOnDomain() {
      const { w, link } = await newLink();
      const domain = (await TenantDomain.findOne({ where: { tenantId: w.tenant.id }, order: [['id', 'ASC']] }))!.domain;
      await setLinkDomain(w.tenant.id, domain);
      return { w, link, domain, origin: `http://${domain}` };
    }

    it("starts on the agency's domain; the callback on PUBLIC_URL's host is relayed there (same path and query) and completes with the cookie", async () => {
      const { link, domain, origin } = await linkOnDomain();
      const b = browser();
      const landing = await b.get(`${origin}/connect/${link.token}`);
      // The sign-in form's redirects may reach the callback on PUBLIC_URL at once (a provider that answers without a page).
      expect(landing.headers['content-security-policy']).toMatch(new RegExp(`form-action 'self' [^;]*${PUBLIC.replace(/\./g, '\\.')}(;| )`));
      const { authorizeUrl } = await start(b, link.token, origin);
      expect(b.cookies(domain)[COOKIE]).toBeDefined();
      expect(b.cookies(PUBLIC_HOST)[COOKIE]).toBeUndefined();
      const auth = new URL(authorizeUrl);
      expect(auth.searchParams.get('redirect_uri')).toBe(`${PUBLIC}/connect/callback`); // the one registered redirect URI

      const callback = await consent(authorizeUrl);
      expect(callback.startsWith(`${PUBLIC}/connect/callback?`)).toBe(true);
      const atPublic = await b.get(callback);
      expect(atPublic.status).toBe(303);
      const relayed = new URL(atPublic.headers.location);
      expect(relayed.origin).toBe(origin);
      expect(relayed.pathname).toBe('/connect/callback');
      const query = new URL(callback).searchParams;
      expect(Object.fromEntries(relayed.searchParams)).toEqual({ ...Object.fromEntries(query), relayed: '1' });
      await link.reload();
      expect(link.completedOauthAt).toBeNull(); // nothing happened on PUBLIC_URL's host
      expect(link.oauthState).toBe(query.get('state'));

      const atAgency = await b.get(atPublic.headers.location);
      expect(atAgency.status).toBe(303);
      expect(atAgency.headers.location).toBe(`/connect/${link.token}/select`);
      expect(b.cookies(domain)[COOKIE]).toBeUndefined();
      expect(await oauth.tokenRequestReported((r) => r.code === query.get('code'))).toMatchObject({ redirect_uri: `${PUBLIC}/connect/callback` });
      await selectAndFinish(b, link.token, origin);
      await link.reload();
      expect(link.usedAt).not.toBeNull();
    });

    it("refuses, on the agency's domain and without a second relay, a callback that reaches another browser", async () => {
      const { link, origin } = await linkOnDomain();
      const { authorizeUrl } = await start(browser(), link.token, origin);
      const victim = browser();
      const atPublic = await victim.get(await consent(authorizeUrl));
      expect(atPublic.status).toBe(303);
      expect(new URL(atPublic.headers.location).origin).toBe(origin);
      const atAgency = await victim.get(atPublic.headers.location);
      expect(atAgency.status).toBe(400);
      expect(atAgency.headers.location).toBeUndefined();
      expect(atAgency.text).toContain(t('en', 'connect.otherBrowserText'));
      await expectNothingStored(link);

      // A relayed callback is never relayed again, whichever host it reaches.
      const again = await victim.get(atPublic.headers.location.replace(origin, PUBLIC));
      expect(again.status).toBe(400);
      await expectNothingStored(link);
    });

    it('finishes on PUBLIC_URL without a relay when the sign-in started there (a link sent before the domain was set)', async () => {
      const { link } = await linkOnDomain();
      const b = browser();
      const { authorizeUrl } = await start(b, link.token, PUBLIC);
      const res = await b.get(await consent(authorizeUrl));
      expect(res.status).toBe(303);
      expect(res.headers.location).toBe(`/connect/${link.token}/select`);
    });

    it('relays only to the host the platform signed into the state: a forged or altered relay is refused, not followed', async () => {
      const { link, domain, origin } = await linkOnDomain();
      const { authorizeUrl } = await start(browser(), link.token, origin);
      const state = new URL(authorizeUrl).searchParams.get('state')!;
      const random = state.slice(0, state.indexOf('.'));
      const sig = state.slice(state.lastIndexOf('.') + 1);
      expect(state).toBe(`${random}.${domain}.${sig}`);
      expect(random).toMatch(/^[\w-]{43}$/);
      expect(sig).toMatch(/^[\w-]{22}$/);
      const forgedStates = [
        `${random}.evil.test.${sig}`, // another host under the MAC of the agency's
        `${random}.evil.test.${mac('connect-callback-relay', `${random}.evil.test`, randomBytes(32)).slice(0, 22)}`, // a MAC under another key
        `${random.startsWith('x') ? 'y' : 'x'}${random.slice(1)}.${domain}.${sig}`, // another random part (never the same: one in 64 starts with x)
        `${random}.${domain}`, // no MAC
        `${random}.${domain}.${'é'.repeat(22)}`, // a MAC of 22 characters but not of 22 bytes (timingSafeEqual threw: 500)
      ];
      for (const forged of forgedStates) {
        const res = await browser().get(`${PUBLIC}/connect/callback?${new URLSearchParams({ state: forged, code: 'stolen' })}`);
        expect([forged, res.status]).toEqual([forged, 400]);
        expect(res.headers.location).toBeUndefined();
      }
      await expectNothingStored(link);
    });

    it('keeps the state of the longest link domain within the stored column (VARCHAR(128)), and relays it', async () => {
      const { w, link } = await newLink();
      const long = `${'l'.repeat(52 - 'http://'.length - '.test'.length)}.test`; // a link base of 52 characters, the most allowed
      await TenantDomain.create({ tenantId: w.tenant.id, domain: long });
      await setLinkDomain(w.tenant.id, long);
      const b = browser();
      const { authorizeUrl } = await start(b, link.token, `http://${long}`);
      const state = new URL(authorizeUrl).searchParams.get('state')!;
      expect(state.length).toBeLessThanOrEqual(128);
      expect(state).toContain(`.${long}.`);
      const atPublic = await b.get(await consent(authorizeUrl));
      expect(new URL(atPublic.headers.location).host).toBe(long);
      expect((await b.get(atPublic.headers.location)).headers.location).toBe(`/connect/${link.token}/select`);
    });
  });
});
