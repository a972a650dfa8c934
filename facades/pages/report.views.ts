import { escapeHtml as esc } from '../../src/domain/html';
import { translator, type MessageKey, type Translator } from '../../src/i18n';
import { brandColors } from '../../src/reports/brand';
import { HISTORY_STYLE, historySection, RANK_COLORS, scanCharts, shortDate, snapshotTime } from '../../src/reports/scan';
import type { ReportBrand, ReportPin, ScanReport, SnapshotRow } from '../../src/reports/types';

/**
 * Server-rendered HTML of the white-label scan report: the grid as inline SVG on a map-like canvas, pickers as
 * plain links and a GET form, the summary, competitors and history. Every value is escaped; no script runs.
 * The page names the agency's brand only, never the platform, and speaks the agency's language (`tenants.language`:
 * scans belong to the agency), numbers and dates included; a page without a brand (unknown scan) speaks English.
 */

export const BUCKETS = [
  { key: 'top3', label: 'scanReport.rank1to3', colour: RANK_COLORS.top3 },
  { key: 'top10', label: 'scanReport.rank4to10', colour: RANK_COLORS.top10 },
  { key: 'top20', label: 'scanReport.rank11to20', colour: RANK_COLORS.top20 },
  { key: 'none', label: 'scanReport.notInTop20', colour: RANK_COLORS.none },
] as const satisfies ReadonlyArray<{ key: string; label: MessageKey; colour: string }>;
type BucketKey = (typeof BUCKETS)[number]['key'];

export function bucketOf(pin: Pick<ReportPin, 'rank' | 'status'>): BucketKey {
  const r = pin.rank;
  if (pin.status !== 'complete' || r == null) return 'none';
  if (r <= 3) return 'top3';
  if (r <= 10) return 'top10';
  return 'top20';
}

const colourOf = (key: BucketKey) => BUCKETS.find((b) => b.key === key)!.colour;

/** What a pin shows: its rank, `20+` when the business is not in the top 20, `-` when the pin has no result. */
export const pinLabel = (pin: Pick<ReportPin, 'rank' | 'status'>): string => (pin.status !== 'complete' ? '-' : pin.rank == null ? '20+' : String(pin.rank));

