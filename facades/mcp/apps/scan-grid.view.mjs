/* global document, window, setTimeout, clearTimeout */
// The scan-grid View (MCP Apps): the heat map of a Local Search Grid scan, rendered in the host's sandboxed iframe from
// the get_scan (or create_scan / run_scan) result the host hands over. Bundled by facades/mcp/apps/bundle.ts with
// esbuild and inlined into the `ui://reviewgrid/scan-grid.html` resource (facades/mcp/apps/index.ts): no request
// leaves the frame except map tiles when the server configures them. The document carries the agency's brand and the
// tile settings in `#scan-grid-config`; every value from a tool result goes into the DOM as text, never as markup.
//
// The keyword and snapshot pickers ask the server again through the host (App.callServerTool): a snapshot is a new
// get_scan; a keyword's own summary is get_scan_insights for that keyword and snapshot (get_scan's pins cover every
// keyword already, and its summary is over all of them).
import './no-eval.mjs';
import { App, PostMessageTransport, applyDocumentTheme, applyHostStyleVariables } from '@modelcontextprotocol/ext-apps/app-with-deps';
import { BUCKETS, bucketCounts, bucketOf, colourOf, layoutGrid, pinLabel, tilesFor, tileUrl } from './scan-grid.layout';

const SVG = 'http://www.w3.org/2000/svg';
const WIDTH = 640;
const HEIGHT = 520;
const TOP_N = 3;
/** Polling a running scan: the first look soon, then less often, and not for ever (the run takes minutes). */
const POLL_DELAYS_MS = [2_000, 3_000, 5_000, 10_000, 15_000, 30_000];
const POLL_FOR_MS = 20 * 60_000;

const config = JSON.parse(document.getElementById('scan-grid-config').textContent);
const $ = (id) => document.getElementById(id);
const root = $('app');

const state = {
  uuid: null,
  /** get_scan's structuredContent for the snapshot shown. */
  detail: null,
  keyword: null,
  /** The snapshot shown (ISO time), null = the latest. */
  snapshot: null,
  /** Summaries per `${keyword}|${snapshot}` from get_scan_insights. */
  summaries: new Map(),
  busy: 0,
  pollTimer: null,
  pollStarted: 0,
  pollStep: 0,
  locale: undefined,
  timeZone: undefined,
};

function el(tag, attrs = {}, text) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  if (text !== undefined) node.textContent = text;
  return node;
}

function svg(tag, attrs = {}, text) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  if (text !== undefined) node.textContent = text;
  return node;
}

const fmtTime = (iso) => {
  try {
    return new Intl.DateTimeFormat(state.locale, { dateStyle: 'medium', timeStyle: 'short', timeZone: state.timeZone }).format(new Date(iso));
  } catch {
    return iso;
  }
};
const fmtNum = (n, digits = 1) => (n == null ? '-' : Number(n).toFixed(digits).replace(/\.0+$/, ''));

function setStatus(text, kind = 'info') {
  const status = $('status');
  status.textContent = text;
  status.dataset.kind = kind;
  status.hidden = !text;
}

function setBusy(delta) {
  state.busy += delta;
  root.dataset.busy = String(state.busy > 0);
}

/** The text of a tool error result (`{"error": {reason, message}}`), or of any text content. */
function errorText(result) {
  const text = (result.content || []).find((c) => c.type === 'text')?.text || 'The server refused the request.';
  try {
    const parsed = JSON.parse(text);
    return parsed?.error?.message || text;
  } catch {
    return text;
  }
}

async function callTool(name, args) {
  setBusy(1);
  try {
    const result = await app.callServerTool({ name, arguments: args });
    if (result.isError) throw new Error(errorText(result));
    return result.structuredContent;
  } finally {
    setBusy(-1);
  }
}

// ---- what the host hands over --------------------------------------------------------------------------------

/** A tool result: a scan detail (get_scan) or a started run (create_scan, run_scan). */
function receive(result) {
  if (result.isError) {
    root.dataset.state = 'error';
    setStatus(errorText(result), 'error');
    return;
  }
  const sc = result.structuredContent || {};
  if (Array.isArray(sc.results)) {
    state.uuid = sc.uuid;
    showDetail(sc, state.snapshot);
    if (sc.is_running) startPolling();
  } else if (typeof sc.uuid === 'string') {
    // A run was queued: the grid appears when it completes.
    state.uuid = sc.uuid;
    root.dataset.state = 'running';
    $('title').textContent = 'Scan queued';
    setStatus('The scan is running: the grid appears here when its first snapshot is complete.');
    startPolling();
  }
}

