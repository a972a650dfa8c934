import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { SimulatedMarket } from '../../src/grid/providers/simulator';
import type { MapResult } from '../../src/grid/providers/types';
import { ScanPin } from '../../src/models';
import { reportUrlOf } from '../../src/services/scans.service';
import { serveApp, type ServedApp } from '../support/app';
import { launchChromium } from '../support/browser';
import { useDatabase } from '../support/db';
import { makeTenant } from '../support/factories';
import { seedReportScan } from '../support/scan-report';

/**
 * The white-label scan report in headless Chromium, on the app at a real port: the grid, the legend, the snapshot
 * picker, and a full-page screenshot kept as a CI artifact (artifacts/report-scan.png).
 */
const ARTIFACTS = path.join(__dirname, '..', '..', 'artifacts');
const saved = process.env.PUBLIC_URL;

describe('scan report in a browser', () => {
  // Seeding two snapshots of a 7 x 7 grid (about 4,000 result rows) and driving Chromium took over 60 s in a CI run
  // with the whole suite loading the two cores.
  jest.setTimeout(150_000);
  useDatabase();
  let served: ServedApp;
  let browser: Browser;
  let base: string;

  beforeAll(async () => {
    served = await serveApp();
    base = served.origin;
    process.env.PUBLIC_URL = base;
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await served?.close();
    if (saved === undefined) delete process.env.PUBLIC_URL;
    else process.env.PUBLIC_URL = saved;
  });

  const labels = (page: Page) => page.locator('svg.grid-map g.pin text').allTextContents();

  it('draws the N x N grid with a legend, switches snapshot through the picker, and saves a screenshot', async () => {
    const { tenant } = await makeTenant();
    await tenant.update({ brandName: 'Harbour Marketing', logoUrl: `${base}/avatars/placeholder.svg?name=Harbour%20Marketing` });
    // A simulated market around downtown Austin, the strongest dentist there as the target; the earlier snapshot
    // saw the market from about 1 km further north-west.
    const market = new SimulatedMarket();
    const centre = { lat: 30.2672, lng: -97.7431 };
    const target = market.rank('dentist', centre.lat, centre.lng)[0];
    const earlier = new Date('2026-10-26T09:00:00.000Z');
    const later = new Date('2026-11-23T09:00:00.000Z');
    const seen = {
      earlier: (p: { lat: number; lng: number }, kw: string): MapResult[] => market.rank(kw, p.lat + 0.0065, p.lng - 0.0065),
      later: (p: { lat: number; lng: number }, kw: string): MapResult[] => market.rank(kw, p.lat, p.lng),
    };
    const scan = await seedReportScan({
      tenantId: tenant.id,
      location: target.name,
      address: 'Congress Ave, Austin, TX',
      keywords: ['dentist', 'teeth whitening'],
      gridSize: 7,
      distance: 3,
      lat: centre.lat,
      lng: centre.lng,
      targetPlaceId: target.placeId,
      snapshots: [
        { at: earlier, results: seen.earlier },
        { at: later, results: seen.later },
      ],
    });
    const pins = await ScanPin.findAll({ where: { scanId: scan.id }, order: [['id', 'ASC']] });
    const expected = (view: (p: { lat: number; lng: number }, kw: string) => MapResult[]) =>
      pins.map((p) => {
        const hit = view(p, 'dentist').find((r) => r.placeId === target.placeId);
        return hit ? String(hit.rank) : '20+';
      });
    expect(expected(seen.earlier)).not.toEqual(expected(seen.later));

    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    page.setDefaultTimeout(15_000);
    try {
      const res = await page.goto(reportUrlOf(scan.uuid));
      expect(res?.status()).toBe(200);
      expect(await page.textContent('header')).toContain('Harbour Marketing');
      await expect(page.locator('svg.grid-map g.pin').count()).resolves.toBe(49);
      expect(await labels(page)).toEqual(expected(seen.later));
      await expect(page.locator('.legend').isVisible()).resolves.toBe(true);
      for (const item of await page.locator('.legend li').all()) await expect(item.isVisible()).resolves.toBe(true);
      await expect(page.locator('svg.grid-map g.target').isVisible()).resolves.toBe(true);
      expect(await page.locator('table.competitors tbody tr').count()).toBeGreaterThan(0);
      // The logo is the agency's and it loaded (the CSP lets images through).
      expect(await page.locator('header img').evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);

      mkdirSync(ARTIFACTS, { recursive: true });
      await page.screenshot({ path: path.join(ARTIFACTS, 'report-scan.png'), fullPage: true });

      // The picker: choose the earlier snapshot and submit the form.
      await page.selectOption('select[name="snapshot_at"]', earlier.toISOString());
      await Promise.all([page.waitForURL((url) => url.searchParams.get('snapshot_at') === earlier.toISOString()), page.click('form.picker button')]);
      expect(await labels(page)).toEqual(expected(seen.earlier));
      expect(await page.inputValue('select[name="snapshot_at"]')).toBe(earlier.toISOString());
      expect(await page.textContent('[data-stat="change"] .note')).toBe('First snapshot');

      // And the other keyword through its link.
      await Promise.all([page.waitForURL(/keyword=teeth\+whitening/), page.click('.keywords a:has-text("teeth whitening")')]);
      expect(await page.locator('.keywords a[aria-current="page"]').textContent()).toBe('teeth whitening');
      expect(await page.locator('svg.grid-map g.pin').count()).toBe(49);
    } finally {
      await page.close();
    }
  });
});
