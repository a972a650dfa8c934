import type { ComponentChildren, VNode } from 'preact';
import { translator, type MessageKey, type Translator } from '../../src/i18n';
import { brandColors } from '../../src/reports/brand';
import { CHANGE_COLORS, RANK_COLORS, scanCharts, shortDate, snapshotTime, untracked, type ScanCharts } from '../../src/reports/scan';
import { scanReportPath } from '../../src/reports/links';
import type { ReportBrand, ReportPin, ScanReport, SnapshotRow } from '../../src/reports/types';
import { Chart, Layout, Msg, logoSrc } from './layout';

/**
 * The white-label scan report as Preact components in the pages' Layout: the grid as inline SVG on a map-like
 * canvas, pickers as plain links and a GET form, the summary, competitors and history. The renderer escapes every
 * value; the one markup taken as it is, is the SVG of the charts that src/reports draws on the server. No script runs.
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
const UP = '\u25B2';
const DOWN = '\u25BC';

// The renderer escapes `"` in a <style>: font names stay unquoted.
const STYLE = `
*{box-sizing:border-box}
body{font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;background:#f3f4f6;margin:0;color:#1f2328;line-height:1.45}
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
.history-charts h3{font-size:.95rem;margin:1.3rem 0 .4rem}
.history-charts figure{margin:0}.history-charts figure svg{display:block;max-width:100%;height:auto}
.history-charts figcaption{color:#5b6470;font-size:.82rem;margin-top:.2rem}
.heatmaps{display:grid;grid-template-columns:repeat(auto-fill,minmax(200px,1fr));gap:1rem}
.changes-counts{display:flex;gap:1.4rem;list-style:none;padding:0;margin:.3rem 0 .8rem}
.changes-body{display:grid;grid-template-columns:minmax(0,280px) 1fr;gap:1.4rem;align-items:start}
.overtakers{margin:.3rem 0;padding-left:1.3rem}
@media (max-width:700px){.changes-body{grid-template-columns:1fr}}
`;

/** The header band in the agency's colour, its text white or dark by contrast (src/reports/brand.ts). */
function bandStyle(brand: ReportBrand | null): string | undefined {
  if (!brand) return undefined;
  const band = brandColors(brand.color);
  return `.top{background:${band.band};color:${band.onBand};border-bottom:0}.top .kind{color:inherit}.brand img{background:#fff;border-radius:4px;padding:2px}`;
}

/** The report's frame in the one Layout: its own stylesheet, the brand band with the kind of report, the footer. */
function ReportLayout({ brand, title, children }: { brand: ReportBrand | null; title: string; children: ComponentChildren }): VNode {
  const tr = translator(brand?.language);
  const logo = brand ? logoSrc(brand.logoUrl) : null;
  const header = (
    <header class="top">
      <div class="brand">
        {logo ? <img src={logo} alt={tr.t('common.logo', { brand: brand!.name })} /> : null}
        {brand ? <span class="brand-name">{brand.name}</span> : null}
      </div>
      <div class="kind">{tr.t('scanReport.kind')}</div>
    </header>
  );
  return (
    <Layout
      brand={brand}
      title={title}
      robots="noindex, nofollow"
      base={STYLE}
      style={bandStyle(brand)}
      header={header}
      footer={brand ? <footer>{tr.t('scanReport.prepared', { brand: brand.name })}</footer> : null}
    >
      {children}
    </Layout>
  );
}

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

const f = (v: number) => v.toFixed(1);

/** A longitude difference `lng - from` the short way round, in (-180, 180]: a grid across the antimeridian stays whole. */
export function lngDelta(lng: number, from: number): number {
  const r = (((lng - from) % 360) + 360) % 360;
  return r > 180 ? r - 360 : r;
}

/** A pin's offset from the scan's centre in degrees of latitude: x east (delta lng x cos(lat0)), y north. */
export function projectPin(centre: { lat: number; lng: number }, pin: { lat: number; lng: number }, cos0 = Math.cos((centre.lat * Math.PI) / 180)): { x: number; y: number } {
  return { x: lngDelta(pin.lng, centre.lng) * cos0, y: pin.lat - centre.lat };
}

