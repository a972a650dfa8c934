import type { Browser, Page } from 'playwright-core';
import { useEnv } from '../support/env';
import { reviewLinkOf, unsubscribeLinkOf } from '../../src/messaging/links';
import { reportUrlOf } from '../../src/services/scans.service';
import { createConnectLink, serveApp, type ServedApp } from '../support/app';
import { launchChromium, recordCspViolations } from '../support/browser';
import { useDatabase } from '../support/db';
import { makeReview, makeWorld, testimonialsOf } from '../support/factories';
import { makeCampaign, makeSentInvite } from '../inbound/support';
import { useProviderApis } from '../support/providers/review-platforms';
import { seedReportScan } from '../support/scan-report';
import { waitUntil } from '../support/wait';

/**
 * Security headers and the pages' Content-Security-Policy (issue 14, docs/security.md). Every page kind is walked
 * in Chromium with a listener for CSP violations: the pages must satisfy their own policy (a style without the
 * response's nonce, an inline script or a foreign load would be reported). Headers are checked on pages, REST,
 * GraphQL, MCP and health answers; CORS follows CORS_ORIGINS only.
 */
const ENV_KEYS = ['GOOGLE_CLIENT_ID', 'PUBLIC_URL'] as const;
const saved: Record<string, string | undefined> = Object.fromEntries(ENV_KEYS.map((k) => [k, process.env[k]]));

