import type * as Echarts from 'echarts';
import type { Translator } from '../i18n';
import type { MonthlyReport } from './types';
import { ASPECTS } from '../analytics/lexicon';
import { brandColors } from './brand';

/**
 * The report's charts, rendered on the server as SVG by ECharts' server-side renderer (no browser, no script in the
 * page, nothing fetched): the same SVG goes into the HTML page and, through svg-to-pdfkit, into the PDF.
 */

export const COLORS = { line: '#f29900', positive: '#2e7d32', neutral: '#9aa0a6', negative: '#c5221f', text: '#3c4043', grid: '#e3e5e8' };

const FONT = 'Helvetica, Arial, sans-serif';

/** ECharts, required on first use (about 7 MB of heap that only a report needs). */
let lib: typeof Echarts | null = null;
// eslint-disable-next-line @typescript-eslint/no-require-imports
const echarts = (): typeof Echarts => (lib ??= require('echarts') as typeof Echarts);

/** One chart as an SVG document string, labelled for assistive technology. */
export function svgChart(option: Echarts.EChartsCoreOption, width: number, height: number, label: string): string {
  const chart = echarts().init(null, null, { renderer: 'svg', ssr: true, width, height });
  try {
    chart.setOption({ animation: false, textStyle: { fontFamily: FONT, color: COLORS.text }, ...option });
    const svg = chart.renderToSVGString();
    const escaped = label.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;');
    // ECharts writes its class rules as `<style >`: bare `<style>`, so the pages' nonce (set on every bare `<style>`
    // when the page is sent) admits them under the CSP.
    return svg.replace('<svg ', `<svg role="img" aria-label="${escaped}" `).replace(/<style\s+>/g, '<style>');
  } finally {
    chart.dispose();
  }
}

/** "Oct 26" in the report's language. */
export function monthLabel(tr: Translator, month: string): string {
  const [y, m] = month.split('-').map(Number);
  return new Intl.DateTimeFormat(tr.language, { month: 'short', year: '2-digit', timeZone: 'UTC' }).format(new Date(Date.UTC(y, m - 1, 1)));
}

const axisLabel = { color: COLORS.text, fontSize: 11 };
const splitLine = { lineStyle: { color: COLORS.grid } };

/** Reviews per month (bars) and the average rating (line, 1-5) over the trend months. */
export function trendChart(report: MonthlyReport, tr: Translator): string {
  const labels = report.months.map((m) => monthLabel(tr, m.month));
  return svgChart(
    {
      grid: { left: 40, right: 40, top: 36, bottom: 28 },
      legend: { top: 4, data: [tr.t('report.reviews'), tr.t('report.avgRating')], textStyle: axisLabel },
      xAxis: { type: 'category', data: labels, axisLabel },
      yAxis: [
        { type: 'value', minInterval: 1, axisLabel, splitLine },
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

/** Positive, neutral and negative reviews per month, stacked. */
export function sentimentChart(report: MonthlyReport, tr: Translator): string {
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
      yAxis: { type: 'value', minInterval: 1, axisLabel, splitLine },
      series,
    },
    680,
    240,
    tr.t('report.sentimentTitle'),
  );
}

/** The month's mentions of each aspect by tone (horizontal, stacked); null when no review names any. */
export function aspectsChart(report: MonthlyReport, tr: Translator): string | null {
  const rows = ASPECTS.map((aspect) => report.totals.aspects.find((a) => a.aspect === aspect) ?? { aspect, positive: 0, neutral: 0, negative: 0 });
  if (rows.every((r) => r.positive + r.neutral + r.negative === 0)) return null;
  const names = rows.map((r) => tr.t(`report.aspects.${r.aspect}`));
  return svgChart(
    {
      grid: { left: 120, right: 16, top: 36, bottom: 24 },
      legend: { top: 4, textStyle: axisLabel },
      xAxis: { type: 'value', minInterval: 1, axisLabel, splitLine },
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
