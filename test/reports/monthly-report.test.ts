import { ASPECTS, type Aspect } from '../../src/analytics/lexicon';
import { logoKey } from '../../src/reports/logo';
import { Customer, Review } from '../../src/models';
import { ASPECT_ATTRIBUTES } from '../../src/models/review.model';
import { fixedClock } from '../../src/domain/clock';
import { CATALOGUES, intlLocale, translator, UI_LANGUAGES } from '../../src/i18n';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BAND_HEIGHT, type PdfBox } from '../../src/reports/pdf';
import { reportContent, reportPdf } from '../../src/reports/monthly';
import { organizationReport } from '../../src/services/monthly-report.service';
import { ALL_PERMISSIONS } from '../../src/domain/permissions';
import type { Principal } from '../../src/domain/principal';
import { principalFor } from '../../src/services/auth.service';
import type { Sequelize } from 'sequelize-typescript';
import { useAgencyLogo } from '../support/agency-logo';
import { useApp } from '../support/app';
import { countStatements } from '../support/db';
import { inkIn, meanColour, pdfText, renderPdf } from '../support/pdf-raster';
import { makeReview, makeWorld, testimonialsOf } from '../support/factories';

/** Each chart's heading is drawn on the chart's page, just above it (pdf.chart keeps them together). */
function expectHeadingsKept(layout: PdfBox[], charts: string[]): void {
  for (const name of charts) {
    const chart = layout.find((b) => b.name === name)!;
    const heading = layout.find((b) => b.name === `${name}-heading`)!;
    const gap = chart.y - (heading.y + heading.height);
    expect({ name, page: heading.page, above: gap >= 0 && gap < 12 }).toEqual({ name, page: chart.page, above: true });
  }
}

/**
 * Issue 19, item 5 (first part): an organisation's monthly report as a white-label HTML page with server-rendered
 * SVG charts and as a PDF, through REST (`GET /api/v1/organizations/{id}/reports/{YYYY-MM}` and `.pdf`) and GraphQL
 * (`organizationReport`), in the account's language; an empty month renders "no data" sections; a foreign
 * organisation is 404; a malformed or future month 422.
 */