function showDetail(detail, snapshot) {
  state.detail = detail;
  state.snapshot = snapshot && detail.available_snapshots.includes(snapshot) ? snapshot : detail.available_snapshots[0] || null;
  if (!state.keyword || !detail.keywords.includes(state.keyword)) state.keyword = detail.keyword;
  render();
  void ensureSummary();
}

// ---- polling a running scan ----------------------------------------------------------------------------------

function startPolling() {
  if (state.pollTimer) return;
  state.pollStarted = Date.now();
  state.pollStep = 0;
  schedulePoll();
}

function stopPolling() {
  if (state.pollTimer) clearTimeout(state.pollTimer);
  state.pollTimer = null;
}

function schedulePoll() {
  const delay = POLL_DELAYS_MS[Math.min(state.pollStep, POLL_DELAYS_MS.length - 1)];
  state.pollStep++;
  state.pollTimer = setTimeout(async () => {
    state.pollTimer = null;
    try {
      const detail = await callTool('get_scan', { uuid: state.uuid, top_n: TOP_N });
      const before = state.detail;
      const newer = !before || detail.available_snapshots[0] !== before.available_snapshots[0];
      // A new snapshot is shown as soon as it is out; the one picked stays otherwise.
      if (newer || detail.is_running !== before.is_running) showDetail(detail, newer ? null : state.snapshot);
      if (!detail.is_running) return;
    } catch (err) {
      setStatus(`Could not check the scan: ${err.message}`, 'error');
    }
    if (Date.now() - state.pollStarted < POLL_FOR_MS) schedulePoll();
    else setStatus('The scan is still running. Ask again later for its results.');
  }, delay);
}

// ---- pickers -------------------------------------------------------------------------------------------------

async function onKeyword(keyword) {
  state.keyword = keyword;
  render();
  await ensureSummary();
}

async function onSnapshot(snapshot) {
  try {
    const detail = await callTool('get_scan', { uuid: state.uuid, snapshot_at: snapshot, top_n: TOP_N });
    showDetail(detail, snapshot);
  } catch (err) {
    setStatus(`Could not load that snapshot: ${err.message}`, 'error');
    render();
  }
}

/**
 * The summary of the keyword shown: get_scan's own when the scan has one keyword (it is that keyword's), else
 * get_scan_insights for the keyword and snapshot, asked once per pair.
 */
async function ensureSummary() {
  const d = state.detail;
  if (!d || !state.snapshot || d.keywords.length <= 1) return;
  const key = `${state.keyword}|${state.snapshot}`;
  if (state.summaries.has(key)) return;
  try {
    const insights = await callTool('get_scan_insights', { uuid: d.uuid, keyword: state.keyword, snapshot_at: state.snapshot });
    const s = insights.summary;
    state.summaries.set(
      key,
      s && { averageRank: s.avg_rank, top3: s.top_3_pins, top4to10: s.top_10_pins - s.top_3_pins, notRanking: s.not_ranking, pins: s.total_pins, visibility: s.visibility_score },
    );
  } catch (err) {
    setStatus(`Could not load the summary of "${state.keyword}": ${err.message}`, 'error');
    return;
  }
  if (key === `${state.keyword}|${state.snapshot}`) renderSummary();
}

function currentSummary() {
  const d = state.detail;
  if (d.keywords.length <= 1) {
    const s = d.summary;
    return s && { averageRank: s.average_rank, top3: s.top_3_count, top4to10: s.top_4_to_10_count, notRanking: s.not_ranking_count, pins: d.results.length, visibility: null };
  }
  return state.summaries.get(`${state.keyword}|${state.snapshot}`);
}

// ---- rendering -----------------------------------------------------------------------------------------------

