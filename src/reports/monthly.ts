import { intlLocale, translator, type MessageKey, type Translator } from '../i18n';
import type { ReportFigures } from './types';
import { ASPECTS } from '../analytics/lexicon';
import { aspectMoves, type AspectWindow } from './aspect-trend';
import { monthEnd, monthStart } from '../analytics/periods';
import { aspectsChart, aspectTrendChart, responseChart, sentimentChart, trendChart } from './charts';
import { pdfDocument, type Kpi, type PdfOptions } from './pdf';

/**
 * The monthly report of an organisation as an HTML page (monthly.views.tsx) and as a PDF, from the same figures,
 * sentences and SVG charts, in the account's language and the agency's brand. Nothing is fetched: the charts are
 * inline SVG, the PDF draws them with its own fonts (the agency's logo is shown on the page, its name in the PDF).
 */

export interface ReportContent {
  tr: Translator;
  title: string;
  monthName: string;
  previousMonthName: string;
  prepared: string;
  kpis: Kpi[];
  changes: string[];
  hasData: boolean;
  /**
   * For a month that was not over when the report was generated (`generatedAt` before the month's end, its last day
   * included): the sentence saying its figures run to today while the month before's are a whole month (the title
   * says "to date" too); null for a month that had ended.
   */
  partial: string | null;
  /**
   * Null when there is nothing to draw: "no data" (trend, response, sentiment: no review in the twelve months;
   * aspects: none naming an aspect this month; aspectTrend: none naming one in the twelve months).
   */
  charts: { trend: string | null; response: string | null; sentiment: string | null; aspects: string | null; aspectTrend: string | null };
  aspects: { name: string; positive: number; neutral: number; negative: number }[];
}