/**
 * The grid as SVG: pins projected equirectangularly around the scan's centre (x = delta lng x cos(lat0),
 * y = delta lat, one scale for both), on a neutral street-grid canvas with the scan area, a scale bar and north.
 */
export function GridMap({ report, tr }: { report: ScanReport; tr: Translator }): VNode {
  const { scan, pins } = report;
  const cos0 = Math.cos((scan.lat * Math.PI) / 180);
  const raw = pins.map((p) => ({ p, ...projectPin(scan, p, cos0) }));
  const extent = Math.max(1e-9, ...raw.map((r) => Math.max(Math.abs(r.x), Math.abs(r.y))));
  const n = Math.max(2, scan.gridSize || Math.round(Math.sqrt(pins.length)));
  // Room at the corners for the north arrow and the scale bar, clear of the outer pins.
  const pad = 64;
  const spacing = (SIZE - 2 * pad) / (n - 1);
  const radius = Math.min(26, Math.max(11, spacing * 0.4));
  const scale = (SIZE / 2 - pad) / extent;
  const px = (x: number) => SIZE / 2 + x * scale;
  const py = (y: number) => SIZE / 2 - y * scale;

  // Decoration: city blocks of about 40 px, streets half a block off the pins, a few parks; never data.
  const rnd = seeded(scan.uuid);
  const step = spacing / Math.max(1, Math.round(spacing / 40));
  const parks: VNode[] = [];
  for (let i = -1; i * step < SIZE + step; i++) {
    const c = pad - step / 2 + i * step;
    for (let j = -1; j * step < SIZE + step; j++) {
      if (rnd() < 0.07) parks.push(<rect x={f(c)} y={f(pad - step / 2 + j * step)} width={f(step)} height={f(step)} fill="#d7e8cf" />);
    }
  }
  const streets: VNode[] = [];
  for (let i = -1; i * step < SIZE + step; i++) {
    const c = pad - step / 2 + i * step;
    const w = i % 3 === 0 ? 4.5 : 2;
    streets.push(<path d={`M${f(c)} 0V${SIZE}M0 ${f(c)}H${SIZE}`} stroke="#fff" stroke-width={f(w)} />);
  }
  const avenueFrom = f(SIZE * (0.25 + rnd() * 0.5));
  const avenueTo = f(SIZE * (0.25 + rnd() * 0.5));

  // Scale bar in the scan's unit, about a fifth of the canvas.
  const kmPerPx = KM_PER_DEGREE / scale;
  const unitKm = scan.distanceUnit === 'miles' ? KM_PER_MILE : 1;
  const barUnits = niceStep((SIZE / 5) * (kmPerPx / unitKm));
  const barPx = (barUnits * unitKm) / kmPerPx;

  const targetTitle = scan.type === 'sab' ? tr.t('scanReport.gridCentre') : tr.t('scanReport.businessPin', { location: scan.location });

  return (
    <svg class="grid-map" viewBox={`0 0 ${SIZE} ${SIZE}`} xmlns="http://www.w3.org/2000/svg" role="img" aria-labelledby="map-title">
      <title id="map-title">{tr.t('scanReport.mapTitle', { location: scan.location, keyword: report.keyword })}</title>
      <defs>
        <filter id="pin-shadow" x="-50%" y="-50%" width="200%" height="200%">
          <feDropShadow dx="0" dy="1.5" stdDeviation="1.8" flood-color="#000" flood-opacity=".3" />
        </filter>
      </defs>
      <rect width={SIZE} height={SIZE} fill="#eceee6" />
      {parks}
      {streets}
      <path d={`M0 ${avenueFrom}L${SIZE} ${avenueTo}`} stroke="#fbe9b7" stroke-width="7" stroke-linecap="round" />
      {raw.length ? (
        <rect x={f(pad)} y={f(pad)} width={f(SIZE - 2 * pad)} height={f(SIZE - 2 * pad)} fill="#1a5fb40a" stroke="#1a5fb4" stroke-opacity=".45" stroke-width="1.5" stroke-dasharray="6 5" />
      ) : null}
      <g class="target" transform={`translate(${f(px(0))} ${f(py(0))})`}>
        <title>{targetTitle}</title>
        <circle r={f(radius + 8)} fill="#ffffffb3" stroke="#1f2328" stroke-width="2.5" stroke-dasharray="5 3" />
      </g>
      {raw.map(({ p, x, y }) => (
        <Pin pin={p} x={px(x)} y={py(y)} radius={radius} tr={tr} />
      ))}
      <g class="scale" transform={`translate(16 ${SIZE - 13})`}>
        <rect x="-8" y="-17" width={f(barPx + 16 + 48)} height="24" rx="4" fill="#ffffffd9" />
        <path d={`M0 -4V0H${f(barPx)}V-4`} fill="none" stroke="#1f2328" stroke-width="2" />
        <text x={f(barPx + 8)} y="0" font-size="12" fill="#1f2328">{`${num(tr, barUnits, 3)} ${unitOf(scan.distanceUnit)}`}</text>
      </g>
      <g class="north" transform={`translate(${SIZE - 24} 24)`}>
        <circle r="15" fill="#ffffffd9" />
        <path d="M0 -11L5 3L0 0L-5 3Z" fill="#1f2328" />
        <text y="11" font-size="9" text-anchor="middle" font-weight="700" fill="#1f2328">
          N
        </text>
      </g>
    </svg>
  );
}

