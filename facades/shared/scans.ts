/**
 * Local Search Grid scans on the wire, for both facades that serve them: the agency REST API
 * (facades/rest/agency/scans.routes.ts) and the MCP tools (facades/mcp/tools/scans.ts). The GraphQL operations and
 * selections they share, and the mappers from GraphQL results to the spec's snake_case shapes (spec: "Scan (Local
 * Search Grid)"), so the two answer every field the same way. Each facade keeps its own envelope (REST `data`/`meta`,
 * MCP `data`/`pagination`) and its own argument parsing.
 */
import { timestamp, z } from './presenters/zod';
import { graphql } from './graphql';
import type { PinFieldsFragment, RunStartedFieldsFragment, ScanDataPointsQuery, ScanDetailQuery, ScanInsightsQuery, ScanPinChangesQuery, ScanRowFieldsFragment, ScanSnapshotFieldsFragment, ScheduleFieldsFragment } from './graphql/graphql';

// ---- list row -------------------------------------------------------------------------------------------

graphql(`fragment ScanRowFields on Scan { uuid location keyword keywords gridSize isScheduled isRunning lastRunAt nextRunAt }`);

const int = () => z.number().int();

export const ScanRow = z
  .object({
    uuid: z.string().openapi({ format: 'uuid' }),
    location: z.string(),
    keyword: z.string().openapi({ description: 'The first keyword.' }),
    keywords: z.array(z.string()),
    grid_size: int().openapi({ description: 'Pins per side (the grid is grid_size x grid_size).' }),
    is_scheduled: z.boolean(),
    is_running: z.boolean(),
    last_run_at: timestamp().nullable(),
    next_run_at: timestamp().nullable(),
  })
  .openapi('ScanRow');

export const scanRow = (s: ScanRowFieldsFragment): z.infer<typeof ScanRow> => ({
  uuid: s.uuid,
  location: s.location,
  keyword: s.keyword,
  keywords: s.keywords,
  grid_size: s.gridSize,
  is_scheduled: s.isScheduled,
  is_running: s.isRunning,
  last_run_at: s.lastRunAt,
  next_run_at: s.nextRunAt,
});

// ---- pins -----------------------------------------------------------------------------------------------

export type PlaceData = PinFieldsFragment['topResults'][number];
graphql(`fragment PinFields on ScanPinResult { lat lng rank keyword status snapshotAt topResults { placeId name rank } }`);

export const Place = z.object({ place_id: z.string(), name: z.string(), rank: int() }).openapi('RankedPlace');
const DetailPin = z.object({ lat: z.number(), lng: z.number(), rank: int().nullable(), keyword: z.string(), status: z.string(), top_results: z.array(Place) });
export const DataPoint = z
  .object({ lat: z.number(), lng: z.number(), keyword: z.string(), snapshot_at: timestamp(), target_rank: int().nullable(), results: z.array(Place) })
  .openapi('DataPoint');
/** A pin read with `top_n=0`: position and rank only. */
export const BarePin = z.object({ lat: z.number(), lng: z.number(), target_rank: int().nullable() }).openapi('DataPointRankOnly');

export const place = (p: PlaceData): z.infer<typeof Place> => ({ place_id: p.placeId, name: p.name, rank: p.rank });

/** A pin of the scan detail (`results[]`). */
const detailPin = (r: PinFieldsFragment): z.infer<typeof DetailPin> => ({ lat: r.lat, lng: r.lng, rank: r.rank, keyword: r.keyword, status: r.status, top_results: r.topResults.map(place) });

/** A pin of a data-points page, with its competitors. */
export const dataPoint = (r: PinFieldsFragment): z.infer<typeof DataPoint> => ({
  lat: r.lat,
  lng: r.lng,
  keyword: r.keyword,
  snapshot_at: r.snapshotAt,
  target_rank: r.rank,
  results: r.topResults.map(place),
});

// ---- detail ---------------------------------------------------------------------------------------------

export type ScanDetailData = ScanDetailQuery['scan'];
export const SCAN_DETAIL_QUERY = graphql(`query ScanDetail($uuid: String!, $snapshotAt: String, $topN: Int) {
  scan(uuid: $uuid, snapshotAt: $snapshotAt, topN: $topN) {
    scan { uuid location keyword keywords gridSize isRunning }
    progress { pinsDone pinsTotal }
    summary { averageRank top3Count top4To10Count notRankingCount }
    reportUrl availableSnapshots results { ...PinFields }
  }
}`);

export const Summary = z.object({ average_rank: z.number(), top_3_count: int(), top_4_to_10_count: int(), not_ranking_count: int() }).openapi('ScanSummary');

