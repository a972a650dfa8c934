import { spawnSync } from 'node:child_process';
import { useEnv } from '../support/env';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { Webhook } from 'standardwebhooks';
import request from 'supertest';
import { createElement } from 'preact';
import { renderToString } from 'preact-render-to-string';
import { API_REFERENCES, Markdown } from '../../src/http/docs-page.views';
import { NODE_SNIPPET, PYTHON_SNIPPET, STANDARD_WEBHOOKS_VECTOR, WEBHOOK_TEST_VECTOR, webhooksGuideMarkdown } from '../../src/http/webhooks-guide';
import { sign } from '../../src/webhooks/signing';
import { serveApp, type ServedApp } from '../support/app';
import { launchChromium } from '../support/browser';
import { useDatabase } from '../support/db';
import { ROOT } from '../support/spawn';
import { brandedTenant, watchedPage } from './page-watch';

/**
 * The developer pages (issue 15, item 4): the API references of both REST APIs (Redoc from node_modules), the webhook
 * receiver guide, white-label by the request's host, under their CSP, with no request to another host. Screenshots
 * are kept as CI artifacts (artifacts/docs-*.png).
 */
const ARTIFACTS = path.join(ROOT, 'artifacts');

type OpenApi = { openapi: string; paths: Record<string, Record<string, { summary?: string }>> };

/** The first operation summary of a document. */
function firstSummary(doc: OpenApi): string {
  for (const item of Object.values(doc.paths)) {
    for (const op of Object.values(item)) if (op && typeof op === 'object' && typeof op.summary === 'string' && op.summary) return op.summary;
  }
  throw new Error('the document has no operation with a summary');
}

describe('webhook receiver guide', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'webhook-guide-'));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
  const v = WEBHOOK_TEST_VECTOR;
  const headers = (over: Partial<Record<'id' | 'timestamp' | 'signature', string>> = {}) => ({
    'webhook-id': over.id ?? v.id,
    'webhook-timestamp': over.timestamp ?? String(v.timestamp),
    'webhook-signature': over.signature ?? v.signature,
  });

  it('publishes test vectors that src/webhooks/signing.ts signs, and the Standard Webhooks library verifies', () => {
    for (const vector of [WEBHOOK_TEST_VECTOR, STANDARD_WEBHOOKS_VECTOR]) {
      expect(sign(vector.secret, vector.id, vector.timestamp, vector.body)).toBe(vector.signature);
    }
    // The library checks the timestamp against the clock: move the clock to the vector's time.
    jest.useFakeTimers({ now: v.timestamp * 1000, doNotFake: ['nextTick', 'setImmediate'] });
    try {
      expect(new Webhook(v.secret).verify(v.body, headers())).toEqual(JSON.parse(v.body));
    } finally {
      jest.useRealTimers();
    }
  });

  it('docs/webhooks-receiver.md is the guide that /docs/webhooks serves', () => {
    const committed = fs.readFileSync(path.join(ROOT, 'docs', 'webhooks-receiver.md'), 'utf8');
    expect(committed).toBe(webhooksGuideMarkdown());
    // Each language's snippet is in the file as it is run below.
    expect(committed).toContain(NODE_SNIPPET.trimEnd());
    expect(committed).toContain(PYTHON_SNIPPET.trimEnd());
  });

  it('the Node.js snippet accepts the test vector, and refuses a changed body, another secret and an old timestamp', () => {
    const file = path.join(dir, 'verify-webhook.js');
    fs.writeFileSync(file, NODE_SNIPPET);
    const run = spawnSync(process.execPath, [file], { encoding: 'utf8' });
    expect(run.stderr).toBe('');
    expect(run.stdout.trim()).toBe('test vector: ok (ping)');

    const harness = `
      const { verifyWebhook } = require(${JSON.stringify(file)});
      const input = JSON.parse(process.argv[1]);
      try { verifyWebhook(input.secret, input.headers, input.body, { now: input.now }); console.log('accepted'); }
      catch (e) { console.log('refused: ' + e.message); }`;
    const verdict = (input: { secret?: string; headers?: Record<string, string>; body?: string; now?: number }) =>
      spawnSync(process.execPath, ['-e', harness, JSON.stringify({ secret: v.secret, headers: headers(), body: v.body, now: v.timestamp, ...input })], { encoding: 'utf8' }).stdout.trim();
    expect(verdict({})).toBe('accepted');
    // Rotation: the previous secret's signature listed too.
    expect(verdict({ headers: headers({ signature: `v1,${Buffer.alloc(32).toString('base64')} ${v.signature}` }) })).toBe('accepted');
    expect(verdict({ body: v.body.replace('"webhook_id":1', '"webhook_id":2') })).toBe('refused: no valid webhook signature');
    expect(verdict({ secret: STANDARD_WEBHOOKS_VECTOR.secret })).toBe('refused: no valid webhook signature');
    expect(verdict({ now: v.timestamp + 301 })).toBe('refused: webhook timestamp is too old or too new');
    expect(verdict({ headers: { 'webhook-id': v.id } })).toBe('refused: missing webhook signature headers');
  });

  it('the Python snippet (python3) accepts the test vector, and refuses a changed body, another secret and an old timestamp', () => {
    // python3 is part of the machines' toolset; the guide says which snippets the suite runs.
    fs.writeFileSync(path.join(dir, 'verify_webhook.py'), PYTHON_SNIPPET);
    const run = spawnSync('python3', [path.join(dir, 'verify_webhook.py')], { encoding: 'utf8' });
    expect(run.error).toBeUndefined();
    expect(run.stderr).toBe('');
    expect(run.stdout.trim()).toBe('test vector: ok (ping)');

    const harness = `
import json, sys
sys.path.insert(0, ${JSON.stringify(dir)})
from verify_webhook import verify_webhook
i = json.loads(sys.argv[1])
try:
    verify_webhook(i["secret"], i["headers"], i["body"].encode("utf-8"), now=i["now"])
    print("accepted")
except ValueError as e:
    print("refused: %s" % e)
`;
    const verdict = (input: { secret?: string; headers?: Record<string, string>; body?: string; now?: number }) =>
      spawnSync('python3', ['-c', harness, JSON.stringify({ secret: v.secret, headers: headers(), body: v.body, now: v.timestamp, ...input })], { encoding: 'utf8' }).stdout.trim();
    expect(verdict({})).toBe('accepted');
    expect(verdict({ headers: headers({ signature: `v1,${Buffer.alloc(32).toString('base64')} ${v.signature}` }) })).toBe('accepted');
    expect(verdict({ body: v.body.replace('"webhook_id":1', '"webhook_id":2') })).toBe('refused: no valid webhook signature');
    expect(verdict({ secret: STANDARD_WEBHOOKS_VECTOR.secret })).toBe('refused: no valid webhook signature');
    expect(verdict({ now: v.timestamp - 301 })).toBe('refused: webhook timestamp is too old or too new');
  });

  it('renders its Markdown with code escaped and headings anchored', () => {
    const html = renderToString(createElement(Markdown, { markdown: '# Title\n\nSee `<b>` and [the spec](https://www.standardwebhooks.com).\n\n```js\nif (a < b) x();\n```\n\n1. one\n   more\n2. two\n' }));
    expect(html).toContain('<h1 id="title">Title</h1>');
    // The renderer escapes <, & and " in text (`>` cannot open markup).
    expect(html).toContain('<code>&lt;b></code>');
    expect(html).toContain('<a href="https://www.standardwebhooks.com">the spec</a>');
    expect(html).toContain('<pre><code class="language-js">if (a &lt; b) x();</code></pre>');
    expect(html).toContain('<ol><li>one more</li><li>two</li></ol>');
  });
});

