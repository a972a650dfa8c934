import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Browser, FrameLocator, Page } from 'playwright-core';
import { SCAN_GRID_URI } from '../../facades/mcp/apps';
import { tileTemplateProblem } from '../../src/config';
import { ScanPin, ScanSnapshot, Tenant } from '../../src/models';
import { completeRun, storePinResult } from '../../src/jobs/scan-runs';
import { serveApp, type ServedApp } from '../support/app';
import { launchChromium } from '../support/browser';
import { seedPendingScan, seedReportScan, type PinPos } from '../support/scan-report';
import { ROOT } from '../support/spawn';
import { waitUntil } from '../support/wait';
import { connect, mcpWorld, rpc, useMcpApp, type McpApp } from './support';

/**
 * The MCP App of the Local Search Grid (issue 16, item 4): get_scan and create_scan name the `ui://` View in their
 * tools/list `_meta`, resources/read serves it as one self-contained document in the agency's brand, and in real
 * Chromium a host built on the extension's own AppBridge renders it in a sandboxed frame under the extension's CSP:
 * pins coloured by rank, the business at the grid's centre, the keyword's summary, and pickers that ask the real
 * endpoint again (as the tenant owner's AI token) through the host. No request leaves loopback, no CSP violation.
 * A screenshot is kept as a CI artifact (artifacts/scan-widget.png).
 */
const ARTIFACTS = path.join(ROOT, 'artifacts');
const BRAND = 'Harbour & Co <Marketing>';
const OLDER = '2026-01-05T09:00:00.000Z';
const LATEST = '2026-02-05T09:00:00.000Z';

/** Rings around the centre of a 5 x 5 grid: 0 (the centre pin), 1 (eight pins), 2 (sixteen pins). */
const ring = (p: PinPos) => Math.max(Math.abs(p.row - 2), Math.abs(p.col - 2));
/** The target's rank per snapshot, keyword and pin: every rank band occurs somewhere. */
const RANKS: Record<string, (p: PinPos, keyword: string) => number | null> = {
  [OLDER]: (p, k) => (k === 'dentist' ? [2, 6, p.row % 4 === 0 && p.col % 4 === 0 ? null : 14][ring(p)] : p.col < 2 ? 3 : null),
  [LATEST]: (p, k) => (k === 'dentist' ? [1, 3, 8][ring(p)] : 11),
};
const RIVALS = [
  { placeId: 'rival-1', name: 'Bright Smile Studio' },
  { placeId: 'rival-2', name: 'City Dental Care' },
];

/** The stand-in map tile: its own address written on it, so a screenshot shows where each tile landed. */
const tile = (z: string, x: string, y: string) =>
  `<svg xmlns="http://www.w3.org/2000/svg" width="256" height="256"><rect width="256" height="256" fill="#e9ecef" stroke="#c3c9cf"/>` +
  `<text x="10" y="22" font-family="sans-serif" font-size="13" fill="#7b838c">tile ${z}/${x}/${y}</text></svg>`;

interface Host {
  origin: string;
  tileRequests: string[];
  close: () => Promise<void>;
}