/** `YYYY-MM` as the language names it ("February 2025", "febrero de 2025"). */
export function monthName(tr: Translator, month: string): string {
  return new Intl.DateTimeFormat(intlLocale(tr.language), { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(monthStart(month));
}

/** "Aug – Oct 2026" in the report's language. */
function monthRange(tr: Translator, from: string, to: string): string {
  return new Intl.DateTimeFormat(intlLocale(tr.language), { month: 'short', year: 'numeric', timeZone: 'UTC' }).formatRange(monthStart(from), monthStart(to));
}

/** A `Y-m-d` day as the report's language writes it ("October 15, 2026"). */
const dayName = (tr: Translator, day: string) => tr.date(new Date(`${day}T00:00:00Z`));

/**
 * Whether the report's month was not over when the report was generated (`generatedAt` before the month's end), the
 * rule the service ends the period by: then its figures run to that day only, however late in the month.
 */
export function isPartialMonth(report: Pick<ReportFigures, 'month' | 'generatedAt'>): boolean {
  return new Date(report.generatedAt).getTime() < monthEnd(report.month).getTime();
}

/** What the page and the PDF both say. */
export function reportContent(report: ReportFigures): ReportContent {
  const tr = translator(report.language);
  const cur = report.totals;
  const prev = report.previousTotals;
  const na = tr.t('report.na');
  const rating = (v: number | null) => (v === null ? na : tr.number(v, { minimumFractionDigits: 1, maximumFractionDigits: 2 }));
  const percent = (v: number | null) => (v === null ? na : tr.number(v / 100, { style: 'percent', maximumFractionDigits: 1 }));
  const share = (t: typeof cur) => (t.totalReviews ? (t.sentimentDistribution.positive / t.totalReviews) * 100 : null);
  const previousMonthName = monthName(tr, report.previousMonth);
  const kpis: Kpi[] = [
    { label: tr.t('report.reviews'), value: tr.number(cur.totalReviews), previous: tr.number(prev.totalReviews) },
    { label: tr.t('report.avgRating'), value: rating(cur.avgRating), previous: rating(prev.avgRating) },
    { label: tr.t('report.responseRate'), value: percent(cur.responseRate), previous: percent(prev.responseRate) },
    { label: tr.t('report.positiveShare'), value: percent(share(cur)), previous: percent(share(prev)) },
  ].map((k) => ({ ...k, previous: tr.t('report.previous', { month: previousMonthName, value: k.previous }) }));

  const changes: string[] = [];
  const compare = (before: number | null, now: number | null, [up, down, same]: readonly [MessageKey, MessageKey, MessageKey], show: (v: number | null) => string) => {
    // Nothing to compare with (no reviews in one of the months): no sentence.
    if (now === null || before === null) return;
    const key = now === before ? same : now > before ? up : down;
    changes.push(tr.t(key, { before: show(before), now: show(now) }));
  };
  // Reviews are compared whenever either month has some (0 to 3 is a change); two empty months leave "no data".
  if (prev.totalReviews || cur.totalReviews) compare(prev.totalReviews, cur.totalReviews, ['report.reviewsUp', 'report.reviewsDown', 'report.reviewsSame'], (v) => tr.number(v ?? 0));
  compare(prev.avgRating, cur.avgRating, ['report.ratingUp', 'report.ratingDown', 'report.ratingSame'], rating);
  compare(prev.responseRate, cur.responseRate, ['report.responseUp', 'report.responseDown', 'report.responseSame'], percent);
  const aspects = ASPECTS.map((aspect) => {
    const a = cur.aspects.find((x) => x.aspect === aspect) ?? { positive: 0, neutral: 0, negative: 0 };
    return { aspect, name: tr.t(`report.aspects.${aspect}`), positive: a.positive, neutral: a.neutral, negative: a.negative, mentions: a.positive + a.neutral + a.negative };
  });
  const mentioned = aspects.filter((a) => a.mentions >= 2);
  const praised = [...mentioned].filter((a) => a.positive > a.negative).sort((a, b) => b.positive / b.mentions - a.positive / a.mentions || b.mentions - a.mentions)[0];
  const criticised = [...mentioned].filter((a) => a.negative > 0).sort((a, b) => b.negative / b.mentions - a.negative / a.mentions || b.mentions - a.mentions)[0];
  // The count agrees with the noun after it where a language says so ("1 mention positive", "2 mentions positives").
  if (praised) changes.push(tr.t('report.praised', { count: praised.positive, aspect: praised.name, positive: praised.positive, mentions: praised.mentions }));
  if (criticised && criticised !== praised) {
    changes.push(tr.t('report.criticised', { count: criticised.negative, aspect: criticised.name, negative: criticised.negative, mentions: criticised.mentions }));
  }
  // An aspect whose net sentiment moved clearly over the last three months (src/reports/aspect-trend.ts): both
  // windows' counts are quoted, so the two net figures can be worked out from the sentence.
  const net = (v: number) => tr.number(v / 100, { style: 'percent', maximumFractionDigits: 0, signDisplay: 'exceptZero' });
  const quoted = (prefix: 'before' | 'now', w: AspectWindow) => ({
    [prefix]: net(w.net),
    [`${prefix}Period`]: monthRange(tr, w.from, w.to),
    [`${prefix}Mentions`]: tr.number(w.mentions),
    [`${prefix}Positive`]: tr.number(w.positive),
    [`${prefix}Negative`]: tr.number(w.negative),
  });
  for (const move of aspectMoves(report.months)) {
    const key = move.now.net > move.before.net ? 'report.aspectUp' : 'report.aspectDown';
    changes.push(tr.t(key, { aspect: tr.t(`report.aspects.${move.aspect}`), ...quoted('before', move.before), ...quoted('now', move.now) }));
  }

  const name = monthName(tr, report.month);
  const anyMonth = report.months.some((m) => m.totalReviews > 0);
  // A month is over at its end (the next month's first midnight, UTC), not on its last day: generated before that, it
  // is reported "to date" (the service ends its period today), never as a whole month.
  const partial = isPartialMonth(report);
  return {
    tr,
    title: tr.t('report.title', { business: report.organizationName, month: partial ? tr.t('report.monthToDate', { month: name }) : name }),
    monthName: name,
    previousMonthName,
    prepared: tr.t('report.prepared', { brand: report.brandName, date: tr.date(new Date(report.generatedAt)) }),
    kpis,
    changes,
    hasData: cur.totalReviews > 0,
    partial: partial ? tr.t('report.partialNote', { month: name, date: dayName(tr, report.period.to), previous: previousMonthName }) : null,
    charts: {
      trend: anyMonth ? trendChart(report, tr) : null,
      response: anyMonth ? responseChart(report, tr) : null,
      sentiment: anyMonth ? sentimentChart(report, tr) : null,
      aspects: aspectsChart(report, tr),
      aspectTrend: aspectTrendChart(report, tr),
    },
    aspects,
  };
}

/** The report as an A4 PDF (pdfkit): the same sentences and charts as the page; `opts.layout` receives where each block went. */
export function reportPdf(report: ReportFigures, content: ReportContent = reportContent(report), opts: PdfOptions = {}): Promise<Buffer> {
  const { tr } = content;
  const pdf = pdfDocument({ title: content.title, brand: report.brandName, color: report.brandColor, ...opts });
  const { doc } = pdf;
  pdf.heading1(content.title);
  pdf.muted(content.prepared);
  if (content.partial) pdf.muted(content.partial);
  pdf.heading(tr.t('report.summary'));
  pdf.kpis('summary', content.kpis);
  if (!content.hasData) pdf.muted(tr.t('report.noData'));
  pdf.heading(tr.t('report.changesTitle', { month: content.previousMonthName }));
  if (content.changes.length) doc.fillColor('#1f2328').fontSize(10).list(content.changes, { bulletRadius: 1.5 });
  else pdf.muted(tr.t('report.noData'));
  const chart = (name: string, title: string, svg: string | null, height: number, caption?: string) => {
    if (svg) return pdf.chart(name, title, svg, height, caption);
    pdf.heading(title);
    pdf.muted(tr.t('report.noData'));
  };
  chart('trend', tr.t('report.trendTitle'), content.charts.trend, 200);
  chart('response', tr.t('report.responseTrendTitle'), content.charts.response, 150);
  chart('sentiment', tr.t('report.sentimentTitle'), content.charts.sentiment, 185);
  chart('aspects', tr.t('report.aspectsTitle'), content.charts.aspects, 185);
  chart('aspect-trend', tr.t('report.aspectTrendTitle'), content.charts.aspectTrend, 200, tr.t('report.aspectTrendIntro'));
  return pdf.end();
}
