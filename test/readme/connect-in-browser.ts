import { launchChromium } from '../support/browser';

/**
 * Step 2 of the README's connect walkthrough, done as it is written there, in headless Chromium:
 * `node -r @swc-node/register test/readme/connect-in-browser.ts <connect url>`. Open the link, press "Sign in with
 * Google", "Sign in and allow" on the simulated Google page, keep the business it offers first and confirm; the
 * success page names the business. Prints that page's text; exits 1 with the page it stopped on otherwise.
 */
async function main(url: string): Promise<void> {
  const browser = await launchChromium();
  const page = await browser.newPage();
  page.setDefaultTimeout(20_000);
  try {
    const landing = await page.goto(url);
    if (landing?.status() !== 200) throw new Error(`the connect link answered ${landing?.status()}`);
    await page.getByRole('button', { name: 'Sign in with Google' }).click();
    await page.waitForURL(/\/simulators\/google\/oauth\/authorize/);
    await page.getByRole('button', { name: 'Sign in and allow' }).click();
    await page.waitForURL(/\/connect\/[0-9a-f-]+\/select$/);
    await page.getByRole('button', { name: /^Connect this / }).click();
    await page.getByRole('heading', { name: 'Connected' }).waitFor();
    process.stdout.write(`${(await page.textContent('main'))?.replace(/\s+/g, ' ').trim()}\n`);
  } catch (e) {
    process.stdout.write(`${(e as Error).message}\nat ${page.url()}:\n${(await page.content()).slice(0, 3000)}\n`);
    process.exitCode = 1;
  } finally {
    await browser.close();
  }
}

void main(process.argv[2] ?? '');
