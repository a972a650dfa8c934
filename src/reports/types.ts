import type { Aspect } from '../analytics/lexicon';
import type { AspectDistribution, MetricsTotals } from '../services/review-analytics.service';

/** The figures of an organisation's monthly report (src/services/monthly-report.service.ts computes them). */
export interface ReportMonth {
  /** `YYYY-MM`. */
  month: string;
  totalReviews: number;
  avgRating: number | null;
  responseRate: number | null;
  positive: number;
  neutral: number;
  negative: number;
  /** Each of the six aspects, in ASPECTS order: the month's reviews naming it, by tone. */
  aspects: ReportMonthAspect[];
}

/** One aspect in one month of the trend. */
export interface ReportMonthAspect extends AspectDistribution {
  aspect: Aspect;
  /** Reviews naming the aspect (positive + neutral + negative). */
  mentions: number;
  /** (positive - negative) / mentions x 100, 1 decimal (-100..100); null in a month without a mention (a gap, not a zero). */
  netSentiment: number | null;
}

export interface MonthlyReport {
  organizationId: number;
  organizationName: string;
  brandName: string;
  brandLogoUrl: string | null;
  /** The agency's brand colour (`#rrggbb`); null: the default. */
  brandColor: string | null;
  /** The account's language (else the agency's): the report speaks it. */
  language: string;
  month: string;
  period: { from: string; to: string };
  previousMonth: string;
  totals: ReportTotals;
  previousTotals: ReportTotals;
  /** TREND_MONTHS months ending with the report's, oldest first, empty months included. */
  months: ReportMonth[];
  generatedAt: Date;
}

/**
 * What the report's renderers (reportContent, the charts, the page, the PDF) read: a MonthlyReport as the service
 * computes it, or as GraphQL answers it to a facade (`organizationReport`: an aspect named by text, the time as ISO
 * text). The renderers look each of ASPECTS up by name and read the time with `new Date()`, so both are drawn as they
 * come, without a conversion: a field that a facade's document leaves out fails its type check.
 */
export type ReportFigures = AsAnswered<MonthlyReport>;

/** A type as GraphQL answers it: an aspect as any text, a time as a Date or ISO text (the rest as it is). */
type AsAnswered<T> = T extends Date ? Date | string : T extends Aspect ? string : T extends object ? { [K in keyof T]: AsAnswered<T[K]> } : T;

/** The totals a report shows (the review metrics' totals, as GraphQL answers them too). */
export type ReportTotals = Pick<MetricsTotals, 'totalReviews' | 'avgRating' | 'responded' | 'responseRate' | 'sentimentDistribution' | 'aspects'>;

/** One completed snapshot of a scan keyword (its summary row; the scan services compute it). */
export interface SnapshotRow {
  snapshotAt: Date;
  label: string;
  shortLabel: string;
  monthYear: string;
  avgRank: number;
  changeFromPrevious: number;
  top3Count: number;
  top10Count: number;
  belowTop10Count: number;
  notRankingCount: number;
  totalPins: number;
  visibilityScore: number;
  /**
   * The row has figures of the business. False: taken while the scan had no business to track (or it tracks none
   * now): its figures read 0 for the spec's numbers, and the report, PDF and mail show it as a gap, not as rank 0.
   */
  ranked: boolean;
}

/** The data of the public, white-label scan report (src/services/scan-report.service.ts computes it). */
export interface ReportBrand {
  name: string;
  logoUrl: string | null;
  /** `#rrggbb`; null: the default. */
  color: string | null;
  /** The agency's language: the report speaks it (scans belong to the agency, not to a customer account). */
  language: string;
}

export interface ReportPin {
  lat: number;
  lng: number;
  /** The target's rank at this pin; null when it is not in the top 20. */
  rank: number | null;
  status: string;
  top: { placeId: string; name: string; rank: number }[];
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
    /** The agency's, for its link base (`tenantLinkBase`); the report page's copy from GraphQL has none. */
    tenantId?: number;
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
  /**
   * The business's figures at the shown snapshot; null before the first snapshot, and also with a snapshot when the
   * scan has no business to track (no `target_place_id`: no pin has a rank for it, see `untracked` in
   * src/reports/scan.ts). Then `history` is null too and the pins carry only their top results.
   */
  summary: ReportSummary | null;
  competitors: ReportCompetitor[];
  /** The keyword's snapshots up to the shown one: heat maps, pin changes and competitors over time. */
  history: ScanHistory | null;
}

/** A pin at its place in the grid: column x (west to east) and row y (north to south), from 0. */
export interface GridCell {
  x: number;
  y: number;
  rank: number | null;
  status: string;
}

export interface Heatmap {
  snapshot: SnapshotRow;
  /** The snapshot's own grid size (after regenerated pins, older snapshots keep theirs). */
  size: number;
  cells: GridCell[];
}

export interface CompetitorTrend {
  placeId: string;
  name: string;
  /** One point per trend snapshot (oldest first); nulls where the competitor did not appear. */
  points: Array<{ avgRank: number | null; visibility: number | null }>;
}

export interface ScanHistory {
  /** The grid size the pin changes are laid out on (the shown snapshot's). */
  size: number;
  /** Up to HEATMAP_SNAPSHOTS snapshots ending with the shown one, oldest first. */
  heatmaps: Heatmap[];
  /** Up to TREND_SNAPSHOTS snapshots ending with the shown one, oldest first (the business's own series). */
  trend: SnapshotRow[];
  /** The shown snapshot's strongest competitors (by threat), with their series over `trend`. */
  competitors: CompetitorTrend[];
  /** Pin by pin against the snapshot before the shown one; null for the first snapshot. */
  changes: { previousSnapshotAt: Date; gained: number; lost: number; same: number; cells: Array<GridCell & { previousRank: number | null; change: 'gained' | 'lost' | 'same' }> } | null;
  /** The competitors that moved above the business at the most pins since the previous snapshot. */
  overtakers: Array<{ name: string; pins: number }>;
}

export type ReportProblem = 'scan' | 'keyword' | 'snapshot' | 'snapshot_at';
