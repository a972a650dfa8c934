import fs from 'node:fs';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { ConnectLink, Integration } from '../../src/models';
import { simulatorClient } from '../../src/services/provider-connections.service';
import { signInState } from '../../src/services/connect-links.service';
import { createConnectLink } from '../support/app';
import { recordCspViolations } from '../support/browser';
import { useDatabase } from '../support/db';
import { useEnv } from '../support/env';
import { useLinkDomainBrowser, type LinkDomainBrowser } from '../support/link-domain-browser';
import { useProviderApis } from '../support/providers/review-platforms';

/**
 * The embedded default's connect flow on an agency's link domain in headless Chromium: the page and the browser's
 * sign-in cookie on the agency's host, the simulated Google sign-in page on PUBLIC_URL. Its form answers 303 to the
 * callback on PUBLIC_URL, which relays the browser to the agency's host; Chrome checks every hop of the form's
 * redirects against the simulator page's form-action, which must admit that host (and no other).
 */
describe("simulated connect flow in a browser on the agency's link domain", () => {
  jest.setTimeout(60_000);
  useDatabase();
  const apis = useProviderApis();
  useEnv({}, ['GOOGLE_CLIENT_ID', 'PUBLIC_URL']);
  // Google runs simulated: the sign-in is the in-process simulator.
  const world = useLinkDomainBrowser({ before: async () => void delete process.env.GOOGLE_CLIENT_ID });
  let browser: Browser;
  let base: string;
  let w: LinkDomainBrowser['w'];
  let domain: string;
  let origin: string;

  beforeAll(() => {
    ({ browser, base, w, domain, origin } = world());
    apis().google.addLocation('accounts/8201/locations/51', { title: 'Lighthouse Opticians', address: null });
  });

  it("signs in on the simulator, is relayed back to the agency's domain and attaches the business", async () => {
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
    let simulatorCsp = '';
    page.on('response', (r) => {
      if (new URL(r.url()).pathname === '/simulators/google/oauth/authorize' && r.request().method() === 'GET') simulatorCsp = r.headers()['content-security-policy'] ?? '';
    });
    try {
      expect((await page.goto(link.connect_url))?.status()).toBe(200);
      await page.getByRole('button', { name: 'Sign in with Google' }).click();
      await page.waitForURL(`${base}/simulators/google/oauth/authorize?**`);
      await page.getByRole('button', { name: 'Sign in and allow' }).click();
      await page.waitForURL(`${origin}/connect/${link.token}/select`);
      await page.getByLabel(/Lighthouse Opticians/).check();
      await page.getByRole('button', { name: /Connect this Business Profile/ }).click();
      await page.getByRole('heading', { name: 'Connected' }).waitFor();
      expect(new URL(page.url()).origin).toBe(origin);
      const artifacts = path.resolve(__dirname, '..', '..', 'artifacts');
      fs.mkdirSync(artifacts, { recursive: true });
      await page.screenshot({ path: path.join(artifacts, 'connect-link-domain-simulator.png'), fullPage: true });
    } catch (e) {
      throw new Error(`${(e as Error).message}\nhops: ${hops.join('\n')}\nviolations: ${violations.join('\n')}\nat ${page.url()}:\n${(await page.content()).slice(0, 2000)}`);
    } finally {
      await page.close();
    }
    // The simulator's page admits exactly the agency's origin besides its own.
    expect(simulatorCsp).toContain(`form-action 'self' ${origin};`);
    // form, the simulator's page and form, PUBLIC_URL's callback, the relay to the agency's host, the selection there.
    const paths = hops.map((u) => `${new URL(u).origin}${new URL(u).pathname}`);
    expect(paths).toEqual(
      expect.arrayContaining([
        `${origin}/connect/${link.token}/start`,
        `${base}/simulators/google/oauth/authorize`,
        `${base}/connect/callback`,
        `${origin}/connect/callback`,
        `${origin}/connect/${link.token}/select`,
      ]),
    );
    expect(violations).toEqual([]);

    const stored = await ConnectLink.findByPk(link.token);
    expect(stored?.usedAt).not.toBeNull();
    const integration = await Integration.findOne({ where: { locationId: w.home.id, type: 'synced' } });
    expect(integration).toMatchObject({ externalId: 'accounts/8201/locations/51', id: stored!.integrationId });
  });

  it("admits no other host: a state without the platform's tag (or with an altered one) leaves form-action 'self'", async () => {
    const authorize = (state: string) =>
      fetch(
        `${base}/simulators/google/oauth/authorize?${new URLSearchParams({
          client_id: simulatorClient('google').clientId,
          redirect_uri: `${base}/connect/callback`,
          response_type: 'code',
          code_challenge: 'x'.repeat(43),
          code_challenge_method: 'S256',
          scope: 'business.manage',
          state,
        })}`,
      );
    const signed = signInState('r'.repeat(43), `http://${domain}:${new URL(base).port}`, base);
    const good = await authorize(signed);
    expect(good.status).toBe(200);
    expect(good.headers.get('content-security-policy')).toContain(`form-action 'self' http://${domain}:${new URL(base).port};`);
    const forged = signed.replace(domain, 'attacker.example');
    // Also a MAC of 22 characters that are not 22 bytes: refused like any other, not a 500.
    for (const state of [forged, 'plain-random-state', `${'r'.repeat(43)}.attacker.example.${'A'.repeat(22)}`, `${'r'.repeat(43)}.${domain}.${'é'.repeat(22)}`]) {
      const answer = await authorize(state);
      expect(answer.status).toBe(200);
      expect(answer.headers.get('content-security-policy')).toContain("form-action 'self';");
    }
  });
});
