import { Customer } from '../../src/models';
import { fixedClock } from '../../src/domain/clock';
import { CATALOGUES } from '../../src/i18n';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BAND_HEIGHT, type PdfBox } from '../../src/reports/pdf';
import { reportContent, reportPdf } from '../../src/reports/monthly';
import { organizationReport } from '../../src/services/monthly-report.service';
import { ALL_PERMISSIONS } from '../../src/domain/permissions';
import { principalFor } from '../../src/services/auth.service';
import { useApp } from '../support/app';
import { inkIn, meanColour, pdfText, renderPdf } from '../support/pdf-raster';
import { makeReview, makeWorld, testimonialsOf } from '../support/factories';

/**
 * Issue 19, item 5 (first part): an organisation's monthly report as a white-label HTML page with server-rendered
 * SVG charts and as a PDF, through REST (`GET /api/v1/organizations/{id}/reports/{YYYY-MM}` and `.pdf`) and GraphQL
 * (`organizationReport`), in the account's language; an empty month renders "no data" sections; a foreign
 * organisation is 404; a malformed or future month 422.
 */
describe('monthly organisation reports', () => {
  const t = useApp({ clock: fixedClock(new Date('2026-11-25T12:00:00Z')) });
  let w: Awaited<ReturnType<typeof makeWorld>>;

  beforeAll(async () => {
    w = await makeWorld();
    await w.tenant.update({ brandName: 'Harbour Marketing' });
    const source = await testimonialsOf(w.home);
    const at = (iso: string) => new Date(iso);
    for (const [when, rating, message, reply] of [
      ['2026-10-02T10:00:00Z', 5, 'Friendly staff and spotless rooms. Highly recommend!', 'Thanks!'],
      ['2026-10-09T10:00:00Z', 4, 'Great results and a fair price.', null],
      ['2026-10-15T10:00:00Z', 1, 'Rude receptionist and we waited over an hour.', 'Sorry.'],
      ['2026-10-21T10:00:00Z', 5, 'Lovely team, very gentle.', null],
      ['2026-09-12T10:00:00Z', 3, 'Average visit.', null],
      ['2026-09-20T10:00:00Z', 2, 'Far too expensive.', null],
    ] as const) {
      await makeReview(source, { publishedAt: at(when), rating, originalRating: rating, message, reply, replyDate: reply ? at(when) : null });
    }
  });

  const url = (month: string, org = w.org.id) => `/api/v1/organizations/${org}/reports/${month}`;

  it('answers the month as a branded HTML page with its figures, what changed and three SVG charts', async () => {
    const res = await t.as(w.tokens.orgOwner).get(url('2026-10'));
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    const html = res.text;
    expect(html).toContain('<html lang="en">');
    expect(html).toContain('Harbour Marketing');
    expect(html).toContain(`${w.org.name}: review report, October 2026`);
    // KPIs: 4 reviews (2 in September), 3.75 stars (2.5), 50% replied, 75% positive.
    expect(html).toMatch(/<div class="label">Reviews<\/div><div class="value">4<\/div><div class="previous">September 2026: 2<\/div>/);
    expect(html).toContain('<div class="value">3.75</div>');
    expect(html).toContain('Reviews rose from 2 to 4.');
    expect(html).toContain('The average rating rose from 2.5 to 3.75 stars.');
    expect((html.match(/<svg role="img" aria-label="/g) ?? []).length).toBe(3);
    // Nothing is loaded from anywhere: no script, no external resource.
    expect(html).not.toMatch(/<script|<link |src="http/);
  });

  it('answers the same report as a PDF with the .pdf suffix', async () => {
    const res = await t.as(w.tokens.orgOwner).get(url('2026-10.pdf')).buffer(true).parse((r, done) => {
      const chunks: Buffer[] = [];
      r.on('data', (c: Buffer) => chunks.push(c));
      r.on('end', () => done(null, Buffer.concat(chunks)));
    });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toBe(`inline; filename="report-${w.org.id}-2026-10.pdf"`);
    const pdf = res.body as Buffer;
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    // An A4 document of one or more pages, with the charts drawn as vector paths (no image, no fetched resource).
    const text = pdf.toString('latin1');
    expect((text.match(/\/Type \/Page\b/g) ?? []).length).toBeGreaterThanOrEqual(1);
    expect(text).toContain('/MediaBox [0 0 595.28 841.89]');
    expect(text).not.toContain('/Subtype /Image');
    expect(pdf.length).toBeGreaterThan(5_000);
  });

  it('draws the PDF as laid out (pdftoppm): the band in the brand colour, KPIs and charts inked where the layout put them, text in the language', async () => {
    await w.tenant.update({ brandColor: '#f4c20d' });
    await Customer.update({ language: 'it' }, { where: { id: w.org.customerId } });
    try {
      const reader = await principalFor(w.orgOwner, { id: 0, kind: 'customer', permissions: [...ALL_PERMISSIONS] });
      const report = await organizationReport(reader, w.org.id, '2026-10', { clock: fixedClock(new Date('2026-11-25T12:00:00Z')) });
      const layout: PdfBox[] = [];
      const pdf = await reportPdf(report, reportContent(report), { layout });
      mkdirSync('artifacts', { recursive: true });
      writeFileSync(join('artifacts', 'report-monthly-it.pdf'), pdf);
      const pages = await renderPdf(pdf);
      expect(layout.map((b) => b.name)).toEqual(['band', 'summary', 'trend', 'sentiment', 'aspects']);
      for (const box of layout) expect({ box: box.name, inked: inkIn(pages[box.page], box) > 0.02 }).toEqual({ box: box.name, inked: true });
      // A light brand colour gets dark text on the band: the band reads as the colour, and its text is there.
      const band = meanColour(pages[0], { x: 300, y: 4, width: 200, height: 10 });
      const brand = [0xf4, 0xc2, 0x0d];
      expect(band.map((c, i) => Math.abs(c - brand[i]) <= 6)).toEqual([true, true, true]);
      const text = await pdfText(pdf);
      expect(text).toContain('Harbour Marketing');
      // The page through REST has the same band (the route asks GraphQL for the colour too).
      const page = await t.as(w.tokens.orgOwner).get(url('2026-10'));
      expect(page.text).toContain('header{background:#f4c20d;color:#1f2328;');
      expect(text).toContain('ottobre 2026');
      // What changed, with the noun agreeing with its count: one negative mention, two positive ones.
      const flat = text.replace(/\s+/g, ' ');
      expect(flat).toContain('(2 menzioni positive su 2)');
      expect(flat).toContain('(1 menzione negativa su 3)');
      // Between the blocks the page is white where nothing was laid out: the right margin of every page is empty.
      for (const page of pages) expect(inkIn(page, { x: page.widthPt - 40, y: BAND_HEIGHT + 4, width: 40, height: page.heightPt - BAND_HEIGHT - 4 })).toBe(0);
    } finally {
      await w.tenant.update({ brandColor: null });
      await Customer.update({ language: 'en' }, { where: { id: w.org.customerId } });
    }
  });

  it("speaks the account's language", async () => {
    const other = await makeWorld();
    await Customer.update({ language: 'de' }, { where: { id: other.org.customerId } });
    const res = await t.as(other.tokens.orgOwner).get(url('2026-10', other.org.id));
    expect(res.status).toBe(200);
    expect(res.text).toContain('<html lang="de">');
    expect(res.text).toContain(CATALOGUES.de.report.summary);
    expect(res.text).toContain('Oktober 2026');
  });

  it('renders a month without reviews with "no data" sections, never an error', async () => {
    const res = await t.as(w.tokens.orgOwner).get(url('2025-01'));
    expect(res.status).toBe(200);
    // Every section says so: summary, what changed, the two twelve-month charts (no review in any of them), aspects.
    const noData = '<p class="empty">No reviews in this period.</p>';
    expect(res.text.split(noData).length - 1).toBe(5);
    expect(res.text).not.toContain('<svg');
    // An empty month after one with reviews: the fall is a change, the twelve months have something to draw.
    const after = await t.as(w.tokens.orgOwner).get(url('2026-11'));
    expect(after.status).toBe(200);
    expect(after.text).toContain('<li>Reviews fell from 4 to 0.</li>');
    expect(after.text.split(noData).length - 1).toBe(2);
    expect((after.text.match(/<svg role="img"/g) ?? []).length).toBe(2);
    const pdf = await t.as(w.tokens.orgOwner).get(url('2025-01.pdf'));
    expect(pdf.status).toBe(200);
    // The PDF too, in the account's language, with no chart drawn.
    await Customer.update({ language: 'fr' }, { where: { id: w.org.customerId } });
    try {
      const reader = await principalFor(w.orgOwner, { id: 0, kind: 'customer', permissions: [...ALL_PERMISSIONS] });
      const report = await organizationReport(reader, w.org.id, '2025-01', { clock: fixedClock(new Date('2026-11-25T12:00:00Z')) });
      const layout: PdfBox[] = [];
      const drawn = await reportPdf(report, reportContent(report), { layout });
      expect(layout.map((b) => b.name)).toEqual(['band', 'summary']);
      const text = (await pdfText(drawn)).replace(/\s+/g, ' ');
      expect(text.split(CATALOGUES.fr.report.noData).length - 1).toBe(5);
      expect(text).toContain('janvier 2025');
    } finally {
      await Customer.update({ language: 'en' }, { where: { id: w.org.customerId } });
    }
  });

  it('is 404 for an organisation outside the token, and 422 for a malformed or future month', async () => {
    const stranger = await makeWorld();
    for (const month of ['2026-10', '2026-10.pdf']) {
      const res = await t.as(stranger.tokens.orgOwner).get(url(month));
      expect(res.status).toBe(404);
      expect(res.body.message).toEqual(expect.any(String));
    }
    for (const month of ['2026-13', '26-10', '2026-12.pdf']) {
      const res = await t.as(w.tokens.orgOwner).get(url(month));
      expect(res.status).toBe(422);
      expect(res.body.errors.month).toEqual([expect.any(String)]);
    }
  });

  it('answers the figures and the page through GraphQL', async () => {
    const res = await t
      .http()
      .post('/graphql')
      .set('Authorization', `Bearer ${w.tokens.orgOwner}`)
      .send({ query: `{ organizationReport(organizationId: ${w.org.id}, month: "2026-10") { month previousMonth totals { totalReviews avgRating responseRate } previousTotals { totalReviews } months { month totalReviews } html } }` });
    expect(res.body.errors).toBeUndefined();
    const r = res.body.data.organizationReport;
    expect(r).toMatchObject({ month: '2026-10', previousMonth: '2026-09', totals: { totalReviews: 4, avgRating: 3.75, responseRate: 50 }, previousTotals: { totalReviews: 2 } });
    expect(r.months).toHaveLength(12);
    expect(r.months.at(-1)).toEqual({ month: '2026-10', totalReviews: 4 });
    expect(r.months.at(-2)).toEqual({ month: '2026-09', totalReviews: 2 });
    expect(r.html).toContain('<svg role="img"');
  });
});
