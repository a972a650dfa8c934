import type { Browser } from 'playwright-core';
import { ConnectLink, Integration, ProviderConnection } from '../../src/models';
import { createConnectLink, serveApp, type ServedApp } from '../support/app';
import { launchChromium } from '../support/browser';
import { useDatabase } from '../support/db';
import { makeWorld } from '../support/factories';
import { useProviderApis } from '../support/providers/review-platforms';

/**
 * The customer's whole connect flow in headless Chromium, against the app on a real port with the embedded
 * default's OAuth simulator (no Google client configured) and the Google wire-format server for the businesses.
 */
const ENV_KEYS = ['GOOGLE_CLIENT_ID', 'PUBLIC_URL'] as const;
const saved: Record<string, string | undefined> = Object.fromEntries(ENV_KEYS.map((k) => [k, process.env[k]]));
delete process.env.GOOGLE_CLIENT_ID; // Google runs simulated: the sign-in is the in-process simulator

describe('connect flow in a browser', () => {
  jest.setTimeout(60_000);
  useDatabase();
  const apis = useProviderApis();
  const syncs: number[] = [];
  let served: ServedApp;
  let browser: Browser;
  let base: string;

  beforeAll(async () => {
    served = await serveApp({ connectPage: { ensureReviewSync: async (id) => void syncs.push(id) } });
    base = served.origin;
    process.env.PUBLIC_URL = base;
    apis().google.addLocation('accounts/8001/locations/21', {
      title: 'Harbour Bakery',
      address: { addressLines: ['5 Quay Road'], locality: 'Portsmouth', postalCode: 'PO1 1AA', regionCode: 'GB' },
    });
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await served?.close();
    for (const k of ENV_KEYS) {
      if (saved[k] === undefined) delete process.env[k];
      else process.env[k] = saved[k];
    }
  });

  it('opens the link, signs in, picks the business, sees the success page; the integration is attached', async () => {
    const w = await makeWorld();
    await w.tenant.update({ brandName: 'Harbour Marketing' });
    const link = await createConnectLink(base, w.owner, w.home);
    expect(link.connect_url).toBe(`${base}/connect/${link.token}`);

    const page = await browser.newPage();
    page.setDefaultTimeout(15_000);
    try {
      const landing = await page.goto(link.connect_url);
      expect(landing?.status()).toBe(200);
      expect(await page.textContent('header')).toContain('Harbour Marketing');
      await page.getByRole('button', { name: 'Sign in with Google' }).click();

      await page.waitForURL(/\/simulators\/google\/oauth\/authorize/);
      expect(await page.textContent('.banner')).toContain('Simulator');
      await page.getByRole('button', { name: 'Sign in and allow' }).click();

      await page.waitForURL(new RegExp(`/connect/${link.token}/select$`));
      expect(await page.textContent('h1')).toContain(w.home.name);
      await page.getByLabel(/Harbour Bakery/).check();
      await page.getByRole('button', { name: /Connect this Business Profile/ }).click();

      await page.getByRole('heading', { name: 'Connected' }).waitFor();
      expect(await page.textContent('main')).toContain('Harbour Bakery');
    } catch (e) {
      throw new Error(`${(e as Error).message}\nat ${page.url()}:\n${(await page.content()).slice(0, 3000)}`);
    } finally {
      await page.close();
    }

    const stored = await ConnectLink.findByPk(link.token);
    expect(stored?.usedAt).not.toBeNull();
    expect(stored?.completedOauthAt).not.toBeNull();
    const integration = await Integration.findOne({ where: { locationId: w.home.id, type: 'synced' } });
    expect(integration).toMatchObject({ externalId: 'accounts/8001/locations/21', id: stored!.integrationId });
    expect(await ProviderConnection.count({ where: { integrationId: integration!.id } })).toBe(1);
    expect(syncs).toEqual([integration!.id]);

    const again = await fetch(link.connect_url);
    expect(again.status).toBe(410);
  });
});
