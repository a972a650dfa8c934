import { DomainError } from '../domain/errors';
import type { Principal } from '../domain/principal';
import { Scan, Tenant, User } from '../models';
import { principalFor } from './auth.service';
import type { ServiceOptions } from './common';
import { dataPoints, listSnapshots, scanInsights, type SnapshotRow } from './scans.service';
import { UUID } from '../domain/ids';

/**
 * The data of the public, white-label scan report (`/reports/scans/{uuid}`). The scan's UUID is the credential
 * (unguessable, like a share link), so there is no caller: the report reads through the ordinary scan services
 * as the scan tenant's owner, with no token permissions, and only calls read functions.
 */

/** Every pin of one keyword fits in one data-point page (15 x 15 = 225 pins). */
const ALL_PINS = 500;

export interface ReportBrand {
  name: string;
  logoUrl: string | null;
}

export interface ReportPin {
  lat: number;
  lng: number;
  /** The target's rank at this pin; null when it is not in the top 20. */
  rank: number | null;
  status: string;
  top: { name: string; rank: number }[];
}

export interface ReportCompetitor {
  name: string;
  avgRank: number;
  /** Pins where the business is in the top 20. */
  appearances: number;
  /** appearances / pins, percent (1 decimal). */
  coverage: number;
  threatScore: number;
}

export interface ReportSummary {
  averageRank: number;
  top3: number;
  top4to10: number;
  top11to20: number;
  notRanking: number;
  totalPins: number;
  visibilityScore: number;
  /** Average-rank difference to the previous snapshot (negative = better); null for the first snapshot. */
  changeFromPrevious: number | null;
  previousSnapshotAt: Date | null;
}

export interface ScanReport {
  brand: ReportBrand;
  scan: {
    uuid: string;
    location: string;
    address: string | null;
    type: string;
    keywords: string[];
    gridSize: number;
    distance: number;
    distanceUnit: 'km' | 'miles';
    lat: number;
    lng: number;
  };
  keyword: string;
  /** This keyword's completed snapshots, newest first. */
  snapshots: SnapshotRow[];
  /** The shown snapshot (the latest unless one was asked for); null before the first one. */
  snapshot: SnapshotRow | null;
  pins: ReportPin[];
  summary: ReportSummary | null;
  competitors: ReportCompetitor[];
}

export type ReportProblem = 'scan' | 'keyword' | 'snapshot' | 'snapshot_at';

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

export function brandOf(tenant: Pick<Tenant, 'brandName' | 'name' | 'logoUrl'>): ReportBrand {
  return { name: tenant.brandName || tenant.name, logoUrl: tenant.logoUrl };
}

/** The read-only reader of a public report: the tenant owner as a principal with no token permissions. */
async function readerOf(tenantId: number, opts: ServiceOptions): Promise<Principal | null> {
  const owner = await User.findOne({ where: { tenantId, role: 'tenant_owner' }, order: [['id', 'ASC']], transaction: opts.transaction });
  return owner ? principalFor(owner, { id: 0, kind: 'agency', permissions: [] }) : null;
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

  const askedKeyword = args.keyword?.trim().replace(/\s+/g, ' ');
  const keyword = askedKeyword ? scan.keywords.find((k) => k.toLowerCase() === askedKeyword.toLowerCase()) : scan.keywords[0];
  if (keyword === undefined) throw unavailable('keyword');

  const read = async <T>(fn: () => Promise<T>): Promise<T> => {
    try {
      return await fn();
    } catch (e) {
      if (e instanceof DomainError && e.code === 'VALIDATION') throw unavailable('snapshot_at');
      if (e instanceof DomainError && e.code === 'NOT_FOUND') throw unavailable('snapshot');
      throw e;
    }
  };
  const snapshotAt = args.snapshotAt || null;
  const insights = await read(() => scanInsights(reader, scan.uuid, { keyword, snapshotAt }, opts));
  const snapshots = await listSnapshots(reader, scan.uuid, { keyword }, opts);
  const at = insights.snapshotAt;
  const snapshot = at ? (snapshots.find((s) => s.snapshotAt.getTime() === at.getTime()) ?? null) : null;

  const base: ScanReport = {
    brand,
    scan: {
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
  };
  if (!at || !insights.summary) return base;

  const points = await read(() => dataPoints(reader, scan.uuid, { snapshotAt: at.toISOString(), keyword, topN: 20, page: 1, perPage: ALL_PINS }, opts));
  const pins: ReportPin[] = points.items.map((p) => ({
    lat: p.lat,
    lng: p.lng,
    rank: p.rank,
    status: p.status,
    top: p.topResults.map((t) => ({ name: t.name, rank: t.rank })),
  }));
  // Appearances: pins where the business is anywhere in the top 20 (the insights' competitors carry no count).
  const seen = new Map<string, number>();
  for (const p of points.items) for (const placeId of new Set(p.topResults.map((t) => t.placeId))) seen.set(placeId, (seen.get(placeId) ?? 0) + 1);
  const total = pins.length;
  const s = insights.summary;
  const previous = insights.trendsVsPreviousSnapshot;
  return {
    ...base,
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
    competitors: insights.topCompetitors.map((c) => {
      const appearances = seen.get(c.placeId) ?? 0;
      return { name: c.name, avgRank: c.avgRank, appearances, coverage: total ? round1((100 * appearances) / total) : 0, threatScore: c.threatScore };
    }),
  };
}
