import { escapeHtml as esc } from '../domain/html';
import { translator, type MessageKey, type Translator } from '../i18n';
import type { MonthlyReport } from './types';
import { ASPECTS } from '../analytics/lexicon';
import { aspectMoves, type AspectWindow } from './aspect-trend';
import { aspectsChart, aspectTrendChart, monthLabel, monthStart, responseChart, sentimentChart, trendChart } from './charts';
import { brandColors } from './brand';
import { pdfDocument, type Kpi, type PdfOptions } from './pdf';

/**
 * The monthly report of an organisation as an HTML page and as a PDF, from the same figures, sentences and SVG
 * charts, in the account's language and the agency's brand. Nothing is fetched: the charts are inline SVG, the
 * PDF draws them with its own fonts (the agency's logo is shown on the page, its name in the PDF).
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
   * Null when there is nothing to draw: "no data" (trend, response, sentiment: no review in the twelve months;
   * aspects: none naming an aspect this month; aspectTrend: none naming one in the twelve months).
   */
  charts: { trend: string | null; response: string | null; sentiment: string | null; aspects: string | null; aspectTrend: string | null };
  aspects: { name: string; positive: number; neutral: number; negative: number }[];
}

/** `YYYY-MM` as the language names it ("February 2025", "febrero de 2025"). */
export function monthName(tr: Translator, month: string): string {
  return new Intl.DateTimeFormat(tr.language, { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(monthStart(month));
}

/** "Aug – Oct 2026" in the report's language. */
function monthRange(tr: Translator, from: string, to: string): string {
  return new Intl.DateTimeFormat(tr.language, { month: 'short', year: 'numeric', timeZone: 'UTC' }).formatRange(monthStart(from), monthStart(to));
}

/** What the page and the PDF both say. */
export function reportContent(report: MonthlyReport): ReportContent {
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
  return {
    tr,
    title: tr.t('report.title', { business: report.organizationName, month: name }),
    monthName: name,
    previousMonthName,
    prepared: tr.t('report.prepared', { brand: report.brandName, date: tr.date(report.generatedAt) }),
    kpis,
    changes,
    hasData: cur.totalReviews > 0,
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

const safeUrl = (url: string | null): string | null => (url && /^https?:\/\//i.test(url) ? url : null);

/** The report as a page: white-label, inline SVG charts, no script. */
export function reportHtml(report: MonthlyReport, content: ReportContent = reportContent(report)): string {
  const { tr } = content;
  const logo = safeUrl(report.brandLogoUrl);
  const kpis = content.kpis
    .map((k) => `<div class="kpi"><div class="label">${esc(k.label)}</div><div class="value">${esc(k.value)}</div><div class="previous">${esc(k.previous)}</div></div>`)
    .join('\n');
  const noData = `<p class="empty">${esc(tr.t('report.noData'))}</p>`;
  const aspectRows = content.aspects
    .filter((a) => a.positive + a.neutral + a.negative > 0)
    .map((a) => `<tr><th scope="row">${esc(a.name)}</th><td>${a.positive}</td><td>${a.neutral}</td><td>${a.negative}</td></tr>`)
    .join('\n');
  const figure = (svg: string | null, caption: string) => (svg ? `<figure>${svg}<figcaption>${esc(caption)}</figcaption></figure>` : noData);
  const band = brandColors(report.brandColor);
  return `<!doctype html>
<html lang="${tr.language}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex"><title>${esc(content.title)} - ${esc(report.brandName)}</title>
<style>
body{font-family:system-ui,-apple-system,sans-serif;background:#f5f6f8;margin:0;color:#1f2328;line-height:1.5}
header{background:${band.band};color:${band.onBand};padding:1rem 1.5rem;display:flex;align-items:center;gap:.8rem}
header img{background:#fff;border-radius:4px;padding:2px}
header img{max-height:40px;max-width:160px}header .brand{font-weight:600;font-size:1.1rem}
main{max-width:52rem;margin:1.5rem auto;background:#fff;border-radius:10px;padding:2rem;box-shadow:0 1px 4px #0001}
h1{font-size:1.5rem;margin:0 0 .2rem}h2{font-size:1.15rem;margin:2rem 0 .6rem}.prepared{color:#5b6470;margin:0}
.kpis{display:grid;grid-template-columns:repeat(auto-fit,minmax(10rem,1fr));gap:.8rem;margin-top:1.2rem}
.kpi{border:1px solid #e3e5e8;border-radius:8px;padding:.8rem}.kpi .label{color:#5b6470;font-size:.9rem}
.kpi .value{font-size:1.6rem;font-weight:600}.kpi .previous{color:#5b6470;font-size:.85rem}
figure{margin:0}figure svg{max-width:100%;height:auto}figcaption{color:#5b6470;font-size:.85rem}
table{border-collapse:collapse;width:100%}th,td{text-align:left;padding:.35rem .5rem;border-bottom:1px solid #e3e5e8}
td{font-variant-numeric:tabular-nums}.empty{color:#5b6470;font-style:italic}
</style></head><body>
<header>${logo ? `<img src="${esc(logo)}" alt="${esc(tr.t('common.logo', { brand: report.brandName }))}">` : ''}<span class="brand">${esc(report.brandName)}</span></header>
<main>
<h1>${esc(content.title)}</h1>
<p class="prepared">${esc(content.prepared)}</p>
<section aria-labelledby="summary"><h2 id="summary">${esc(tr.t('report.summary'))}</h2>
<div class="kpis">${kpis}</div>
${content.hasData ? '' : noData}
</section>
<section aria-labelledby="changes"><h2 id="changes">${esc(tr.t('report.changesTitle', { month: content.previousMonthName }))}</h2>
${content.changes.length ? `<ul>${content.changes.map((c) => `<li>${esc(c)}</li>`).join('')}</ul>` : noData}
</section>
<section aria-labelledby="trend"><h2 id="trend">${esc(tr.t('report.trendTitle'))}</h2>
${figure(content.charts.trend, tr.t('report.trendTitle'))}
</section>
<section aria-labelledby="response"><h2 id="response">${esc(tr.t('report.responseTrendTitle'))}</h2>
${figure(content.charts.response, tr.t('report.responseTrendTitle'))}
</section>
<section aria-labelledby="sentiment"><h2 id="sentiment">${esc(tr.t('report.sentimentTitle'))}</h2>
${figure(content.charts.sentiment, tr.t('report.sentimentTitle'))}
</section>
<section aria-labelledby="aspects"><h2 id="aspects">${esc(tr.t('report.aspectsTitle'))}</h2>
<p>${esc(tr.t('report.aspectsIntro', { month: content.monthName }))}</p>
${
  content.charts.aspects
    ? `${figure(content.charts.aspects, tr.t('report.aspectsTitle'))}
<table><thead><tr><td></td><th scope="col">${esc(tr.t('report.positive'))}</th><th scope="col">${esc(tr.t('report.neutral'))}</th><th scope="col">${esc(tr.t('report.negative'))}</th></tr></thead>
<tbody>${aspectRows}</tbody></table>`
    : noData
}
</section>
<section aria-labelledby="aspect-trend"><h2 id="aspect-trend">${esc(tr.t('report.aspectTrendTitle'))}</h2>
${figure(content.charts.aspectTrend, tr.t('report.aspectTrendIntro'))}
</section>
</main></body></html>`;
}

/** The report as an A4 PDF (pdfkit): the same sentences and charts as the page; `opts.layout` receives where each block went. */
export function reportPdf(report: MonthlyReport, content: ReportContent = reportContent(report), opts: PdfOptions = {}): Promise<Buffer> {
  const { tr } = content;
  const pdf = pdfDocument({ title: content.title, brand: report.brandName, color: report.brandColor, ...opts });
  const { doc } = pdf;
  pdf.heading1(content.title);
  pdf.muted(content.prepared);
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

export { monthLabel };
