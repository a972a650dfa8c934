import { randomUUID } from 'node:crypto';
import { logoKey } from '../../src/reports/logo';
import { JSDOM } from 'jsdom';
import { useAgencyLogo } from '../support/agency-logo';
import { useApp } from '../support/app';
import { makeTenant } from '../support/factories';
import { seedPendingScan, seedReportScan, type PinPos } from '../support/scan-report';

/** The public white-label scan report at `report_url` (`/reports/scans/{uuid}`), server-rendered HTML. */
jest.setTimeout(60_000);

const FIRST = new Date('2026-11-02T09:00:00.000Z');
const SECOND = new Date('2026-11-09T09:00:00.000Z');
const HOSTILE = '<script>alert(1)</script> & "Smile" Co';

/** Snapshot 1, dentist: 1..20 row by row, then five pins outside the top 20. Snapshot 2: the column + 1. */
const firstRank = (p: PinPos, keyword: string) => (keyword === 'dentist' ? (p.row * 5 + p.col + 1 <= 20 ? p.row * 5 + p.col + 1 : null) : 7);
const secondRank = (p: PinPos, keyword: string) => (keyword === 'dentist' ? p.col + 1 : 12);

const doc = (html: string) => new JSDOM(html).window.document;
const pinLabels = (d: Document) => [...d.querySelectorAll('svg g.pin')].map((g) => g.querySelector('text')!.textContent);
const stat = (d: Document, key: string) => d.querySelector(`[data-stat="${key}"] .value`)?.textContent?.trim();

