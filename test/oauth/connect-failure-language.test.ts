import { randomBytes } from 'node:crypto';
import type { Express } from 'express';
import { fixedClock } from '../../src/domain/clock';
import { CATALOGUES } from '../../src/i18n';
import { Customer } from '../../src/models';
import { issueConnectLink } from '../../src/services/connect-links.service';
import { useDatabase } from '../support/db';
import { makeWorld } from '../support/factories';
import { ConnectBrowser, startConnectApp } from './connect-browser';
import type { MockOAuthServer } from './mock-oauth-server';

/**
 * A sign-in that did not complete (cancelled or refused at the provider) reads, title and text, in the account's
 * language, chosen by the failure's reason: never the service's English sentence under a translated title.
 */
const ENV_KEYS = ['GOOGLE_CLIENT_ID', 'GOOGLE_CLIENT_SECRET', 'GOOGLE_AUTH_URL', 'GOOGLE_TOKEN_URL', 'PUBLIC_URL', 'APP_KEY'] as const;
const saved: Record<string, string | undefined> = Object.fromEntries(ENV_KEYS.map((k) => [k, process.env[k]]));
process.env.GOOGLE_CLIENT_ID = 'reviewgrid-test-client';
process.env.GOOGLE_CLIENT_SECRET = 'reviewgrid-test-secret';
process.env.PUBLIC_URL = 'http://connect.example.test';
process.env.APP_KEY = randomBytes(32).toString('base64');

/** The page's text as a reader sees it (entities decoded). */
const readable = (html: string) =>
  html
    .replace(/&#x27;|&#39;|&apos;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');

/** The service's English words for the sign-in failures (provider-connections / connect-links services). */
const ENGLISH = [/sign-in was cancelled/i, /provider refused/i, /did not accept the sign-in/i, /does not belong to/i, /already used/i, /Please start again/i];

describe('connect page: a sign-in that did not complete, in the account language', () => {
  useDatabase();
  const clock = fixedClock(new Date('2026-11-23T10:00:00.000Z'));
  let oauth: MockOAuthServer;
  let app: Express;
  let stop: () => Promise<void>;

  beforeAll(async () => {
    ({ oauth, app, stop } = await startConnectApp(clock));
  });
  afterAll(async () => {
    await stop?.();
    await oauth?.stop();
    for (const k of ENV_KEYS) {
      if (saved[k] === undefined) delete process.env[k];
      else process.env[k] = saved[k];
    }
  });

  const hidden = (html: string, name: string): string => {
    const m = new RegExp(`name="${name}" value="([^"]*)"`).exec(html);
    if (!m) throw new Error(`no hidden field ${name} in ${html}`);
    return m[1];
  };

  /**
   * A link of an account speaking `language`, signed in as far as the provider in a browser (its cookies kept: the
   * callback completes only in the browser that started the sign-in): the state of its callback, and that browser.
   */
  async function startedLink(language: string) {
    const w = await makeWorld();
    await Customer.update({ language }, { where: { id: w.org.customerId } });
    const link = await issueConnectLink({ tenantId: w.tenant.id, locationId: w.home.id, provider: 'google' }, { clock });
    const browser = new ConnectBrowser(app, 'connect.example.test');
    const landing = await browser.get(`/connect/${link.token}`);
    const start = await browser.post(`/connect/${link.token}/start`, { csrf: hidden(landing.text, 'csrf') });
    expect(start.status).toBe(303);
    const authorize = await fetch(start.headers.location, { redirect: 'manual' });
    const back = new URL(authorize.headers.get('location')!);
    return { link, browser, state: back.searchParams.get('state')! };
  }

  /** The provider sends the browser back with `error` instead of a code. */
  const callbackWithError = (browser: ConnectBrowser, state: string, error: string) => browser.get(`/connect/callback?${new URLSearchParams({ error, state })}`);

  it('shows a sign-in cancelled at the provider (access_denied) in Spanish, title and text', async () => {
    const { browser, state } = await startedLink('es');
    const res = await callbackWithError(browser, state, 'access_denied');
    expect(res.status).toBe(400);
    const page = readable(res.text);
    expect(page).toContain('<html lang="es">');
    expect(page).toContain(`<h1>${CATALOGUES.es.connect.cancelledTitle}</h1>`);
    expect(page).toContain(`<p>${CATALOGUES.es.connect.cancelledText}</p>`);
    expect(page).toContain(CATALOGUES.es.connect.tryAgain);
    for (const english of ENGLISH) expect(page).not.toMatch(english);
  });

  it('shows a sign-in refused by the provider (provider_error) in French, title and text', async () => {
    const { browser, state } = await startedLink('fr');
    const res = await callbackWithError(browser, state, 'server_error');
    expect(res.status).toBe(400);
    const page = readable(res.text);
    expect(page).toContain('<html lang="fr">');
    expect(page).toContain(`<h1>${CATALOGUES.fr.connect.incompleteTitle}</h1>`);
    expect(page).toContain(`<p>${CATALOGUES.fr.connect.refusedText}</p>`);
    for (const english of ENGLISH) expect(page).not.toMatch(english);
  });

  it('shows the English catalogue text to an English account', async () => {
    const { browser, state } = await startedLink('en');
    const res = await callbackWithError(browser, state, 'access_denied');
    expect(res.status).toBe(400);
    expect(readable(res.text)).toContain(`<p>${CATALOGUES.en.connect.cancelledText}</p>`);
  });
});
