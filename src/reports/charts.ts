import type * as Echarts from 'echarts';
import { intlLocale, type Translator } from '../i18n';
import type { ReportFigures } from './types';
import { ASPECTS, type Aspect } from '../analytics/lexicon';
import { monthStart } from '../analytics/periods';
import { mentionedAspects } from './aspect-trend';
import { brandColors, contrast } from './brand';

/**
 * The report's charts, rendered on the server as SVG by ECharts' server-side renderer (no browser, no script in the
 * page, nothing fetched): the same SVG goes into the HTML page and, through svg-to-pdfkit, into the PDF.
 */

export const COLORS = { line: '#f29900', positive: '#2e7d32', neutral: '#9aa0a6', negative: '#c5221f', text: '#3c4043', grid: '#e3e5e8' };

/** One colour per aspect in the trend lines, told apart by hue and lightness (Tableau 10's first six, deepened). */
const ASPECT_COLORS: Record<Aspect, string> = {
  staff: '#1f77b4', price: '#d95f02', wait_time: '#7b3294', cleanliness: '#1b9e77', quality: '#b8860b', communication: '#c51b7d',
};

const FONT = 'Helvetica, Arial, sans-serif';

/** ECharts, required on first use (about 7 MB of heap that only a report needs). */
let lib: typeof Echarts | null = null;
// eslint-disable-next-line @typescript-eslint/no-require-imports
const echarts = (): typeof Echarts => (lib ??= require('echarts') as typeof Echarts);

/**
 * One chart as an SVG document string, labelled for assistive technology. Pages insert it as markup (the pages'
 * `Chart`), so its text must be escaped here: ECharts' SSR renderer escapes the labels it draws (legend and axis text,
 * series names: competitor names and locations come from providers and users), and `label` is escaped below; pinned
 * with hostile names by test/reports/scan-report.test.ts.
 */
export function svgChart(option: Echarts.EChartsCoreOption, width: number, height: number, label: string): string {
  const chart = echarts().init(null, null, { renderer: 'svg', ssr: true, width, height });
  try {
    chart.setOption({ animation: false, textStyle: { fontFamily: FONT, color: COLORS.text }, ...option });
    const svg = chart.renderToSVGString();
    const escaped = label.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;');
    // ECharts writes its class rules as `<style >`: a bare `<style>`, which the pages' `Chart` (facades/pages/layout.tsx)
    // gives the response's nonce, so the CSP admits them.
    return svg.replace('<svg ', `<svg role="img" aria-label="${escaped}" `).replace(/<style\s+>/g, '<style>');
  } finally {
    chart.dispose();
  }
}


/**
 * A month on a chart's axis as the report's language writes a month and its year ("Oct 2026", "Okt. 2026",
 * "10/2026" in Portugal): the whole year, since "Oct 26" reads as the 26th of October.
 */
export function monthLabel(tr: Translator, month: string): string {
  return new Intl.DateTimeFormat(intlLocale(tr.language), { month: 'short', year: 'numeric', timeZone: 'UTC' }).format(monthStart(month));
}

const axisLabel = { color: COLORS.text, fontSize: 11 };
const splitLine = { lineStyle: { color: COLORS.grid } };

/** Reviews per month (bars) and the average rating (line, 1-5) over the trend months. */
export function trendChart(report: ReportFigures, tr: Translator): string {
  const labels = report.months.map((m) => monthLabel(tr, m.month));
  return svgChart(
    {
      grid: { left: 40, right: 40, top: 36, bottom: 28 },
      legend: { top: 4, data: [tr.t('report.reviews'), tr.t('report.avgRating')], textStyle: axisLabel },
      xAxis: { type: 'category', data: labels, axisLabel },
      yAxis: [
        { type: 'value', minInterval: 1, axisLabel: countLabel(tr), splitLine },
        { type: 'value', min: 1, max: 5, interval: 1, axisLabel, splitLine: { show: false } },
      ],
      series: [
        { name: tr.t('report.reviews'), type: 'bar', data: report.months.map((m) => m.totalReviews), itemStyle: { color: brandColors(report.brandColor).band } },
        { name: tr.t('report.avgRating'), type: 'line', yAxisIndex: 1, data: report.months.map((m) => m.avgRating), connectNulls: false, itemStyle: { color: COLORS.line }, lineStyle: { color: COLORS.line, width: 2 } },
      ],
    },
    680,
    260,
    tr.t('report.trendTitle'),
  );
}

/** A line over the trend months that breaks at null (a month without data is a gap), with a dot on every value. */
function gapLine(name: string, data: (number | null)[], color: string) {
  return { name, type: 'line', data, connectNulls: false, showSymbol: true, symbol: 'circle', symbolSize: 6, itemStyle: { color }, lineStyle: { color, width: 2 } };
}

/** A count axis label in the report's language ("1 200", "1.200"; ECharts' own "1,200" reads as 1.2 in most of them). */
const countLabel = (tr: Translator) => ({ ...axisLabel, formatter: (v: number) => tr.number(v) });

