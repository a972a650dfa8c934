import { chromium, type Browser } from 'playwright-core';

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
