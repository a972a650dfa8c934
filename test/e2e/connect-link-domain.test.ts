import type { Browser } from 'playwright-core';
import { ConnectLink, Integration } from '../../src/models';
import { startMockOAuthServer, type MockOAuthServer } from '../oauth/mock-oauth-server';
import { createConnectLink } from '../support/app';
import { recordCspViolations } from '../support/browser';
import { useDatabase } from '../support/db';
import { useEnv } from '../support/env';
import { useLinkDomainBrowser, type LinkDomainBrowser } from '../support/link-domain-browser';
import { useProviderApis } from '../support/providers/review-platforms';

/**
 * The connect flow in headless Chromium on an agency's link domain: the page, and the browser's sign-in cookie, on the
 * agency's host; the provider (a real OAuth 2 server that answers at once, as a provider does for an account that
 * already allowed the app) calls back on PUBLIC_URL, which relays the browser to the agency's host, where the
 * sign-in completes. Every hop of the sign-in form's redirects must pass the page's form-action, and the SameSite=Lax
 * cookie must come back on the provider's cross-site redirect.
 */
describe("connect flow in a browser on the agency's link domain", () => {
  jest.setTimeout(60_000);
  useDatabase();
  const apis = useProviderApis();
  useEnv({ GOOGLE_CLIENT_ID: 'reviewgrid-test-client', GOOGLE_CLIENT_SECRET: 'reviewgrid-test-secret' }, ['GOOGLE_AUTH_URL', 'GOOGLE_TOKEN_URL', 'PUBLIC_URL']);
  let oauth: MockOAuthServer;
  const world = useLinkDomainBrowser({
    before: async () => {
      oauth = await startMockOAuthServer();
      process.env.GOOGLE_AUTH_URL = `${oauth.url}/authorize`;
      process.env.GOOGLE_TOKEN_URL = `${oauth.url}/token`;
    },
  });
  let browser: Browser;
  let base: string;
  let w: LinkDomainBrowser['w'];
  let origin: string;

  beforeAll(() => {
    ({ browser, base, w, origin } = world());
    apis().google.addLocation('accounts/8101/locations/41', { title: 'Quayside Florist', address: null });
  });
  afterAll(async () => {
    await oauth?.stop();
  });

  it("opens the link on the agency's domain, signs in, comes back there and attaches the business", async () => {
    const link = await createConnectLink(base, w.owner, w.home);
    expect(link.connect_url).toBe(`${origin}/connect/${link.token}`);

    const page = await browser.newPage();
    page.setDefaultTimeout(15_000);
    const violations: string[] = [];
    await recordCspViolations(page, violations);
    const hops: string[] = [];
    page.on('request', (r) => {
      if (r.isNavigationRequest()) hops.push(r.url());
    });
    try {
      expect((await page.goto(link.connect_url))?.status()).toBe(200);
      await page.getByRole('button', { name: 'Sign in with Google' }).click();
      await page.waitForURL(`${origin}/connect/${link.token}/select`);
      await page.getByLabel(/Quayside Florist/).check();
      await page.getByRole('button', { name: /Connect this Business Profile/ }).click();
      await page.getByRole('heading', { name: 'Connected' }).waitFor();
    } catch (e) {
      throw new Error(`${(e as Error).message}\nhops: ${hops.join('\n')}\nat ${page.url()}:\n${(await page.content()).slice(0, 2000)}`);
    } finally {
      await page.close();
    }
    // form, provider, PUBLIC_URL's callback, the relay to the agency's host, the selection there.
    const paths = hops.map((u) => `${new URL(u).origin}${new URL(u).pathname}`);
    expect(paths).toEqual(
      expect.arrayContaining([`${origin}/connect/${link.token}/start`, `${oauth.url}/authorize`, `${base}/connect/callback`, `${origin}/connect/callback`, `${origin}/connect/${link.token}/select`]),
    );
    expect(violations).toEqual([]);

    const stored = await ConnectLink.findByPk(link.token);
    expect(stored?.usedAt).not.toBeNull();
    const integration = await Integration.findOne({ where: { locationId: w.home.id, type: 'synced' } });
    expect(integration).toMatchObject({ externalId: 'accounts/8101/locations/41', id: stored!.integrationId });
  });
});
