import { chromium, type Browser, type Page } from 'playwright-core';

/**
 * Headless Chromium for the page tests: the Debian package's binary, driven by playwright-core. Sandboxing and GPU are
 * off (CI containers have neither), and background traffic (updates, sync, component downloads) too, so a page test
 * talks only to the servers it starts.
 */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}

/** Pushes onto `violations` every CSP violation of the page: the `securitypolicyviolation` event and CSP console errors. */
export async function recordCspViolations(page: Page, violations: string[]): Promise<void> {
  await page.exposeFunction('__cspViolation', (text: string) => void violations.push(text));
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => {
      (window as unknown as { __cspViolation: (t: string) => void }).__cspViolation(`${e.violatedDirective} ${e.blockedURI} at ${e.documentURI}`);
    });
  });
  page.on('console', (m) => {
    if (/Content Security Policy/i.test(m.text())) violations.push(m.text());
  });
}
