import { intlLocale, translator, type Translator } from '../i18n';
import type { GridCell, ScanHistory, ScanReport } from './types';
import { brandColors } from './brand';
import { COLORS, svgChart } from './charts';
import { pdfDocument, type PdfOptions } from './pdf';

/**
 * The scan report's history (heat maps per snapshot, pins gained and lost, the business and its competitors over
 * time) as server-side SVG charts, for the report page and for its PDF, and the PDF itself. The agency's language
 * and brand colour; nothing fetched.
 */

/** Rank buckets of a pin, as the grid map and the heat maps colour them. */
export const RANK_COLORS = { top3: '#1e8e3e', top10: '#f29900', top20: '#d93025', none: '#8a929c' } as const;
/** Not in the top 20, as a value on a rank axis. */
const ABSENT = 21;
/** Pin changes: better, worse, unchanged. */
export const CHANGE_COLORS = { gained: '#1e8e3e', lost: '#d93025', same: '#c4c9cf' } as const;
/** Competitors' lines beside the business's (brand colour). */
const SERIES_COLORS = ['#5f6368', '#9334e6', '#e37400', '#12b5cb', '#b31412'];

const axisLabel = { color: COLORS.text, fontSize: 11 };
const splitLine = { lineStyle: { color: COLORS.grid } };

/** "3 Nov" (or the language's way) for a snapshot on a time axis. */
export const shortDate = (tr: Translator, d: Date) => new Intl.DateTimeFormat(intlLocale(tr.language), { day: 'numeric', month: 'short', timeZone: 'UTC' }).format(d);

