import fs from 'node:fs';
import path from 'node:path';
import pino from 'pino';
import type { Browser } from 'playwright-core';
import request from 'supertest';
import { getSchema } from '../../src/graphql/schema';
import { createApp } from '../../src/http/app';
import { TOKEN_PLACEHOLDER } from '../../src/http/graphiql-page';
import { serveApp, type ServedApp } from '../support/app';
import { launchChromium } from '../support/browser';
import { useDatabase } from '../support/db';
import { tokenFor } from '../support/factories';
import { ROOT } from '../support/spawn';
import { brandedTenant, watchedPage } from './page-watch';

/**
 * `/graphql` in a browser (issue 15, item 4): the self-hosted GraphiQL bundled from the `graphiql` package, branded
 * with the host's tenant, under its CSP, with no request to another host; the JSON GraphQL requests are unchanged.
 * A screenshot is kept as a CI artifact (artifacts/graphiql.png).
 */
const ARTIFACTS = path.join(ROOT, 'artifacts');

describe('GET /graphql in a browser', () => {
  jest.setTimeout(120_000);
  useDatabase();
  let served: ServedApp;
  let browser: Browser;
  let port: number;

  beforeAll(async () => {
    served = await serveApp();
    port = Number(new URL(served.origin).port);
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await served?.close();
  });

  it('answers a browser (Accept prefers HTML) with the GraphiQL page, its scripts under the nonce, and no CDN', async () => {
    const res = await request(served.origin).get('/graphql').set('Accept', 'text/html,application/xhtml+xml,*/*;q=0.8').set('Host', 'unknown.example').expect(200);
    expect(res.headers['content-type']).toMatch(/text\/html/);
    expect(res.text).toContain('<title>GraphQL explorer - Reviewgrid</title>');
    const csp = res.headers['content-security-policy'] as string;
    const nonce = /script-src 'nonce-([^']+)'/.exec(csp)?.[1];
    expect(nonce).toBeTruthy();
    const directive = (name: string) => csp.split('; ').find((d) => d.startsWith(`${name} `));
    expect(directive('script-src')).toBe(`script-src 'nonce-${nonce}'`);
    expect(directive('style-src')).toBe(`style-src 'nonce-${nonce}'`);
    expect(directive('connect-src')).toBe("connect-src 'self'");
    expect(res.text).toMatch(new RegExp(`<script nonce="${nonce!.replace(/[+/=]/g, '\\$&')}" src="/docs/assets/graphiql\\.js\\?v=[0-9a-f]{12}"></script>`));
    expect(res.text).not.toMatch(/apollographql|cdn\.|unpkg|jsdelivr/i);
    // The bundle and its stylesheet are ours.
    const script = /src="(\/docs\/assets\/graphiql\.js\?v=[0-9a-f]+)"/.exec(res.text)![1];
    const style = /href="(\/docs\/assets\/graphiql\.css\?v=[0-9a-f]+)"/.exec(res.text)![1];
    const js = await request(served.origin).get(script).expect(200);
    expect(js.headers['content-type']).toMatch(/javascript/);
    expect(js.headers['cache-control']).toContain('immutable');
    expect(js.text.length).toBeGreaterThan(100_000);
    expect(js.text).not.toMatch(/https?:\/\/[a-z0-9.-]*(cdn|unpkg|jsdelivr|googleapis)/i);
    await request(served.origin).get(style).expect(200).expect('Content-Type', /text\/css/);
  });

  it('leaves JSON GraphQL unchanged: POST, and GET with a query and a JSON Accept', async () => {
    const post = await request(served.origin).post('/graphql').set('Content-Type', 'application/json').send({ query: '{ __typename }' }).expect(200);
    expect(post.body).toEqual({ data: { __typename: 'Query' } });
    const get = await request(served.origin)
      .get('/graphql')
      .query({ query: '{ __typename }' })
      .set('Accept', 'application/json')
      .set('apollo-require-preflight', 'true')
      .expect(200);
    expect(get.body).toEqual({ data: { __typename: 'Query' } });
    // Apollo's landing page is gone: a GET without a query and without HTML is Apollo's plain 400.
    const bare = await request(served.origin).get('/graphql').set('Accept', 'application/json').set('apollo-require-preflight', 'true');
    expect(bare.status).toBe(400);
    expect(bare.text).not.toMatch(/<html/i);
  });

  it('in production the page is served too; the schema stays for signed-in callers', async () => {
    const made = await createApp({
      config: { RATE_LIMIT_PER_MINUTE: 100_000, BODY_LIMIT: '1mb', TRUST_PROXY: 'false', NODE_ENV: 'production' },
      schema: await getSchema(),
      logger: pino({ level: 'silent' }),
    });
    try {
      const page = await request(made.app).get('/graphql').set('Accept', 'text/html').expect(200);
      expect(page.text).toContain('id="graphiql"');
      // The renderer escapes <, & and " in attributes (`>` cannot end one).
      expect(page.text).toContain(`data-placeholder="${TOKEN_PLACEHOLDER.replace(/</g, '&lt;')}"`);
      const introspection = await request(made.app).post('/graphql').set('Content-Type', 'application/json').send({ query: '{ __schema { queryType { name } } }' });
      expect(JSON.stringify(introspection.body)).toMatch(/UNAUTHENTICATED|not allowed|sign/i);
    } finally {
      await made.stop();
    }
  });

  it('renders GraphiQL in Chromium with the tenant brand, runs { __typename } with a pasted token, offline and within its CSP', async () => {
    const t = await brandedTenant(port);
    const token = await tokenFor(t.owner);
    const w = await watchedPage(browser, [t.host]);
    const authorizations: (string | undefined)[] = [];
    w.page.on('request', (r) => {
      if (r.method() === 'POST' && new URL(r.url()).pathname === '/graphql') authorizations.push(r.headers().authorization);
    });
    try {
      const res = await w.page.goto(`${t.origin}/graphql?query=${encodeURIComponent('{ __typename }')}`);
      expect(res?.status()).toBe(200);
      expect(await w.page.title()).toBe(`GraphQL explorer - ${t.brandName}`);
      await expect(w.page.locator('header.docs-top .name').textContent()).resolves.toBe(t.brandName);
      await w.page.locator('.graphiql-container').waitFor();
      await w.page.locator('.graphiql-logo', { hasText: `${t.brandName} GraphQL` }).waitFor();
      // The headers editor is open with the placeholder to complete; the placeholder itself was never sent.
      const headersEditor = w.page.locator('.graphiql-editor-tool .graphiql-editor:not(.hidden) .CodeMirror').first();
      await expect(headersEditor.textContent()).resolves.toContain(TOKEN_PLACEHOLDER);
      await headersEditor.evaluate((el, value) => (el as unknown as { CodeMirror: { setValue: (v: string) => void } }).CodeMirror.setValue(value), JSON.stringify({ Authorization: `Bearer ${token}` }));
      await expect(w.page.locator('.graphiql-query-editor .CodeMirror').textContent()).resolves.toContain('__typename');
      await w.page.locator('button.graphiql-execute-button').click();
      await w.page.waitForFunction(() => /"__typename":\s*"Query"/.test(document.querySelector('.graphiql-response')?.textContent ?? ''));
      expect(authorizations).toContain(`Bearer ${token}`);
      expect(authorizations).not.toContain(TOKEN_PLACEHOLDER);
      // A dialog adds its scroll-lock `<style>`: it carries the page's nonce (the CSP would report it otherwise).
      await w.page.getByRole('button', { name: 'Open settings dialog' }).click();
      await w.page.getByRole('dialog').waitFor();
      await w.page.keyboard.press('Escape');
      await w.page.getByRole('dialog').waitFor({ state: 'detached' });
      fs.mkdirSync(ARTIFACTS, { recursive: true });
      await w.page.screenshot({ path: path.join(ARTIFACTS, 'graphiql.png') });
      expect(w.requests.some((u) => u.includes('/docs/assets/graphiql.js'))).toBe(true);
      expect(w.foreign()).toEqual([]);
      expect(w.violations).toEqual([]);
    } finally {
      await w.page.context().close();
    }
  });
});
