import { mkdirSync } from 'node:fs';
import { useEnv } from '../support/env';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { SimulatedMarket } from '../../src/providers/ranking/simulator';
import type { MapResult } from '../../src/providers/ranking/types';
import { ScanPin } from '../../src/models';
import { reportUrlOf } from '../../src/services/scans.service';
import { serveApp, type ServedApp } from '../support/app';
import { launchChromium } from '../support/browser';
import { useDatabase } from '../support/db';
import { makeTenant } from '../support/factories';
import { seedReportScan } from '../support/scan-report';

/**
 * The white-label scan report in headless Chromium, on the app at a real port: the grid, the legend, the snapshot
 * picker and the history charts; axe-core finds no accessibility violation and nothing is requested from another
 * host, in English and in the agency's German; full-page screenshots are kept as CI artifacts
 * (artifacts/report-scan-<language>.png).
 */
const ARTIFACTS = path.join(__dirname, '..', '..', 'artifacts');
const saved = process.env.PUBLIC_URL;

describe('scan report in a browser', () => {
  // The agency's logo is on loopback: the platform fetches it to show it from its own host (GET /brand/logo/<key>).
  useEnv({ WEBHOOK_ALLOW_PRIVATE_URLS: 'true' });
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
  /** axe-core's violations on the page (injected by the test: the page's CSP forbids every script, its context bypasses it). */
  async function axeViolations(page: Page): Promise<string[]> {
    await page.addScriptTag({ path: require.resolve('axe-core/axe.min.js') });
    return page.evaluate(async () => {
      const result = await (window as unknown as { axe: { run: (ctx: Document) => Promise<{ violations: { id: string; help: string; nodes: { target: unknown }[] }[] }> } }).axe.run(document);
      return result.violations.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => JSON.stringify(n.target)).join(', ')})`);
    });
  }

  it('draws the N x N grid with a legend and its history, passes axe in English and German, switches snapshot through the picker, and saves screenshots', async () => {
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

    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, bypassCSP: true });
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    const foreign: string[] = [];
    page.on('request', (r) => {
      if (!r.url().startsWith(base)) foreign.push(r.url());
    });
    try {
      const res = await page.goto(reportUrlOf(scan.uuid));
      expect(res?.status()).toBe(200);
      expect(await page.locator('html').getAttribute('lang')).toBe('en');
      expect(await page.textContent('header')).toContain('Harbour Marketing');
      await expect(page.locator('svg.grid-map g.pin').count()).resolves.toBe(49);
      expect(await labels(page)).toEqual(expected(seen.later));
      await expect(page.locator('.legend').isVisible()).resolves.toBe(true);
      for (const item of await page.locator('.legend li').all()) await expect(item.isVisible()).resolves.toBe(true);
      await expect(page.locator('svg.grid-map g.target').isVisible()).resolves.toBe(true);
      expect(await page.locator('table.competitors tbody tr').count()).toBeGreaterThan(0);
      // The logo is the agency's and it loaded (the CSP lets images through).
      expect(await page.locator('header img').evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);

      // The history: a heat map per snapshot, the pins gained and lost, and the two trend lines.
      expect(await page.locator('section.history-charts h2').textContent()).toBe('Over time');
      expect(await page.locator('.heatmaps svg[role="img"]').count()).toBe(2);
      expect(await page.locator('.history-charts > figure svg[role="img"]').count()).toBe(2);
      expect(await page.locator('.changes-counts li').count()).toBe(3);

      expect(await axeViolations(page)).toEqual([]);
      mkdirSync(ARTIFACTS, { recursive: true });
      await page.screenshot({ path: path.join(ARTIFACTS, 'report-scan-en.png'), fullPage: true });

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

      // The agency switches to German: the whole page follows, charts included.
      await tenant.update({ language: 'de' });
      expect((await page.goto(reportUrlOf(scan.uuid)))?.status()).toBe(200);
      expect(await page.locator('html').getAttribute('lang')).toBe('de');
      expect(await page.textContent('header .kind')).toBe('Bericht zum lokalen Suchraster');
      expect(await page.locator('.legend li').allTextContents()).toEqual([
        'Position 1-3',
        'Position 4-10',
        'Position 11-20',
        'Nicht in den Top 20',
        'Das Unternehmen (Rastermitte)',
      ]);
      expect(await page.textContent('section.history-charts h2')).toBe('Im Zeitverlauf');
      expect(await page.locator('.heatmaps svg[role="img"]').count()).toBe(2);
      expect(await page.textContent('form.picker label')).toBe('Messung (2 verfügbar)');
      expect(await page.locator('form.picker option').allTextContents()).toEqual(['23. Nov. 2026, 09:00 UTC', '26. Okt. 2026, 09:00 UTC']);
      expect(await labels(page)).toEqual(expected(seen.later));
      expect(await axeViolations(page)).toEqual([]);
      await page.screenshot({ path: path.join(ARTIFACTS, 'report-scan-de.png'), fullPage: true });
      expect(foreign).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
