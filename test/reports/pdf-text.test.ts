import { ASPECTS } from '../../src/analytics/lexicon';
import { reportPdf } from '../../src/reports/monthly';
import { pdfDocument, winAnsi } from '../../src/reports/pdf';
import type { MonthlyReport, ReportTotals } from '../../src/reports/types';
import { pdfText } from '../support/pdf-raster';

/**
 * The report PDFs are drawn with pdfkit's standard fonts, which encode WinAnsi: a character outside it was written
 * as the bytes of its code, so French thousands (Intl's U+202F) read "1 /234" and the thin spaces of an English month
 * range became a control byte. Every text now goes through winAnsi first.
 */

const totals = (totalReviews: number): ReportTotals => ({
  totalReviews,
  avgRating: 4.5,
  responded: totalReviews,
  responseRate: 100,
  sentimentDistribution: { positive: totalReviews, neutral: 0, negative: 0 },
  aspects: ASPECTS.map((aspect) => ({ aspect, positive: 0, neutral: 0, negative: 0 })),
});

/** A report of October 2026 with `reviews` reviews in the month (and in September), nothing else. */
function report(language: string, reviews: number): MonthlyReport {
  const months = Array.from({ length: 12 }, (_, i) => `${i < 2 ? 2025 : 2026}-${String(((i + 10) % 12) + 1).padStart(2, '0')}`);
  return {
    organizationId: 1,
    organizationName: 'Boulangerie Martin',
    brandName: 'Agence Harbour',
    brandLogoUrl: null,
    brandColor: null,
    language,
    month: '2026-10',
    period: { from: '2026-10-01', to: '2026-10-31' },
    previousMonth: '2026-09',
    totals: totals(reviews),
    previousTotals: totals(reviews),
    months: months.map((month) => ({
      month,
      totalReviews: reviews,
      avgRating: 4.5,
      responseRate: 100,
      positive: reviews,
      neutral: 0,
      negative: 0,
      aspects: ASPECTS.map((aspect) => ({ aspect, positive: 0, neutral: 0, negative: 0, mentions: 0, netSentiment: null })),
    })),
    generatedAt: new Date('2026-11-02T06:00:00Z'),
  };
}

describe('text in the report PDFs', () => {
  it('writes French thousands as "1 234", not "1 /234", in the figures and on the charts\' axes', async () => {
    const text = (await pdfText(await reportPdf(report('fr', 1234)))).replace(/\s+/g, ' ');
    expect(text).toContain('Avis positifs 1 234');
    expect(text).toContain('septembre 2026 : 1 234');
    expect(text).toContain('Les avis sont restés à 1 234.');
    expect(text).not.toMatch(/\/\d/);
    // The count axes as French writes them, not ECharts' "1,200" (1.2 to a French reader).
    expect(text).toContain('1 200');
    expect(text).not.toMatch(/\d,\d{3}/);
  });

  it('measures and draws the spaces of a month range as spaces (pdfkit would have no glyph for U+2009)', () => {
    const { doc } = pdfDocument({ title: 'Report', brand: 'Harbour', color: null });
    doc.font('Helvetica').fontSize(10);
    expect(doc.widthOfString('May\u2009\u2013\u2009Jul 2026')).toBe(doc.widthOfString('May \u2013 Jul 2026'));
    expect(doc.heightOfString('1\u202F234', { width: 20 })).toBe(doc.heightOfString('1\u00A0234', { width: 20 }));
  });

  it('maps what WinAnsi lacks to what it has, in one place', () => {
    expect(winAnsi('1\u202F234')).toBe('1\u00A0234');
    expect(winAnsi('May\u2009\u2013\u2009Jul 2026')).toBe('May \u2013 Jul 2026');
    expect(winAnsi('\u22125\u00A0%')).toBe('-5\u00A0%');
    expect(winAnsi('Caf\u00E9 \u201CZo\u00EB\u201D \u2013 \u20AC12\u2026')).toBe('Caf\u00E9 \u201CZo\u00EB\u201D \u2013 \u20AC12\u2026');
    expect(winAnsi('Gy\u0151r \u0141\u00F3d\u017A \u{1F600}\u200B!')).toBe('Gyor ?\u00F3dz ?!');
    expect(winAnsi('a\tb\u2011c')).toBe('a b-c');
  });
});