/** A snapshot's time as the language writes it, with the hour (snapshots of one day differ by it). */
export const snapshotTime = (tr: Translator, d: Date) =>
  new Intl.DateTimeFormat(intlLocale(tr.language), { day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit', timeZone: 'UTC', timeZoneName: 'short' }).format(d);

/**
 * A report of a scan with no business to track (no `target_place_id`): it has a snapshot but no summary, since no
 * pin has a rank for the business (the scan services answer none rather than "not in the top 20" everywhere). Told
 * from the report's own fields, so a report read back through GraphQL says it as well as the service's.
 */
export const untracked = (report: Pick<ScanReport, 'snapshot' | 'summary'>): boolean => report.snapshot != null && report.summary == null;

/** The grid's cells as a heat map: one square per pin, coloured by rank bucket and labelled with the rank. */
function gridChart(size: number, data: Array<[number, number, number, string]>, pieces: object[], px: number, label: string): string {
  const axis = (n: number) => ({ type: 'category', data: Array.from({ length: n }, (_, i) => i), show: false });
  return svgChart(
    {
      grid: { left: 2, right: 2, top: 2, bottom: 2 },
      xAxis: axis(size),
      yAxis: { ...axis(size), inverse: true },
      visualMap: { type: 'piecewise', show: false, dimension: 2, pieces },
      series: [
        {
          type: 'heatmap',
          data,
          itemStyle: { borderColor: '#ffffff', borderWidth: size > 9 ? 1 : 2 },
          label: { show: true, fontSize: size > 11 ? 7 : size > 7 ? 9 : 12, fontWeight: 'bold', color: '#ffffff', formatter: (p: { value: unknown }) => (p.value as string[])[3] },
        },
      ],
    },
    px,
    px,
    label,
  );
}

const rankText = (c: Pick<GridCell, 'rank' | 'status'>) => (c.status !== 'complete' ? '-' : c.rank == null ? '20+' : String(c.rank));

/** One snapshot's grid: the business's rank at each pin. */
export function heatmapChart(size: number, cells: GridCell[], label: string, px = 220): string {
  const data = cells.map((c): [number, number, number, string] => [c.x, c.y, c.status === 'complete' ? (c.rank ?? ABSENT) : ABSENT, rankText(c)]);
  const pieces = [
    { min: 1, max: 3, color: RANK_COLORS.top3 },
    { min: 4, max: 10, color: RANK_COLORS.top10 },
    { min: 11, max: 20, color: RANK_COLORS.top20 },
    { min: ABSENT, max: ABSENT, color: RANK_COLORS.none },
  ];
  return gridChart(size, data, pieces, px, label);
}

/** Each pin's change since the previous snapshot: +n places (gained), -n (lost), = (held). */
export function changesChart(history: ScanHistory, label: string, px = 260): string | null {
  if (!history.changes) return null;
  const data = history.changes.cells.map((c): [number, number, number, string] => {
    const delta = (c.previousRank ?? ABSENT) - (c.rank ?? ABSENT);
    return [c.x, c.y, Math.sign(delta), delta > 0 ? `+${delta}` : delta < 0 ? `-${-delta}` : '='];
  });
  const pieces = [
    { value: 1, color: CHANGE_COLORS.gained },
    { value: -1, color: CHANGE_COLORS.lost },
    { value: 0, color: CHANGE_COLORS.same },
  ];
  return gridChart(history.size, data, pieces, px, label);
}

/** One line per place over the trend snapshots: the business in the brand colour, competitors beside it. */
function trendLines(
  history: ScanHistory,
  tr: Translator,
  business: { name: string; color: string },
  pick: { own: (i: number) => number | null; theirs: (p: { avgRank: number | null; visibility: number | null }) => number | null },
  yAxis: object,
  label: string,
): string | null {
  if (history.trend.length < 2) return null;
  const labels = history.trend.map((s) => shortDate(tr, s.snapshotAt));
  // A snapshot without figures of the business (taken while the scan tracked none) is a gap in its line, not rank 0.
  const own = { name: business.name, type: 'line', data: history.trend.map((s, i) => (s.ranked ? pick.own(i) : null)), connectNulls: false, itemStyle: { color: business.color }, lineStyle: { color: business.color, width: 3 }, z: 3 };
  const others = history.competitors.map((c, i) => ({
    name: c.name,
    type: 'line',
    data: c.points.map(pick.theirs),
    connectNulls: false,
    itemStyle: { color: SERIES_COLORS[i % SERIES_COLORS.length] },
    lineStyle: { color: SERIES_COLORS[i % SERIES_COLORS.length], width: 1.5, type: 'dashed' },
  }));
  return svgChart(
    {
      grid: { left: 40, right: 16, top: 16, bottom: 88 },
      legend: { bottom: 0, textStyle: axisLabel, itemWidth: 18 },
      xAxis: { type: 'category', data: labels, axisLabel, boundaryGap: false },
      yAxis: { ...yAxis, axisLabel, splitLine },
      series: [own, ...others],
    },
    680,
    300,
    label,
  );
}

export interface ScanCharts {
  heatmaps: Array<{ when: string; svg: string }>;
  changes: string | null;
  rankTrend: string | null;
  visibilityTrend: string | null;
}

/** Every chart of a report's history, in the agency's language and colour. */
export function scanCharts(report: ScanReport, tr: Translator = translator(report.brand.language)): ScanCharts | null {
  const history = report.history;
  if (!history) return null;
  const business = { name: tr.t('scanReport.theBusiness', { location: report.scan.location }), color: brandColors(report.brand.color).band };
  const heatmaps = history.heatmaps.map((h) => {
    const when = snapshotTime(tr, h.snapshot.snapshotAt);
    return { when, svg: heatmapChart(h.size, h.cells, tr.t('scanReport.heatmapLabel', { keyword: report.keyword, date: when })) };
  });
  const previous = history.changes ? snapshotTime(tr, history.changes.previousSnapshotAt) : '';
  return {
    heatmaps,
    changes: changesChart(history, tr.t('scanReport.changesMap', { date: previous })),
    rankTrend: trendLines(
      history,
      tr,
      business,
      { own: (i) => history.trend[i].avgRank, theirs: (p) => p.avgRank },
      { type: 'value', inverse: true, min: 1, max: ABSENT, interval: 5 },
      tr.t('scanReport.rankTrendTitle'),
    ),
    visibilityTrend: trendLines(
      history,
      tr,
      business,
      { own: (i) => history.trend[i].visibilityScore, theirs: (p) => p.visibility },
      { type: 'value', min: 0, max: 100 },
      tr.t('scanReport.visibilityTrendTitle'),
    ),
  };
}

/** The scan report as an A4 PDF: brand band, summary, heat maps, pin changes, trends and competitors. */
export async function scanReportPdf(report: ScanReport, opts: PdfOptions = {}): Promise<Buffer> {
  const tr = translator(report.brand.language);
  const charts = scanCharts(report, tr);
  const title = tr.t('scanReport.title', { location: report.scan.location });
  const pdf = pdfDocument({ title, brand: report.brand.name, color: report.brand.color, ...opts });
  const { doc } = pdf;
  pdf.heading1(title);
  pdf.muted(tr.t('scanReport.keywordLine', { keyword: report.keyword, size: report.scan.gridSize }));
  if (untracked(report)) {
    untrackedPdf(pdf, report, tr);
    return pdf.end();
  }
  if (!report.snapshot || !report.summary || !charts) {
    pdf.heading(tr.t('scanReport.noResults'));
    pdf.muted(tr.t('scanReport.noResultsYet', { location: report.scan.location, keyword: report.keyword }));
    return pdf.end();
  }
  const s = report.summary;
  pdf.muted(tr.t('scanReport.shownSnapshot', { date: snapshotTime(tr, report.snapshot.snapshotAt) }));
  pdf.heading(tr.t('scanReport.summary'));
  const pins = tr.t('scanReport.ofPins', { count: s.totalPins });
  pdf.kpis('summary', [
    { label: tr.t('scanReport.averageRank'), value: tr.number(s.averageRank, { maximumFractionDigits: 2 }), previous: tr.t('scanReport.absentCounts') },
    { label: tr.t('scanReport.visibility'), value: tr.number(s.visibilityScore / 100, { style: 'percent', maximumFractionDigits: 1 }), previous: tr.t('scanReport.visibilityNote') },
    { label: tr.t('scanReport.top3'), value: tr.number(s.top3), previous: pins },
    { label: tr.t('scanReport.notRanking'), value: tr.number(s.notRanking), previous: pins },
  ]);

  pdf.heading(tr.t('scanReport.heatmapsTitle'));
  const cols = 3;
  const gap = 12;
  const cell = (pdf.width - gap * (cols - 1)) / cols;
  const rows = Math.ceil(charts.heatmaps.length / cols);
  for (let r = 0; r < rows; r++) {
    pdf.room(cell + 18);
    const y = doc.y + 4;
    charts.heatmaps.slice(r * cols, r * cols + cols).forEach((h, i) => {
      const x = pdf.left + i * (cell + gap);
      pdf.svg(`heatmap-${r * cols + i}`, h.svg, x, y, cell, cell);
      doc.font('Helvetica').fontSize(8).fillColor('#5b6470').text(h.when, x, y + cell + 6, { width: cell, align: 'center' });
    });
    doc.x = pdf.left;
    doc.y = y + cell + 20;
  }

  const history = report.history!;
  if (history.changes && charts.changes) {
    const previous = snapshotTime(tr, history.changes.previousSnapshotAt);
    pdf.room(200);
    pdf.heading(tr.t('scanReport.changesTitle', { date: previous }));
    pdf.muted(`${tr.t('scanReport.gained')}: ${history.changes.gained}   ${tr.t('scanReport.lost')}: ${history.changes.lost}   ${tr.t('scanReport.same')}: ${history.changes.same}`);
    const y = doc.y + 6;
    const side = 180;
    pdf.svg('changes', charts.changes, pdf.left, y, side, side);
    const x = pdf.left + side + 24;
    doc.font('Helvetica-Bold').fontSize(10).fillColor('#1f2328').text(tr.t('scanReport.overtakersTitle'), x, y, { width: pdf.width - side - 24 });
    doc.font('Helvetica').fontSize(9);
    if (history.overtakers.length) history.overtakers.forEach((o, i) => doc.text(`${i + 1}. ${o.name} (${tr.t('scanReport.pins', { count: o.pins })})`, { width: pdf.width - side - 24 }));
    else doc.fillColor('#5b6470').text(tr.t('scanReport.overtakersNone'), { width: pdf.width - side - 24 });
    doc.x = pdf.left;
    doc.y = Math.max(doc.y, y + side) + 8;
  } else {
    pdf.heading(tr.t('scanReport.changesTitleFirst'));
    pdf.muted(tr.t('scanReport.changesFirst'));
  }

  // The section's heading stays with its first chart.
  pdf.room(charts.rankTrend ? 300 : 60);
  pdf.heading(tr.t('scanReport.competitorsTitle'));
  if (charts.rankTrend && charts.visibilityTrend) {
    pdf.chart('rank-trend', tr.t('scanReport.rankTrendTitle'), charts.rankTrend, 220);
    pdf.chart('visibility-trend', tr.t('scanReport.visibilityTrendTitle'), charts.visibilityTrend, 220);
  } else pdf.muted(tr.t('scanReport.notEnough'));

  listPdf(
    pdf,
    tr.t('scanReport.competitorsTable', { keyword: report.keyword }),
    report.competitors.map(
      (c, i) =>
        `${i + 1}. ${c.name}: ${tr.t('scanReport.averageRank')} ${tr.number(c.avgRank, { maximumFractionDigits: 2 })}, ${tr.t('scanReport.threatScore')} ${tr.number(c.threatScore, { maximumFractionDigits: 1 })}`,
    ),
    tr.t('scanReport.noCompetitors'),
  );
  pdf.muted(tr.t('scanReport.prepared', { brand: report.brand.name }));
  return pdf.end();
}

type ScanPdf = ReturnType<typeof pdfDocument>;

/**
 * The PDF of a snapshot without a business to track: why there are no rank figures or heat maps, and the businesses
 * that rank for the keyword, by where they rank and how often (a threat score needs a business to threaten).
 */
function untrackedPdf(pdf: ScanPdf, report: ScanReport, tr: Translator): void {
  pdf.muted(tr.t('scanReport.shownSnapshot', { date: snapshotTime(tr, report.snapshot!.snapshotAt) }));
  pdf.heading(tr.t('scanReport.untrackedTitle'));
  pdf.muted(tr.t('scanReport.untrackedText', { location: report.scan.location }));
  listPdf(
    pdf,
    tr.t('scanReport.rankingBusinesses', { keyword: report.keyword }),
    report.competitors.map(
      (c, i) =>
        `${i + 1}. ${c.name}: ${tr.t('scanReport.averageRank')} ${tr.number(c.avgRank, { maximumFractionDigits: 2 })}, ${tr.t('scanReport.appearancesOf', { appearances: tr.number(c.appearances), count: report.pins.length })}`,
    ),
    tr.t('scanReport.noCompetitors'),
  );
  pdf.muted(tr.t('scanReport.prepared', { brand: report.brand.name }));
}

/** A headed list of businesses, one line each (`empty` when there is none). */
function listPdf(pdf: ScanPdf, heading: string, lines: string[], empty: string): void {
  pdf.room(60);
  pdf.heading(heading);
  if (!lines.length) return pdf.muted(empty);
  for (const line of lines) {
    pdf.room(14);
    pdf.doc.font('Helvetica').fontSize(9).fillColor('#1f2328').text(line, pdf.left, pdf.doc.y, { width: pdf.width });
  }
}