/** A number as the page's language writes it ("3.24", "3,24"), at most `digits` decimals. */
const num = (tr: Translator, x: number, digits = 2): string => tr.number(x, { maximumFractionDigits: digits });
/** A 0-100 score as a percentage in the page's language ("90%", "90 %"). */
const percent = (tr: Translator, x: number): string => tr.number(x / 100, { style: 'percent', maximumFractionDigits: 1 });
const unitOf = (unit: string) => (unit === 'miles' ? 'mi' : 'km');
const safeUrl = (url: string | null): string | null => (url && /^https?:\/\//i.test(url) ? url : null);

const STYLE = `
*{box-sizing:border-box}
body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;background:#f3f4f6;margin:0;color:#1f2328;line-height:1.45}
a{color:#1a5fb4}
.top{background:#fff;border-bottom:1px solid #e3e5e8;padding:.9rem 2rem;display:flex;align-items:center;justify-content:space-between;gap:1rem}
.brand{display:flex;align-items:center;gap:.75rem;font-weight:650;font-size:1.1rem}
.brand img{max-height:40px;max-width:170px}
.kind{color:#5b6470;font-size:.9rem;letter-spacing:.02em}
main{max-width:1180px;margin:0 auto;padding:1.6rem 2rem 2.5rem}
h1{font-size:1.6rem;margin:0 0 .2rem}
h2{font-size:1.05rem;margin:0 0 .8rem}
.meta{color:#5b6470;margin:0;font-size:.95rem}
.card{background:#fff;border:1px solid #e3e5e8;border-radius:12px;padding:1.2rem 1.3rem;box-shadow:0 1px 3px #0000000d}
.keywords{display:flex;flex-wrap:wrap;align-items:center;gap:.45rem;margin:1.2rem 0}
.keywords .label{color:#5b6470;font-size:.85rem;margin-right:.2rem}
.keywords a{display:inline-block;padding:.3rem .8rem;border-radius:999px;border:1px solid #d0d5db;background:#fff;color:#1f2328;text-decoration:none;font-size:.9rem}
.keywords a[aria-current=page]{background:#1f2328;border-color:#1f2328;color:#fff}
.layout{display:grid;grid-template-columns:minmax(0,1fr) 360px;gap:1.2rem;align-items:start}
.map-head{display:flex;justify-content:space-between;align-items:baseline;gap:1rem;margin-bottom:.7rem}
.map-head .when{color:#5b6470;font-size:.9rem}
svg.grid-map{display:block;width:100%;height:auto;border-radius:8px}
.legend{display:flex;flex-wrap:wrap;gap:.4rem 1.1rem;list-style:none;margin:.9rem 0 0;padding:0;font-size:.85rem;color:#3d444d}
.legend li{display:flex;align-items:center;gap:.4rem}
.swatch{width:14px;height:14px;border-radius:50%;display:inline-block;border:2px solid #fff;box-shadow:0 0 0 1px #0002}
.swatch.target{background:#fff;border:2px dashed #1f2328;box-shadow:none}
aside{display:flex;flex-direction:column;gap:1.2rem}
.picker label{display:block;font-size:.85rem;color:#5b6470;margin-bottom:.35rem}
.picker .row{display:flex;gap:.5rem}
.picker select{flex:1;min-width:0;padding:.45rem .35rem;border:1px solid #c9ced6;border-radius:6px;font:inherit;font-size:.88rem;background:#fff}
.picker button{padding:.45rem .8rem;border:0;border-radius:6px;background:#1f2328;color:#fff;font:inherit;cursor:pointer}
.stats{display:grid;grid-template-columns:1fr 1fr;gap:.6rem}
.stat{border:1px solid #eceef1;border-radius:8px;padding:.6rem .7rem}
.stat .label{display:block;font-size:.78rem;color:#5b6470;text-transform:uppercase;letter-spacing:.04em}
.stat .value{display:block;font-size:1.45rem;font-weight:650;margin-top:.1rem}
.stat .note{display:block;font-size:.8rem;color:#5b6470}
/* Text shades of the rank colours, 4.5:1 on white and on the current row */
.good{color:#188038}.bad{color:#c5221f}
.dot{display:inline-block;width:.6rem;height:.6rem;border-radius:50%;margin-right:.35rem;vertical-align:middle}
.distribution{display:flex;height:10px;border-radius:5px;overflow:hidden;margin-top:.9rem;background:#eceef1}
.distribution span{display:block;height:100%}
section.wide{margin-top:1.2rem}
table{width:100%;border-collapse:collapse;font-size:.92rem}
th{text-align:left;font-weight:600;color:#5b6470;font-size:.8rem;text-transform:uppercase;letter-spacing:.04em;border-bottom:1px solid #e3e5e8;padding:.5rem .6rem}
td{border-bottom:1px solid #f0f1f3;padding:.55rem .6rem;vertical-align:middle}
td.num,th.num{text-align:right;font-variant-numeric:tabular-nums}
tr.current td{background:#f6f8fa;font-weight:600}
.threat{display:flex;align-items:center;gap:.5rem;justify-content:flex-end}
.bar{width:80px;height:6px;border-radius:3px;background:#eceef1;overflow:hidden}
.bar span{display:block;height:100%;background:#d93025}
.threat .score{min-width:2.6em;text-align:right}
.muted{color:#5b6470}
.empty{text-align:center;padding:3rem 1.5rem}
.empty h2{font-size:1.3rem}
footer{max-width:1180px;margin:0 auto;padding:0 2rem 2rem;color:#5b6470;font-size:.85rem}
@media (max-width:900px){.layout{grid-template-columns:1fr}main{padding:1rem}}
`;

/** The header band in the agency's colour, its text white or dark by contrast (src/reports/brand.ts). */
function bandStyle(brand: ReportBrand | null): string {
  if (!brand) return '';
  const band = brandColors(brand.color);
  return `.top{background:${band.band};color:${band.onBand};border-bottom:0}.top .kind{color:inherit}.brand img{background:#fff;border-radius:4px;padding:2px}`;
}

function layout(brand: ReportBrand | null, tr: Translator, title: string, body: string): string {
  const logo = brand ? safeUrl(brand.logoUrl) : null;
  const mark = brand ? `${logo ? `<img src="${esc(logo)}" alt="${esc(tr.t('common.logo', { brand: brand.name }))}">` : ''}<span class="brand-name">${esc(brand.name)}</span>` : '';
  return `<!doctype html>
<html lang="${tr.language}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer"><meta name="robots" content="noindex, nofollow">
<title>${esc(brand ? `${title} - ${brand.name}` : title)}</title>
<style>${STYLE}${HISTORY_STYLE}${bandStyle(brand)}</style></head><body>
<header class="top"><div class="brand">${mark}</div><div class="kind">${esc(tr.t('scanReport.kind'))}</div></header>
${body}
${brand ? `<footer>${esc(tr.t('scanReport.prepared', { brand: brand.name }))}</footer>` : ''}
</body></html>`;
}

const reportHref = (uuid: string, q: { keyword?: string; snapshotAt?: Date }): string => {
  const params = new URLSearchParams();
  if (q.keyword !== undefined) params.set('keyword', q.keyword);
  if (q.snapshotAt) params.set('snapshot_at', q.snapshotAt.toISOString());
  const query = params.toString();
  return `/reports/scans/${encodeURIComponent(uuid)}${query ? `?${query}` : ''}`;
};

// ---- the map ---------------------------------------------------------------------------------------------

const SIZE = 640;
const KM_PER_DEGREE = 111.32;
const KM_PER_MILE = 1.609344;

/** A small deterministic generator (from the scan's UUID) for the map's decoration, so a report always looks the same. */
function seeded(seed: string): () => number {
  let h = 2166136261;
  for (const c of seed) h = Math.imul(h ^ c.charCodeAt(0), 16777619);
  return () => {
    h = Math.imul(h ^ (h >>> 15), 2246822507);
    h = Math.imul(h ^ (h >>> 13), 3266489909);
    h ^= h >>> 16;
    return (h >>> 0) / 4294967296;
  };
}

/** The largest 1/2/5 x 10^n not above `x`. */
function niceStep(x: number): number {
  const p = 10 ** Math.floor(Math.log10(x));
  const m = x / p;
  return (m >= 5 ? 5 : m >= 2 ? 2 : 1) * p;
}

/**
 * The grid as SVG: pins projected equirectangularly around the scan's centre (x = delta lng x cos(lat0),
 * y = delta lat, one scale for both), on a neutral street-grid canvas with the scan area, a scale bar and north.
 */
export function gridMap(report: ScanReport, tr: Translator = translator(report.brand.language)): string {
  const { scan, pins } = report;
  const cos0 = Math.cos((scan.lat * Math.PI) / 180);
  const raw = pins.map((p) => ({ p, x: (p.lng - scan.lng) * cos0, y: p.lat - scan.lat }));
  const extent = Math.max(1e-9, ...raw.map((r) => Math.max(Math.abs(r.x), Math.abs(r.y))));
  const n = Math.max(2, scan.gridSize || Math.round(Math.sqrt(pins.length)));
  // Room at the corners for the north arrow and the scale bar, clear of the outer pins.
  const pad = 64;
  const spacing = (SIZE - 2 * pad) / (n - 1);
  const radius = Math.min(26, Math.max(11, spacing * 0.4));
  const scale = (SIZE / 2 - pad) / extent;
  const px = (x: number) => SIZE / 2 + x * scale;
  const py = (y: number) => SIZE / 2 - y * scale;
  const f = (v: number) => v.toFixed(1);

  // Decoration: city blocks of about 40 px, streets half a block off the pins, a few parks; never data.
  const rnd = seeded(scan.uuid);
  const step = spacing / Math.max(1, Math.round(spacing / 40));
  const deco: string[] = [];
  for (let i = -1; i * step < SIZE + step; i++) {
    const c = pad - step / 2 + i * step;
    for (let j = -1; j * step < SIZE + step; j++) {
      if (rnd() < 0.07) deco.push(`<rect x="${f(c)}" y="${f(pad - step / 2 + j * step)}" width="${f(step)}" height="${f(step)}" fill="#d7e8cf"/>`);
    }
  }
  const streets: string[] = [];
  for (let i = -1; i * step < SIZE + step; i++) {
    const c = pad - step / 2 + i * step;
    const w = i % 3 === 0 ? 4.5 : 2;
    streets.push(`<path d="M${f(c)} 0V${SIZE}M0 ${f(c)}H${SIZE}" stroke="#fff" stroke-width="${f(w)}"/>`);
  }
  const avenue = `<path d="M0 ${f(SIZE * (0.25 + rnd() * 0.5))}L${SIZE} ${f(SIZE * (0.25 + rnd() * 0.5))}" stroke="#fbe9b7" stroke-width="7" stroke-linecap="round"/>`;

  const area = raw.length ? `<rect x="${f(pad)}" y="${f(pad)}" width="${f(SIZE - 2 * pad)}" height="${f(SIZE - 2 * pad)}" fill="#1a5fb40a" stroke="#1a5fb4" stroke-opacity=".45" stroke-width="1.5" stroke-dasharray="6 5"/>` : '';

  // Scale bar in the scan's unit, about a fifth of the canvas.
  const kmPerPx = KM_PER_DEGREE / scale;
  const unitKm = scan.distanceUnit === 'miles' ? KM_PER_MILE : 1;
  const barUnits = niceStep((SIZE / 5) * (kmPerPx / unitKm));
  const barPx = (barUnits * unitKm) / kmPerPx;
  const scaleBar = `<g class="scale" transform="translate(16 ${SIZE - 13})"><rect x="-8" y="-17" width="${f(barPx + 16 + 48)}" height="24" rx="4" fill="#ffffffd9"/>
<path d="M0 -4V0H${f(barPx)}V-4" fill="none" stroke="#1f2328" stroke-width="2"/><text x="${f(barPx + 8)}" y="0" font-size="12" fill="#1f2328">${esc(num(tr, barUnits, 3))} ${unitOf(scan.distanceUnit)}</text></g>`;
  const north = `<g class="north" transform="translate(${SIZE - 24} 24)"><circle r="15" fill="#ffffffd9"/><path d="M0 -11L5 3L0 0L-5 3Z" fill="#1f2328"/><text y="11" font-size="9" text-anchor="middle" font-weight="700" fill="#1f2328">N</text></g>`;

  const targetTitle = scan.type === 'sab' ? tr.t('scanReport.gridCentre') : tr.t('scanReport.businessPin', { location: scan.location });
  const target = `<g class="target" transform="translate(${f(px(0))} ${f(py(0))})"><title>${esc(targetTitle)}</title>
<circle r="${f(radius + 8)}" fill="#ffffffb3" stroke="#1f2328" stroke-width="2.5" stroke-dasharray="5 3"/></g>`;

  const pinSvg = raw
    .map(({ p, x, y }) => {
      const label = pinLabel(p);
      const bucket = bucketOf(p);
      const top = p.top
        .slice(0, 3)
        .map((t) => `${t.rank}. ${t.name}`)
        .join('\n');
      // Coordinates as map applications write them (decimal point, comma between), whatever the language.
      const position = `${p.lat.toFixed(5)}, ${p.lng.toFixed(5)}`;
      const where = p.rank == null ? tr.t('scanReport.pinAbsentAt', { position }) : tr.t('scanReport.pinRankAt', { rank: p.rank, position });
      const title = `${where}${top ? `\n${top}` : ''}`;
      const size = label.length > 2 ? radius * 0.62 : radius * 0.82;
      return `<g class="pin" data-bucket="${bucket}" data-rank="${esc(label)}" transform="translate(${f(px(x))} ${f(py(y))})"><title>${esc(title)}</title><circle r="${f(radius)}" fill="${colourOf(bucket)}" stroke="#fff" stroke-width="2.5" filter="url(#pin-shadow)"/><text text-anchor="middle" dy=".35em" font-size="${f(size)}" font-weight="700" fill="#fff">${esc(label)}</text></g>`;
    })
    .join('\n');

  return `<svg class="grid-map" viewBox="0 0 ${SIZE} ${SIZE}" xmlns="http://www.w3.org/2000/svg" role="img" aria-labelledby="map-title">
<title id="map-title">${esc(tr.t('scanReport.mapTitle', { location: scan.location, keyword: report.keyword }))}</title>
<defs><filter id="pin-shadow" x="-50%" y="-50%" width="200%" height="200%"><feDropShadow dx="0" dy="1.5" stdDeviation="1.8" flood-color="#000" flood-opacity=".3"/></filter></defs>
<rect width="${SIZE}" height="${SIZE}" fill="#eceee6"/>
${deco.join('')}
${streets.join('')}
${avenue}
${area}
${target}
${pinSvg}
${scaleBar}
${north}
</svg>`;
}

function legend(report: ScanReport, tr: Translator): string {
  const items = BUCKETS.map((b) => `<li><span class="swatch" style="background:${b.colour}"></span>${esc(tr.t(b.label))}</li>`);
  items.push(`<li><span class="swatch target"></span>${esc(tr.t(report.scan.type === 'sab' ? 'scanReport.gridCentre' : 'scanReport.businessCentre'))}</li>`);
  return `<ul class="legend" aria-label="${esc(tr.t('scanReport.legend'))}">${items.join('')}</ul>`;
}

// ---- the page --------------------------------------------------------------------------------------------

function keywordPicker(report: ScanReport, tr: Translator): string {
  if (report.scan.keywords.length === 0) return '';
  const links = report.scan.keywords.map(
    (k) => `<a href="${esc(reportHref(report.scan.uuid, { keyword: k }))}"${k === report.keyword ? ' aria-current="page"' : ''}>${esc(k)}</a>`,
  );
  return `<nav class="keywords" aria-label="${esc(tr.t('scanReport.keywords'))}"><span class="label">${esc(tr.t('scanReport.keyword'))}</span>${links.join('')}</nav>`;
}

/** The snapshots to choose from: their times as the language writes them, their values ISO timestamps (the links'). */
function snapshotPicker(report: ScanReport, tr: Translator): string {
  const options = report.snapshots.map((s) => {
    const selected = report.snapshot && s.snapshotAt.getTime() === report.snapshot.snapshotAt.getTime();
    return `<option value="${esc(s.snapshotAt.toISOString())}"${selected ? ' selected' : ''}>${esc(snapshotTime(tr, s.snapshotAt))}</option>`;
  });
  return `<form class="picker card" method="get" action="${esc(reportHref(report.scan.uuid, {}))}">
<input type="hidden" name="keyword" value="${esc(report.keyword)}">
<label for="snapshot_at">${esc(tr.t('scanReport.snapshotPicker', { count: report.snapshots.length }))}</label>
<div class="row"><select id="snapshot_at" name="snapshot_at">${options.join('')}</select><button type="submit">${esc(tr.t('scanReport.show'))}</button></div>
</form>`;
}

function changeStat(report: ScanReport, tr: Translator): string {
  const s = report.summary!;
  const label = `<span class="label">${esc(tr.t('scanReport.change'))}</span>`;
  if (s.changeFromPrevious == null || !s.previousSnapshotAt) {
    return `<div class="stat" data-stat="change">${label}<span class="value">-</span><span class="note">${esc(tr.t('scanReport.firstSnapshot'))}</span></div>`;
  }
  const c = s.changeFromPrevious;
  const date = shortDate(tr, s.previousSnapshotAt);
  if (c === 0) return `<div class="stat" data-stat="change">${label}<span class="value">${esc(num(tr, 0))}</span><span class="note">${esc(tr.t('scanReport.noChangeSince', { date }))}</span></div>`;
  // Average rank going down is the business moving up.
  const better = c < 0;
  return `<div class="stat" data-stat="change">${label}<span class="value ${better ? 'good' : 'bad'}">${better ? '&#9650;' : '&#9660;'} ${esc(num(tr, Math.abs(c)))}</span><span class="note">${esc(tr.t(better ? 'scanReport.betterSince' : 'scanReport.worseSince', { date }))}</span></div>`;
}

function summaryCard(report: ScanReport, tr: Translator): string {
  const s = report.summary!;
  const stat = (key: string, label: string, value: string, note: string, dot?: string) =>
    `<div class="stat" data-stat="${key}"><span class="label">${dot ? `<span class="dot" style="background:${dot}"></span>` : ''}${esc(label)}</span><span class="value">${esc(value)}</span><span class="note">${esc(note)}</span></div>`;
  const of = tr.t('scanReport.ofPins', { count: s.totalPins });
  const share = (count: number, colour: string) => (s.totalPins ? `<span style="width:${((100 * count) / s.totalPins).toFixed(2)}%;background:${colour}"></span>` : '');
  const summary = esc(tr.t('scanReport.summary'));
  return `<section class="summary card" aria-label="${summary}"><h2>${summary}</h2>
<div class="stats">
${stat('average-rank', tr.t('scanReport.averageRank'), num(tr, s.averageRank), tr.t('scanReport.absentCounts'))}
${changeStat(report, tr)}
${stat('visibility', tr.t('scanReport.visibility'), percent(tr, s.visibilityScore), tr.t('scanReport.visibilityNote'))}
${stat('top-3', tr.t('scanReport.top3'), num(tr, s.top3), of, colourOf('top3'))}
${stat('top-4-10', tr.t('scanReport.top4to10'), num(tr, s.top4to10), of, colourOf('top10'))}
${stat('not-ranking', tr.t('scanReport.notRanking'), num(tr, s.notRanking), of, colourOf('none'))}
</div>
<div class="distribution" aria-hidden="true">${share(s.top3, colourOf('top3'))}${share(s.top4to10, colourOf('top10'))}${share(s.top11to20, colourOf('top20'))}${share(s.notRanking, colourOf('none'))}</div>
</section>`;
}

function competitorsCard(report: ScanReport, tr: Translator): string {
  const total = report.pins.length;
  const rows = report.competitors.map(
    (c, i) => `<tr><td class="num muted">${esc(num(tr, i + 1))}</td><td class="name">${esc(c.name)}</td><td class="num">${esc(num(tr, c.avgRank))}</td>
<td class="num">${esc(tr.t('scanReport.appearancesOf', { appearances: num(tr, c.appearances), count: total }))} <span class="muted">(${esc(percent(tr, c.coverage))})</span></td>
<td class="num"><div class="threat"><div class="bar"><span style="width:${Math.min(100, Math.max(0, c.threatScore)).toFixed(1)}%"></span></div><span class="score">${esc(num(tr, c.threatScore, 1))}</span></div></td></tr>`,
  );
  const th = (key: MessageKey, cls = ' class="num"') => `<th${cls}>${esc(tr.t(key))}</th>`;
  const body = rows.length
    ? `<table class="competitors"><thead><tr><th class="num">#</th>${th('scanReport.business', '')}${th('scanReport.avgRank')}${th('scanReport.appearances')}${th('scanReport.threatScoreColumn')}</tr></thead><tbody>${rows.join('\n')}</tbody></table>`
    : `<p class="muted">${esc(tr.t('scanReport.noCompetitors'))}</p>`;
  return `<section class="card wide" aria-label="${esc(tr.t('scanReport.topCompetitors'))}"><h2>${esc(tr.t('scanReport.competitorsTable', { keyword: report.keyword }))}</h2>${body}
<p class="muted" style="font-size:.82rem;margin:.7rem 0 0">${esc(tr.t('scanReport.competitorsNote', { location: report.scan.location }))}</p></section>`;
}

function historyCard(report: ScanReport, tr: Translator): string {
  const rows = report.snapshots.map((s: SnapshotRow, i) => {
    const current = report.snapshot && s.snapshotAt.getTime() === report.snapshot.snapshotAt.getTime();
    const first = i === report.snapshots.length - 1;
    const c = s.changeFromPrevious;
    const change = first ? '-' : c === 0 ? esc(num(tr, 0)) : `<span class="${c < 0 ? 'good' : 'bad'}">${c < 0 ? '&#9650; ' : '&#9660; '}${esc(num(tr, Math.abs(c)))}</span>`;
    return `<tr${current ? ' class="current"' : ''}><td><a href="${esc(reportHref(report.scan.uuid, { keyword: report.keyword, snapshotAt: s.snapshotAt }))}">${esc(snapshotTime(tr, s.snapshotAt))}</a></td>
<td class="num">${esc(num(tr, s.avgRank))}</td><td class="num">${change}</td><td class="num">${esc(percent(tr, s.visibilityScore))}</td><td class="num">${esc(num(tr, s.top3Count))}</td><td class="num">${esc(num(tr, s.notRankingCount))}</td></tr>`;
  });
  const th = (key: MessageKey, cls = ' class="num"') => `<th${cls}>${esc(tr.t(key))}</th>`;
  return `<section class="card wide" aria-label="${esc(tr.t('scanReport.history'))}"><h2>${esc(tr.t('scanReport.historyTitle', { keyword: report.keyword }))}</h2>
<table class="history"><thead><tr>${th('scanReport.snapshot', '')}${th('scanReport.avgRank')}${th('scanReport.change')}${th('scanReport.visibility')}${th('scanReport.top3')}${th('scanReport.notRanking')}</tr></thead>
<tbody>${rows.join('\n')}</tbody></table></section>`;
}

function intro(report: ScanReport, tr: Translator): string {
  const s = report.scan;
  const parts = [
    s.address,
    tr.t('scanReport.gridLine', { size: s.gridSize }),
    tr.t('scanReport.radiusLine', { distance: num(tr, s.distance), unit: unitOf(s.distanceUnit) }),
  ].filter(Boolean) as string[];
  return `<section class="intro"><h1>${esc(s.location)}</h1><p class="meta">${parts.map(esc).join(' &middot; ')}</p></section>`;
}

/** Heat maps per snapshot, pins gained and lost, the business and its competitors over time; and the PDF's link. */
function overTime(report: ScanReport, tr: Translator): string {
  const charts = scanCharts(report, tr);
  const pdf = `<p class="pdf-link"><a href="${esc(pdfHref(report))}">${esc(tr.t('scanReport.pdfLink'))}</a></p>`;
  return charts ? `${historySection(report, charts, tr)}\n${pdf}` : pdf;
}

/** The PDF of the report as shown (same keyword and snapshot). */
export const pdfHref = (report: ScanReport): string => {
  const page = reportHref(report.scan.uuid, { keyword: report.keyword, snapshotAt: report.snapshot?.snapshotAt });
  const [path, query] = page.split('?');
  return `${path}.pdf${query ? `?${query}` : ''}`;
};

export function reportPage(report: ScanReport): string {
  const tr = translator(report.brand.language);
  const title = tr.t('scanReport.title', { location: report.scan.location });
  if (!report.snapshot || !report.summary) {
    const heading = esc(tr.t('scanReport.noResults'));
    const yet = tr.html('scanReport.noResultsYet', { location: `<strong>${esc(report.scan.location)}</strong>`, keyword: esc(report.keyword) });
    return layout(
      report.brand,
      tr,
      title,
      `<main>${intro(report, tr)}${keywordPicker(report, tr)}
<section class="card empty" aria-label="${heading}"><h2>${heading}</h2>
<p>${yet}<br>
${esc(tr.t('scanReport.noResultsLater', { size: report.scan.gridSize }))}</p></section></main>`,
    );
  }
  const snap = report.snapshot;
  return layout(
    report.brand,
    tr,
    title,
    `<main>${intro(report, tr)}${keywordPicker(report, tr)}
<div class="layout">
<section class="card map-card" aria-label="${esc(tr.t('scanReport.rankingGrid'))}">
<div class="map-head"><h2>${esc(tr.t('scanReport.rankingsFor', { keyword: report.keyword }))}</h2><span class="when">${esc(snapshotTime(tr, snap.snapshotAt))}</span></div>
${gridMap(report, tr)}
${legend(report, tr)}
</section>
<aside>
${snapshotPicker(report, tr)}
${summaryCard(report, tr)}
</aside>
</div>
${competitorsCard(report, tr)}
${overTime(report, tr)}
${historyCard(report, tr)}
</main>`,
  );
}

/**
 * Unknown scans, keywords and snapshots: a page with the right status, in the scan's brand and language when there
 * is one (English otherwise); `title` and `message` already in that language (`translator(brand?.language)`).
 */
export function reportMessagePage(brand: ReportBrand | null, title: string, message: string, link?: { href: string; label: string }): string {
  return layout(
    brand,
    translator(brand?.language),
    title,
    `<main><section class="card empty"><h2>${esc(title)}</h2><p>${esc(message)}</p>${link ? `<p><a href="${esc(link.href)}">${esc(link.label)}</a></p>` : ''}</section></main>`,
  );
}

export const latestReportHref = (uuid: string): string => reportHref(uuid, {});
