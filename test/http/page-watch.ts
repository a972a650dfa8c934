import { randomUUID } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { TenantDomain } from '../../src/models';
import { recordCspViolations } from '../support/browser';
import { makeTenant } from '../support/factories';

/**
 * Helpers of the developer-page browser tests (docs-page.test.ts, graphiql.test.ts): a tenant on a white-label
 * domain the browser reaches on loopback, and a page that records every request it makes and every CSP violation.
 */

/**
 * A tenant with a brand and a logo, on a `*.localhost` domain: Chromium resolves every `*.localhost` name to the
 * loopback address itself, so the page asks our server with that Host, as on a real white-label domain.
 */
export async function brandedTenant(port: number) {
  const { tenant, owner } = await makeTenant();
  const host = `docs-${randomUUID().slice(0, 8)}.localhost`;
  await TenantDomain.create({ tenantId: tenant.id, domain: host });
  const brandName = `Harbour Marketing ${randomUUID().slice(0, 4)}`;
  // The platform fetches the logo itself (the page shows it from its own host): from loopback here, where Node, unlike
  // Chromium, resolves no `*.localhost` name.
  await tenant.update({ brandName, logoUrl: `http://127.0.0.1:${port}/avatars/placeholder.svg?name=Harbour%20Marketing` });
  return { tenant, owner, host, brandName, origin: `http://${host}:${port}` };
}

export interface WatchedPage {
  page: Page;
  /** Every URL the page requested (documents, scripts, styles, images, fetches, workers). */
  requests: string[];
  /** CSP violations, from the `securitypolicyviolation` event and the console. */
  violations: string[];
  /** The requests to a host other than loopback and the tenant's (data: and blob: URLs are local). */
  foreign: () => string[];
}

export async function watchedPage(browser: Browser, localHosts: string[]): Promise<WatchedPage> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  page.setDefaultTimeout(20_000);
  const requests: string[] = [];
  const violations: string[] = [];
  page.on('request', (r) => void requests.push(r.url()));
  // Workers' requests are the context's too.
  context.on('request', (r) => void (requests.includes(r.url()) || requests.push(r.url())));
  await recordCspViolations(page, violations);
  const local = new Set(['127.0.0.1', 'localhost', '[::1]', ...localHosts]);
  const foreign = () =>
    requests.filter((u) => {
      const url = new URL(u);
      return !['data:', 'blob:', 'about:'].includes(url.protocol) && !local.has(url.hostname);
    });
  return { page, requests, violations, foreign };
}
