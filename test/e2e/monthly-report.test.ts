import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { CATALOGUES, type UiLanguage } from '../../src/i18n';
import { Customer } from '../../src/models';
import { serveApp, type ServedApp } from '../support/app';
import { launchChromium } from '../support/browser';
import { useDatabase } from '../support/db';
import { makeReview, makeWorld, testimonialsOf } from '../support/factories';

/**
 * Issue 19, item 5: the monthly report page in headless Chromium: it renders its five charts (reviews and rating,
 * response rate, sentiment, the month's aspects, the aspects over twelve months), axe-core finds no
 * accessibility violation, nothing is requested from another host, and a full-page screenshot is kept as a CI
 * artifact (artifacts/report-monthly-<language>.png), in English and in Spanish.
 */
const ARTIFACTS = path.join(__dirname, '..', '..', 'artifacts');

describe('monthly report in a browser', () => {
  jest.setTimeout(120_000);
  useDatabase();
  let served: ServedApp;
  let browser: Browser;

  beforeAll(async () => {
    served = await serveApp();
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await served?.close();
  });

  it.each(['en', 'es'])('renders, passes axe and is screenshotted (%s)', async (language) => {
    const w = await makeWorld();
    await Customer.update({ language }, { where: { id: w.org.customerId } });
    await w.tenant.update({ brandName: 'Harbour Marketing' });
    const source = await testimonialsOf(w.home);
    const reviews = [
      ['2026-08-03', 5, 'Lovely staff, spotless clinic.'],
      ['2026-09-04', 4, 'Great results, fair price.'],
      ['2026-09-18', 2, 'We waited an hour and the bill was wrong.'],
      ['2026-10-02', 5, 'Friendly team, highly recommend!'],
      ['2026-10-12', 1, 'Rude receptionist, never again.'],
      ['2026-10-20', 4, 'Quick and professional.'],
    ] as const;
    for (const [day, rating, message] of reviews) {
      await makeReview(source, { publishedAt: new Date(`${day}T10:00:00Z`), rating, originalRating: rating, message });
    }
    // The page's CSP forbids every script; axe is injected by the test, so this context alone bypasses it.
    const context = await browser.newContext({ viewport: { width: 1000, height: 900 }, bypassCSP: true });
    const page = await context.newPage();
    const foreign: string[] = [];
    page.on('request', (r) => {
      if (!r.url().startsWith(served.origin)) foreign.push(r.url());
    });
    await page.setExtraHTTPHeaders({ Authorization: `Bearer ${w.tokens.orgOwner}` });
    const res = await page.goto(`${served.origin}/api/v1/organizations/${w.org.id}/reports/2026-10`);
    expect(res?.status()).toBe(200);
    expect(res?.headers()['content-security-policy']).toMatch(/script-src 'none'/);
    expect(await page.locator('html').getAttribute('lang')).toBe(language);
    expect(await page.locator('figure svg[role="img"]').count()).toBe(5);
    // The twelve-month lines, labelled in the page's language: the response rate, and each aspect's net sentiment
    // (the reviews name staff, price and wait time; a month without a mention is a gap).
    const t = CATALOGUES[language as UiLanguage].report;
    await expect(page.locator(`#response + figure svg[aria-label="${t.responseTrendTitle}"]`).count()).resolves.toBe(1);
    const aspectTrend = page.locator(`#aspect-trend + figure svg[aria-label="${t.aspectTrendTitle}"]`);
    await expect(aspectTrend.count()).resolves.toBe(1);
    expect(await aspectTrend.locator('text').allTextContents()).toEqual(expect.arrayContaining([t.netSentiment, t.aspects.staff]));
    await expect(page.locator('#aspect-trend + figure figcaption').textContent()).resolves.toBe(t.aspectTrendIntro);
    // The trend chart draws a bar per month with reviews (ECharts paths), and the KPIs show October's 3 reviews.
    expect(await page.locator('.kpi .value').first().textContent()).toBe('3');
    await page.addScriptTag({ path: require.resolve('axe-core/axe.min.js') });
    const violations = await page.evaluate(async () => {
      const result = await (window as unknown as { axe: { run: (ctx: Document) => Promise<{ violations: { id: string; help: string }[] }> } }).axe.run(document);
      return result.violations.map((v) => `${v.id}: ${v.help}`);
    });
    expect(violations).toEqual([]);
    mkdirSync(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: path.join(ARTIFACTS, `report-monthly-${language}.png`), fullPage: true });
    expect(foreign).toEqual([]);
    await context.close();
  });
});