/** A percent axis label in the report's language ("50%", "50 %"); `signed` writes "+50%" and "-50%". */
const percentLabel = (tr: Translator, signed = false) => ({
  ...axisLabel,
  formatter: (v: number) => tr.number(v / 100, { style: 'percent', maximumFractionDigits: 0, ...(signed ? { signDisplay: 'exceptZero' as const } : {}) }),
});

/** The brand colour for a line on white when it shows (3:1, WCAG's contrast for graphics), else the text colour. */
function lineColor(brand: string | null): string {
  const { band } = brandColors(brand);
  return contrast(band, '#ffffff') >= 3 ? band : COLORS.text;
}

/** The response rate per month (line, 0-100 %); months without reviews are gaps. */
export function responseChart(report: ReportFigures, tr: Translator): string {
  return svgChart(
    {
      grid: { left: 48, right: 16, top: 36, bottom: 28 },
      legend: { top: 4, textStyle: axisLabel },
      xAxis: { type: 'category', data: report.months.map((m) => monthLabel(tr, m.month)), axisLabel },
      yAxis: { type: 'value', min: 0, max: 100, interval: 25, axisLabel: percentLabel(tr), splitLine },
      series: [gapLine(tr.t('report.responseRate'), report.months.map((m) => m.responseRate), lineColor(report.brandColor))],
    },
    680,
    200,
    tr.t('report.responseTrendTitle'),
  );
}

/**
 * Net sentiment per month (-100..100 %) of each aspect named in the twelve months, a line each; a month without a
 * mention of the aspect is a gap. Null when no review of the twelve months names any aspect: "no data".
 */
export function aspectTrendChart(report: ReportFigures, tr: Translator): string | null {
  const aspects = mentionedAspects(report.months);
  if (!aspects.length) return null;
  const net = (aspect: Aspect) => report.months.map((m) => m.aspects.find((a) => a.aspect === aspect)?.netSentiment ?? null);
  return svgChart(
    {
      grid: { left: 56, right: 16, top: 44, bottom: 28 },
      legend: { top: 4, textStyle: axisLabel },
      xAxis: { type: 'category', data: report.months.map((m) => monthLabel(tr, m.month)), axisLabel },
      yAxis: {
        type: 'value', min: -100, max: 100, interval: 50, axisLabel: percentLabel(tr, true), splitLine,
        name: tr.t('report.netSentiment'), nameLocation: 'middle', nameGap: 44, nameTextStyle: axisLabel,
      },
      series: aspects.map((aspect) => gapLine(tr.t(`report.aspects.${aspect}`), net(aspect), ASPECT_COLORS[aspect])),
    },
    680,
    260,
    tr.t('report.aspectTrendTitle'),
  );
}

/** Positive, neutral and negative reviews per month, stacked. */
export function sentimentChart(report: ReportFigures, tr: Translator): string {
  const labels = report.months.map((m) => monthLabel(tr, m.month));
  const series = (['positive', 'neutral', 'negative'] as const).map((s) => ({
    name: tr.t(`report.${s}`),
    type: 'bar',
    stack: 'sentiment',
    data: report.months.map((m) => m[s]),
    itemStyle: { color: COLORS[s] },
  }));
  return svgChart(
    {
      grid: { left: 40, right: 16, top: 36, bottom: 28 },
      legend: { top: 4, textStyle: axisLabel },
      xAxis: { type: 'category', data: labels, axisLabel },
      yAxis: { type: 'value', minInterval: 1, axisLabel: countLabel(tr), splitLine },
      series,
    },
    680,
    240,
    tr.t('report.sentimentTitle'),
  );
}

/** The month's mentions of each aspect by tone (horizontal, stacked); null when no review names any. */
export function aspectsChart(report: ReportFigures, tr: Translator): string | null {
  const rows = ASPECTS.map((aspect) => ({ ...(report.totals.aspects.find((a) => a.aspect === aspect) ?? { positive: 0, neutral: 0, negative: 0 }), aspect }));
  if (rows.every((r) => r.positive + r.neutral + r.negative === 0)) return null;
  const names = rows.map((r) => tr.t(`report.aspects.${r.aspect}`));
  return svgChart(
    {
      grid: { left: 120, right: 16, top: 36, bottom: 24 },
      legend: { top: 4, textStyle: axisLabel },
      xAxis: { type: 'value', minInterval: 1, axisLabel: countLabel(tr), splitLine },
      yAxis: { type: 'category', data: names, inverse: true, axisLabel },
      series: (['positive', 'neutral', 'negative'] as const).map((s) => ({
        name: tr.t(`report.${s}`),
        type: 'bar',
        stack: 'aspects',
        data: rows.map((r) => r[s]),
        itemStyle: { color: COLORS[s] },
      })),
    },
    680,
    240,
    tr.t('report.aspectsTitle'),
  );
}