describe('monthly organisation reports', () => {
  const t = useApp({ clock: fixedClock(new Date('2026-11-25T12:00:00Z')) });
  // The agency's logo, which the platform can fetch (the HTML shows no logo it cannot serve: test/http/page-logos.test.ts).
  const logo = useAgencyLogo();
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

  it('answers the month as a branded HTML page with its figures, what changed and five SVG charts', async () => {
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
    // Reviews and rating, response rate, sentiment, this month's aspects, the aspects over twelve months.
    expect((html.match(/<svg role="img" aria-label="/g) ?? []).length).toBe(5);
    expect(html).toContain('<svg role="img" aria-label="Response rate, last 12 months"');
    expect(html).toContain('<svg role="img" aria-label="Topics over the last 12 months"');
    // Nothing is loaded from anywhere: no script, no external resource.
    expect(html).not.toMatch(/<script|<link |src="http/);
  });

  it("shows the agency's logo from the platform's origin, absolute, in the HTML handed to API clients (REST and GraphQL)", async () => {
    const logoUrl = logo.reachable();
    await w.tenant.update({ logoUrl });
    try {
      const rest = await t.as(w.tokens.orgOwner).get(url('2026-10'));
      const src = /<header><img src="([^"]+)"/.exec(rest.text)?.[1];
      expect(src).toBe(`http://${new URL(rest.request.url).host}/brand/logo/${logoKey(logoUrl)}`);
      expect(rest.text).not.toContain(new URL(logoUrl).origin); // the agency's own host
      const gql = await t.http().post('/graphql').set('Authorization', `Bearer ${w.tokens.orgOwner}`).send({ query: `{ organizationReport(organizationId: ${w.org.id}, month: "2026-10") { html } }` });
      expect(gql.body.data.organizationReport.html).toContain(`<img src="http://${new URL(gql.request.url).host}/brand/logo/${logoKey(logoUrl)}"`);
    } finally {
      await w.tenant.update({ logoUrl: null });
    }
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
      const charts = ['trend', 'response', 'sentiment', 'aspects', 'aspect-trend'];
      expect(layout.map((b) => b.name)).toEqual(['band', 'summary', ...charts.flatMap((c) => [`${c}-heading`, c])]);
      for (const box of layout) expect({ box: box.name, inked: inkIn(pages[box.page], box) > 0.02 }).toEqual({ box: box.name, inked: true });
      expectHeadingsKept(layout, charts);
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
    // Every section says so: summary, what changed, the three twelve-month review charts (no review in any of them),
    // the month's aspects, and the aspects over the twelve months.
    const noData = '<p class="empty">No reviews in this period.</p>';
    expect(res.text.split(noData).length - 1).toBe(7);
    expect(res.text).not.toContain('<svg');
    // An empty month after one with reviews: the fall is a change, the twelve months have something to draw.
    const after = await t.as(w.tokens.orgOwner).get(url('2026-11'));
    expect(after.status).toBe(200);
    expect(after.text).toContain('<li>Reviews fell from 4 to 0.</li>');
    expect(after.text.split(noData).length - 1).toBe(2);
    // Reviews and rating, response rate, sentiment, and the aspects October's reviews named (the month's own aspects: none).
    expect((after.text.match(/<svg role="img"/g) ?? []).length).toBe(4);
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
      expect(text.split(CATALOGUES.fr.report.noData).length - 1).toBe(7);
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

  describe('trends over the twelve months: response rate, and each aspect by month', () => {
    type Tone = 'positive' | 'neutral' | 'negative';
    let tw: Awaited<ReturnType<typeof makeWorld>>;
    // Report month 2026-10: its twelve months are 2025-11..2026-10. "What changed" compares Aug-Oct with May-Jul:
    // staff 3 of 4 positive, 1 negative (net +50) -> 1 positive, 3 negative of 4 (net -50): down 100 points;
    // price 0 positive, 2 negative of 3 (net -66.7) -> 3 positive of 3 (net +100): up 166.7 points, the larger move;
    // cleanliness 3 of 3 positive in both windows: no sentence; wait time once, in January: a line, no sentence.
    const REVIEWS: Array<[string, Partial<Record<Aspect, Tone>>]> = [
      ['2025-06-10', {}], // outside the twelve months: a review, but no aspect, in the year up to 2025-12
      ['2026-01-10', { wait_time: 'negative' }],
      ['2026-05-05', { staff: 'positive', price: 'negative', cleanliness: 'positive' }],
      ['2026-05-20', { staff: 'positive' }],
      ['2026-06-10', { staff: 'positive', price: 'negative', cleanliness: 'positive' }],
      ['2026-07-10', { staff: 'negative', price: 'neutral', cleanliness: 'positive' }],
      ['2026-08-10', { staff: 'negative', price: 'positive', cleanliness: 'positive' }],
      ['2026-09-10', {}], // reviews but no aspect: gaps, like a month without reviews
      ['2026-10-05', { staff: 'positive', price: 'positive', cleanliness: 'positive' }],
      ['2026-10-15', { staff: 'negative', price: 'positive', cleanliness: 'positive' }],
      ['2026-10-25', { staff: 'negative' }],
    ];
    let reader: Principal;
    const reportOf = (month: string) => organizationReport(reader, tw.org.id, month, { clock: fixedClock(new Date('2026-11-25T12:00:00Z')) });

    beforeAll(async () => {
      tw = await makeWorld();
      reader = await principalFor(tw.orgOwner, { id: 0, kind: 'customer', permissions: [...ALL_PERMISSIONS] });
      const source = await testimonialsOf(tw.home);
      for (const [i, [day, aspects]] of REVIEWS.entries()) {
        const review = await makeReview(source, { publishedAt: new Date(`${day}T10:00:00Z`), rating: 4, originalRating: 4, message: 'Visit.', reply: i % 2 ? 'Thanks!' : null });
        // The aspects as the analyser would have stored them (a static update runs no hook, so they stay as given).
        await Review.update(Object.fromEntries(ASPECTS.map((a) => [ASPECT_ATTRIBUTES[a], aspects[a] ?? null])), { where: { id: review.id } });
      }
    });

    it('counts each aspect per month in one grouped statement, with its net sentiment; months without a mention are null', async () => {
      const { n, result: report } = await countStatements(Review.sequelize as Sequelize, () => reportOf('2026-10'));
      // The organisation, its agency, the account's language, the totals of the month and of the one before, and one
      // statement for all twelve months (volume, rating, replies, sentiment and the aspects), not one per month.
      expect(n).toBe(6);
      expect(report.months.map((m) => m.month)).toEqual(['2025-11', '2025-12', ...['01', '02', '03', '04', '05', '06', '07', '08', '09', '10'].map((m) => `2026-${m}`)]);
      const net = (aspect: Aspect) => report.months.map((m) => m.aspects.find((a) => a.aspect === aspect)!.netSentiment);
      expect(net('staff')).toEqual([null, null, null, null, null, null, 100, 100, -100, -100, null, -33.3]);
      expect(net('price')).toEqual([null, null, null, null, null, null, -100, -100, 0, 100, null, 100]);
      expect(net('wait_time')).toEqual([null, null, -100, null, null, null, null, null, null, null, null, null]);
      expect(net('quality')).toEqual(Array(12).fill(null));
      const october = report.months[11];
      expect(october.aspects.map((a) => a.aspect)).toEqual([...ASPECTS]);
      expect(october.aspects[0]).toEqual({ aspect: 'staff', mentions: 3, positive: 1, neutral: 0, negative: 2, netSentiment: -33.3 });
      expect(report.months[8].aspects.find((a) => a.aspect === 'price')).toEqual({ aspect: 'price', mentions: 1, positive: 0, neutral: 1, negative: 0, netSentiment: 0 });
      // A month without reviews and one whose reviews name no aspect: zero mentions, null net sentiment.
      for (const m of [report.months[1], report.months[10]]) {
        for (const a of m.aspects) expect(a).toMatchObject({ mentions: 0, positive: 0, neutral: 0, negative: 0, netSentiment: null });
      }
      expect(report.months[10].totalReviews).toBe(1);
      // The response rate per month, the series the new line draws (every other review has a reply).
      expect(report.months.map((m) => m.responseRate)).toEqual([null, null, 100, null, null, null, 50, 0, 100, 0, 100, 33.3]);
    });

    it('says which aspects moved clearly over three months, quoting the counts of both windows', async () => {
      const { changes } = reportContent(await reportOf('2026-10'));
      const flat = changes.map((c) => c.replace(/\s+/g, ' '));
      const aspectSentences = flat.filter((c) => c.includes('net sentiment'));
      expect(aspectSentences).toEqual([
        'Prices: net sentiment up from -67% to +100% over three months (May – Jul 2026: 3 mentions, positive 0, negative 2; Aug – Oct 2026: 3 mentions, positive 3, negative 0).',
        'Staff: net sentiment down from +50% to -50% over three months (May – Jul 2026: 4 mentions, positive 3, negative 1; Aug – Oct 2026: 4 mentions, positive 1, negative 3).',
      ]);
      // A month later the windows are Jun-Aug and Sep-Nov: staff 1 positive, 2 negative of 3 in both (net -33.3, no
      // move); price 1 positive, 1 negative of 3 (net 0), then 2 mentions (too few to compare): no sentence.
      const november = reportContent(await reportOf('2026-11')).changes;
      expect(november.filter((c) => c.includes('net sentiment'))).toEqual([]);
    });

    it.each(UI_LANGUAGES)('writes the aspect sentences in %s, each quoting both windows\' figures', async (language) => {
      const report = { ...(await reportOf('2026-10')), language };
      const tr = translator(language);
      const sentences = reportContent(report).changes.slice(-2);
      const range = (from: number, to: number) =>
        new Intl.DateTimeFormat(intlLocale(language), { month: 'short', year: 'numeric', timeZone: 'UTC' }).formatRange(new Date(Date.UTC(2026, from, 1)), new Date(Date.UTC(2026, to, 1)));
      const net = (v: number) => tr.number(v, { style: 'percent', maximumFractionDigits: 0, signDisplay: 'exceptZero' });
      expect(sentences).toEqual([
        tr.t('report.aspectUp', { aspect: tr.t('report.aspects.price'), before: net(-0.667), now: net(1), beforePeriod: range(4, 6), nowPeriod: range(7, 9), beforeMentions: 3, beforePositive: 0, beforeNegative: 2, nowMentions: 3, nowPositive: 3, nowNegative: 0 }),
        tr.t('report.aspectDown', { aspect: tr.t('report.aspects.staff'), before: net(0.5), now: net(-0.5), beforePeriod: range(4, 6), nowPeriod: range(7, 9), beforeMentions: 4, beforePositive: 3, beforeNegative: 1, nowMentions: 4, nowPositive: 1, nowNegative: 3 }),
      ]);
      expect(sentences.join(' ')).not.toMatch(/\{\{|\}\}/);
    });

    it('draws the response rate and the aspect trend in the page and the PDF, in the report\'s language', async () => {
      await Customer.update({ language: 'de' }, { where: { id: tw.org.customerId } });
      try {
        const res = await t.as(tw.tokens.orgOwner).get(url('2026-10', tw.org.id));
        expect(res.status).toBe(200);
        const de = CATALOGUES.de.report;
        // Whitespace as plain spaces: Intl writes "100 %" with a no-break space.
        const page = res.text.replace(/\s+/g, ' ');
        const svgOf = (label: string) => page.match(new RegExp(`<svg role="img" aria-label="${label}".*?</svg>`))?.[0] ?? '';
        const response = svgOf(de.responseTrendTitle);
        const trend = svgOf(de.aspectTrendTitle);
        // The response rate on a percent axis, its legend in German.
        expect(response).toContain('>100 %</text>');
        expect(response).toContain(`>${de.responseRate}</text>`);
        // One line per aspect named in the twelve months (quality and communication are not), a signed percent axis
        // with its name, and the month labels in German.
        for (const a of ['staff', 'price', 'wait_time', 'cleanliness'] as const) expect(trend).toContain(`>${de.aspects[a]}</text>`);
        for (const a of ['quality', 'communication'] as const) expect(trend).not.toContain(`>${de.aspects[a]}</text>`);
        expect(trend).toContain(`>${de.netSentiment}</text>`);
        expect(trend).toContain('>+100 %</text>');
        expect(trend).toContain('>-100 %</text>');
        // Month labels with the whole year ("März 26" read as the 26th of March).
        expect(trend).toMatch(/>(Jan\.|Feb\.|März|Apr\.|Mai|Juni|Juli|Aug\.|Sept\.|Okt\.|Nov\.|Dez\.) 2026<\/text>/);
        expect(trend).not.toMatch(/>\S+ 26<\/text>/);
        expect(page).toContain(`<figcaption>${de.aspectTrendIntro}</figcaption>`);
        expect(page).toContain('<li>Preise: Die Nettostimmung stieg in drei Monaten von -67 % auf +100 %');

        const report = await reportOf('2026-10');
        const layout: PdfBox[] = [];
        const pdf = await reportPdf(report, reportContent(report), { layout });
        mkdirSync('artifacts', { recursive: true });
        writeFileSync(join('artifacts', 'report-monthly-trends-de.pdf'), pdf);
        const pages = await renderPdf(pdf);
        for (const name of ['response', 'aspect-trend', 'aspect-trend-heading']) {
          const box = layout.find((b) => b.name === name)!;
          expect({ name, inked: inkIn(pages[box.page], box) > 0.02 }).toEqual({ name, inked: true });
        }
        expectHeadingsKept(layout, ['response', 'aspect-trend']);
        const text = (await pdfText(pdf)).replace(/\s+/g, ' ');
        expect(text).toContain(de.aspectTrendTitle);
        expect(text).toContain(de.responseTrendTitle);
        expect(text).toContain(`${de.aspects.staff}: Die Nettostimmung fiel in drei Monaten von +50 % auf -50 %`);
      } finally {
        await Customer.update({ language: 'en' }, { where: { id: tw.org.customerId } });
      }
    });

    it('shows "no data" for the aspect trend when no review of the twelve months names an aspect, in the page and the PDF', async () => {
      // 2025-01..2025-12: one review (June 2025), naming nothing.
      const res = await t.as(tw.tokens.orgOwner).get(url('2025-12', tw.org.id));
      expect(res.status).toBe(200);
      expect(res.text).toContain('<svg role="img" aria-label="Response rate, last 12 months"');
      expect(res.text).not.toContain('aria-label="Topics over the last 12 months"');
      expect(res.text).toMatch(/<h2 id="aspect-trend">Topics over the last 12 months<\/h2>\s*<p class="empty">No reviews in this period.<\/p>/);
      const report = await reportOf('2025-12');
      const layout: PdfBox[] = [];
      const text = (await pdfText(await reportPdf(report, reportContent(report), { layout }))).replace(/\s+/g, ' ');
      expect(layout.map((b) => b.name)).not.toContain('aspect-trend');
      expect(text).toContain('Topics over the last 12 months No reviews in this period.');
    });
  });

  it('answers the figures and the page through GraphQL', async () => {
    const res = await t
      .http()
      .post('/graphql')
      .set('Authorization', `Bearer ${w.tokens.orgOwner}`)
      .send({ query: `{ organizationReport(organizationId: ${w.org.id}, month: "2026-10") { month previousMonth totals { totalReviews avgRating responseRate aspects { aspect positive neutral negative } } previousTotals { totalReviews } months { month totalReviews aspects { aspect mentions positive neutral negative netSentiment } } html } }` });
    expect(res.body.errors).toBeUndefined();
    const r = res.body.data.organizationReport;
    expect(r).toMatchObject({ month: '2026-10', previousMonth: '2026-09', totals: { totalReviews: 4, avgRating: 3.75, responseRate: 50 }, previousTotals: { totalReviews: 2 } });
    expect(r.months).toHaveLength(12);
    expect(r.months.at(-1)).toMatchObject({ month: '2026-10', totalReviews: 4 });
    expect(r.months.at(-2)).toMatchObject({ month: '2026-09', totalReviews: 2 });
    // Each month's six aspects, in order: October's are the month's totals, with mentions and net sentiment.
    type Tones = { aspect: string; positive: number; neutral: number; negative: number };
    const withNet = (a: Tones) => {
      const mentions = a.positive + a.neutral + a.negative;
      return { ...a, mentions, netSentiment: mentions ? Math.round(((a.positive - a.negative) / mentions) * 1000) / 10 : null };
    };
    expect(r.months.at(-1).aspects).toEqual(r.totals.aspects.map(withNet));
    expect(r.months.at(-1).aspects.map((a: Tones) => a.aspect)).toEqual([...ASPECTS]);
    expect(r.months[0].aspects.every((a: { netSentiment: number | null }) => a.netSentiment === null)).toBe(true);
    expect(r.html).toContain('<svg role="img"');
  });
});