function Pin({ pin, x, y, radius, tr }: { pin: ReportPin; x: number; y: number; radius: number; tr: Translator }): VNode {
  const label = pinLabel(pin);
  const bucket = bucketOf(pin);
  const top = pin.top
    .slice(0, 3)
    .map((t) => `${t.rank}. ${t.name}`)
    .join('\n');
  // Coordinates as map applications write them (decimal point, comma between), whatever the language.
  const position = `${pin.lat.toFixed(5)}, ${pin.lng.toFixed(5)}`;
  const where = pin.rank == null ? tr.t('scanReport.pinAbsentAt', { position }) : tr.t('scanReport.pinRankAt', { rank: pin.rank, position });
  const size = label.length > 2 ? radius * 0.62 : radius * 0.82;
  return (
    <g class="pin" data-bucket={bucket} data-rank={label} transform={`translate(${f(x)} ${f(y)})`}>
      <title>{`${where}${top ? `\n${top}` : ''}`}</title>
      <circle r={f(radius)} fill={colourOf(bucket)} stroke="#fff" stroke-width="2.5" filter="url(#pin-shadow)" />
      <text text-anchor="middle" dy=".35em" font-size={f(size)} font-weight="700" fill="#fff">
        {label}
      </text>
    </g>
  );
}

function Legend({ report, tr }: { report: ScanReport; tr: Translator }): VNode {
  return (
    <ul class="legend" aria-label={tr.t('scanReport.legend')}>
      {BUCKETS.map((b) => (
        <li>
          <span class="swatch" style={`background:${b.colour}`}></span>
          {tr.t(b.label)}
        </li>
      ))}
      <li>
        <span class="swatch target"></span>
        {tr.t(report.scan.type === 'sab' ? 'scanReport.gridCentre' : 'scanReport.businessCentre')}
      </li>
    </ul>
  );
}

// ---- the page --------------------------------------------------------------------------------------------

function KeywordPicker({ report, tr }: { report: ScanReport; tr: Translator }): VNode | null {
  if (report.scan.keywords.length === 0) return null;
  return (
    <nav class="keywords" aria-label={tr.t('scanReport.keywords')}>
      <span class="label">{tr.t('scanReport.keyword')}</span>
      {report.scan.keywords.map((k) => (
        <a href={scanReportPath(report.scan.uuid, { keyword: k })} aria-current={k === report.keyword ? 'page' : undefined}>
          {k}
        </a>
      ))}
    </nav>
  );
}

