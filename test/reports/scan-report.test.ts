import { mkdirSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { JSDOM } from 'jsdom';
import { scanCharts, scanReportPdf } from '../../src/reports/scan';
import type { PdfBox } from '../../src/reports/pdf';
import { reportOf } from '../../src/services/scan-report.service';
import express from 'express';
import pino from 'pino';
import request from 'supertest';
import { renderGate, reportPages } from '../../facades/pages/report';
import { getSchema } from '../../src/graphql/schema';
import { pageSecurity } from '../../src/http/security-headers';
import { CATALOGUES } from '../../src/i18n';
import { waitUntil } from '../support/wait';
import { ScanPin, ScanResult, ScanSnapshot } from '../../src/models';
import { useApp } from '../support/app';
import { makeOrgOwner, makeTenant, tokenFor } from '../support/factories';
import { brandColors } from '../../src/reports/brand';
import { seedReportScan, type PinPos } from '../support/scan-report';
import { inkIn, meanColour, pdfText, renderPdf } from '../support/pdf-raster';
import { solidPng } from '../support/png';
import { LOGO_MAX_BYTES, logoImage } from '../../src/reports/logo';

/**
 * Issue 19, item 5: the per-scan report with heat maps per snapshot, pins gained and lost since the previous snapshot
 * and competitors' average rank and visibility over time, on the report page (server-side SVG) and as a PDF, in the
 * agency's language and brand colour.
 */
jest.setTimeout(120_000);

const AT = [new Date('2026-10-05T09:00:00Z'), new Date('2026-10-12T09:00:00Z'), new Date('2026-10-19T09:00:00Z')];
const doc = (html: string) => new JSDOM(html).window.document;

/**
 * Three weekly snapshots of a 5 x 5 grid. The business ranks 1 in the west column, worse eastwards; in the third
 * snapshot it drops at the north row (Rival North moves above it there: five pins lost) and climbs in the south row
 * (gained), the rest unchanged.
 */
const rank = (i: number) => (p: PinPos) => {
  const base = p.col + 1;
  if (i < 2) return base;
  if (p.row === 0) return base + 2;
  if (p.row === 4) return Math.max(1, base - 1) === base ? base : base - 1;
  return base;
};

async function seed(language = 'en', color: string | null = '#0b6e4f') {
  const { tenant } = await makeTenant();
  await tenant.update({ brandName: 'Harbour Marketing', language, brandColor: color });
  const scan = await seedReportScan({
    tenantId: tenant.id,
    rivals: [
      { placeId: 'p-alpha', name: 'Alpha Dental' },
      { placeId: 'p-beta', name: 'Beta Smiles' },
    ],
    snapshots: AT.map((at, i) => ({
      at,
      results: (p, keyword) => {
        const r = rank(i)(p);
        // Rival North is in the results only in the third snapshot's north row, at the place right above the business.
        const north = i === 2 && p.row === 0;
        const out = [{ placeId: 'place-target', name: 'Main Street Dental', rank: r }];
        let next = 1;
        for (const rival of [{ placeId: 'p-alpha', name: 'Alpha Dental' }, { placeId: 'p-beta', name: 'Beta Smiles' }, ...(north ? [{ placeId: 'p-north', name: 'Rival North' }] : [])]) {
          while (next === r) next++;
          out.push({ ...rival, rank: next++ });
        }
        void keyword;
        return out;
      },
    })),
  });
  return { tenant, scan };
}

describe('scan report history', () => {
  const t = useApp();

  it('has the heat map of each snapshot (oldest first) with every pin at its grid place, and the pins gained and lost', async () => {
    const { scan } = await seed();
    const report = await reportOf(scan.uuid, {});
    const h = report.history!;
    expect(h.size).toBe(5);
    expect(h.heatmaps.map((m) => m.snapshot.snapshotAt.toISOString())).toEqual(AT.map((d) => d.toISOString()));
    for (const m of h.heatmaps) {
      expect(m.cells).toHaveLength(25);
      // Every place of the grid once.
      expect(new Set(m.cells.map((c) => `${c.x},${c.y}`)).size).toBe(25);
    }
    // The first snapshot: the business ranks col + 1, whatever the row (x is the column, west to east).
    expect(h.heatmaps[0].cells.every((c) => c.rank === c.x + 1)).toBe(true);
    // North row (y 0) lost two places, south row (y 4) gained one except at rank 1 already.
    const latest = h.heatmaps[2].cells;
    expect(latest.filter((c) => c.y === 0).map((c) => c.rank).sort()).toEqual([3, 4, 5, 6, 7]);
    expect(h.changes).not.toBeNull();
    expect(h.changes!.previousSnapshotAt.toISOString()).toBe(AT[1].toISOString());
    expect({ gained: h.changes!.gained, lost: h.changes!.lost, same: h.changes!.same }).toEqual({ gained: 4, lost: 5, same: 16 });
    expect(h.changes!.cells.filter((c) => c.change === 'lost').every((c) => c.y === 0)).toBe(true);
    expect(h.changes!.cells.filter((c) => c.change === 'gained').every((c) => c.y === 4 && c.x > 0)).toBe(true);
    // Rival North takes the third place of the north row: above the business at four pins (at the west one the business
    // is third itself, and Rival North fourth).
    expect(h.overtakers[0]).toEqual({ name: 'Rival North', pins: 4 });
  });

  it('leaves a pin whose search failed out of the pin changes (its null rank is not "out of the top 20"), and shows it as "-"', async () => {
    const { scan } = await seed();
    const latest = await ScanSnapshot.findOne({ where: { scanId: scan.id, keyword: 'dentist', snapshotAt: AT[2] } });
    const northEast = await ScanPin.findOne({ where: { scanId: scan.id, row: 0, col: 4 } });
    await ScanResult.update({ status: 'failed', targetRank: null, topResults: [] }, { where: { snapshotId: latest!.id, pinId: northEast!.id } });
    const h = (await reportOf(scan.uuid, {})).history!;
    expect({ gained: h.changes!.gained, lost: h.changes!.lost, same: h.changes!.same }).toEqual({ gained: 4, lost: 4, same: 16 });
    expect(h.changes!.cells.find((c) => c.x === 4 && c.y === 0)).toBeUndefined();
    expect(h.heatmaps[2].cells.find((c) => c.x === 4 && c.y === 0)).toMatchObject({ status: 'failed', rank: null });
    const page = doc((await t.http().get(`/reports/scans/${scan.uuid}`)).text);
    const latestMap = page.querySelectorAll('section.history-charts .heatmaps svg')[2];
    expect([...latestMap.querySelectorAll('text')].map((x) => x.textContent)).toContain('-');
  });

  it("follows the business and its competitors over the snapshots, with nulls where a competitor was absent", async () => {
    const { scan } = await seed();
    const h = (await reportOf(scan.uuid, {})).history!;
    expect(h.trend.map((s) => s.snapshotAt.toISOString())).toEqual(AT.map((d) => d.toISOString()));
    const north = h.competitors.find((c) => c.name === 'Rival North')!;
    expect(north.points.slice(0, 2)).toEqual([
      { avgRank: null, visibility: null },
      { avgRank: null, visibility: null },
    ]);
    expect(north.points[2].avgRank).not.toBeNull();
    const alpha = h.competitors.find((c) => c.name === 'Alpha Dental')!;
    expect(alpha.points.every((p) => p.avgRank !== null && p.visibility !== null)).toBe(true);
    // Asked for the second snapshot, the history stops there: no Rival North yet, and nothing after it.
    const earlier = (await reportOf(scan.uuid, { snapshotAt: AT[1].toISOString() })).history!;
    expect(earlier.trend).toHaveLength(2);
    expect(earlier.heatmaps).toHaveLength(2);
    expect(earlier.competitors.map((c) => c.name)).not.toContain('Rival North');
    expect({ gained: earlier.changes!.gained, lost: earlier.changes!.lost }).toEqual({ gained: 0, lost: 0 });
    const first = (await reportOf(scan.uuid, { snapshotAt: AT[0].toISOString() })).history!;
    expect(first.changes).toBeNull();
    expect(first.overtakers).toEqual([]);
  });

  it('gives a watched competitor its point in an older snapshot where it was in the results but not among the ten most threatening', async () => {
    const { tenant } = await makeTenant();
    const rivals = Array.from({ length: 11 }, (_, i) => ({ placeId: `r${i + 1}`, name: `Rival ${i + 1}` }));
    const at = [new Date('2026-10-05T09:00:00Z'), new Date('2026-10-12T09:00:00Z')];
    const scan = await seedReportScan({
      tenantId: tenant.id,
      keywords: ['dentist'],
      gridSize: 3,
      snapshots: [
        // The business absent; Rival 1..11 at ranks 1..11 and Watch Co at 12 at every pin: twelfth by threat.
        { at: at[0], results: () => [...rivals.map((r, i) => ({ ...r, rank: i + 1 })), { placeId: 'watch', name: 'Watch Co', rank: 12 }] },
        // Watch Co first everywhere, the business second: Watch Co is the strongest competitor of the shown snapshot.
        { at: at[1], results: () => [{ placeId: 'watch', name: 'Watch Co', rank: 1 }, { placeId: 'place-target', name: 'Main Street Dental', rank: 2 }, ...rivals.map((r, i) => ({ ...r, rank: i + 3 }))] },
      ],
    });
    const report = await reportOf(scan.uuid, {});
    const watch = report.history!.competitors.find((c) => c.placeId === 'watch')!;
    // Rank 12 at all nine pins: average 12, visibility 100 x (21 - 12) / 20 = 45.
    expect(watch.points).toEqual([
      { avgRank: 12, visibility: 45 },
      { avgRank: 1, visibility: 100 },
    ]);
    // The other four watched (by average rank, no threat): ranks 1..4 then 3..6, by the same formulas.
    expect(report.history!.competitors.filter((c) => c.placeId !== 'watch').map((c) => [c.name, ...c.points.map((p) => `${p.avgRank}/${p.visibility}`)])).toEqual([
      ['Rival 1', '1/100', '3/90'],
      ['Rival 2', '2/95', '4/85'],
      ['Rival 3', '3/90', '5/80'],
      ['Rival 4', '4/85', '6/75'],
    ]);
    // The shown snapshot's points are the figures of its competitors table.
    expect(report.history!.competitors.map((c) => c.points[1].avgRank)).toEqual(report.competitors.slice(0, 5).map((c) => c.avgRank));
  });

  it('shows the history on the report page as SVG charts, in the agency language, with a link to the PDF', async () => {
    const { scan } = await seed('de');
    const res = await t.http().get(`/reports/scans/${scan.uuid}`);
    expect(res.status).toBe(200);
    const d = doc(res.text);
    const section = d.querySelector('section.history-charts')!;
    expect(section.getAttribute('lang')).toBe('de');
    expect(section.querySelector('h2')!.textContent).toBe('Im Zeitverlauf');
    const heatmaps = section.querySelectorAll('.heatmaps svg[role="img"]');
    expect(heatmaps).toHaveLength(3);
    expect(heatmaps[0].getAttribute('aria-label')).toContain('„dentist“');
    // Each heat map shows the 25 ranks as text; the latest's north row reads 3 to 7.
    const texts = (svg: Element) => [...svg.querySelectorAll('text')].map((x) => x.textContent);
    expect(texts(heatmaps[2])).toEqual(expect.arrayContaining(['3', '4', '5', '6', '7']));
    expect(texts(heatmaps[2]).filter((x) => /^\d+$/.test(x ?? ''))).toHaveLength(25);
    const counts = Object.fromEntries([...section.querySelectorAll('.changes-counts li')].map((li) => [li.getAttribute('data-change'), li.querySelector('strong')!.textContent]));
    expect(counts).toEqual({ gained: '4', lost: '5', same: '16' });
    expect(section.querySelector('.overtakers li')!.textContent).toContain('Rival North');
    // Two line charts (rank, visibility), each naming the business and the competitors in its legend.
    const lines = [...section.querySelectorAll(':scope > figure svg')];
    expect(lines).toHaveLength(2);
    for (const svg of lines) expect(svg.textContent).toContain('Main Street Dental (dieses Unternehmen)');
    const pdf = d.querySelector('.pdf-link a')!;
    expect(pdf.textContent).toBe('Als PDF herunterladen');
    expect(pdf.getAttribute('href')).toBe(`/reports/scans/${scan.uuid}.pdf?keyword=dentist&snapshot_at=${encodeURIComponent(AT[2].toISOString())}`);
    expect(d.querySelectorAll('script')).toHaveLength(0);
  });

  it('takes the brand colour from the agency owner through GraphQL (hex only, null clears it) and draws the page band in it', async () => {
    const { tenant, owner } = await makeTenant();
    const token = await tokenFor(owner);
    const gql = (query: string, bearer = token) => t.http().post('/graphql').set('Authorization', `Bearer ${bearer}`).send({ query });
    const set = await gql('mutation { setTenantBrandColor(color: "#0B6E4F") { brandColor } }');
    expect(set.body.errors).toBeUndefined();
    expect(set.body.data.setTenantBrandColor.brandColor).toBe('#0b6e4f');
    expect((await gql('{ tenant { brandColor } }')).body.data.tenant.brandColor).toBe('#0b6e4f');
    for (const bad of ['green', '#0b6e4', 'url(x)', '#0b6e4f;}']) {
      const res = await gql(`mutation { setTenantBrandColor(color: ${JSON.stringify(bad)}) { brandColor } }`);
      expect(res.body.errors[0].extensions).toMatchObject({ code: 'VALIDATION' });
    }
    const orgOwner = await makeOrgOwner(tenant.id);
    const refused = await gql('mutation { setTenantBrandColor(color: "#000000") { brandColor } }', await tokenFor(orgOwner));
    expect(refused.body.errors[0].extensions.code).toBe('FORBIDDEN');
    const scan = await seedReportScan({ tenantId: tenant.id, snapshots: [{ at: AT[0], rank: (p) => p.col + 1 }] });
    const page = await t.http().get(`/reports/scans/${scan.uuid}`);
    const band = brandColors('#0b6e4f');
    expect(page.text).toContain(`.top{background:${band.band};color:${band.onBand}`);
    expect((await gql('mutation { setTenantBrandColor(color: null) { brandColor } }')).body.data.setTenantBrandColor.brandColor).toBeNull();
  });

  it("draws the agency's logo (PNG or JPEG from its logo URL) in the PDF band, and the name alone when the logo cannot be had", async () => {
    const logo = solidPng(80, 40, [200, 30, 30]);
    const served = http.createServer((req, res) => {
      if (req.url === '/logo.png') return void res.writeHead(200, { 'Content-Type': 'image/png' }).end(logo);
      if (req.url === '/big.png') return void res.writeHead(200, { 'Content-Type': 'image/png' }).end(Buffer.concat([logo, Buffer.alloc(LOGO_MAX_BYTES)]));
      if (req.url === '/page.html') return void res.writeHead(200, { 'Content-Type': 'image/png' }).end('<html>not an image</html>');
      res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => served.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(served.address() as AddressInfo).port}`;
    const allowPrivate = process.env.WEBHOOK_ALLOW_PRIVATE_URLS;
    try {
      // A logo URL on a private address is not fetched (the same guard as webhooks) unless private URLs are allowed.
      process.env.WEBHOOK_ALLOW_PRIVATE_URLS = 'false';
      expect(await logoImage(`${base}/logo.png?guarded`)).toBeNull();
      process.env.WEBHOOK_ALLOW_PRIVATE_URLS = 'true';
      const { tenant, scan } = await seed('en', '#ffffff');
      await tenant.update({ logoUrl: `${base}/logo.png` });
      const res = await t.http().get(`/reports/scans/${scan.uuid}.pdf`).buffer(true).parse((r, cb) => {
        const chunks: Buffer[] = [];
        r.on('data', (c: Buffer) => chunks.push(c));
        r.on('end', () => cb(null, Buffer.concat(chunks)));
      });
      expect(res.status).toBe(200);
      const [page] = await renderPdf(res.body as Buffer);
      // The 80 x 40 logo fits 140 x 36 points at the band's left, vertically centred: 72 x 36 at (48, 8).
      const red = meanColour(page, { x: 52, y: 12, width: 60, height: 26 });
      expect(red.map((c, i) => Math.abs(c - [200, 30, 30][i]) <= 8)).toEqual([true, true, true]);
      const layout: PdfBox[] = [];
      await scanReportPdf(await reportOf(scan.uuid, {}), { layout, logo: await logoImage(`${base}/logo.png`) });
      expect(layout.find((b) => b.name === 'logo')).toEqual({ name: 'logo', page: 0, x: 48, y: 8, width: 72, height: 36 });
      // Not found, too large, not an image whatever the server says, not http(s): no logo, and the PDF still renders.
      for (const url of [`${base}/missing.png`, `${base}/big.png`, `${base}/page.html`, 'file:///etc/passwd']) {
        expect(await logoImage(url)).toBeNull();
      }
      await tenant.update({ logoUrl: `${base}/page.html` });
      const plain = await t.http().get(`/reports/scans/${scan.uuid}.pdf`);
      expect(plain.status).toBe(200);
      const without: PdfBox[] = [];
      await scanReportPdf(await reportOf(scan.uuid, {}), { layout: without, logo: await logoImage(`${base}/page.html`) });
      expect(without.map((b) => b.name)).not.toContain('logo');
    } finally {
      if (allowPrivate === undefined) delete process.env.WEBHOOK_ALLOW_PRIVATE_URLS;
      else process.env.WEBHOOK_ALLOW_PRIVATE_URLS = allowPrivate;
      served.close();
    }
  });

  it('draws at most PDF_RENDERS PDFs at once, queues PDF_QUEUE more and refuses the rest (503)', async () => {
    const gate = renderGate(2, 1);
    let running = 0;
    let peak = 0;
    const releases: Array<() => void> = [];
    const work = () =>
      new Promise<string>((resolve) => {
        running += 1;
        peak = Math.max(peak, running);
        releases.push(() => {
          running -= 1;
          resolve('drawn');
        });
      });
    const runs = [gate.run(work), gate.run(work), gate.run(work)];
    // A fourth beyond two running and one queued is refused at once.
    expect(await gate.run(work)).toBeNull();
    await waitUntil(async () => releases.length === 2);
    releases.shift()!();
    await waitUntil(async () => releases.length === 2);
    releases.splice(0).forEach((release) => release());
    expect(await Promise.all(runs)).toEqual(['drawn', 'drawn', 'drawn']);
    expect(peak).toBe(2);
  });

  it("answers a PDF beyond the limits with a 503 page in the agency's language", async () => {
    const { scan } = await seed('de');
    const app = express().use('/reports', pageSecurity(), reportPages({ schema: await getSchema(), logger: pino({ level: 'silent' }), pdfLimits: { renders: 0, queue: 0 } }));
    const res = await request(app).get(`/reports/scans/${scan.uuid}.pdf`);
    expect(res.status).toBe(503);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.text).toContain('<html lang="de">');
    expect(res.text).toContain(CATALOGUES.de.scanReport.busyTitle);
    expect(res.text).toContain(CATALOGUES.de.scanReport.busyText);
    expect(res.text).toContain('Harbour Marketing');
  });

  it('escapes hostile competitor names in the history: chart legends, the overtakers list', async () => {
    const hostile = '<script>alert(1)</script> & "Smile" <img src=x onerror=alert(2)>';
    const { tenant } = await makeTenant();
    const scan = await seedReportScan({
      tenantId: tenant.id,
      rivals: [{ placeId: 'p-evil', name: hostile }],
      snapshots: [
        { at: AT[0], rank: (p) => p.col + 1 },
        { at: AT[1], rank: (p) => p.col + 2 },
      ],
    });
    const res = await t.http().get(`/reports/scans/${scan.uuid}`);
    expect(res.status).toBe(200);
    const d = doc(res.text);
    expect(d.querySelectorAll('script, img[src="x"]')).toHaveLength(0);
    const section = d.querySelector('section.history-charts')!;
    expect(section.querySelector('.overtakers li')!.textContent).toContain(hostile);
    expect([...section.querySelectorAll(':scope > figure svg')].some((svg) => svg.textContent!.includes('<script>alert(1)</script>'))).toBe(true);
    expect(res.text).not.toContain('<script>alert(1)</script>');
  });

  it("keeps hostile names and keywords text in the chart SVGs (ECharts' SSR escaping and the aria-label), taken as markup by the page", async () => {
    // Competitor names come from the ranking provider, the location and keyword from the agency's scan.
    const closing = '</text><script>alert(1)</script><text>';
    const quoting = '"onload="x';
    const location = `Main ${quoting} ${closing}`;
    const keyword = `dentist ${quoting}`;
    const { tenant } = await makeTenant();
    const scan = await seedReportScan({
      tenantId: tenant.id,
      location,
      keywords: [keyword],
      rivals: [
        { placeId: 'p-closing', name: closing },
        { placeId: 'p-quoting', name: quoting },
      ],
      snapshots: [
        { at: AT[0], rank: (p) => p.col + 1 },
        { at: AT[1], rank: (p) => p.col + 2 },
      ],
    });
    const report = await reportOf(scan.uuid, {});
    expect(report.keyword).toBe(keyword);
    const charts = scanCharts(report)!;
    const svgs = [...charts.heatmaps.map((h) => h.svg), charts.changes, charts.rankTrend, charts.visibilityTrend].map((svg) => svg!);
    expect(svgs).toHaveLength(5);
    const business = CATALOGUES.en.scanReport.theBusiness.replace('{{location}}', location);

    for (const svg of svgs) {
      // As the page takes it (the pages' `Chart` inserts it as markup into the HTML) and as an SVG document (the PDF's
      // svg-to-pdfkit parses it; a malformed document throws here).
      const asHtml = () => new JSDOM(`<!doctype html><body><div class="chart">${svg}</div></body>`).window.document;
      const asXml = () => new JSDOM(svg, { contentType: 'image/svg+xml' }).window.document;
      for (const parse of [asHtml, asXml]) {
        const d = parse();
        expect(d.querySelectorAll('script')).toHaveLength(0);
        // No attribute out of the data: every name a plain one (an unescaped quote would make `"onload` or `x"`), no
        // event handler.
        const root = d.querySelector('svg')!;
        const names = new Set([root, ...root.querySelectorAll('*')].flatMap((e) => e.getAttributeNames()));
        expect([...names].filter((n) => !/^[a-z][a-z_:-]*$/i.test(n) || /^on/i.test(n))).toEqual([]);
        // The hostile text is text: no `<text>` holds an element of its own.
        expect([...d.querySelectorAll('text *')].map((e) => e.tagName)).toEqual([]);
      }
      expect(asHtml().querySelector('svg')!.getAttribute('role')).toBe('img');
    }

    // The heat maps' labels carry the keyword, literally, read either way.
    const label = CATALOGUES.en.scanReport.heatmapLabel.replace('{{keyword}}', keyword).replace('{{date}}', charts.heatmaps[0].when);
    expect(new JSDOM(`<!doctype html><body>${charts.heatmaps[0].svg}</body>`).window.document.querySelector('svg')!.getAttribute('aria-label')).toBe(label);
    expect(new JSDOM(charts.heatmaps[0].svg, { contentType: 'image/svg+xml' }).window.document.documentElement.getAttribute('aria-label')).toBe(label);
    // The trend legends name the business and each competitor: each one text node, equal to the hostile string.
    for (const svg of [charts.rankTrend!, charts.visibilityTrend!]) {
      for (const d of [new JSDOM(`<!doctype html><body>${svg}</body>`).window.document, new JSDOM(svg, { contentType: 'image/svg+xml' }).window.document]) {
        const texts = [...d.querySelectorAll('text')].map((x) => x.textContent);
        expect(texts).toEqual(expect.arrayContaining([closing, quoting, business]));
      }
    }
  });

  it('serves the PDF at the same path with .pdf, and 404 for an unknown scan', async () => {
    const { scan } = await seed();
    const res = await t.http().get(`/reports/scans/${scan.uuid}.pdf`).buffer(true).parse((r, cb) => {
      const chunks: Buffer[] = [];
      r.on('data', (c: Buffer) => chunks.push(c));
      r.on('end', () => cb(null, Buffer.concat(chunks)));
    });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect((res.body as Buffer).subarray(0, 5).toString()).toBe('%PDF-');
    expect((await t.http().get('/reports/scans/00000000-0000-4000-8000-000000000000.pdf')).status).toBe(404);
    expect((await t.http().get(`/reports/scans/${scan.uuid}.pdf`).query({ keyword: 'no such keyword' })).status).toBe(404);
  });

  it('draws the PDF as laid out: the brand band in the agency colour, every chart where the layout put it, in the language', async () => {
    const { scan } = await seed('fr', '#0b6e4f');
    const report = await reportOf(scan.uuid, {});
    const layout: PdfBox[] = [];
    const pdf = await scanReportPdf(report, { layout });
    const pages = await renderPdf(pdf);
    mkdirSync('artifacts', { recursive: true });
    writeFileSync(join('artifacts', 'report-scan-fr.pdf'), pdf);
    const names = layout.map((b) => b.name);
    expect(names).toEqual(expect.arrayContaining(['band', 'summary', 'heatmap-0', 'heatmap-1', 'heatmap-2', 'changes', 'rank-trend', 'visibility-trend']));
    for (const box of layout) {
      const page = pages[box.page];
      expect({ box: box.name, page: box.page < pages.length }).toEqual({ box: box.name, page: true });
      // Something is drawn in every block (charts are not blank)...
      expect({ box: box.name, inked: inkIn(page, box) > 0.02 }).toEqual({ box: box.name, inked: true });
    }
    // ...the band is the brand colour, and the page's bottom margin is empty.
    const band = meanColour(pages[0], { x: 300, y: 4, width: 200, height: 10 });
    const brand = [0x0b, 0x6e, 0x4f];
    expect(band.map((c, i) => Math.abs(c - brand[i]) <= 6)).toEqual([true, true, true]);
    for (const page of pages) expect(inkIn(page, { x: 0, y: page.heightPt - 30, width: page.widthPt, height: 30 })).toBe(0);
    // The PDF's text is French.
    const text = await pdfText(pdf);
    expect(text).toContain('grille de recherche locale');
    expect(text).toContain('Points gagnés et perdus depuis le');
    expect(text).toContain('Harbour Marketing');
  });
});
