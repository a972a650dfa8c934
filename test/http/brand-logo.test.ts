import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { JSDOM } from 'jsdom';
import { logoKey } from '../../src/reports/logo';
import { useApp } from '../support/app';
import { useEnv } from '../support/env';
import { makeTenant } from '../support/factories';
import { solidPng } from '../support/png';
import { seedReportScan } from '../support/scan-report';

/**
 * The agency's logo on the pages (the Standards' "no page loads anything from another host"): a page shows it from the
 * platform's own `GET /brand/logo/<key>`, which fetches it from the tenant's logo URL; the pages' CSP admits images
 * from the platform's host only. The browser tests (test/security/headers.test.ts, test/e2e/report-page.test.ts,
 * test/http/docs-page.test.ts) check it loads in Chromium.
 */
describe('GET /brand/logo/{key}', () => {
  const t = useApp();
  // The agency's server is on loopback here.
  useEnv({ WEBHOOK_ALLOW_PRIVATE_URLS: 'true' });

  const png = solidPng(20, 10, [10, 120, 200]);
  const svg = '<?xml version="1.0"?>\n<!-- the agency -->\n<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10"/></svg>';
  const asked: string[] = [];
  let base = '';
  let agency: http.Server;
  beforeAll(async () => {
    agency = http.createServer((req, res) => {
      asked.push(req.url!);
      if (req.url === '/logo.png') return void res.writeHead(200, { 'Content-Type': 'text/plain' }).end(png);
      if (req.url === '/logo.svg') return void res.writeHead(200, { 'Content-Type': 'image/svg+xml' }).end(svg);
      if (req.url === '/page.html') return void res.writeHead(200, { 'Content-Type': 'image/png' }).end('<html><script>alert(1)</script></html>');
      res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => agency.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(agency.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => agency.close(() => resolve())));

  /** The logo an agency's scan report page shows, and the answer of the route it names. */
  async function shown(logoUrl: string) {
    const { tenant } = await makeTenant();
    await tenant.update({ brandName: 'Harbour Marketing', logoUrl });
    const scan = await seedReportScan({ tenantId: tenant.id, snapshots: [{ at: new Date('2026-11-20T09:00:00Z'), results: () => [] }] });
    const page = await t.http().get(`/reports/scans/${scan.uuid}`);
    expect(page.status).toBe(200);
    const src = new JSDOM(page.text).window.document.querySelector('header img')?.getAttribute('src') ?? null;
    return { page, src };
  }

  it("shows the logo from the platform's host, and serves the agency's image there with its type by its bytes", async () => {
    const { page, src } = await shown(`${base}/logo.png`);
    expect(src).toBe(`/brand/logo/${logoKey(`${base}/logo.png`)}`);
    expect(page.text).not.toContain(base);
    // The page may load images from its own host only.
    expect(page.headers['content-security-policy']).toMatch(/img-src 'self' data:;/);
    const logo = await t.http().get(src!).buffer(true).parse((r, cb) => {
      const chunks: Buffer[] = [];
      r.on('data', (c: Buffer) => chunks.push(c));
      r.on('end', () => cb(null, Buffer.concat(chunks)));
    });
    expect(logo.status).toBe(200);
    expect(logo.headers['content-type']).toBe('image/png');
    expect(Buffer.compare(logo.body as Buffer, png)).toBe(0);
    expect(logo.headers['x-content-type-options']).toBe('nosniff');
    expect(logo.headers['content-security-policy']).toContain('sandbox');
  });

  it('serves an SVG logo as SVG, sandboxed', async () => {
    const { src } = await shown(`${base}/logo.svg`);
    const logo = await t.http().get(src!).buffer(true);
    expect(logo.status).toBe(200);
    expect(logo.headers['content-type']).toMatch(/^image\/svg\+xml/);
    expect(logo.headers['content-security-policy']).toBe("default-src 'none'; style-src 'unsafe-inline'; sandbox");
  });

  it('answers 404 JSON for what is not an image whatever its server says, for an unknown key, and fetches no URL no tenant has', async () => {
    // The page names no image it cannot serve (the brand's name alone); the route still refuses the tenant's URL's key.
    const { src } = await shown(`${base}/page.html`);
    expect(src).toBeNull();
    const notImage = await t.http().get(`/brand/logo/${logoKey(`${base}/page.html`)}`);
    expect([notImage.status, notImage.body]).toEqual([404, { message: 'Logo not found.' }]);
    const before = asked.length;
    for (const path of [`/brand/logo/${logoKey(`${base}/never-configured.png`)}`, '/brand/logo/not-a-key', '/brand/logo/..%2F..%2Fetc']) {
      const res = await t.http().get(path);
      expect([res.status, res.type]).toEqual([404, 'application/json']);
    }
    expect(asked.slice(before)).toEqual([]);
  });
});