function render() {
  const d = state.detail;
  if (!d) return;
  root.dataset.state = d.available_snapshots.length ? 'ready' : 'empty';
  root.dataset.keyword = state.keyword || '';
  root.dataset.snapshot = state.snapshot || '';
  $('title').textContent = d.location;
  $('subtitle').textContent = `${d.grid_size} x ${d.grid_size} grid${state.snapshot ? ` · ${fmtTime(state.snapshot)}` : ''}`;
  renderPickers(d);
  renderSummary();
  const pins = d.results.filter((p) => p.keyword === state.keyword);
  renderMap(pins, d.grid_size);
  renderLegend(pins);
  // get_scan's progress while a run goes: "12 of 98 pin searches done".
  const done = d.progress ? ` (${d.progress.pins_done} of ${d.progress.pins_total} pin searches done)` : '';
  if (!d.available_snapshots.length) setStatus(d.is_running ? `The first snapshot is running${done}: the grid appears here when it is complete.` : 'This scan has no completed snapshot yet.');
  else if (d.is_running) setStatus(`A new snapshot is running${done}; the latest complete one is shown.`);
  else setStatus('');
}

function renderPickers(d) {
  const kw = $('keyword');
  kw.replaceChildren(...d.keywords.map((k) => el('option', { value: k }, k)));
  kw.value = state.keyword;
  kw.disabled = d.keywords.length < 2;
  const snap = $('snapshot');
  snap.replaceChildren(...d.available_snapshots.map((t, i) => el('option', { value: t }, `${fmtTime(t)}${i === 0 ? ' (latest)' : ''}`)));
  if (state.snapshot) snap.value = state.snapshot;
  snap.disabled = d.available_snapshots.length < 2;
}

function renderSummary() {
  const box = $('summary');
  const s = state.detail && currentSummary();
  const stat = (label, value, name) => {
    const item = el('div', { class: 'stat', 'data-stat': name });
    item.append(el('span', { class: 'label' }, label), el('span', { class: 'value' }, value));
    return item;
  };
  if (!s) {
    box.replaceChildren(el('p', { class: 'muted' }, state.detail?.available_snapshots.length ? 'Loading the summary...' : 'No summary yet.'));
    return;
  }
  const items = [
    stat('Average rank', fmtNum(s.averageRank, 2), 'average_rank'),
    stat('Top 3', `${s.top3} / ${s.pins}`, 'top_3'),
    stat('Rank 4-10', String(s.top4to10), 'top_4_to_10'),
    stat('Not ranking', String(s.notRanking), 'not_ranking'),
  ];
  if (s.visibility != null) items.push(stat('Visibility', `${fmtNum(s.visibility)}%`, 'visibility'));
  box.replaceChildren(...items);
}

function renderLegend(pins) {
  const counts = bucketCounts(pins);
  const items = BUCKETS.filter((b) => b.key !== 'unknown' || counts.unknown > 0).map((b) => {
    const li = el('li', { 'data-bucket': b.key, 'data-count': counts[b.key] });
    const swatch = el('span', { class: 'swatch' });
    swatch.style.background = b.colour;
    li.append(swatch, document.createTextNode(`${b.label}: ${counts[b.key]}`));
    return li;
  });
  const business = el('li', { 'data-bucket': 'business' });
  business.append(el('span', { class: 'swatch business' }), document.createTextNode('The business (grid centre)'));
  $('legend').replaceChildren(...items, business);
}