const sameSnapshot = (report: ScanReport, s: SnapshotRow): boolean => !!report.snapshot && s.snapshotAt.getTime() === report.snapshot.snapshotAt.getTime();

/** The snapshots to choose from: their times as the language writes them, their values ISO timestamps (the links'). */
function SnapshotPicker({ report, tr }: { report: ScanReport; tr: Translator }): VNode {
  return (
    <form class="picker card" method="get" action={scanReportPath(report.scan.uuid, {})}>
      <input type="hidden" name="keyword" value={report.keyword} />
      <label for="snapshot_at">{tr.t('scanReport.snapshotPicker', { count: report.snapshots.length })}</label>
      <div class="row">
        <select id="snapshot_at" name="snapshot_at">
          {report.snapshots.map((s) => (
            <option value={s.snapshotAt.toISOString()} selected={sameSnapshot(report, s)}>
              {snapshotTime(tr, s.snapshotAt)}
            </option>
          ))}
        </select>
        <button type="submit">{tr.t('scanReport.show')}</button>
      </div>
    </form>
  );
}

function Stat(props: { stat: string; label: string; value: string; valueClass?: string; note: string; dot?: string }): VNode {
  return (
    <div class="stat" data-stat={props.stat}>
      <span class="label">
        {props.dot ? <span class="dot" style={`background:${props.dot}`}></span> : null}
        {props.label}
      </span>
      <span class={props.valueClass ? `value ${props.valueClass}` : 'value'}>{props.value}</span>
      <span class="note">{props.note}</span>
    </div>
  );
}

function ChangeStat({ report, tr }: { report: ScanReport; tr: Translator }): VNode {
  const s = report.summary!;
  const label = tr.t('scanReport.change');
  if (s.changeFromPrevious == null || !s.previousSnapshotAt) return <Stat stat="change" label={label} value="-" note={tr.t('scanReport.firstSnapshot')} />;
  const c = s.changeFromPrevious;
  const date = shortDate(tr, s.previousSnapshotAt);
  if (c === 0) return <Stat stat="change" label={label} value={num(tr, 0)} note={tr.t('scanReport.noChangeSince', { date })} />;
  // Average rank going down is the business moving up.
  const better = c < 0;
  const value = `${better ? UP : DOWN} ${num(tr, Math.abs(c))}`;
  return <Stat stat="change" label={label} value={value} valueClass={better ? 'good' : 'bad'} note={tr.t(better ? 'scanReport.betterSince' : 'scanReport.worseSince', { date })} />;
}

function SummaryCard({ report, tr }: { report: ScanReport; tr: Translator }): VNode {
  const s = report.summary!;
  const of = tr.t('scanReport.ofPins', { count: s.totalPins });
  const share = (count: number, colour: string) => (s.totalPins ? <span style={`width:${((100 * count) / s.totalPins).toFixed(2)}%;background:${colour}`}></span> : null);
  const summary = tr.t('scanReport.summary');
  return (
    <section class="summary card" aria-label={summary}>
      <h2>{summary}</h2>
      <div class="stats">
        <Stat stat="average-rank" label={tr.t('scanReport.averageRank')} value={num(tr, s.averageRank)} note={tr.t('scanReport.absentCounts')} />
        <ChangeStat report={report} tr={tr} />
        <Stat stat="visibility" label={tr.t('scanReport.visibility')} value={percent(tr, s.visibilityScore)} note={tr.t('scanReport.visibilityNote')} />
        <Stat stat="top-3" label={tr.t('scanReport.top3')} value={num(tr, s.top3)} note={of} dot={colourOf('top3')} />
        <Stat stat="top-4-10" label={tr.t('scanReport.top4to10')} value={num(tr, s.top4to10)} note={of} dot={colourOf('top10')} />
        <Stat stat="not-ranking" label={tr.t('scanReport.notRanking')} value={num(tr, s.notRanking)} note={of} dot={colourOf('none')} />
      </div>
      <div class="distribution" aria-hidden="true">
        {share(s.top3, colourOf('top3'))}
        {share(s.top4to10, colourOf('top10'))}
        {share(s.top11to20, colourOf('top20'))}
        {share(s.notRanking, colourOf('none'))}
      </div>
    </section>
  );
}

