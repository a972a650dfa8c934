import { z } from 'zod';
import { bool as textBool, integer, parseInput, text } from '../../shared/input';
import { envelope } from '../../shared/pagination';
import { route } from '../route';

/**
 * Local Search Grid scans (agency API, tenant owners): `/scans`. Spec: "Scan (Local Search Grid)", "States > Scan",
 * "Endpoints > Local Search Grid scans"; decisions in docs/decisions.md, "Local Search Grid".
 */
const number = (field: string) =>
  z.preprocess(
    (v) => (typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v)) ? Number(v) : v),
    z.number({ required_error: `The ${field.replace(/_/g, ' ')} field is required.`, invalid_type_error: `The ${field.replace(/_/g, ' ')} must be a number.` }).finite(),
  );
/** Booleans accept true/false/1/0, as text (query strings) or JSON values. */
const bool = (field: string) => z.preprocess((v) => (v === 1 ? true : v === 0 ? false : v), textBool(field));
const strings = (field: string) => z.array(text(field), { required_error: `The ${field} field is required.`, invalid_type_error: `The ${field} must be an array of strings.` });
const ints = (field: string) => z.array(integer(field), { invalid_type_error: `The ${field.replace(/_/g, ' ')} must be an array of integers.` });

interface ScanData {
  uuid: string;
  location: string;
  keyword: string;
  keywords: string[];
  gridSize: number;
  distance: number;
  distanceUnit: string;
  type: string;
  address: string | null;
  targetPlaceId: string | null;
  lat: number;
  lng: number;
  isScheduled: boolean;
  isRunning: boolean;
  lastRunFailed: boolean;
  lastRunAt: string | null;
  nextRunAt: string | null;
  archivedAt: string | null;
  reportUrl: string;
  createdAt: string;
  updatedAt: string;
}

const ROW_FIELDS = 'uuid location keyword keywords gridSize isScheduled isRunning lastRunAt nextRunAt';
const SCAN_FIELDS = `${ROW_FIELDS} distance distanceUnit type address targetPlaceId lat lng lastRunFailed archivedAt reportUrl createdAt updatedAt`;