export const summary = (s: ScanDetailData['summary']): z.infer<typeof Summary> | null =>
  s && { average_rank: s.averageRank, top_3_count: s.top3Count, top_4_to_10_count: s.top4To10Count, not_ranking_count: s.notRankingCount };

export const ScanDetail = z
  .object({
    uuid: z.string().openapi({ format: 'uuid' }),
    location: z.string(),
    keyword: z.string(),
    keywords: z.array(z.string()),
    grid_size: int(),
    is_running: z.boolean(),
    progress: z
      .object({ pins_done: int().min(0), pins_total: int().min(0) })
      .nullable()
      .openapi({ description: 'While a run goes: pin searches done so far and in all (pins x keywords); null when the scan is idle.' }),
    summary: Summary.nullable(),
    report_url: z.string().openapi({ description: 'The white-label report page (relative path).' }),
    available_snapshots: z.array(timestamp()),
    results: z.array(DetailPin),
  })
  .openapi('ScanDetail');

export const scanDetail = (d: ScanDetailData): z.infer<typeof ScanDetail> => ({
  uuid: d.scan.uuid,
  location: d.scan.location,
  keyword: d.scan.keyword,
  keywords: d.scan.keywords,
  grid_size: d.scan.gridSize,
  is_running: d.scan.isRunning,
  progress: d.progress && { pins_done: d.progress.pinsDone, pins_total: d.progress.pinsTotal },
  summary: summary(d.summary),
  report_url: d.reportUrl,
  available_snapshots: d.availableSnapshots,
  results: d.results.map(detailPin),
});

// ---- pin changes ---------------------------------------------------------------------------------------

export type PinChangesData = ScanPinChangesQuery['scanPinChanges'];
export const SCAN_PIN_CHANGES_QUERY = graphql(`query ScanPinChanges($uuid: String!, $keyword: String, $snapshotAt: String, $compareTo: String) {
  scanPinChanges(uuid: $uuid, keyword: $keyword, snapshotAt: $snapshotAt, compareTo: $compareTo) {
    scanUuid keyword snapshotAt previousSnapshotAt gained lost same
    pins { lat lng rank previousRank change overtakenBy { placeId name rank } overtook { placeId name rank } }
  }
}`);

export const PinChanges = z
  .object({
    scan_uuid: z.string().openapi({ format: 'uuid' }),
    keyword: z.string(),
    snapshot_at: timestamp().nullable(),
    previous_snapshot_at: timestamp().nullable().openapi({ description: 'The snapshot compared with; null (and no pins) when there is none.' }),
    gained: int(),
    lost: int(),
    same: int(),
    pins: z.array(
      z.object({
        lat: z.number(),
        lng: z.number(),
        rank: int().nullable().openapi({ description: 'null: not in the top 20.' }),
        previous_rank: int().nullable(),
        change: z.enum(['gained', 'lost', 'same']),
        overtaken_by: z.array(Place).openapi({ description: 'Competitors now above the business at this pin that were not before.' }),
        overtook: z.array(Place).openapi({ description: 'Competitors that were above the business here and no longer are.' }),
      }),
    ),
  })
  .openapi('ScanPinChanges');

/** A pin's change as GraphQL writes it (a string), typed. */
export const pinChange = (c: string): 'gained' | 'lost' | 'same' => (c === 'gained' || c === 'lost' ? c : 'same');
/** A scan's distance unit as GraphQL writes it (a string), typed. */
export const distanceUnit = (u: string): 'km' | 'miles' => (u === 'miles' ? 'miles' : 'km');

export const pinChanges = (d: PinChangesData): z.infer<typeof PinChanges> => ({
  scan_uuid: d.scanUuid,
  keyword: d.keyword,
  snapshot_at: d.snapshotAt,
  previous_snapshot_at: d.previousSnapshotAt,
  gained: d.gained,
  lost: d.lost,
  same: d.same,
  pins: d.pins.map((x) => ({
    lat: x.lat,
    lng: x.lng,
    rank: x.rank,
    previous_rank: x.previousRank,
    change: pinChange(x.change),
    overtaken_by: x.overtakenBy.map(place),
    overtook: x.overtook.map(place),
  })),
});

// ---- data points ----------------------------------------------------------------------------------------

export type DataPointsData = ScanDataPointsQuery['scanDataPoints'];
export const SCAN_DATA_POINTS_QUERY = graphql(`query ScanDataPoints($uuid: String!, $snapshotAt: String, $keyword: String, $topN: Int, $page: Int!, $perPage: Int!) {
  scanDataPoints(uuid: $uuid, snapshotAt: $snapshotAt, keyword: $keyword, topN: $topN, page: $page, perPage: $perPage) {
    total page perPage scanUuid snapshotAt keyword topN items { ...PinFields }
  }
}`);