describe('GET /docs, /docs/agency, /docs/webhooks', () => {
  // The agency's logo is on loopback: the platform fetches it to show it from its own host (GET /brand/logo/<key>).
  useEnv({ WEBHOOK_ALLOW_PRIVATE_URLS: 'true' });
  jest.setTimeout(120_000);
  useDatabase();
  let served: ServedApp;
  let browser: Browser;
  let port: number;
  const documents: Partial<Record<'customer' | 'agency', OpenApi>> = {};

  beforeAll(async () => {
    served = await serveApp();
    port = Number(new URL(served.origin).port);
    for (const key of ['customer', 'agency'] as const) {
      // The generated documents the API serves (facades/rest/openapi.ts).
      const res = await fetch(`${served.origin}${API_REFERENCES[key].specUrl}`);
      expect(res.status).toBe(200);
      documents[key] = (await res.json()) as OpenApi;
    }
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await served?.close();
  });

  it('on a host that is no tenant domain: the platform brand, a nonce CSP and nonce-carrying scripts', async () => {
    const res = await request(served.origin).get('/docs').set('Host', 'unknown.example').expect(200);
    expect(res.headers['content-type']).toMatch(/text\/html/);
    expect(res.text).toContain('<title>Customer API reference - Reviewgrid</title>');
    const csp = res.headers['content-security-policy'] as string;
    const nonce = /script-src 'nonce-([^']+)'/.exec(csp)?.[1];
    expect(nonce).toBeTruthy();
    expect(csp).not.toMatch(/unsafe-eval/);
    expect(csp.split('; ').find((d) => d.startsWith('style-src '))).toBe(`style-src 'nonce-${nonce}'`);
    expect(csp).toContain("connect-src 'self'");
    const scripts = [...res.text.matchAll(/<script([^>]*)>/g)].map((m) => m[1]);
    expect(scripts.length).toBeGreaterThan(0);
    for (const attrs of scripts) expect(attrs).toContain(`nonce="${nonce}"`);
    expect(res.text).toContain(`"${API_REFERENCES.customer.specUrl}"`);
    expect(res.text).not.toMatch(/https?:\/\/(?!www\.w3\.org)[^"'\s]*cdn/i);

    const agency = await request(served.origin).get('/docs/agency').set('Host', 'unknown.example').expect(200);
    expect(agency.text).toContain(`"${API_REFERENCES.agency.specUrl}"`);
    await request(served.origin).get('/docs/nowhere').expect(404).expect('Content-Type', /html/);
  });

  it('serves Redoc from node_modules without the vendor CDN image, cached under a versioned URL', async () => {
    const page = await request(served.origin).get('/docs').expect(200);
    const src = /<script nonce="[^"]+" src="([^"]+)"/.exec(page.text)![1];
    expect(src).toMatch(/^\/docs\/assets\/redoc\.standalone\.js\?v=\d+\.\d+\.\d+$/);
    const res = await request(served.origin).get(src).expect(200);
    expect(res.headers['content-type']).toMatch(/javascript/);
    expect(res.headers['cache-control']).toContain('immutable');
    const body = res.text ?? String(res.body);
    expect(body).not.toContain('cdn.redoc.ly');
    expect(body.length).toBeGreaterThan(500_000);
    await request(served.origin).get('/docs/assets/nothing.js').expect(404);
  });

  for (const key of ['customer', 'agency'] as const) {
    it(`renders the ${key} API reference in Chromium with the tenant's brand, offline and within its CSP`, async () => {
      const t = await brandedTenant(port);
      const doc = documents[key]!;
      const summary = firstSummary(doc);
      const w = await watchedPage(browser, [t.host]);
      try {
        const res = await w.page.goto(`${t.origin}${key === 'customer' ? '/docs' : '/docs/agency'}`);
        expect(res?.status()).toBe(200);
        expect(await w.page.title()).toBe(`${API_REFERENCES[key].title} reference - ${t.brandName}`);
        await expect(w.page.locator('header.docs-top .name').textContent()).resolves.toBe(t.brandName);
        await w.page.locator('header.docs-top nav a[aria-current=page]', { hasText: API_REFERENCES[key].title }).waitFor();
        // Redoc fetched the document and rendered its operations (the heading of the first one).
        await w.page.locator('#reference h2', { hasText: summary }).first().waitFor();
        expect(await w.page.locator('header.docs-top img').evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
        // The vendor's credit is not shown on a white-label page.
        expect(await w.page.locator('#reference a[href^="https://redocly.com"]').evaluateAll((els) => els.every((e) => (e as HTMLElement).offsetParent === null))).toBe(true);
        // Redoc's search index runs in its worker (a blob, admitted by worker-src): typing finds the operation.
        await w.page.getByRole('textbox', { name: 'Search' }).fill(summary.split(' ').slice(-1)[0]);
        await w.page.locator('#reference [data-role="search:results"]', { hasText: summary }).first().waitFor();
        expect(w.requests.some((u) => u.endsWith(API_REFERENCES[key].specUrl))).toBe(true);
        fs.mkdirSync(ARTIFACTS, { recursive: true });
        await w.page.screenshot({ path: path.join(ARTIFACTS, `docs-${key}.png`) });
        expect(w.foreign()).toEqual([]);
        expect(w.violations).toEqual([]);
      } finally {
        await w.page.context().close();
      }
    });
  }

  it('renders the webhook guide with the tenant brand, its test vector and the three languages', async () => {
    const t = await brandedTenant(port);
    const w = await watchedPage(browser, [t.host]);
    try {
      const res = await w.page.goto(`${t.origin}/docs`);
      expect(res?.status()).toBe(200);
      await w.page.locator('header.docs-top nav a', { hasText: 'Webhooks' }).click();
      await w.page.waitForURL(`${t.origin}/docs/webhooks`);
      expect(await w.page.title()).toBe(`Receiving webhooks - ${t.brandName}`);
      await expect(w.page.locator('header.docs-top .name').textContent()).resolves.toBe(t.brandName);
      for (const name of ['How to verify a delivery', 'Test vector', 'Node.js', 'Python', 'PHP']) await w.page.getByRole('heading', { name, exact: true }).waitFor();
      await w.page.getByText(WEBHOOK_TEST_VECTOR.signature).first().waitFor();
      expect(await w.page.locator('pre code.language-js').first().textContent()).toBe(NODE_SNIPPET.trimEnd());
      expect(await w.page.locator('pre code.language-python').textContent()).toBe(PYTHON_SNIPPET.trimEnd());
      fs.mkdirSync(ARTIFACTS, { recursive: true });
      await w.page.screenshot({ path: path.join(ARTIFACTS, 'docs-webhooks.png') });
      expect(w.foreign()).toEqual([]);
      expect(w.violations).toEqual([]);
    } finally {
      await w.page.context().close();
    }
  });
});