/** A table's column headings, numbers' columns right-aligned. */
function Headings({ tr, keys }: { tr: Translator; keys: Array<[MessageKey, 'num'?]> }): VNode {
  return <>{keys.map(([key, cls]) => <th class={cls}>{tr.t(key)}</th>)}</>;
}

function CompetitorsCard({ report, tr }: { report: ScanReport; tr: Translator }): VNode {
  const total = report.pins.length;
  return (
    <section class="card wide" aria-label={tr.t('scanReport.topCompetitors')}>
      <h2>{tr.t('scanReport.competitorsTable', { keyword: report.keyword })}</h2>
      {report.competitors.length ? (
        <table class="competitors">
          <thead>
            <tr>
              <th class="num">#</th>
              <Headings tr={tr} keys={[['scanReport.business'], ['scanReport.avgRank', 'num'], ['scanReport.appearances', 'num'], ['scanReport.threatScoreColumn', 'num']]} />
            </tr>
          </thead>
          <tbody>
            {report.competitors.map((c, i) => (
              <tr>
                <td class="num muted">{num(tr, i + 1)}</td>
                <td class="name">{c.name}</td>
                <td class="num">{num(tr, c.avgRank)}</td>
                <td class="num">
                  {tr.t('scanReport.appearancesOf', { appearances: num(tr, c.appearances), count: total })} <span class="muted">({percent(tr, c.coverage)})</span>
                </td>
                <td class="num">
                  <div class="threat">
                    <div class="bar">
                      <span style={`width:${Math.min(100, Math.max(0, c.threatScore)).toFixed(1)}%`}></span>
                    </div>
                    <span class="score">{num(tr, c.threatScore, 1)}</span>
                  </div>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : (
        <p class="muted">{tr.t('scanReport.noCompetitors')}</p>
      )}
      <p class="muted" style="font-size:.82rem;margin:.7rem 0 0">
        {tr.t('scanReport.competitorsNote', { location: report.scan.location })}
      </p>
    </section>
  );
}

function HistoryCard({ report, tr }: { report: ScanReport; tr: Translator }): VNode {
  const last = report.snapshots.length - 1;
  return (
    <section class="card wide" aria-label={tr.t('scanReport.history')}>
      <h2>{tr.t('scanReport.historyTitle', { keyword: report.keyword })}</h2>
      <table class="history">
        <thead>
          <tr>
            <Headings
              tr={tr}
              keys={[['scanReport.snapshot'], ['scanReport.avgRank', 'num'], ['scanReport.change', 'num'], ['scanReport.visibility', 'num'], ['scanReport.top3', 'num'], ['scanReport.notRanking', 'num']]}
            />
          </tr>
        </thead>
        <tbody>
          {report.snapshots.map((s, i) => {
            const c = s.changeFromPrevious;
            const change = i === last || !s.ranked ? '-' : c === 0 ? num(tr, 0) : <span class={c < 0 ? 'good' : 'bad'}>{`${c < 0 ? UP : DOWN} ${num(tr, Math.abs(c))}`}</span>;
            // Taken while the scan tracked no business: no figure of it (its zeros are no rank).
            const figure = (text: string) => (s.ranked ? text : '-');
            return (
              <tr class={sameSnapshot(report, s) ? 'current' : undefined}>
                <td>
                  <a href={scanReportPath(report.scan.uuid, { keyword: report.keyword, snapshotAt: s.snapshotAt })}>{snapshotTime(tr, s.snapshotAt)}</a>
                </td>
                <td class="num">{figure(num(tr, s.avgRank))}</td>
                <td class="num">{change}</td>
                <td class="num">{figure(percent(tr, s.visibilityScore))}</td>
                <td class="num">{figure(num(tr, s.top3Count))}</td>
                <td class="num">{figure(num(tr, s.notRankingCount))}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </section>
  );
}

function Intro({ report, tr }: { report: ScanReport; tr: Translator }): VNode {
  const s = report.scan;
  const parts = [
    s.address,
    tr.t('scanReport.gridLine', { size: s.gridSize }),
    tr.t('scanReport.radiusLine', { distance: num(tr, s.distance), unit: unitOf(s.distanceUnit) }),
  ].filter(Boolean) as string[];
  return (
    <section class="intro">
      <h1>{s.location}</h1>
      <p class="meta">{parts.join(' \u00B7 ')}</p>
    </section>
  );
}

/** Heat maps per snapshot, pins gained and lost, the business and its competitors over time. */
function HistorySection({ report, charts, tr }: { report: ScanReport; charts: ScanCharts; tr: Translator }): VNode {
  const history = report.history!;
  const previous = history.changes ? snapshotTime(tr, history.changes.previousSnapshotAt) : null;
  const count = (change: 'gained' | 'lost' | 'same', n: number) => (
    <li data-change={change}>
      <span class="dot" style={`background:${CHANGE_COLORS[change]}`}></span>
      {tr.t(`scanReport.${change}`)}: <strong>{n}</strong>
    </li>
  );
  return (
    <section class="card wide history-charts" aria-labelledby="over-time" lang={tr.language}>
      <h2 id="over-time">{tr.t('scanReport.overTime')}</h2>
      <h3>{tr.t('scanReport.heatmapsTitle')}</h3>
      <p class="muted">{tr.t('scanReport.heatmapsIntro', { count: charts.heatmaps.length })}</p>
      <div class="heatmaps">
        {charts.heatmaps.map((h) => (
          <Chart svg={h.svg} caption={h.when} />
        ))}
      </div>
      <h3>{previous ? tr.t('scanReport.changesTitle', { date: previous }) : tr.t('scanReport.changesTitleFirst')}</h3>
      {history.changes ? (
        <>
          <ul class="changes-counts">
            {count('gained', history.changes.gained)}
            {count('lost', history.changes.lost)}
            {count('same', history.changes.same)}
          </ul>
          <div class="changes-body">
            <Chart svg={charts.changes!} caption={tr.t('scanReport.changesMap', { date: previous! })} />
            <div>
              <h3>{tr.t('scanReport.overtakersTitle')}</h3>
              {history.overtakers.length ? (
                <ol class="overtakers">
                  {history.overtakers.map((o) => (
                    <li>
                      {o.name} <span class="muted">({tr.t('scanReport.pins', { count: o.pins })})</span>
                    </li>
                  ))}
                </ol>
              ) : (
                <p class="muted">{tr.t('scanReport.overtakersNone')}</p>
              )}
            </div>
          </div>
        </>
      ) : (
        <p class="muted">{tr.t('scanReport.changesFirst')}</p>
      )}
      <h3>{tr.t('scanReport.competitorsTitle')}</h3>
      <p class="muted">{tr.t('scanReport.trendIntro', { count: history.trend.length })}</p>
      {charts.rankTrend && charts.visibilityTrend ? (
        <>
          <Chart svg={charts.rankTrend} caption={tr.t('scanReport.rankTrendTitle')} />
          <Chart svg={charts.visibilityTrend} caption={tr.t('scanReport.visibilityTrendTitle')} />
        </>
      ) : (
        <p class="muted">{tr.t('scanReport.notEnough')}</p>
      )}
    </section>
  );
}

/** The history charts when there is history, and the PDF's link. */
function OverTime({ report, tr }: { report: ScanReport; tr: Translator }): VNode {
  const charts = scanCharts(report, tr);
  return (
    <>
      {charts ? <HistorySection report={report} charts={charts} tr={tr} /> : null}
      <p class="pdf-link">
        <a href={pdfHref(report)}>{tr.t('scanReport.pdfLink')}</a>
      </p>
    </>
  );
}

/** The PDF of the report as shown (same keyword and snapshot). */
export const pdfHref = (report: ScanReport): string =>
  scanReportPath(report.scan.uuid, { keyword: report.keyword, snapshotAt: report.snapshot?.snapshotAt }, 'pdf');

/** A report page without a heat map: the intro and keyword picker, a card saying why, and what follows it. */
function NoGridPage(props: { report: ScanReport; tr: Translator; title: string; heading: string; children: ComponentChildren; after?: ComponentChildren }): VNode {
  const { report, tr } = props;
  return (
    <ReportLayout brand={report.brand} title={props.title}>
      <Intro report={report} tr={tr} />
      <KeywordPicker report={report} tr={tr} />
      <section class="card empty" aria-label={props.heading}>
        <h2>{props.heading}</h2>
        <p>{props.children}</p>
      </section>
      {props.after}
    </ReportLayout>
  );
}

export function ReportPage({ report }: { report: ScanReport }): VNode {
  const tr = translator(report.brand.language);
  const title = tr.t('scanReport.title', { location: report.scan.location });
  // A snapshot of a scan without a business to track: no rank, heat map or history of one; the businesses that rank.
  if (untracked(report)) {
    return (
      <NoGridPage report={report} tr={tr} title={title} heading={tr.t('scanReport.untrackedTitle')} after={<CompetitorsCard report={report} tr={tr} />}>
        {tr.t('scanReport.untrackedText', { location: report.scan.location })}
      </NoGridPage>
    );
  }
  if (!report.snapshot || !report.summary) {
    return (
      <NoGridPage report={report} tr={tr} title={title} heading={tr.t('scanReport.noResults')}>
        <Msg tr={tr} k="scanReport.noResultsYet" vars={{ location: <strong>{report.scan.location}</strong>, keyword: report.keyword }} />
        <br />
        {tr.t('scanReport.noResultsLater', { size: report.scan.gridSize })}
      </NoGridPage>
    );
  }
  return (
    <ReportLayout brand={report.brand} title={title}>
      <Intro report={report} tr={tr} />
      <KeywordPicker report={report} tr={tr} />
      <div class="layout">
        <section class="card map-card" aria-label={tr.t('scanReport.rankingGrid')}>
          <div class="map-head">
            <h2>{tr.t('scanReport.rankingsFor', { keyword: report.keyword })}</h2>
            <span class="when">{snapshotTime(tr, report.snapshot.snapshotAt)}</span>
          </div>
          <GridMap report={report} tr={tr} />
          <Legend report={report} tr={tr} />
        </section>
        <aside>
          <SnapshotPicker report={report} tr={tr} />
          <SummaryCard report={report} tr={tr} />
        </aside>
      </div>
      <CompetitorsCard report={report} tr={tr} />
      <OverTime report={report} tr={tr} />
      <HistoryCard report={report} tr={tr} />
    </ReportLayout>
  );
}

/**
 * Unknown scans, keywords and snapshots: a page with the right status, in the scan's brand and language when there
 * is one (English otherwise); `title` and `message` already in that language (`translator(brand?.language)`).
 */
export function ReportMessagePage(props: { brand: ReportBrand | null; title: string; message: string; link?: { href: string; label: string } }): VNode {
  return (
    <ReportLayout brand={props.brand} title={props.title}>
      <section class="card empty">
        <h2>{props.title}</h2>
        <p>{props.message}</p>
        {props.link ? (
          <p>
            <a href={props.link.href}>{props.link.label}</a>
          </p>
        ) : null}
      </section>
    </ReportLayout>
  );
}

export const latestReportHref = (uuid: string): string => scanReportPath(uuid, {});