/** Which snapshot, keyword and competitor count the page was read with. */
export const DataPointsMeta = z.object({ scan_uuid: z.string(), snapshot_at: timestamp().nullable(), keyword: z.string().nullable(), top_n: int() });

export const dataPointsMeta = (d: DataPointsData): z.infer<typeof DataPointsMeta> => ({ scan_uuid: d.scanUuid, snapshot_at: d.snapshotAt, keyword: d.keyword, top_n: d.topN });

// ---- snapshots ------------------------------------------------------------------------------------------

/** A snapshot row as every scan facade reads it (the snapshots list, the report page, the MCP scan report). */
graphql(`fragment ScanSnapshotFields on ScanSnapshot {
  snapshotAt label shortLabel monthYear avgRank changeFromPrevious top3Count top10Count belowTop10Count notRankingCount totalPins visibilityScore ranked
}`);
export type SnapshotData = ScanSnapshotFieldsFragment;
export const SCAN_SNAPSHOTS_QUERY = graphql(`query ScanSnapshots($uuid: String!, $keyword: String) { scanSnapshots(uuid: $uuid, keyword: $keyword) { ...ScanSnapshotFields } }`);

export const Snapshot = z
  .object({
    snapshot_at: timestamp(),
    label: z.string(),
    short_label: z.string(),
    month_year: z.string(),
    avg_rank: z.number(),
    change_from_previous: z.number(),
    top_3_count: int(),
    top_10_count: int(),
    below_top_10_count: int(),
    not_ranking_count: int(),
    total_pins: int(),
    visibility_score: z.number(),
  })
  .openapi('ScanSnapshot');

export const snapshot = (s: SnapshotData): z.infer<typeof Snapshot> => ({
  snapshot_at: s.snapshotAt,
  label: s.label,
  short_label: s.shortLabel,
  month_year: s.monthYear,
  avg_rank: s.avgRank,
  change_from_previous: s.changeFromPrevious,
  top_3_count: s.top3Count,
  top_10_count: s.top10Count,
  below_top_10_count: s.belowTop10Count,
  not_ranking_count: s.notRankingCount,
  total_pins: s.totalPins,
  visibility_score: s.visibilityScore,
});

// ---- insights -------------------------------------------------------------------------------------------

export type InsightsData = ScanInsightsQuery['scanInsights'];
export const SCAN_INSIGHTS_QUERY = graphql(`query ScanInsights($uuid: String!, $keyword: String, $snapshotAt: String) {
  scanInsights(uuid: $uuid, keyword: $keyword, snapshotAt: $snapshotAt) {
    scanUuid snapshotAt keyword
    summary { avgRank visibilityScore top3 top10 notRanking totalPins }
    trendsVsFirstSnapshot { firstSnapshotAt startAvg currentAvg change improved percentChange }
    trendsVsPreviousSnapshot { previousSnapshotAt avgRankChange visibilityChange top3Change top10Change }
    geographicStrength { label pins avgRank visibility coverage }
    topCompetitors { name avgRank visibility threatScore }
    recommendations { type icon title description }
  }
}`);

export const Insights = z
  .object({
    scan_uuid: z.string(),
    snapshot_at: timestamp().nullable(),
    keyword: z.string(),
    summary: z
      .object({ avg_rank: z.number(), visibility_score: z.number(), top_3_pins: int(), top_10_pins: int(), not_ranking: int(), total_pins: int() })
      .nullable(),
    trends_vs_first_snapshot: z
      .object({ first_snapshot_at: timestamp(), start_avg: z.number(), current_avg: z.number(), change: z.number(), improved: z.boolean(), percent_change: z.number() })
      .nullable(),
    trends_vs_previous_snapshot: z
      .object({ previous_snapshot_at: timestamp(), avg_rank_change: z.number(), visibility_change: z.number(), top_3_change: z.number(), top_10_change: z.number() })
      .nullable(),
    geographic_strength: z.array(z.object({ label: z.string(), pins: int(), avg_rank: z.number(), visibility: z.number(), coverage: z.number() })),
    top_competitors: z.array(z.object({ name: z.string(), avg_rank: z.number(), visibility: z.number(), threat_score: z.number() })),
    recommendations: z.array(z.object({ type: z.string(), icon: z.string(), title: z.string(), description: z.string() })),
  })
  .openapi('ScanInsights');