function renderMap(pins, gridSize) {
  const map = $('map');
  map.setAttribute('viewBox', `0 0 ${WIDTH} ${HEIGHT}`);
  map.dataset.pins = String(pins.length);
  const layout = layoutGrid(pins, { width: WIDTH, height: HEIGHT, padding: 48, gridSize });
  const nodes = [svg('rect', { class: 'ground', width: WIDTH, height: HEIGHT })];

  if (config.tiles && pins.length) {
    const tiles = svg('g', { class: 'tiles' });
    for (const t of tilesFor(layout, config.tiles.maxZoom)) {
      tiles.append(svg('image', { href: tileUrl(config.tiles.url, t), x: t.left.toFixed(1), y: t.top.toFixed(1), width: (t.size + 0.5).toFixed(1), height: (t.size + 0.5).toFixed(1), preserveAspectRatio: 'none' }));
    }
    nodes.push(tiles);
  } else if (pins.length > 1) {
    // No tiles: faint lines through the pins' rows and columns, so the grid reads as a grid.
    const lines = svg('g', { class: 'gridlines' });
    const xs = [...new Set(layout.pins.map((p) => Math.round(p.x)))];
    const ys = [...new Set(layout.pins.map((p) => Math.round(p.y)))];
    for (const x of xs) lines.append(svg('line', { x1: x, y1: 0, x2: x, y2: HEIGHT }));
    for (const y of ys) lines.append(svg('line', { x1: 0, y1: y, x2: WIDTH, y2: y }));
    nodes.push(lines);
  }

  if (pins.length) {
    const business = svg('g', { class: 'business', transform: `translate(${layout.centre.x.toFixed(1)} ${layout.centre.y.toFixed(1)})`, 'data-lat': layout.centre.lat.toFixed(6), 'data-lng': layout.centre.lng.toFixed(6) });
    business.append(svg('title', {}, `${state.detail.location} (the business, at the grid centre)`), svg('circle', { r: (layout.radius + 8).toFixed(1) }));
    nodes.push(business);
  }

  const group = svg('g', { class: 'pins' });
  for (const { pin, x, y } of layout.pins) {
    const bucket = bucketOf(pin);
    const label = pinLabel(pin);
    const g = svg('g', { class: 'pin', 'data-bucket': bucket, 'data-rank': label, transform: `translate(${x.toFixed(1)} ${y.toFixed(1)})` });
    const top = (pin.top_results || []).slice(0, TOP_N).map((t) => `${t.rank}. ${t.name}`);
    const head = pin.status !== 'complete' ? 'No result at this pin' : pin.rank == null ? 'Not in the top 20' : `Rank ${pin.rank}`;
    g.append(
      svg('title', {}, [`${head} for "${pin.keyword}"`, `${pin.lat.toFixed(5)}, ${pin.lng.toFixed(5)}`, ...top].join('\n')),
      svg('circle', { r: layout.radius.toFixed(1), fill: colourOf(bucket) }),
      svg('text', { 'text-anchor': 'middle', dy: '.35em', 'font-size': (label.length > 2 ? layout.radius * 0.62 : layout.radius * 0.82).toFixed(1) }, label),
    );
    group.append(g);
  }
  nodes.push(group);

  if (layout.spacingKm) nodes.push(svg('text', { class: 'scale', x: 12, y: HEIGHT - 12 }, `${fmtNum(layout.spacingKm, layout.spacingKm < 1 ? 2 : 1)} km between pins`));
  if (config.tiles?.attribution) nodes.push(svg('text', { class: 'attribution', x: WIDTH - 8, y: HEIGHT - 8, 'text-anchor': 'end' }, config.tiles.attribution));
  map.replaceChildren(...nodes);
  map.setAttribute('aria-label', `Ranking grid of ${state.detail.location} for "${state.keyword}": ${pins.length} pins`);
}

// ---- the App ---------------------------------------------------------------------------------------------------

const app = new App({ name: 'Local Search Grid', version: '1.0.0' }, {});

function applyContext(ctx) {
  if (!ctx) return;
  if (ctx.theme) applyDocumentTheme(ctx.theme);
  if (ctx.styles?.variables) applyHostStyleVariables(ctx.styles.variables);
  if (ctx.locale) state.locale = ctx.locale;
  if (ctx.timeZone) state.timeZone = ctx.timeZone;
}

app.ontoolinput = (params) => {
  const args = params.arguments || {};
  if (typeof args.snapshot_at === 'string') state.snapshot = args.snapshot_at;
  if (typeof args.uuid === 'string') state.uuid = args.uuid;
};
app.ontoolresult = (result) => receive(result);
app.ontoolcancelled = () => setStatus('The tool call was cancelled.');
app.onhostcontextchanged = (ctx) => {
  applyContext(ctx);
  render();
};
app.onteardown = async () => {
  stopPolling();
  return {};
};

$('keyword').addEventListener('change', (e) => void onKeyword(e.target.value));
$('snapshot').addEventListener('change', (e) => void onSnapshot(e.target.value));

app
  .connect(new PostMessageTransport(window.parent, window.parent))
  .then(() => applyContext(app.getHostContext()))
  .catch((err) => setStatus(`Could not connect to the host: ${err.message}`, 'error'));
