import { DomainError } from '../domain/errors';
import type { Principal } from '../domain/principal';
import { Scan, Tenant, User } from '../models';
import { principalFor } from './auth.service';
import type { ServiceOptions } from './common';
import { dataPoints, listSnapshots, ownScan, pinChanges, reportUrlOf, scanInsights, type Insights, type PinChange } from './scans.service';
import { UUID } from '../domain/ids';
import { competitors as competitorsOf, MAX_RANK, type PinOutcome } from '../grid/metrics';
import type { ReportBrand, ReportPin, ScanReport, ScanHistory, ReportProblem, SnapshotRow } from '../reports/types';

export type { ReportBrand, ReportPin, ReportCompetitor, ReportSummary, ScanReport, GridCell, Heatmap, CompetitorTrend, ScanHistory, ReportProblem } from '../reports/types';

/**
 * The data of the public, white-label scan report (`/reports/scans/{uuid}`). The scan's UUID is the credential
 * (unguessable, like a share link), so there is no caller: the report reads through the ordinary scan services
 * as the scan tenant's owner, with no token permissions, and only calls read functions. The same report on demand
 * (`scanReport`: GraphQL, the MCP tool get_scan_report) is read as its caller, under the scan services' rules.
 */

/** Every pin of one keyword fits in one data-point page (15 x 15 = 225 pins). */
const ALL_PINS = 500;

export const HEATMAP_SNAPSHOTS = 6;
export const TREND_SNAPSHOTS = 12;
const TREND_COMPETITORS = 5;

/** The grid a snapshot's pins were laid out on: its size from the pins' own rows and columns (0-based). */
export function gridOf<T extends { row: number; col: number }>(pins: T[]): { size: number; cells: Array<T & { x: number; y: number }> } {
  const size = pins.reduce((n, p) => Math.max(n, p.row + 1, p.col + 1), 1);
  return { size, cells: pins.map((p) => ({ ...p, x: p.col, y: p.row })) };
}

/** The report cannot be shown: no such scan, keyword or snapshot, or a malformed `snapshot_at`. */
export class ReportUnavailable extends Error {
  constructor(
    readonly problem: ReportProblem,
    /** The scan tenant's brand when the scan exists (so even the error page is white-label). */
    readonly brand: ReportBrand | null,
    readonly scanUuid: string | null,
  ) {
    super(`Report unavailable: ${problem}`);
    this.name = 'ReportUnavailable';
  }
}

const round1 = (x: number) => Math.round(x * 10) / 10;

export function brandOf(tenant: Pick<Tenant, 'brandName' | 'name' | 'logoUrl' | 'brandColor' | 'language'>): ReportBrand {
  return { name: tenant.brandName || tenant.name, logoUrl: tenant.logoUrl, color: tenant.brandColor, language: tenant.language };
}

/** The read-only reader of a public report: the tenant owner as a principal with no token permissions. */
async function readerOf(tenantId: number, opts: ServiceOptions): Promise<Principal | null> {
  const owner = await User.findOne({ where: { tenantId, role: 'tenant_owner' }, order: [['id', 'ASC']], transaction: opts.transaction });
  return owner ? principalFor(owner, { id: 0, kind: 'agency', permissions: [] }) : null;
}

/** The scan's own spelling of an asked keyword (letter case and spacing aside; default: its first); undefined when it has none such. */
function keywordOf(scan: Scan, asked: string | null | undefined): string | undefined {
  const wanted = asked?.trim().replace(/\s+/g, ' ');
  return wanted ? scan.keywords.find((k) => k.toLowerCase() === wanted.toLowerCase()) : scan.keywords[0];
}

/**
 * Everything the report page shows for one keyword and one snapshot time of a scan (archived scans included).
 * `keyword` defaults to the scan's first, `snapshotAt` to the keyword's latest completed snapshot.
 */
export async function reportOf(uuid: string, args: { snapshotAt?: string | null; keyword?: string | null }, opts: ServiceOptions = {}): Promise<ScanReport> {
  if (!UUID.test(uuid)) throw new ReportUnavailable('scan', null, null);
  const scan = await Scan.findOne({ where: { uuid: uuid.toLowerCase() }, transaction: opts.transaction });
  const tenant = scan ? await Tenant.findByPk(scan.tenantId, { transaction: opts.transaction }) : null;
  const reader = scan && tenant ? await readerOf(tenant.id, opts) : null;
  if (!scan || !tenant || !reader) throw new ReportUnavailable('scan', null, null);
  const brand = brandOf(tenant);
  const unavailable = (problem: ReportProblem) => new ReportUnavailable(problem, brand, scan.uuid);

  const keyword = keywordOf(scan, args.keyword);
  if (keyword === undefined) throw unavailable('keyword');
  try {
    return await composeReport(reader, scan, brand, keyword, args.snapshotAt || null, opts);
  } catch (e) {
    if (e instanceof DomainError && e.code === 'VALIDATION') throw unavailable('snapshot_at');
    if (e instanceof DomainError && e.code === 'NOT_FOUND') throw unavailable('snapshot');
    throw e;
  }
}