const scanRow = (s: ScanData) => ({
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

/** Update, archive and restore answer the list row plus the scan's settings. */
const scanFull = (s: ScanData) => ({
  ...scanRow(s),
  distance: s.distance,
  distance_unit: s.distanceUnit,
  type: s.type,
  address: s.address,
  target_place_id: s.targetPlaceId,
  lat: s.lat,
  lng: s.lng,
  last_run_failed: s.lastRunFailed,
  archived_at: s.archivedAt,
  report_url: s.reportUrl,
  created_at: s.createdAt,
  updated_at: s.updatedAt,
});

interface Place {
  placeId: string;
  name: string;
  rank: number;
}
interface Pin {
  lat: number;
  lng: number;
  rank: number | null;
  keyword: string;
  status: string;
  snapshotAt: string;
  topResults: Place[];
}
const PIN_FIELDS = 'lat lng rank keyword status snapshotAt topResults { placeId name rank }';
const place = (p: Place) => ({ place_id: p.placeId, name: p.name, rank: p.rank });

interface RunData {
  uuid: string;
  startedAt: string;
  isRunning: boolean;
}
const runStarted = (r: RunData) => ({ data: { uuid: r.uuid, started_at: r.startedAt, is_running: r.isRunning } });

interface ScheduleData {
  uuid: string;
  isScheduled: boolean;
  frequency: string | null;
  nextRunAt: string | null;
  scheduledFrom: string | null;
  scheduledTo: string | null;
  scheduledDays: number[];
  timezone: string | null;
}
const SCHEDULE_FIELDS = 'uuid isScheduled frequency nextRunAt scheduledFrom scheduledTo scheduledDays timezone';
const schedule = (s: ScheduleData) => ({
  uuid: s.uuid,
  is_scheduled: s.isScheduled,
  frequency: s.frequency,
  next_run_at: s.nextRunAt,
  scheduled_from: s.scheduledFrom,
  scheduled_to: s.scheduledTo,
  scheduled_days: s.scheduledDays,
  timezone: s.timezone,
});

const topNParam = { top_n: integer('top_n').optional() };
const pageParams = { page: integer('page').optional(), per_page: integer('per_page').optional() };

export const scanRoutes = [
  route<{ scans: { items: ScanData[]; total: number; page: number; perPage: number } }>({
    method: 'get',
    path: '/scans',
    document: `query ($page: Int!, $perPage: Int!, $search: String, $isScheduled: Boolean, $completed: Boolean, $failed: Boolean,
        $sinceDays: Int, $archivedOnly: Boolean, $includeArchived: Boolean) {
      scans(page: $page, perPage: $perPage, search: $search, isScheduled: $isScheduled, completed: $completed, failed: $failed,
        sinceDays: $sinceDays, archivedOnly: $archivedOnly, includeArchived: $includeArchived) {
        total page perPage items { ${ROW_FIELDS} }
      }
    }`,
    variables: (req) => {
      const q = parseInput(
        z.object({
          search: text('search').optional(),
          is_scheduled: bool('is_scheduled').optional(),
          completed: bool('completed').optional(),
          failed: bool('failed').optional(),
          since_days: integer('since_days').optional(),
          archived_only: bool('archived_only').optional(),
          include_archived: bool('include_archived').optional(),
          ...pageParams,
        }),
        req.query,
      );
      return {
        page: q.page ?? 1,
        perPage: q.per_page ?? 20,
        search: q.search ?? null,
        isScheduled: q.is_scheduled ?? null,
        completed: q.completed ?? null,
        failed: q.failed ?? null,
        sinceDays: q.since_days ?? null,
        archivedOnly: q.archived_only ?? null,
        includeArchived: q.include_archived ?? null,
      };
    },
    respond: (d) => ({
      body: { data: d.scans.items.map(scanRow), meta: { current_page: d.scans.page, per_page: d.scans.perPage, total: d.scans.total } },
    }),
  }),
  route<{ scan: { scan: ScanData; summary: { averageRank: number; top3Count: number; top4To10Count: number; notRankingCount: number } | null; reportUrl: string; availableSnapshots: string[]; results: Pin[] } }>({
    method: 'get',
    path: '/scans/:uuid',
    document: `query ($uuid: String!, $snapshotAt: String, $topN: Int) {
      scan(uuid: $uuid, snapshotAt: $snapshotAt, topN: $topN) {
        scan { uuid location keyword keywords gridSize isRunning }
        summary { averageRank top3Count top4To10Count notRankingCount }
        reportUrl availableSnapshots results { ${PIN_FIELDS} }
      }
    }`,
    variables: (req) => {
      const q = parseInput(z.object({ snapshot_at: text('snapshot_at').optional(), ...topNParam }), req.query);
      return { uuid: req.params.uuid, snapshotAt: q.snapshot_at ?? null, topN: q.top_n ?? null };
    },
    respond: ({ scan: d }) => ({
      body: {
        data: {
          uuid: d.scan.uuid,
          location: d.scan.location,
          keyword: d.scan.keyword,
          keywords: d.scan.keywords,
          grid_size: d.scan.gridSize,
          is_running: d.scan.isRunning,
          summary: d.summary && {
            average_rank: d.summary.averageRank,
            top_3_count: d.summary.top3Count,
            top_4_to_10_count: d.summary.top4To10Count,
            not_ranking_count: d.summary.notRankingCount,
          },
          report_url: d.reportUrl,
          available_snapshots: d.availableSnapshots,
          results: d.results.map((r) => ({ lat: r.lat, lng: r.lng, rank: r.rank, keyword: r.keyword, status: r.status, top_results: r.topResults.map(place) })),
        },
      },
    }),
  }),
  route<{ scanDataPoints: { items: Pin[]; total: number; page: number; perPage: number; scanUuid: string; snapshotAt: string | null; keyword: string | null; topN: number } }>({
    method: 'get',
    path: '/scans/:uuid/data_points',
    document: `query ($uuid: String!, $snapshotAt: String, $keyword: String, $topN: Int, $page: Int!, $perPage: Int!) {
      scanDataPoints(uuid: $uuid, snapshotAt: $snapshotAt, keyword: $keyword, topN: $topN, page: $page, perPage: $perPage) {
        total page perPage scanUuid snapshotAt keyword topN items { ${PIN_FIELDS} }
      }
    }`,
    variables: (req) => {
      const q = parseInput(z.object({ snapshot_at: text('snapshot_at').optional(), keyword: text('keyword').optional(), ...topNParam, ...pageParams }), req.query);
      return { uuid: req.params.uuid, snapshotAt: q.snapshot_at ?? null, keyword: q.keyword ?? null, topN: q.top_n ?? null, page: q.page ?? 1, perPage: q.per_page ?? 100 };
    },
    respond: ({ scanDataPoints: d }, req) => {
      const body = envelope(req, d, (r: Pin) =>
        d.topN === 0
          ? { lat: r.lat, lng: r.lng, target_rank: r.rank }
          : { lat: r.lat, lng: r.lng, keyword: r.keyword, snapshot_at: r.snapshotAt, target_rank: r.rank, results: r.topResults.map(place) },
      );
      return { body: { ...body, meta: { ...body.meta, scan_uuid: d.scanUuid, snapshot_at: d.snapshotAt, keyword: d.keyword, top_n: d.topN } } };
    },
  }),
  route<{ scanSnapshots: Array<Record<string, unknown> & { snapshotAt: string }> }>({
    method: 'get',
    path: '/scans/:uuid/snapshots',
    document: `query ($uuid: String!, $keyword: String) {
      scanSnapshots(uuid: $uuid, keyword: $keyword) {
        snapshotAt label shortLabel monthYear avgRank changeFromPrevious top3Count top10Count belowTop10Count notRankingCount totalPins visibilityScore
      }
    }`,
    variables: (req) => {
      const q = parseInput(z.object({ keyword: text('keyword').optional() }), req.query);
      return { uuid: req.params.uuid, keyword: q.keyword ?? null };
    },
    respond: (d) => ({
      body: {
        data: d.scanSnapshots.map((s) => ({
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
        })),
      },
    }),
  }),
  route<{ scanInsights: InsightsData }>({
    method: 'get',
    path: '/scans/:uuid/insights',
    document: `query ($uuid: String!, $keyword: String, $snapshotAt: String) {
      scanInsights(uuid: $uuid, keyword: $keyword, snapshotAt: $snapshotAt) {
        scanUuid snapshotAt keyword
        summary { avgRank visibilityScore top3 top10 notRanking totalPins }
        trendsVsFirstSnapshot { firstSnapshotAt startAvg currentAvg change improved percentChange }
        trendsVsPreviousSnapshot { previousSnapshotAt avgRankChange visibilityChange top3Change top10Change }
        geographicStrength { label pins avgRank visibility coverage }
        topCompetitors { name avgRank visibility threatScore }
        recommendations { type icon title description }
      }
    }`,
    variables: (req) => {
      const q = parseInput(z.object({ keyword: text('keyword').optional(), snapshot_at: text('snapshot_at').optional() }), req.query);
      return { uuid: req.params.uuid, keyword: q.keyword ?? null, snapshotAt: q.snapshot_at ?? null };
    },
    respond: ({ scanInsights: d }) => ({ body: { data: insights(d) } }),
  }),
  route<{ createScan: RunData }>({
    method: 'post',
    path: '/scans',
    document: 'mutation ($input: CreateScanInput!) { createScan(input: $input) { uuid startedAt isRunning } }',
    variables: (req) => {
      const b = parseInput(
        z.object({
          location: text('location'),
          address: text('address').nullish(),
          keywords: strings('keywords'),
          grid_size: integer('grid_size'),
          distance: number('distance'),
          distance_unit: text('distance_unit'),
          type: text('type').nullish(),
          target_place_id: text('target_place_id').nullish(),
          lat: number('lat').nullish(),
          lng: number('lng').nullish(),
        }),
        req.body,
      );
      return {
        input: {
          location: b.location,
          address: b.address ?? null,
          keywords: b.keywords,
          gridSize: b.grid_size,
          distance: b.distance,
          distanceUnit: b.distance_unit,
          type: b.type ?? null,
          targetPlaceId: b.target_place_id ?? null,
          lat: b.lat ?? null,
          lng: b.lng ?? null,
        },
      };
    },
    respond: (d) => ({ status: 202, body: runStarted(d.createScan) }),
  }),
  route<{ runScan: RunData }>({
    method: 'post',
    path: '/scans/:uuid/run',
    document: 'mutation ($uuid: String!) { runScan(uuid: $uuid) { uuid startedAt isRunning } }',
    variables: (req) => ({ uuid: req.params.uuid }),
    respond: (d) => ({ status: 202, body: runStarted(d.runScan) }),
  }),
  route<{ updateScan: ScanData }>({
    method: 'put',
    path: '/scans/:uuid',
    document: `mutation ($uuid: String!, $input: UpdateScanInput!) { updateScan(uuid: $uuid, input: $input) { ${SCAN_FIELDS} } }`,
    variables: (req) => {
      const b = parseInput(
        z.object({
          location: text('location').optional(),
          address: text('address').nullish(),
          keywords: strings('keywords').optional(),
          target_place_id: text('target_place_id').nullish(),
          type: text('type').optional(),
          grid_size: integer('grid_size').optional(),
          distance: number('distance').optional(),
          distance_unit: text('distance_unit').optional(),
          lat: number('lat').optional(),
          lng: number('lng').optional(),
          regenerate_pins: bool('regenerate_pins').optional(),
        }),
        req.body,
      );
      const input: Record<string, unknown> = {
        location: b.location,
        address: b.address,
        keywords: b.keywords,
        targetPlaceId: b.target_place_id,
        type: b.type,
        gridSize: b.grid_size,
        distance: b.distance,
        distanceUnit: b.distance_unit,
        lat: b.lat,
        lng: b.lng,
        regeneratePins: b.regenerate_pins,
      };
      return { uuid: req.params.uuid, input: Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined)) };
    },
    respond: (d) => ({ body: { data: scanFull(d.updateScan) } }),
  }),
  route<{ archiveScan: ScanData }>({
    method: 'post',
    path: '/scans/:uuid/archive',
    document: `mutation ($uuid: String!) { archiveScan(uuid: $uuid) { ${SCAN_FIELDS} } }`,
    variables: (req) => ({ uuid: req.params.uuid }),
    respond: (d) => ({ body: { data: scanFull(d.archiveScan) } }),
  }),
  route<{ restoreScan: ScanData }>({
    method: 'post',
    path: '/scans/:uuid/restore',
    document: `mutation ($uuid: String!) { restoreScan(uuid: $uuid) { ${SCAN_FIELDS} } }`,
    variables: (req) => ({ uuid: req.params.uuid }),
    respond: (d) => ({ body: { data: scanFull(d.restoreScan) } }),
  }),
  route<{ scanSchedule: ScheduleData }>({
    method: 'get',
    path: '/scans/:uuid/schedule',
    document: `query ($uuid: String!) { scanSchedule(uuid: $uuid) { ${SCHEDULE_FIELDS} } }`,
    variables: (req) => ({ uuid: req.params.uuid }),
    respond: (d) => ({ body: { data: schedule(d.scanSchedule) } }),
  }),
  route<{ setScanSchedule: ScheduleData }>({
    method: 'post',
    path: '/scans/:uuid/schedule',
    document: `mutation ($uuid: String!, $input: SetScanScheduleInput!) { setScanSchedule(uuid: $uuid, input: $input) { ${SCHEDULE_FIELDS} } }`,
    variables: (req) => {
      const b = parseInput(
        z.object({
          is_scheduled: bool('is_scheduled'),
          frequency: text('frequency').nullish(),
          scheduled_from: text('scheduled_from').nullish(),
          scheduled_to: text('scheduled_to').nullish(),
          scheduled_days: ints('scheduled_days').nullish(),
          timezone: text('timezone').nullish(),
        }),
        req.body,
      );
      return {
        uuid: req.params.uuid,
        input: {
          isScheduled: b.is_scheduled,
          frequency: b.frequency ?? null,
          scheduledFrom: b.scheduled_from ?? null,
          scheduledTo: b.scheduled_to ?? null,
          scheduledDays: b.scheduled_days ?? null,
          timezone: b.timezone ?? null,
        },
      };
    },
    respond: (d) => ({ body: { data: schedule(d.setScanSchedule) } }),
  }),
];

interface InsightsData {
  scanUuid: string;
  snapshotAt: string | null;
  keyword: string;
  summary: { avgRank: number; visibilityScore: number; top3: number; top10: number; notRanking: number; totalPins: number } | null;
  trendsVsFirstSnapshot: { firstSnapshotAt: string; startAvg: number; currentAvg: number; change: number; improved: boolean; percentChange: number } | null;
  trendsVsPreviousSnapshot: { previousSnapshotAt: string; avgRankChange: number; visibilityChange: number; top3Change: number; top10Change: number } | null;
  geographicStrength: Array<{ label: string; pins: number; avgRank: number; visibility: number; coverage: number }>;
  topCompetitors: Array<{ name: string; avgRank: number; visibility: number; threatScore: number }>;
  recommendations: Array<{ type: string; icon: string; title: string; description: string }>;
}

function insights(d: InsightsData) {
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
    recommendations: d.recommendations,
  };
}