describe('security headers and CSP', () => {
  // The agency's logo is on loopback: the platform fetches it to show it from its own host (GET /brand/logo/<key>).
  useEnv({ WEBHOOK_ALLOW_PRIVATE_URLS: 'true' });
  jest.setTimeout(90_000);
  useDatabase();
  const apis = useProviderApis();
  let served: ServedApp;
  let corsServed: ServedApp;
  let browser: Browser;
  let base: string;
  const violations: string[] = [];

  beforeAll(async () => {
    delete process.env.GOOGLE_CLIENT_ID; // the in-process Google sign-in simulator
    served = await serveApp({ connectPage: { ensureReviewSync: async () => undefined } });
    base = served.origin;
    process.env.PUBLIC_URL = base;
    apis().google.addLocation('accounts/9001/locations/31', { title: 'Quay Cafe', address: { addressLines: ['1 Quay'], locality: 'Poole', postalCode: 'BH15 1HJ', regionCode: 'GB' } });
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await served?.close();
    await corsServed?.close();
    for (const k of ENV_KEYS) {
      if (saved[k] === undefined) delete process.env[k];
      else process.env[k] = saved[k];
    }
  });

  /** A page that reports every CSP violation (and CSP console error) into `violations`. */
  async function watchedPage(): Promise<Page> {
    const page = await browser.newPage();
    page.setDefaultTimeout(15_000);
    await recordCspViolations(page, violations);
    return page;
  }

  function expectPageHeaders(headers: Record<string, string>) {
    const csp = headers['content-security-policy'];
    expect(csp).toMatch(/style-src 'nonce-[A-Za-z0-9+/=]+'/);
    const styleSrc = csp.split(';').map((d) => d.trim()).find((d) => d.startsWith('style-src '));
    expect(styleSrc).not.toContain("'unsafe-inline'");
    expect(csp).toContain("script-src 'none'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(headers['x-content-type-options']).toBe('nosniff');
    expect(headers['x-frame-options']).toBe('DENY');
    expect(headers['referrer-policy']).toBe('no-referrer');
  }

  it('a page with a style the policy does not admit is reported (the listener works)', async () => {
    const page = await watchedPage();
    try {
      const res = await page.goto(`${base}/u/not-a-token`);
      expectPageHeaders(await res!.allHeaders());
      const before = violations.length;
      await page.evaluate(() => {
        const style = document.createElement('style');
        style.textContent = 'body{color:red}';
        document.head.appendChild(style);
      });
      await waitUntil(async () => violations.length > before, 10_000);
    } finally {
      await page.close();
    }
    violations.length = 0;
  });

  it('the unsubscribe, review and feedback pages satisfy their CSP in Chromium', async () => {
    const w = await makeWorld();
    await w.tenant.update({ brandName: 'Harbour Marketing', logoUrl: `${base}/avatars/placeholder.svg?name=Harbour` });
    const campaign = await makeCampaign(w.org, w.home, { reviewUrl: null, feedbackThreshold: 3 });
    const { contact, invite } = await makeSentInvite(campaign, { firstName: 'Grace', lastName: 'Hopper', email: 'grace@navy.test' });
    const page = await watchedPage();
    try {
      const unsub = await page.goto(unsubscribeLinkOf(contact.uuid));
      expectPageHeaders(await unsub!.allHeaders());
      await Promise.all([page.waitForURL(unsubscribeLinkOf(contact.uuid)), page.getByRole('button', { name: 'Unsubscribe' }).click()]);
      await page.getByRole('heading', { name: 'You are unsubscribed' }).waitFor();
      // A page whose styles were refused would lay out unstyled: the brand header keeps its styled look.
      expect(await page.locator('header').evaluate((h) => getComputedStyle(h).display)).toBe('flex');

      const review = await page.goto(reviewLinkOf(invite.uuid));
      expectPageHeaders(await review!.allHeaders());
      await page.getByRole('button', { name: '2 stars' }).click();
      await page.waitForURL(/\/feedback\?rating=2$/);
      await page.fill('textarea[name="message"]', 'The queue was long.');
      await page.locator('form.feedback button[type="submit"]').click();
      await page.getByText(/thank you/i).first().waitFor();
    } finally {
      await page.close();
    }
    expect(violations).toEqual([]);
  });

  it('the scan report satisfies its CSP, with its grid, legend bars and logo', async () => {
    const { tenant } = await makeWorld();
    await tenant.update({ brandName: 'Harbour Marketing', logoUrl: `${base}/avatars/placeholder.svg?name=Harbour` });
    const scan = await seedReportScan({ tenantId: tenant.id, snapshots: [{ at: new Date('2026-11-20T09:00:00Z'), results: () => [] }] });
    const page = await watchedPage();
    try {
      const res = await page.goto(reportUrlOf(scan.uuid));
      expect(res?.status()).toBe(200);
      expectPageHeaders(await res!.allHeaders());
      expect(await page.locator('svg.grid-map g.pin').count()).toBeGreaterThan(0);
      expect(await page.locator('header img').evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
      // `style` attributes (legend swatches) are admitted by style-src-attr: the swatch has its colour.
      expect(await page.locator('.legend .swatch').first().evaluate((s) => getComputedStyle(s).backgroundColor)).not.toBe('rgba(0, 0, 0, 0)');
    } finally {
      await page.close();
    }
    expect(violations).toEqual([]);
  });

  it('the monthly report page satisfies its CSP, with its SVG charts and their class rules', async () => {
    const w = await makeWorld();
    const source = await testimonialsOf(w.home);
    await makeReview(source, { publishedAt: new Date('2026-10-05T10:00:00Z'), rating: 5, originalRating: 5, message: 'Friendly staff and fair prices.' });
    await makeReview(source, { publishedAt: new Date('2026-09-05T10:00:00Z'), rating: 2, originalRating: 2, message: 'Long wait.' });
    const page = await watchedPage();
    try {
      await page.setExtraHTTPHeaders({ Authorization: `Bearer ${w.tokens.orgOwner}` });
      const res = await page.goto(`${base}/api/v1/organizations/${w.org.id}/reports/2026-10`);
      expect(res?.status()).toBe(200);
      expect(await page.locator('figure svg[role="img"]').count()).toBeGreaterThanOrEqual(2);
    } finally {
      await page.close();
    }
    expect(violations).toEqual([]);
  });

  it('the connect flow satisfies its CSP through sign-in and selection', async () => {
    const w = await makeWorld();
    const link = await createConnectLink(base, w.owner, w.home);
    const page = await watchedPage();
    try {
      const landing = await page.goto(link.connect_url);
      expectPageHeaders(await landing!.allHeaders());
      expect(landing!.headers()['content-security-policy']).toContain("form-action 'self' https://accounts.google.com");
      await page.getByRole('button', { name: 'Sign in with Google' }).click();
      await page.waitForURL(/\/simulators\/google\/oauth\/authorize/);
      await page.getByRole('button', { name: 'Sign in and allow' }).click();
      await page.waitForURL(new RegExp(`/connect/${link.token}/select$`));
      await page.getByLabel(/Quay Cafe/).check();
      await page.getByRole('button', { name: /Connect this Business Profile/ }).click();
      await page.getByRole('heading', { name: 'Connected' }).waitFor();
    } finally {
      await page.close();
    }
    expect(violations).toEqual([]);
  });

  it('JSON answers carry nosniff, a load-nothing CSP and no framing; HSTS only on an https PUBLIC_URL', async () => {
    const w = await makeWorld();
    const answers = await Promise.all([
      fetch(`${base}/api/v1/reviews`, { headers: { Authorization: `Bearer ${w.tokens.owner}` } }),
      fetch(`${base}/api/v1/reviews`),
      fetch(`${base}/api/agency/v1/custom-plans`),
      fetch(`${base}/graphql`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{"query":"{ __typename }"}' }),
      fetch(`${base}/api/mcp`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' }),
      fetch(`${base}/health`),
      fetch(`${base}/nowhere`),
    ]);
    for (const res of answers) {
      expect([res.url, res.headers.get('x-content-type-options')]).toEqual([res.url, 'nosniff']);
      expect(res.headers.get('content-security-policy')).toBe("default-src 'none'; frame-ancestors 'none'; base-uri 'none'");
      expect(res.headers.get('x-frame-options')).toBe('DENY');
      expect(res.headers.get('referrer-policy')).toBe('no-referrer');
      expect(res.headers.get('strict-transport-security')).toBeNull();
      expect(res.headers.get('x-powered-by')).toBeNull();
    }
  });

  it('CORS: no cross-origin access by default; CORS_ORIGINS admits exactly the listed origins, without credentials', async () => {
    const preflight = (origin: string, at = base) =>
      fetch(`${at}/api/v1/reviews`, { method: 'OPTIONS', headers: { Origin: origin, 'Access-Control-Request-Method': 'GET', 'Access-Control-Request-Headers': 'authorization' } });
    const closed = await preflight('https://app.agency.example');
    expect(closed.status).toBe(204);
    expect(closed.headers.get('access-control-allow-origin')).toBeNull();

    const { createApp } = await import('../../src/http/app');
    const { getSchema } = await import('../../src/graphql/schema');
    const pino = (await import('pino')).default;
    const made = await createApp({
      config: { RATE_LIMIT_PER_MINUTE: 100_000, BODY_LIMIT: '1mb', TRUST_PROXY: 'false', CORS_ORIGINS: 'https://app.agency.example', PUBLIC_URL: 'https://reviews.agency.example' },
      schema: await getSchema(),
      logger: pino({ level: 'silent' }),
    });
    const server = made.app.listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    const other = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    corsServed = { origin: other, close: async () => void (await new Promise((r) => server.close(r)), await made.stop()) };
    const open = await preflight('https://app.agency.example', other);
    expect(open.status).toBe(204);
    expect(open.headers.get('access-control-allow-origin')).toBe('https://app.agency.example');
    expect(open.headers.get('access-control-allow-headers')).toMatch(/Authorization/i);
    expect(open.headers.get('access-control-allow-credentials')).toBeNull();
    const stranger = await preflight('https://evil.example', other);
    expect(stranger.headers.get('access-control-allow-origin')).toBeNull();
    // An https PUBLIC_URL turns HSTS on.
    expect((await fetch(`${other}/health`)).headers.get('strict-transport-security')).toMatch(/max-age=31536000/);
  });
});