export function insights(d: InsightsData): z.infer<typeof Insights> {
  const f = d.trendsVsFirstSnapshot;
  const p = d.trendsVsPreviousSnapshot;
  return {
    scan_uuid: d.scanUuid,
    snapshot_at: d.snapshotAt,
    keyword: d.keyword,
    summary: d.summary && {
      avg_rank: d.summary.avgRank,
      visibility_score: d.summary.visibilityScore,
      top_3_pins: d.summary.top3,
      top_10_pins: d.summary.top10,
      not_ranking: d.summary.notRanking,
      total_pins: d.summary.totalPins,
    },
    trends_vs_first_snapshot: f && {
      first_snapshot_at: f.firstSnapshotAt,
      start_avg: f.startAvg,
      current_avg: f.currentAvg,
      change: f.change,
      improved: f.improved,
      percent_change: f.percentChange,
    },
    trends_vs_previous_snapshot: p && {
      previous_snapshot_at: p.previousSnapshotAt,
      avg_rank_change: p.avgRankChange,
      visibility_change: p.visibilityChange,
      top_3_change: p.top3Change,
      top_10_change: p.top10Change,
    },
    geographic_strength: d.geographicStrength.map((g) => ({ label: g.label, pins: g.pins, avg_rank: g.avgRank, visibility: g.visibility, coverage: g.coverage })),
    top_competitors: d.topCompetitors.map((c) => ({ name: c.name, avg_rank: c.avgRank, visibility: c.visibility, threat_score: c.threatScore })),
    recommendations: d.recommendations.map((r) => ({ type: r.type, icon: r.icon, title: r.title, description: r.description })),
  };
}

// ---- runs -----------------------------------------------------------------------------------------------

export type RunData = RunStartedFieldsFragment;
graphql(`fragment RunStartedFields on ScanRunStarted { uuid runId startedAt isRunning }`);
export const CREATE_SCAN_MUTATION = graphql(`mutation CreateScan($input: CreateScanInput!) { createScan(input: $input) { ...RunStartedFields } }`);
export const RUN_SCAN_MUTATION = graphql(`mutation RunScan($uuid: String!) { runScan(uuid: $uuid) { ...RunStartedFields } }`);

export const RunStarted = z.object({ uuid: z.string(), started_at: timestamp(), is_running: z.boolean() }).openapi('ScanRunStarted');

export const runStarted = (r: RunData): z.infer<typeof RunStarted> => ({ uuid: r.uuid, started_at: r.startedAt, is_running: r.isRunning });

/** The create-scan arguments as both facades take them (snake_case, parsed), for `CreateScanInput`. */
export interface CreateScanArgs {
  location: string;
  keywords: string[];
  grid_size: number;
  distance: number;
  distance_unit: string;
  address?: string | null;
  lat?: number | null;
  lng?: number | null;
  target_place_id?: string | null;
  type?: string | null;
}

export const createScanInput = (a: CreateScanArgs) => ({
  location: a.location,
  address: a.address ?? null,
  keywords: a.keywords,
  gridSize: a.grid_size,
  distance: a.distance,
  distanceUnit: a.distance_unit,
  type: a.type ?? null,
  targetPlaceId: a.target_place_id ?? null,
  lat: a.lat ?? null,
  lng: a.lng ?? null,
});

// ---- schedule -------------------------------------------------------------------------------------------

graphql(`fragment ScheduleFields on ScanSchedule { uuid isScheduled frequency nextRunAt scheduledFrom scheduledTo scheduledDays timezone }`);
export const SET_SCAN_SCHEDULE_MUTATION = graphql(`mutation SetScanSchedule($uuid: String!, $input: SetScanScheduleInput!) { setScanSchedule(uuid: $uuid, input: $input) { ...ScheduleFields } }`);

/** The schedule arguments as both facades take them; what is left out keeps its stored value. */
export interface ScheduleArgs {
  is_scheduled: boolean;
  frequency?: string | null;
  scheduled_from?: string | null;
  scheduled_to?: string | null;
  scheduled_days?: number[] | null;
  timezone?: string | null;
}

export const scheduleInput = (a: ScheduleArgs) => ({
  isScheduled: a.is_scheduled,
  frequency: a.frequency ?? null,
  scheduledFrom: a.scheduled_from ?? null,
  scheduledTo: a.scheduled_to ?? null,
  scheduledDays: a.scheduled_days ?? null,
  timezone: a.timezone ?? null,
});

export const Schedule = z
  .object({
    uuid: z.string(),
    is_scheduled: z.boolean(),
    frequency: z.string().nullable().openapi({ example: 'weekly' }),
    next_run_at: timestamp().nullable(),
    scheduled_from: z.string().nullable(),
    scheduled_to: z.string().nullable(),
    scheduled_days: z.array(int()),
    timezone: z.string().nullable(),
  })
  .openapi('ScanSchedule');

export const schedule = (s: ScheduleFieldsFragment): z.infer<typeof Schedule> => ({
  uuid: s.uuid,
  is_scheduled: s.isScheduled,
  frequency: s.frequency,
  next_run_at: s.nextRunAt,
  scheduled_from: s.scheduledFrom,
  scheduled_to: s.scheduledTo,
  scheduled_days: s.scheduledDays,
  timezone: s.timezone,
});