/**
 * The same report for a caller of the API (GraphQL `scanReport`), under the rules of every scan read: tenant owners
 * only (FORBIDDEN `tenant_owner_required`), another tenant's or an unknown scan NOT_FOUND, a malformed `snapshotAt`
 * VALIDATION, one that is not a completed snapshot of the keyword NOT_FOUND. A keyword the scan does not have is, as
 * for `scanInsights` and `scanSnapshots`, a filter that matches no snapshot: the report without one (no summary, no
 * pins), and no page to link to (`reportLinks` is null).
 */
export async function scanReport(p: Principal, uuid: string, args: { snapshotAt?: string | null; keyword?: string | null }, opts: ServiceOptions = {}): Promise<ScanReport> {
  const scan = await ownScan(p, uuid, { transaction: opts.transaction });
  const tenant = await Tenant.findByPk(scan.tenantId, { rejectOnEmpty: true, transaction: opts.transaction });
  const keyword = keywordOf(scan, args.keyword) ?? args.keyword?.trim() ?? '';
  return composeReport(p, scan, brandOf(tenant), keyword, args.snapshotAt || null, opts);
}

/**
 * The public page and PDF of a report as answered (its keyword and shown snapshot, so the figures stay the same after
 * later runs); null when its keyword is not one of the scan's, which the page does not show.
 */
export function reportLinks(report: Pick<ScanReport, 'scan' | 'keyword' | 'snapshot'>, base?: string): { html: string; pdf: string } | null {
  if (!report.scan.keywords.includes(report.keyword)) return null;
  const q = { keyword: report.keyword, snapshotAt: report.snapshot?.snapshotAt };
  return { html: reportUrlOf(report.scan.uuid, q, 'html', base), pdf: reportUrlOf(report.scan.uuid, q, 'pdf', base) };
}

/** The report of one keyword (one of the scan's, or one matching no snapshot) at `snapshotAt`, read as `reader`. */
async function composeReport(reader: Principal, scan: Scan, brand: ReportBrand, keyword: string, snapshotAt: string | null, opts: ServiceOptions): Promise<ScanReport> {
  const insights = await scanInsights(reader, scan.uuid, { keyword, snapshotAt }, opts);
  const snapshots = await listSnapshots(reader, scan.uuid, { keyword }, opts);
  const at = insights.snapshotAt;
  const snapshot = at ? (snapshots.find((s) => s.snapshotAt.getTime() === at.getTime()) ?? null) : null;

  const base: ScanReport = {
    brand,
    scan: {
      tenantId: scan.tenantId,
      uuid: scan.uuid,
      location: scan.location,
      address: scan.address,
      type: scan.type,
      keywords: scan.keywords,
      gridSize: scan.gridSize,
      distance: scan.distance,
      distanceUnit: scan.distanceUnit,
      lat: scan.lat,
      lng: scan.lng,
    },
    keyword,
    snapshots,
    snapshot,
    pins: [],
    summary: null,
    competitors: [],
    history: null,
  };
  // Without a business to track (no target_place_id) the snapshot has no rank to show (scanInsights answers no
  // summary): the report lists the businesses that rank and says why there are no figures, instead of a heat map of
  // "not in the top 20" at every pin.
  const tracked = scan.targetPlaceId != null;
  if (!at || (tracked && !insights.summary)) return base;

  const points = await dataPoints(reader, scan.uuid, { snapshotAt: at.toISOString(), keyword, topN: 20, page: 1, perPage: ALL_PINS }, opts);
  const pins: ReportPin[] = points.items.map((p) => ({
    lat: p.lat,
    lng: p.lng,
    rank: p.rank,
    status: p.status,
    top: p.topResults.map((t) => ({ placeId: t.placeId, name: t.name, rank: t.rank })),
  }));
  // Appearances: pins where the business is anywhere in the top 20 (the insights' competitors carry no count).
  const seen = new Map<string, number>();
  for (const p of points.items) for (const placeId of new Set(p.topResults.map((t) => t.placeId))) seen.set(placeId, (seen.get(placeId) ?? 0) + 1);
  const total = pins.length;
  const competitors = insights.topCompetitors.map((c) => {
    const appearances = seen.get(c.placeId) ?? 0;
    return { name: c.name, avgRank: c.avgRank, appearances, coverage: total ? round1((100 * appearances) / total) : 0, threatScore: c.threatScore };
  });
  const s = insights.summary;
  if (!s) return { ...base, pins, competitors };
  const previous = insights.trendsVsPreviousSnapshot;
  const history = await cachedHistory(`${scan.id}|${keyword}|${at.getTime()}|${snapshots.length}`, () =>
    historyOf(reader, scan, keyword, snapshots, at, insights.topCompetitors, opts),
  );
  return {
    ...base,
    history,
    pins,
    summary: {
      averageRank: s.avgRank,
      top3: s.top3,
      top4to10: s.top4to10,
      top11to20: s.belowTop10,
      notRanking: s.notRanking,
      totalPins: s.totalPins,
      visibilityScore: s.visibilityScore,
      changeFromPrevious: previous ? previous.avgRankChange : null,
      previousSnapshotAt: previous ? previous.previousSnapshotAt : null,
    },
    competitors,
  };
}