describe('GET /reports/scans/{uuid}', () => {
  const t = useApp();
  // The agency's logo, which the platform can fetch (a page shows no logo it cannot serve: test/http/page-logos.test.ts).
  const logo = useAgencyLogo();

  async function brandedScan() {
    const { tenant } = await makeTenant();
    await tenant.update({ brandName: 'Harbour Marketing', logoUrl: logo.reachable() });
    const scan = await seedReportScan({
      tenantId: tenant.id,
      rivals: [
        { placeId: 'p-alpha', name: 'Alpha Dental' },
        { placeId: 'p-north', name: 'Northside Dental', where: (p) => p.row === 0 },
        { placeId: 'p-hostile', name: HOSTILE },
      ],
      snapshots: [
        { at: FIRST, rank: firstRank },
        { at: SECOND, rank: secondRank },
      ],
    });
    return { tenant, scan, path: `/reports/scans/${scan.uuid}` };
  }

  it('answers 200 HTML in the scan tenant\'s brand, never the product\'s name, with noindex and a restrictive CSP', async () => {
    const { tenant, path } = await brandedScan();
    const res = await t.http().get(path);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.headers['x-robots-tag']).toMatch(/noindex/);
    expect(res.headers['content-security-policy']).toContain("default-src 'none'");
    expect(res.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(res.headers['referrer-policy']).toBe('no-referrer');
    const d = doc(res.text);
    expect(d.querySelector('header')!.textContent).toContain('Harbour Marketing');
    // From the platform's own host (GET /brand/logo/<key>), never the agency's.
    expect(d.querySelector('header img')!.getAttribute('src')).toBe(`/brand/logo/${logoKey(tenant.logoUrl!)}`);
    expect(d.title).toContain('Harbour Marketing');
    expect(d.querySelector('h1')!.textContent).toBe('Main Street Dental');
    expect(res.text).not.toMatch(/reviewgrid/i);
    expect(d.querySelectorAll('script')).toHaveLength(0);
  });

  it('draws grid_size^2 pins with their rank numbers, the target marker and a legend (latest snapshot, first keyword)', async () => {
    const { path } = await brandedScan();
    const d = doc((await t.http().get(path)).text);
    const pins = d.querySelectorAll('svg.grid-map g.pin');
    expect(pins).toHaveLength(25);
    // North-west first, row by row: the second snapshot's ranks are the column + 1.
    expect(pinLabels(d)).toEqual(Array.from({ length: 25 }, (_, i) => String((i % 5) + 1)));
    expect([...pins].map((g) => g.getAttribute('data-bucket'))).toEqual(Array.from({ length: 25 }, (_, i) => ((i % 5) + 1 <= 3 ? 'top3' : 'top10')));
    // Pins are placed on the canvas: five columns and five rows (geodesic pins: a column drifts by far under 1 px).
    const xy = [...pins].map((g) => /translate\(([\d.]+) ([\d.]+)\)/.exec(g.getAttribute('transform')!)!.slice(1).map(Number));
    const lines = (v: number[]) => [...v].sort((a, b) => a - b).filter((x, i, all) => i === 0 || x - all[i - 1] > 2).length;
    expect(lines(xy.map(([x]) => x))).toBe(5);
    expect(lines(xy.map(([, y]) => y))).toBe(5);
    // West to east and north to south, in pin order.
    expect(xy[0][0]).toBeLessThan(xy[4][0]);
    expect(xy[0][1]).toBeLessThan(xy[20][1]);
    // The business (the grid centre) is marked at the centre pin.
    const centre = xy[12];
    expect(d.querySelector('svg g.target')!.getAttribute('transform')).toBe(`translate(${centre[0].toFixed(1)} ${centre[1].toFixed(1)})`);
    const legend = [...d.querySelectorAll('.legend li')].map((li) => li.textContent);
    expect(legend).toEqual(['Rank 1-3', 'Rank 4-10', 'Rank 11-20', 'Not in the top 20', 'The business (grid centre)']);
    expect(d.querySelector('.keywords a[aria-current="page"]')!.textContent).toBe('dentist');
  });

  it('shows the summary of the snapshot: average rank, buckets, visibility and the change from the previous one', async () => {
    const { path } = await brandedScan();
    const d = doc((await t.http().get(path)).text);
    // Ranks 1..5 in every row: average 3, 15 pins in the top 3, 10 at 4-10; visibility mean of (21 - r) / 20 = 90 %.
    expect(stat(d, 'average-rank')).toBe('3');
    expect(stat(d, 'top-3')).toBe('15');
    expect(stat(d, 'top-4-10')).toBe('10');
    expect(stat(d, 'not-ranking')).toBe('0');
    expect(stat(d, 'visibility')).toBe('90%');
    // The first snapshot averaged (1 + ... + 20 + 5 x 21) / 25 = 12.6: 9.6 better.
    expect(stat(d, 'change')).toBe('\u25B2 9.6');
    expect(d.querySelector('[data-stat="change"] .note')!.textContent).toBe('Better since Nov 2');
  });

  it('lists the snapshots in the picker, newest first, and snapshot_at shows that snapshot\'s numbers', async () => {
    const { path } = await brandedScan();
    const latest = doc((await t.http().get(path)).text);
    const options = [...latest.querySelectorAll<HTMLOptionElement>('form.picker select[name="snapshot_at"] option')];
    expect(options.map((o) => o.value)).toEqual([SECOND.toISOString(), FIRST.toISOString()]);
    // Times as the page's language writes them (Intl, UTC); the values stay the ISO timestamps of the links.
    expect(options.map((o) => o.textContent)).toEqual(['Nov 9, 2026, 09:00 AM UTC', 'Nov 2, 2026, 09:00 AM UTC']);
    expect(options.find((o) => o.selected)!.value).toBe(SECOND.toISOString());
    expect(latest.querySelector<HTMLInputElement>('form.picker input[name="keyword"]')!.value).toBe('dentist');

    const res = await t.http().get(path).query({ keyword: 'dentist', snapshot_at: FIRST.toISOString() });
    expect(res.status).toBe(200);
    const d = doc(res.text);
    expect(pinLabels(d)).toEqual([...Array.from({ length: 20 }, (_, i) => String(i + 1)), '20+', '20+', '20+', '20+', '20+']);
    expect([...d.querySelectorAll('svg g.pin')].slice(10, 25).map((g) => g.getAttribute('data-bucket'))).toEqual([
      ...Array(10).fill('top20'),
      ...Array(5).fill('none'),
    ]);
    expect(stat(d, 'average-rank')).toBe('12.6');
    expect(stat(d, 'not-ranking')).toBe('5');
    expect(stat(d, 'change')).toBe('-');
    expect(d.querySelector('[data-stat="change"] .note')!.textContent).toBe('First snapshot');
    expect([...d.querySelectorAll<HTMLOptionElement>('form.picker option')].find((o) => o.selected)!.value).toBe(FIRST.toISOString());
    // The history table links every snapshot and marks the shown one.
    const history = [...d.querySelectorAll('table.history tbody tr')];
    expect(history.map((tr) => tr.querySelector('a')!.getAttribute('href'))).toEqual([
      `${path}?keyword=dentist&snapshot_at=${encodeURIComponent(SECOND.toISOString())}`,
      `${path}?keyword=dentist&snapshot_at=${encodeURIComponent(FIRST.toISOString())}`,
    ]);
    expect(history[1].className).toBe('current');
  });

  it('switches keyword with ?keyword= (links for each of the scan\'s keywords)', async () => {
    const { path } = await brandedScan();
    const latest = doc((await t.http().get(path)).text);
    expect([...latest.querySelectorAll('.keywords a')].map((a) => [a.textContent, a.getAttribute('href')])).toEqual([
      ['dentist', `${path}?keyword=dentist`],
      ['teeth whitening', `${path}?keyword=teeth+whitening`],
    ]);
    const res = await t.http().get(`${path}?keyword=teeth+whitening`);
    expect(res.status).toBe(200);
    const d = doc(res.text);
    expect(pinLabels(d)).toEqual(Array(25).fill('12'));
    expect(stat(d, 'average-rank')).toBe('12');
    expect(d.querySelector('.keywords a[aria-current="page"]')!.textContent).toBe('teeth whitening');
    expect(d.querySelector<HTMLInputElement>('form.picker input[name="keyword"]')!.value).toBe('teeth whitening');
    // Its own previous snapshot (7 everywhere): 5 worse.
    expect(stat(d, 'change')).toBe('\u25BC 5');
    // Keywords match regardless of case; the first keyword's snapshot time is also this keyword's.
    const other = await t.http().get(path).query({ keyword: 'Teeth Whitening', snapshot_at: FIRST.toISOString() });
    expect(pinLabels(doc(other.text))).toEqual(Array(25).fill('7'));
  });

  it('shows the top competitors: name, average rank, appearances with coverage, and threat score', async () => {
    const { path } = await brandedScan();
    const d = doc((await t.http().get(path)).text);
    const rows = [...d.querySelectorAll('table.competitors tbody tr')].map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent!.replace(/\s+/g, ' ').trim()));
    // Alpha is 1st wherever the target is not (20 pins, ahead of it there) and 2nd in column 0:
    // avg (20 x 1 + 5 x 2) / 25 = 1.2, threat 100 x 20 x w(1) / 25 = 80.
    expect(rows[0]).toEqual(['1', 'Alpha Dental', '1.2', '25 of 25 pins (100%)', '80']);
    const north = rows.find((r) => r[1] === 'Northside Dental')!;
    // Only in the top row, 5 of 25 pins; absent elsewhere counts 21.
    expect(north[3]).toBe('5 of 25 pins (20%)');
    expect(rows.map((r) => r[1])).toContain(HOSTILE);
    expect(rows).toHaveLength(3);
  });

  it("speaks the agency's language (tenants.language): headings, legend, stats, numbers, dates and error pages in Spanish", async () => {
    const { tenant, path } = await brandedScan();
    await tenant.update({ language: 'es' });
    const res = await t.http().get(path);
    expect(res.status).toBe(200);
    const d = doc(res.text);
    expect(d.documentElement.getAttribute('lang')).toBe('es');
    expect(d.title).toBe('Main Street Dental: cuadrícula de búsqueda local - Harbour Marketing');
    expect(d.querySelector('header .kind')!.textContent).toBe('Informe de cuadrícula de búsqueda local');
    expect(d.querySelector('.intro .meta')!.textContent).toContain('Cuadrícula de 5 x 5');
    expect([...d.querySelectorAll('h2')].map((h) => h.textContent)).toEqual(
      expect.arrayContaining(['Posiciones para «dentist»', 'Resumen', 'Principales competidores para «dentist»', 'Evolución', 'Historial de «dentist»']),
    );
    expect([...d.querySelectorAll('.legend li')].map((li) => li.textContent)).toEqual([
      'Posición 1-3',
      'Posición 4-10',
      'Posición 11-20',
      'Fuera del top 20',
      'El negocio (centro de la cuadrícula)',
    ]);
    expect(d.querySelector('.keywords .label')!.textContent).toBe('Palabra clave');
    expect(d.querySelector('svg.grid-map g.pin title')!.textContent).toMatch(/^Posición 1 en -?\d+\.\d{5}, -?\d+\.\d{5}\n1\. /);
    // Stats: labels, a decimal comma, the percent as Spanish writes it, and the previous snapshot's day.
    const label = (key: string) => d.querySelector(`[data-stat="${key}"] .label`)!.textContent;
    expect([label('average-rank'), label('change'), label('visibility'), label('top-3'), label('not-ranking')]).toEqual([
      'Posición media',
      'Cambio',
      'Visibilidad',
      'Puestos 1-3',
      'Sin posición',
    ]);
    expect(stat(d, 'change')).toBe('\u25B2 9,6');
    expect(d.querySelector('[data-stat="change"] .note')!.textContent).toBe('Ha mejorado desde el 2 nov');
    expect(stat(d, 'visibility')).toBe('90\u00A0%');
    expect(d.querySelector('[data-stat="top-3"] .note')!.textContent).toBe('de 25 puntos');
    // The picker: Spanish times, ISO values.
    expect(d.querySelector('form.picker label')!.textContent).toBe('Instantánea (2 disponibles)');
    expect(d.querySelector('form.picker button')!.textContent).toBe('Mostrar');
    const options = [...d.querySelectorAll<HTMLOptionElement>('form.picker option')];
    expect(options.map((o) => [o.textContent, o.value])).toEqual([
      ['9 nov 2026, 09:00 UTC', SECOND.toISOString()],
      ['2 nov 2026, 09:00 UTC', FIRST.toISOString()],
    ]);
    const alpha = [...d.querySelector('table.competitors tbody tr')!.querySelectorAll('td')].map((td) => td.textContent!.replace(/\s+/g, ' ').trim());
    expect(alpha).toEqual(['1', 'Alpha Dental', '1,2', '25 de 25 puntos (100 %)', '80']);
    expect([...d.querySelectorAll('table.history th')].map((th) => th.textContent)).toEqual(['Instantánea', 'Pos. media', 'Cambio', 'Visibilidad', 'Puestos 1-3', 'Sin posición']);
    expect(d.querySelector('footer')!.textContent).toBe('Preparado por Harbour Marketing.');
    // No English left on the page (the business names and the keyword are data, not text of the page).
    expect(d.body.textContent).not.toMatch(/Average rank|Not ranking|Not in the top|Snapshot|Keyword|Rankings|Top competitors|History|Prepared by|Change|pins\b/);

    // An error page of a known scan speaks its agency's language too; an unknown scan has no agency: English.
    const unknownKeyword = await t.http().get(path).query({ keyword: 'plumber' });
    expect(unknownKeyword.status).toBe(404);
    const e = doc(unknownKeyword.text);
    expect(e.documentElement.getAttribute('lang')).toBe('es');
    expect(e.querySelector('.empty h2')!.textContent).toBe('Palabra clave no encontrada');
    expect(e.querySelector('.empty p')!.textContent).toBe('Este informe no tiene resultados para esa palabra clave.');
    expect(e.querySelector('.empty a')!.textContent).toBe('Ver el informe más reciente');
    expect(e.querySelector('footer')!.textContent).toBe('Preparado por Harbour Marketing.');
    const unknownScan = doc((await t.http().get(`/reports/scans/${randomUUID()}`)).text);
    expect(unknownScan.documentElement.getAttribute('lang')).toBe('en');
    expect(unknownScan.querySelector('.empty h2')!.textContent).toBe('Report not found');
  });

  it('escapes provider and scan text: a hostile business or location name is shown, never run', async () => {
    const { tenant } = await makeTenant();
    await tenant.update({ brandName: 'Agency <b>Bold</b>' });
    const scan = await seedReportScan({
      tenantId: tenant.id,
      location: '<img src=x onerror=alert(2)>',
      gridSize: 3,
      rivals: [{ placeId: 'p-x', name: HOSTILE }],
      snapshots: [{ at: FIRST, rank: () => 2 }],
    });
    const res = await t.http().get(`/reports/scans/${scan.uuid}`);
    expect(res.status).toBe(200);
    expect(res.text).not.toContain('<script>alert(1)</script>');
    expect(res.text).not.toContain('<img src=x');
    expect(res.text).not.toContain('<b>Bold</b>');
    // The renderer escapes `<`, `&` and `"` in text (`>` cannot open markup).
    expect(res.text).toContain('&lt;script>alert(1)&lt;/script> &amp; &quot;Smile&quot; Co');
    const d = doc(res.text);
    expect(d.querySelector('header .brand-name')!.textContent).toBe('Agency <b>Bold</b>');
    expect(d.querySelector('footer')!.textContent).toContain('Agency <b>Bold</b>');
    expect(d.title).toContain('Agency <b>Bold</b>');
    expect(d.querySelectorAll('script')).toHaveLength(0);
    expect(d.querySelectorAll('img[onerror], b')).toHaveLength(0);
    expect(d.querySelector('h1')!.textContent).toBe('<img src=x onerror=alert(2)>');
    expect(d.querySelector('table.competitors td.name')!.textContent).toBe(HOSTILE);
    // The pin's tooltip lists the top results at that pin, escaped as well.
    expect(d.querySelector('svg g.pin title')!.textContent).toContain(`1. ${HOSTILE}`);
  });

  it('shows a friendly "no results yet" page, still 200, before the first snapshot', async () => {
    const { tenant } = await makeTenant();
    await tenant.update({ brandName: 'Harbour Marketing' });
    const scan = await seedPendingScan(tenant.id);
    const res = await t.http().get(`/reports/scans/${scan.uuid}`);
    expect(res.status).toBe(200);
    const d = doc(res.text);
    expect(d.querySelector('header')!.textContent).toContain('Harbour Marketing');
    expect(d.querySelector('.empty h2')!.textContent).toBe('No results yet');
    expect(d.querySelectorAll('svg g.pin')).toHaveLength(0);
    expect(d.querySelector('h1')!.textContent).toBe('Fresh Smiles');
  });

  it('still renders an archived scan', async () => {
    const { tenant } = await makeTenant();
    const scan = await seedReportScan({ tenantId: tenant.id, gridSize: 3, snapshots: [{ at: FIRST, rank: () => 4 }], archived: true });
    const res = await t.http().get(`/reports/scans/${scan.uuid}`);
    expect(res.status).toBe(200);
    expect(pinLabels(doc(res.text))).toEqual(Array(9).fill('4'));
  });

  it('answers an HTML 404 without any brand for an unknown or malformed uuid', async () => {
    await brandedScan();
    for (const path of [`/reports/scans/${randomUUID()}`, '/reports/scans/not-a-uuid', '/reports/other']) {
      const res = await t.http().get(path);
      expect(res.status).toBe(404);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(res.headers['x-robots-tag']).toMatch(/noindex/);
      const d = doc(res.text);
      expect(d.querySelector('.empty h2')!.textContent).toBe('Report not found');
      expect(res.text).not.toContain('Harbour Marketing');
      expect(res.text).not.toMatch(/reviewgrid/i);
    }
  });

  it('answers 404 (branded, with a link to the latest) for an unknown keyword or snapshot, 400 for a malformed snapshot_at', async () => {
    const { path } = await brandedScan();
    const unknownSnapshot = await t.http().get(path).query({ snapshot_at: '2026-11-03T09:00:00.000Z' });
    expect(unknownSnapshot.status).toBe(404);
    const d = doc(unknownSnapshot.text);
    expect(d.querySelector('.empty h2')!.textContent).toBe('Snapshot not found');
    expect(d.querySelector('header')!.textContent).toContain('Harbour Marketing');
    expect(d.querySelector('.empty a')!.getAttribute('href')).toBe(path);

    const unknownKeyword = await t.http().get(path).query({ keyword: 'plumber' });
    expect(unknownKeyword.status).toBe(404);
    expect(doc(unknownKeyword.text).querySelector('.empty h2')!.textContent).toBe('Keyword not found');

    const malformed = await t.http().get(path).query({ snapshot_at: 'last tuesday' });
    expect(malformed.status).toBe(400);
    expect(doc(malformed.text).querySelector('.empty h2')!.textContent).toBe('Invalid snapshot time');
    expect((await t.http().get(`${path}?snapshot_at=a&snapshot_at=b`)).status).toBe(400);
  });
});
