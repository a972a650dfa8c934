import { chromium, type Browser } from 'playwright-core';
import { TenantDomain } from '../../src/models';
import { forgetLinkDomains, setLinkDomain } from '../../src/services/link-domain.service';
import { serveApp, type ServedApp } from './app';
import { makeWorld } from './factories';

export interface LinkDomainBrowser {
  served: ServedApp;
  /** PUBLIC_URL: the app's own origin. */
  base: string;
  /** The agency's link domain (its first domain), and its origin on the app's port. */
  domain: string;
  origin: string;
  w: Awaited<ReturnType<typeof makeWorld>>;
  browser: Browser;
}

/**
 * The connect flow's world on an agency's link domain, for a browser test (test/e2e/connect-link-domain*.test.ts): the
 * app served with PUBLIC_URL its own origin, a tenant whose link domain is its first domain, and headless Chromium that
 * resolves that domain to the app (its DNS to the platform's proxy). `before` runs first (a mock provider's URLs in the
 * environment, say); the caller keeps and restores its own environment.
 */
export function useLinkDomainBrowser(opts: { before?: () => Promise<void> } = {}): () => LinkDomainBrowser {
  const held: Partial<LinkDomainBrowser> = {};
  beforeAll(async () => {
    await opts.before?.();
    held.served = await serveApp({ connectPage: { ensureReviewSync: async () => undefined } });
    held.base = held.served.origin;
    process.env.PUBLIC_URL = held.base;
    held.w = await makeWorld();
    held.domain = (await TenantDomain.findOne({ where: { tenantId: held.w.tenant.id }, order: [['id', 'ASC']] }))!.domain;
    held.origin = `http://${held.domain}:${new URL(held.base).port}`;
    await setLinkDomain(held.w.tenant.id, held.domain);
    held.browser = await chromium.launch({
      executablePath: '/usr/bin/chromium',
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', `--host-resolver-rules=MAP ${held.domain} 127.0.0.1`],
    });
  });
  afterAll(async () => {
    forgetLinkDomains();
    await held.browser?.close();
    await held.served?.close();
  });
  return () => held as LinkDomainBrowser;
}