/**
 * The history of a public report is about twenty queries and is asked for by anyone with the link: kept per scan,
 * keyword, shown snapshot and snapshot count (completed snapshots do not change; a new one changes the count) for
 * ten minutes, at most HISTORY_KEPT of them (the oldest goes first).
 */
const HISTORY_KEEP_MS = 10 * 60_000;
export const HISTORY_KEPT = 200;
const histories = new Map<string, { at: number; history: Promise<ScanHistory> }>();

async function cachedHistory(key: string, read: () => Promise<ScanHistory>): Promise<ScanHistory> {
  const hit = histories.get(key);
  if (hit && Date.now() - hit.at < HISTORY_KEEP_MS) return hit.history;
  if (histories.size >= HISTORY_KEPT) histories.delete(histories.keys().next().value!);
  // The promise is kept, so concurrent requests for the same report share one read; a failed read is not kept.
  const history = read();
  histories.set(key, { at: Date.now(), history });
  history.catch(() => histories.delete(key));
  return history;
}

/** Heat maps, pin changes and competitor series for the snapshots up to `at` (read as the report's reader). */
async function historyOf(
  reader: Principal,
  scan: Scan,
  keyword: string,
  snapshots: SnapshotRow[],
  at: Date,
  shownCompetitors: Insights['topCompetitors'],
  opts: ServiceOptions,
): Promise<ScanHistory> {
  const upTo = snapshots.filter((s) => s.snapshotAt.getTime() <= at.getTime()).reverse();
  const trend = upTo.slice(-TREND_SNAPSHOTS);
  // Every pin with its top 20 for each trend snapshot (the heat maps are the last HEATMAP_SNAPSHOTS of them).
  const pages = await Promise.all(
    trend.map((snapshot) => dataPoints(reader, scan.uuid, { snapshotAt: snapshot.snapshotAt.toISOString(), keyword, topN: MAX_RANK, page: 1, perPage: ALL_PINS }, opts)),
  );
  const heatmaps = trend.slice(-HEATMAP_SNAPSHOTS).map((snapshot, i, shown) => {
    const page = pages[pages.length - shown.length + i];
    const grid = gridOf(page.items.map((p) => ({ row: p.row, col: p.col, rank: p.rank, status: p.status })));
    return { snapshot, size: grid.size, cells: grid.cells };
  });
  const watched = [...shownCompetitors].sort((a, b) => b.threatScore - a.threatScore).slice(0, TREND_COMPETITORS);
  // Each point from that snapshot's own pins, with the formulas of the insights' competitors, over every business in
  // the results: the insights keep only the ten most threatening, and a watched competitor further down in an older
  // snapshot was still in the results there (null only where it was at no pin).
  const watchedIds = new Set(watched.map((c) => c.placeId));
  const seriesOf = pages.map((page) => {
    const outcomes: PinOutcome[] = page.items.map((p) => ({ row: p.row, col: p.col, targetRank: p.rank, results: p.topResults }));
    return new Map(competitorsOf(outcomes, scan.targetPlaceId, Infinity).filter((c) => watchedIds.has(c.placeId)).map((c) => [c.placeId, c]));
  });
  const competitors = watched.map((c) => ({
    placeId: c.placeId,
    name: c.name,
    points: seriesOf.map((series) => {
      const seen = series.get(c.placeId);
      return seen ? { avgRank: seen.avgRank, visibility: seen.visibility } : { avgRank: null, visibility: null };
    }),
  }));

  const diff = await pinChanges(reader, scan.uuid, { keyword, snapshotAt: at.toISOString() }, opts);
  let changes: ScanHistory['changes'] = null;
  const overtaking = new Map<string, { name: string; pins: number }>();
  // Only pins searched in both snapshots compare: a failed search's null rank says nothing (it is not "out of the top
  // 20"). After regenerated pins the snapshots share no pin: nothing to compare, as for a first snapshot.
  const compared = diff.pins.filter((p) => p.status === 'complete' && p.previousStatus === 'complete');
  const shown = heatmaps[heatmaps.length - 1];
  let size = shown?.size ?? scan.gridSize;
  if (diff.previousSnapshotAt && compared.length) {
    const grid = gridOf(compared.map((p) => ({ row: p.row, col: p.col, rank: p.rank, previousRank: p.previousRank, change: p.change, status: p.status })));
    size = Math.max(size, grid.size);
    const count = (c: PinChange['change']) => compared.filter((p) => p.change === c).length;
    changes = { previousSnapshotAt: diff.previousSnapshotAt, gained: count('gained'), lost: count('lost'), same: count('same'), cells: grid.cells };
    for (const pin of compared) {
      for (const o of pin.overtakenBy) {
        const entry = overtaking.get(o.placeId) ?? { name: o.name, pins: 0 };
        entry.pins += 1;
        overtaking.set(o.placeId, entry);
      }
    }
  }
  const overtakers = [...overtaking.values()].sort((a, b) => b.pins - a.pins || a.name.localeCompare(b.name)).slice(0, TREND_COMPETITORS);
  return { size, heatmaps, trend, competitors, changes, overtakers };
}