/** The test host's pages on a loopback port: the host document, its bundle, and map tiles for the tile case. */
async function serveHost(): Promise<Host> {
  const esbuild = await import('esbuild');
  const bundle = await esbuild.build({
    entryPoints: [path.join(__dirname, 'app-host.browser.mjs')],
    bundle: true,
    write: false,
    format: 'iife',
    platform: 'browser',
    target: ['chrome109'],
    logLevel: 'silent',
  });
  const script = bundle.outputFiles[0].contents;
  const tileRequests: string[] = [];
  const server = http.createServer((req, res) => {
    if (req.url === '/') {
      res.setHeader('content-type', 'text/html; charset=utf-8');
      res.end('<!doctype html><html><head><meta charset="utf-8"><title>Test host</title></head><body style="margin:0"><div id="views"></div><script src="/host.js"></script></body></html>');
    } else if (req.url === '/host.js') {
      res.setHeader('content-type', 'text/javascript');
      res.end(script);
    } else if (/^\/tiles\/\d+\/\d+\/\d+\.svg$/.test(req.url ?? '')) {
      tileRequests.push(req.url!);
      const [z, x, y] = req.url!.slice('/tiles/'.length, -'.svg'.length).split('/');
      res.setHeader('content-type', 'image/svg+xml');
      res.end(tile(z, x, y));
    } else {
      res.statusCode = 404;
      res.end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, tileRequests, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

interface HostPage {
  page: Page;
  view: FrameLocator;
  /** Tool calls the View made through the host, in order. */
  calls: Array<{ name: string; arguments?: Record<string, unknown> }>;
  /** Every URL requested by the page and its frames; the ones off loopback were refused. */
  requests: string[];
  foreign: string[];
  violations: string[];
  errors: string[];
}

/** The host page in a fresh context; the View's tool calls go to the real MCP endpoint through `client`. */
async function openHost(browser: Browser, host: Host, client: Client): Promise<HostPage> {
  const context = await browser.newContext({ viewport: { width: 760, height: 1000 } });
  const page = await context.newPage();
  page.setDefaultTimeout(20_000);
  const out: HostPage = { page, view: page.frameLocator('#view'), calls: [], requests: [], foreign: [], violations: [], errors: [] };
  context.on('request', (r) => void out.requests.push(r.url()));
  await context.route('**/*', (route) => {
    const url = new URL(route.request().url());
    if (['127.0.0.1', 'localhost'].includes(url.hostname)) return route.continue();
    out.foreign.push(url.href);
    return route.abort();
  });
  // In every frame, the View's too: a CSP violation becomes a console line the test collects (Chromium logs its own).
  await context.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => console.error(`CSP violation: ${e.violatedDirective} ${e.blockedURI} at ${e.sourceFile}:${e.lineNumber}:${e.columnNumber}`));
  });
  page.on('console', (m) => {
    if (/Content Security Policy|CSP violation/i.test(m.text())) out.violations.push(m.text());
  });
  page.on('pageerror', (e) => void out.errors.push(e.message));
  await page.exposeFunction('forwardToolCall', async (params: { name: string; arguments?: Record<string, unknown> }) => {
    out.calls.push({ name: params.name, arguments: params.arguments });
    return client.callTool({ name: params.name, arguments: params.arguments });
  });
  await page.goto(`${host.origin}/`);
  return out;
}

/** Reads the View resource and the tool as a host does, then renders the View for one call of `tool`. */
async function mountView(h: HostPage, client: Client, tool: string, toolInput: Record<string, unknown>, toolResult: unknown) {
  const { contents } = await client.readResource({ uri: SCAN_GRID_URI });
  const descriptor = (await client.listTools()).tools.find((t) => t.name === tool)!;
  await h.page.evaluate(
    (args) => (window as unknown as { mountView: (a: unknown) => Promise<boolean> }).mountView(args),
    {
      html: (contents[0] as { text: string }).text,
      csp: (contents[0]._meta as { ui?: { csp?: unknown } } | undefined)?.ui?.csp,
      toolInput,
      toolResult,
      hostContext: { theme: 'light', locale: 'en-GB', timeZone: 'UTC', displayMode: 'inline', toolInfo: { tool: descriptor } },
    },
  );
}

const bucketCount = (h: HostPage, bucket: string) => h.view.locator(`#map g.pin[data-bucket="${bucket}"]`).count();
const stat = (h: HostPage, name: string) => h.view.locator(`#summary [data-stat="${name}"] .value`).textContent();

describe('MCP App: the Local Search Grid heat map', () => {
  jest.setTimeout(120_000);
  const app: McpApp = useMcpApp();
  let world: Awaited<ReturnType<typeof mcpWorld>>;
  let client: Client;
  let host: Host;
  let browser: Browser;
  let scanUuid: string;

  beforeAll(async () => {
    world = await mcpWorld({ scan: false });
    await Tenant.update({ brandName: BRAND }, { where: { id: world.tenant.id } });
    const scan = await seedReportScan({
      tenantId: world.tenant.id,
      location: 'Main Street Dental',
      keywords: ['dentist', 'teeth whitening'],
      gridSize: 5,
      lat: 51.5072,
      lng: -0.1276,
      rivals: RIVALS,
      snapshots: [OLDER, LATEST].map((at) => ({ at: new Date(at), rank: RANKS[at] })),
    });
    scanUuid = scan.uuid;
    client = await connect(app, world.ai.owner);
    host = await serveHost();
    browser = await launchChromium();
    fs.mkdirSync(ARTIFACTS, { recursive: true });
  });
  afterAll(async () => {
    await browser?.close();
    await host?.close();
    await client?.close();
  });

  describe('on the protocol', () => {
    it('names the View in the _meta of get_scan, create_scan and run_scan, by the extension\'s own reading of a tool', async () => {
      const { tools } = await client.listTools();
      const byName = new Map(tools.map((t) => [t.name, t]));
      for (const name of ['get_scan', 'create_scan', 'run_scan']) {
        expect(byName.get(name)!._meta).toEqual({ ui: { resourceUri: SCAN_GRID_URI }, 'ui/resourceUri': SCAN_GRID_URI });
      }
      // Other tools declare no View.
      expect(tools.filter((t) => t._meta).map((t) => t.name)).toEqual(['get_scan', 'create_scan', 'run_scan']);
      const h = await openHost(browser, host, client);
      const { contents } = await client.readResource({ uri: SCAN_GRID_URI });
      const seen = await h.page.evaluate(([tool, content]) => (window as unknown as { describeApp: (t: unknown, c: unknown) => unknown }).describeApp(tool, content), [byName.get('get_scan'), contents[0]]);
      expect(seen).toEqual({ resourceUri: SCAN_GRID_URI, isAppResource: true });
      await h.page.context().close();
    });

    it('lists and serves the View as one self-contained document in the agency brand, with the restrictive CSP', async () => {
      const { resources } = await client.listResources();
      expect(resources).toEqual([expect.objectContaining({ uri: SCAN_GRID_URI, name: 'scan-grid', mimeType: 'text/html;profile=mcp-app' })]);
      const { contents } = await client.readResource({ uri: SCAN_GRID_URI });
      expect(contents).toHaveLength(1);
      const [doc] = contents as Array<{ uri: string; mimeType: string; text: string; _meta?: Record<string, unknown> }>;
      expect([doc.uri, doc.mimeType]).toEqual([SCAN_GRID_URI, 'text/html;profile=mcp-app']);
      // No tiles configured: nothing beyond the host's default CSP is asked for.
      expect(doc._meta).toEqual({ ui: { prefersBorder: true } });
      expect(doc.text).toMatch(/^<!doctype html>/);
      expect(doc.text).toContain('<span class="brand" id="brand">Harbour &amp; Co &lt;Marketing&gt;</span>');
      expect(doc.text).not.toMatch(/Reviewgrid/i);
      // Self-contained: script and style inline, nothing loaded by address (the browser test counts the requests).
      expect(doc.text).not.toMatch(/<(script|link|img|iframe)\b[^>]*\s(src|href)=/i);
    });

    it('leaves a client without Apps support where it was: the same structured content and text, no _meta on the result', async () => {
      const result = await client.callTool({ name: 'get_scan', arguments: { uuid: scanUuid } });
      expect(result._meta).toBeUndefined();
      expect(result.content).toEqual([{ type: 'text', text: JSON.stringify(result.structuredContent) }]);
      expect(result.structuredContent).toMatchObject({ uuid: scanUuid, keywords: ['dentist', 'teeth whitening'], available_snapshots: [LATEST, OLDER] });
    });

    it('keeps the Local Search Grid rules: others see no View and may not read it; unknown and missing URIs answer the error table', async () => {
      const list = await app.post(rpc('resources/list'), { token: world.ai.orgOwner });
      expect(list.json.result.resources).toEqual([]);
      const denied = await app.post(rpc('resources/read', { uri: SCAN_GRID_URI }), { token: world.ai.orgOwner });
      expect([denied.status, denied.json.error.code, denied.json.error.data.reason]).toEqual([200, -32001, 'tenant_owner_required']);
      const unknown = await app.post(rpc('resources/read', { uri: 'ui://reviewgrid/nothing.html' }), { token: world.ai.owner });
      expect([unknown.status, unknown.json.error.code, unknown.json.error.data.reason]).toEqual([200, -32002, 'not_found']);
      const missing = await app.post(rpc('resources/read', {}), { token: world.ai.owner });
      expect([missing.status, missing.json.error.code, missing.json.error.data.errors]).toEqual([200, -32602, { uri: ['The uri is required.'] }]);
    });

    it('serves the View on 2026-07-28 too, cacheable by the client alone', async () => {
      const meta = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' }, 'io.modelcontextprotocol/clientCapabilities': {} };
      const res = await app.post(rpc('resources/read', { uri: SCAN_GRID_URI, _meta: meta }), {
        token: world.ai.owner,
        headers: { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'resources/read', 'mcp-name': SCAN_GRID_URI },
      });
      expect(res.status).toBe(200);
      expect(res.json.result).toMatchObject({ resultType: 'complete', cacheScope: 'private', ttlMs: 3_600_000, contents: [{ uri: SCAN_GRID_URI, mimeType: 'text/html;profile=mcp-app' }] });
    });
  });

  describe('in Chromium', () => {
    it('renders get_scan: pins coloured by rank, the business at the centre, the summary, and pickers that ask the server again', async () => {
      const h = await openHost(browser, host, client);
      const input = { uuid: scanUuid, top_n: 3 };
      await mountView(h, client, 'get_scan', input, await client.callTool({ name: 'get_scan', arguments: input }));
      const main = h.view.locator('main#app');
      await h.view.locator('main#app[data-state="ready"][data-keyword="dentist"]').waitFor();

      // The brand, the business, the grid of the first keyword at the latest snapshot.
      expect(await h.view.locator('#brand').textContent()).toBe(BRAND);
      expect(await h.view.locator('#title').textContent()).toBe('Main Street Dental');
      expect(await main.getAttribute('data-snapshot')).toBe(LATEST);
      expect(await h.view.locator('#map').getAttribute('data-pins')).toBe('25');
      expect([await bucketCount(h, 'top3'), await bucketCount(h, 'top10'), await bucketCount(h, 'top20'), await bucketCount(h, 'none')]).toEqual([9, 16, 0, 0]);
      expect(await h.view.locator('#map g.pin[data-rank="1"] circle').getAttribute('fill')).toBe('#1e8e3e');
      expect(await h.view.locator('#map g.pin[data-rank="8"] circle').first().getAttribute('fill')).toBe('#e8a200');
      const business = h.view.locator('#map g.business');
      expect(Number(await business.getAttribute('data-lat'))).toBeCloseTo(51.5072, 4);
      expect(Number(await business.getAttribute('data-lng'))).toBeCloseTo(-0.1276, 4);
      expect(await h.view.locator('#map g.pin[data-rank="1"] title').textContent()).toContain('1. Main Street Dental');
      // Two keywords: the keyword's own summary, asked with get_scan_insights.
      await waitUntil(async () => (await stat(h, 'top_3')) === '9 / 25', 10_000, 50);
      expect(await stat(h, 'not_ranking')).toBe('0');
      expect(h.calls).toEqual([{ name: 'get_scan_insights', arguments: { uuid: scanUuid, keyword: 'dentist', snapshot_at: LATEST } }]);

      // Another keyword: its pins at once, its summary from the server.
      await h.view.locator('#keyword').selectOption('teeth whitening');
      await h.view.locator('main#app[data-keyword="teeth whitening"]').waitFor();
      expect([await bucketCount(h, 'top3'), await bucketCount(h, 'top20'), await bucketCount(h, 'none')]).toEqual([0, 25, 0]);
      await waitUntil(async () => (await stat(h, 'top_3')) === '0 / 25', 10_000, 50);
      expect(h.calls.at(-1)).toEqual({ name: 'get_scan_insights', arguments: { uuid: scanUuid, keyword: 'teeth whitening', snapshot_at: LATEST } });

      // Another snapshot: get_scan again, the same keyword kept.
      await h.view.locator('#snapshot').selectOption(OLDER);
      await h.view.locator(`main#app[data-snapshot="${OLDER}"][data-keyword="teeth whitening"]`).waitFor();
      expect([await bucketCount(h, 'top3'), await bucketCount(h, 'none')]).toEqual([10, 15]);
      await waitUntil(async () => (await stat(h, 'top_3')) === '10 / 25', 10_000, 50);
      expect(h.calls.slice(2)).toEqual([
        { name: 'get_scan', arguments: { uuid: scanUuid, snapshot_at: OLDER, top_n: 3 } },
        { name: 'get_scan_insights', arguments: { uuid: scanUuid, keyword: 'teeth whitening', snapshot_at: OLDER } },
      ]);
      expect(await h.view.locator('#legend li[data-bucket="none"]').getAttribute('data-count')).toBe('15');

      // Back to the first keyword at the older snapshot: every band.
      await h.view.locator('#keyword').selectOption('dentist');
      await h.view.locator('main#app[data-keyword="dentist"]').waitFor();
      expect([await bucketCount(h, 'top3'), await bucketCount(h, 'top10'), await bucketCount(h, 'top20'), await bucketCount(h, 'none')]).toEqual([1, 8, 12, 4]);
      await waitUntil(async () => (await stat(h, 'not_ranking')) === '4', 10_000, 50);
      await h.page.locator('#view').screenshot({ path: path.join(ARTIFACTS, 'scan-widget.png') });

      expect(h.foreign).toEqual([]);
      expect(h.requests.filter((u) => !u.startsWith(`${host.origin}/`))).toEqual([]);
      expect(h.requests.map((u) => new URL(u).pathname).filter((p) => !['/', '/host.js', '/favicon.ico'].includes(p))).toEqual([]);
      expect(h.violations).toEqual([]);
      expect(h.errors).toEqual([]);
      await h.page.context().close();
    });

    it('follows a create_scan result: the queued scan is polled with get_scan and its grid appears when the snapshot completes', async () => {
      const pending = await seedPendingScan(world.tenant.id, 'Fresh Smiles');
      const h = await openHost(browser, host, client);
      const started = { uuid: pending.uuid, started_at: new Date().toISOString(), is_running: true };
      await mountView(h, client, 'create_scan', { location: 'Fresh Smiles', keywords: pending.keywords, grid_size: 5, distance: 2, distance_unit: 'km' }, {
        content: [{ type: 'text', text: JSON.stringify(started) }],
        structuredContent: started,
      });
      await h.view.locator('main#app[data-state="running"]').waitFor();
      await waitUntil(async () => h.calls.length >= 1, 15_000, 100);
      expect(h.calls[0]).toEqual({ name: 'get_scan', arguments: { uuid: pending.uuid, top_n: 3 } });
      await h.view.locator('main#app[data-state="empty"]').waitFor();
      expect(await h.view.locator('#status').textContent()).toMatch(/first snapshot is running/);

      // The run completes (as the workflow's activities would complete it).
      await pending.reload();
      const pins = await ScanPin.findAll({ where: { scanId: pending.id } });
      for (const snapshot of await ScanSnapshot.findAll({ where: { scanId: pending.id, runId: pending.currentRunId! } })) {
        for (const pin of pins) {
          const rank = pin.row === 2 && pin.col === 2 ? 1 : 7;
          await storePinResult(
            { tenantId: world.tenant.id, snapshotId: snapshot.id, pinId: pin.id, keyword: snapshot.keyword, lat: pin.lat, lng: pin.lng, targetPlaceId: pending.targetPlaceId },
            [{ placeId: pending.targetPlaceId!, name: 'Fresh Smiles', rank }],
          );
        }
      }
      await completeRun(pending.currentRunId!);

      await h.view.locator('main#app[data-state="ready"]').waitFor({ timeout: 30_000 });
      expect(await h.view.locator('#map').getAttribute('data-pins')).toBe('25');
      expect([await bucketCount(h, 'top3'), await bucketCount(h, 'top10')]).toEqual([1, 24]);
      expect(h.calls.every((c) => c.name === 'get_scan' || c.name === 'get_scan_insights')).toBe(true);
      expect(h.foreign).toEqual([]);
      expect(h.violations).toEqual([]);
      expect(h.errors).toEqual([]);
      await h.page.context().close();
    });
  });

  describe('with map tiles configured', () => {
    it('takes an https XYZ template (http on loopback only) and refuses anything else at boot', () => {
      expect(tileTemplateProblem('https://tiles.example.net/{z}/{x}/{y}.png')).toBeNull();
      expect(tileTemplateProblem('http://127.0.0.1:8080/{z}/{x}/{y}.png')).toBeNull();
      expect(tileTemplateProblem('http://tiles.example.net/{z}/{x}/{y}.png')).toBe('not https (http only on loopback)');
      expect(tileTemplateProblem('https://tiles.example.net/{z}/{x}.png')).toBe('without {z}, {x} and {y}');
      expect(tileTemplateProblem('tiles/{z}/{x}/{y}.png')).toBe('not a URL');
    });

    let tiled: ServedApp;
    let tiledClient: Client;
    beforeAll(async () => {
      tiled = await serveApp({ mcp: { perToken: 100_000, perWorkspace: 100_000, auditFlushMs: 20, tiles: { url: `${host.origin}/tiles/{z}/{x}/{y}.svg`, attribution: '© Test Tiles', maxZoom: 19 } } });
      tiledClient = await connect({ url: () => `${tiled.origin}/api/mcp` } as McpApp, world.ai.owner);
    });
    afterAll(async () => {
      await tiledClient?.close();
      await tiled?.close();
    });

    it("declares the tile server's origin in the View's CSP and draws the grid on its tiles, nothing else requested", async () => {
      const { contents } = await tiledClient.readResource({ uri: SCAN_GRID_URI });
      expect(contents[0]._meta).toEqual({ ui: { prefersBorder: true, csp: { resourceDomains: [host.origin] } } });
      const h = await openHost(browser, host, tiledClient);
      const input = { uuid: scanUuid };
      await mountView(h, tiledClient, 'get_scan', input, await tiledClient.callTool({ name: 'get_scan', arguments: input }));
      await h.view.locator('main#app[data-state="ready"]').waitFor();
      const tiles = await h.view.locator('#map g.tiles image').count();
      expect(tiles).toBeGreaterThan(0);
      await waitUntil(async () => host.tileRequests.length >= tiles, 10_000, 50);
      // Every tile of the canvas at one zoom, from the configured server only.
      expect(new Set(host.tileRequests.map((u) => u.split('/')[2])).size).toBe(1);
      expect(await h.view.locator('#map text.attribution').textContent()).toBe('© Test Tiles');
      expect(h.foreign).toEqual([]);
      expect(h.violations).toEqual([]);
      expect(h.errors).toEqual([]);
      await h.page.locator('#view').screenshot({ path: path.join(ARTIFACTS, 'scan-widget-tiles.png') });
      await h.page.context().close();
    });
  });
});
