import * as scans from '../../shared/scans';
import { SCAN_GRID_URI } from '../apps';
import { arr, fromZod, bool, dateTime, input, int, nullable, num, object, oneOf, page, pageOf, paginated, paginationSchema, perPage, str, uuid } from '../schema';
import { type TaskKind, type TaskState, type ToolTask } from '../tasks';
import { defineTool, READ_ONLY, type ToolAnnotations } from '../tool';
import { graphql } from '../../shared/graphql';
import type { CreateScanMutation, McpGetScanReportQuery, RunScanMutation } from '../../shared/graphql/graphql';
import { timestamp, z } from '../../shared/presenters/zod';

/**
 * Local Search Grid tools (tenant owners only): the agency API's scan operations, one GraphQL operation each, with
 * the agency REST API's JSON shapes (spec: "Scan (Local Search Grid)"); operations and mappers are shared with it
 * (facades/shared/scans.ts).
 */
const ts = (extra = {}) => str({ format: 'date-time', ...extra });

// The agency REST API's wire schemas (facades/shared/scans.ts): one declaration per shape for both facades.
const scanRowSchema = fromZod(scans.ScanRow);

const uuidArg = uuid('The scan UUID (from list_scans or create_scan).');
const topN = int({ minimum: 0, maximum: 20, default: 5, description: 'Competitors per pin to include (0-20).' });
const snapshotAt = dateTime('A completed snapshot time (ISO 8601, from available_snapshots); default: the latest.');
const keywordArg = str({ minLength: 1, maxLength: 100, description: "One of the scan's keywords; default: the first." });

const scanTool = { annotations: READ_ONLY, permission: null, tenantOwnerOnly: true } as const;

interface ListScansArgs {
  search?: string;
  is_scheduled?: boolean;
  completed?: boolean;
  failed?: boolean;
  since_days?: number;
  page: number;
  per_page: number;
}

export const listScans = defineTool({
  ...scanTool,
  name: 'list_scans',
  title: 'List Local Search Grid scans',
  description:
    'Lists the agency\'s Local Search Grid scans (rank tracking on a grid of map pins around a business), newest first: ' +
    'business name, keywords, grid size, whether it is scheduled or running, last and next run. Filter by search text ' +
    '(business or keyword), is_scheduled, completed (has a finished snapshot), failed (last run failed) and since_days ' +
    '(created in the last N days). Use get_scan or get_scan_insights with a uuid for results.',
  inputSchema: input({
    search: str({ minLength: 1, maxLength: 255, description: 'Text in the business name or keywords.' }),
    is_scheduled: bool(),
    completed: bool({ description: 'true: only scans with a completed snapshot; false: only scans without one.' }),
    failed: bool({ description: 'true: only scans whose last run failed.' }),
    since_days: int({ minimum: 1, maximum: 365, description: 'Only scans created in the last N days (1-365).' }),
    page: page(),
    per_page: perPage(100, 20),
  }),
  outputSchema: paginated(scanRowSchema),
  document: graphql(`query McpListScans($page: Int!, $perPage: Int!, $search: String, $isScheduled: Boolean, $completed: Boolean, $failed: Boolean, $sinceDays: Int) {
    scans(page: $page, perPage: $perPage, search: $search, isScheduled: $isScheduled, completed: $completed, failed: $failed, sinceDays: $sinceDays) {
      total page perPage items { ...ScanRowFields }
    }
  }`),
  variables: (a: ListScansArgs) => ({
    page: a.page,
    perPage: a.per_page,
    search: a.search ?? null,
    isScheduled: a.is_scheduled ?? null,
    completed: a.completed ?? null,
    failed: a.failed ?? null,
    sinceDays: a.since_days ?? null,
  }),
  result: (d) => pageOf(d.scans, scans.scanRow),
});

export const getScan = defineTool({
  ...scanTool,
  name: 'get_scan',
  title: 'Get a scan with its grid results',
  description:
    'Returns one scan with the results of a snapshot (default: the latest): a summary (average rank, pins in the top 3, ' +
    'in 4-10, not ranking), every pin with its rank (null when the business is not in the top 20) and the top_n competitors ' +
    'at that pin, the snapshot times available and the shareable report_url. For page-by-page pins use get_scan_data_points; ' +
    'for analysis use get_scan_insights.',
  inputSchema: input({ uuid: uuidArg, snapshot_at: snapshotAt, top_n: topN }, ['uuid']),
  outputSchema: fromZod(scans.ScanDetail),
  document: scans.SCAN_DETAIL_QUERY,
  variables: (a: { uuid: string; snapshot_at?: string; top_n: number }) => ({ uuid: a.uuid, snapshotAt: a.snapshot_at ?? null, topN: a.top_n }),
  result: ({ scan: d }) => scans.scanDetail(d),
  view: SCAN_GRID_URI,
});

export const getScanDataPoints = defineTool({
  ...scanTool,
  name: 'get_scan_data_points',
  title: 'Get scan pins page by page',
  description:
    'Returns the pins of a scan snapshot one page at a time: position, keyword, the business\'s rank there (target_rank, ' +
    'null when not in the top 20) and the top_n competitors at that pin (results). Without keyword, pins of every keyword. ' +
    'meta names the snapshot that was read.',
  inputSchema: input({ uuid: uuidArg, snapshot_at: snapshotAt, keyword: keywordArg, top_n: topN, page: page(), per_page: perPage(50, 50) }, ['uuid']),
  outputSchema: object({ data: arr(fromZod(scans.DataPoint)), pagination: paginationSchema, meta: fromZod(scans.DataPointsMeta) }),
  document: scans.SCAN_DATA_POINTS_QUERY,
  variables: (a: { uuid: string; snapshot_at?: string; keyword?: string; top_n: number; page: number; per_page: number }) => ({ uuid: a.uuid, snapshotAt: a.snapshot_at ?? null, keyword: a.keyword ?? null, topN: a.top_n, page: a.page, perPage: a.per_page }),
  result: ({ scanDataPoints: d }) => ({ ...pageOf(d, scans.dataPoint), meta: scans.dataPointsMeta(d) }),
});
/**
 * MCP's snapshot row: the spec's fields and `ranked` (ours, additive): a row taken while the scan tracked no business
 * answers 0 for its figures, as REST must (numbers in the spec), and an agent would read that 0 as the best rank.
 * Unnamed (z.object of the shape): the generator would make a named schema used both plain and nullable an `allOf`,
 * which tool schemas must not have.
 */
const SnapshotRow = z.object({
  ...scans.Snapshot.shape,
  ranked: z.boolean().openapi({
    description: 'False: the snapshot has no figures of the business (taken while the scan had no business to track); its 0s are no rank.',
  }),
});
const snapshotRow = (s: scans.SnapshotData): z.infer<typeof SnapshotRow> => ({ ...scans.snapshot(s), ranked: s.ranked });
const snapshotSchema = fromZod(SnapshotRow);

export const listScanSnapshots = defineTool({
  ...scanTool,
  name: 'list_scan_snapshots',
  title: 'List the snapshots of a scan',
  description:
    'Lists every completed snapshot of a scan for one keyword (default: the first), newest first, with average rank, its ' +
    'change from the previous snapshot (negative = better), pins in the top 3 / top 10 / below, not ranking and a ' +
    'visibility score: the ranking history over time. All snapshots come in one page.',
  inputSchema: input({ uuid: uuidArg, keyword: keywordArg }, ['uuid']),
  outputSchema: paginated(snapshotSchema),
  document: scans.SCAN_SNAPSHOTS_QUERY,
  variables: (a: { uuid: string; keyword?: string }) => ({ uuid: a.uuid, keyword: a.keyword ?? null }),
  result: (d) => pageOf({ items: d.scanSnapshots, total: d.scanSnapshots.length, page: 1, perPage: Math.max(1, d.scanSnapshots.length) }, snapshotRow),
});

export const getScanInsights = defineTool({
  ...scanTool,
  name: 'get_scan_insights',
  title: 'Get scan insights',
  description:
    'Analyses one scan snapshot (default: the latest, first keyword): summary (average rank, visibility, top 3 / top 10 / ' +
    'not ranking pins), trends against the first and the previous snapshot, strength by region of the grid, the top ' +
    'competitors with a threat score, and recommendations. The best tool to explain how a business ranks locally.',
  inputSchema: input({ uuid: uuidArg, keyword: keywordArg, snapshot_at: snapshotAt }, ['uuid']),
  outputSchema: fromZod(scans.Insights),
  document: scans.SCAN_INSIGHTS_QUERY,
  variables: (a: { uuid: string; keyword?: string; snapshot_at?: string }) => ({ uuid: a.uuid, keyword: a.keyword ?? null, snapshotAt: a.snapshot_at ?? null }),
  result: ({ scanInsights: d }) => scans.insights(d),
});

/**
 * The scan report on demand (issue 19, item 5; additive to the spec's tools): GraphQL `scanReport` in snake_case, the
 * figures of the public report page for one keyword and snapshot, with its page and PDF links. Left out: each pin's
 * competitor list and the heat maps of earlier snapshots (get_scan_data_points answers both) and the brand's look.
 */
const integer = () => z.number().int();
const ReportSummary = z.object({
  average_rank: z.number().openapi({ description: 'Over every pin, a pin where the business is not in the top 20 counting as 21.' }),
  top_3: integer(),
  top_4_to_10: integer(),
  top_11_to_20: integer(),
  not_ranking: integer(),
  total_pins: integer(),
  visibility_score: z.number(),
  change_from_previous: z.number().nullable().openapi({ description: 'Average-rank difference to the previous snapshot (negative = better); null for the first.' }),
  previous_snapshot_at: timestamp().nullable(),
});
export const ScanReport = z.object({
  language: z.string().openapi({ description: "ISO 639-1: the agency's language, which the page and PDF speak." }),
  scan: z.object({
    uuid: z.string().openapi({ format: 'uuid' }),
    location: z.string(),
    address: z.string().nullable(),
    type: z.string(),
    keywords: z.array(z.string()),
    grid_size: integer(),
    distance: z.number(),
    distance_unit: z.enum(['km', 'miles']),
    lat: z.number(),
    lng: z.number(),
  }),
  keyword: z.string().openapi({ description: "The report's keyword (the scan's spelling)." }),
  snapshot: SnapshotRow.nullable().openapi({ description: 'The shown snapshot; null before the first one (or for a keyword the scan does not have).' }),
  snapshots: z.array(SnapshotRow).openapi({ description: "The keyword's completed snapshots, newest first." }),
  summary: ReportSummary.nullable(),
  pins: z.array(z.object({ lat: z.number(), lng: z.number(), rank: integer().nullable().openapi({ description: 'null: not in the top 20.' }), status: z.string() })),
  competitors: z
    .array(z.object({ name: z.string(), avg_rank: z.number(), appearances: integer(), coverage: z.number(), threat_score: z.number() }))
    .openapi({ description: 'The top 10 by threat score; appearances = pins where the business is in the top 20, coverage = appearances / pins in %.' }),
  history: z
    .object({
      size: integer().openapi({ description: 'Pins per side of the grid the change cells are placed on.' }),
      trend: z.array(SnapshotRow).openapi({ description: 'The last twelve snapshots up to the shown one, oldest first.' }),
      competitors: z
        .array(z.object({ place_id: z.string(), name: z.string(), points: z.array(z.object({ avg_rank: z.number().nullable(), visibility: z.number().nullable() })) }))
        .openapi({ description: 'The five strongest competitors: one point per trend snapshot, nulls where absent.' }),
      changes: z
        .object({
          previous_snapshot_at: timestamp(),
          gained: integer(),
          lost: integer(),
          same: integer(),
          cells: z.array(z.object({ x: integer(), y: integer(), rank: integer().nullable(), previous_rank: integer().nullable(), change: z.enum(['gained', 'lost', 'same']) })),
        })
        .nullable()
        .openapi({ description: 'Pin by pin against the snapshot before (x: column west to east, y: row north to south); null without one.' }),
      overtakers: z.array(z.object({ name: z.string(), pins: integer() })).openapi({ description: 'Competitors that moved above the business, by pins.' }),
    })
    .nullable(),
  html_url: z.string().nullable().openapi({ format: 'uri', description: "The public, white-label report page (no token needed); null for a keyword the scan does not have." }),
  pdf_url: z.string().nullable().openapi({ format: 'uri', description: 'The same report as a PDF.' }),
});

type ReportData = McpGetScanReportQuery['scanReport'];

function scanReport(r: ReportData): z.infer<typeof ScanReport> {
  const s = r.summary;
  const h = r.history;
  return {
    language: r.brand.language,
    scan: {
      uuid: r.scan.uuid,
      location: r.scan.location,
      address: r.scan.address,
      type: r.scan.type,
      keywords: r.scan.keywords,
      grid_size: r.scan.gridSize,
      distance: r.scan.distance,
      distance_unit: scans.distanceUnit(r.scan.distanceUnit),
      lat: r.scan.lat,
      lng: r.scan.lng,
    },
    keyword: r.keyword,
    snapshot: r.snapshot && snapshotRow(r.snapshot),
    snapshots: r.snapshots.map(snapshotRow),
    summary: s && {
      average_rank: s.averageRank,
      top_3: s.top3,
      top_4_to_10: s.top4to10,
      top_11_to_20: s.top11to20,
      not_ranking: s.notRanking,
      total_pins: s.totalPins,
      visibility_score: s.visibilityScore,
      change_from_previous: s.changeFromPrevious,
      previous_snapshot_at: s.previousSnapshotAt,
    },
    pins: r.pins,
    competitors: r.competitors.map((c) => ({ name: c.name, avg_rank: c.avgRank, appearances: c.appearances, coverage: c.coverage, threat_score: c.threatScore })),
    history: h && {
      size: h.size,
      trend: h.trend.map(snapshotRow),
      competitors: h.competitors.map((c) => ({ place_id: c.placeId, name: c.name, points: c.points.map((p) => ({ avg_rank: p.avgRank, visibility: p.visibility })) })),
      changes: h.changes && {
        previous_snapshot_at: h.changes.previousSnapshotAt,
        gained: h.changes.gained,
        lost: h.changes.lost,
        same: h.changes.same,
        cells: h.changes.cells.map((c) => ({ x: c.x, y: c.y, rank: c.rank, previous_rank: c.previousRank, change: scans.pinChange(c.change) })),
      },
      overtakers: h.overtakers,
    },
    html_url: r.htmlUrl ?? null,
    pdf_url: r.pdfUrl ?? null,
  };
}

export const getScanReport = defineTool({
  ...scanTool,
  name: 'get_scan_report',
  title: 'Get the scan report',
  description:
    "The scan's shareable report for one keyword (default: the first) and snapshot (default: the latest), as its " +
    'white-label page shows it: the summary (average rank, pins in the top 3 / 4-10 / 11-20 / not ranking, visibility, ' +
    "change since the previous snapshot), every pin's rank, the top competitors with appearances and threat score, " +
    'the snapshot history, pins gained and lost since the previous snapshot with the competitors that moved above, and the ' +
    "strongest competitors' average rank over time. html_url and pdf_url are the public page and PDF of this very report " +
    'to hand to a client (no sign-in needed).',
  inputSchema: input({ uuid: uuidArg, keyword: keywordArg, snapshot_at: snapshotAt }, ['uuid']),
  outputSchema: fromZod(ScanReport),
  document: graphql(`query McpGetScanReport($uuid: String!, $keyword: String, $snapshotAt: String) {
    scanReport(uuid: $uuid, keyword: $keyword, snapshotAt: $snapshotAt) {
      brand { language }
      scan { uuid location address type keywords gridSize distance distanceUnit lat lng }
      keyword
      snapshot { ...ScanSnapshotFields }
      snapshots { ...ScanSnapshotFields }
      summary { averageRank top3 top4to10 top11to20 notRanking totalPins visibilityScore changeFromPrevious previousSnapshotAt }
      pins { lat lng rank status }
      competitors { name avgRank appearances coverage threatScore }
      history {
        size
        trend { ...ScanSnapshotFields }
        competitors { placeId name points { avgRank visibility } }
        changes { previousSnapshotAt gained lost same cells { x y rank previousRank change } }
        overtakers { name pins }
      }
      htmlUrl pdfUrl
    }
  }`),
  variables: (a: { uuid: string; keyword?: string; snapshot_at?: string }) => ({ uuid: a.uuid, keyword: a.keyword ?? null, snapshotAt: a.snapshot_at ?? null }),
  result: ({ scanReport: r }) => scanReport(r),
});

const summarySchema = fromZod(scans.Summary);

/**
 * A run as create_scan and run_scan report it: queued (the synchronous answer), or, as the inlined result of a
 * completed task (MCP Tasks extension), done, with the grid's summary over every keyword and the report page.
 */
const runSchema = {
  type: 'object',
  properties: {
    uuid: str(),
    run_id: str({ description: 'The run this call queued; with the Tasks extension, the task is this run.' }),
    started_at: ts({ description: 'When the run starts (later than now for a staggered first run).' }),
    is_running: bool(),
    status: oneOf(['completed'], { description: 'Present once the run is done (a completed task).' }),
    summary: nullable({ ...summarySchema, description: "The run's grid summary over every keyword (a completed task)." }),
    report_url: str({ description: 'The white-label report page (a completed task).' }),
  },
  required: ['uuid', 'run_id', 'started_at', 'is_running'],
  additionalProperties: false,
};

const runQueued = (r: scans.RunData) => ({ ...scans.runStarted(r), run_id: r.runId });

const SCAN_RUN_QUERY = graphql(`query McpScanRun($id: String!) { scanRun(id: $id) { id scanUuid status snapshotAt queuedAt lastUpdatedAt error pinsDone pinsTotal } }`);
const RUN_OUTCOME_QUERY = graphql(`query McpRunOutcome($uuid: String!, $snapshotAt: String) {
  scan(uuid: $uuid, snapshotAt: $snapshotAt, topN: 0) { summary { averageRank top3Count top4To10Count notRankingCount } reportUrl }
}`);

/**
 * Scan runs as MCP tasks (ids `scan-run.<run id>`): working while the run searches its pins (the status message
 * counts them), then completed with the run's outcome inlined, or completed with `isError` and reason `scan_failed`
 * when the ranking provider failed it (a tool-level failure, not a protocol one). Readable as long as the scan's
 * snapshots are kept (ttlMs null). Cancelling is acknowledged but does not stop the run: its provider queries were
 * paid for when it was queued, and a partial grid is not a snapshot anyone can use.
 */
export const scanRunTasks: TaskKind = {
  name: 'scan-run',
  async get(ctx, id): Promise<TaskState> {
    const { scanRun: r } = await ctx.run(SCAN_RUN_QUERY, { id });
    const base = { createdAt: new Date(r.queuedAt), lastUpdatedAt: new Date(r.lastUpdatedAt), ttlMs: null, pollIntervalMs: 5_000 };
    if (r.status === 'running') return { ...base, status: 'working', statusMessage: `${r.pinsDone} of ${r.pinsTotal} pin searches done.` };
    if (r.status === 'failed') {
      const text = JSON.stringify({ error: { reason: 'scan_failed', message: r.error ?? 'The scan run failed.' } });
      return { ...base, status: 'completed', statusMessage: 'The run failed.', result: { content: [{ type: 'text', text }], isError: true } };
    }
    const { scan } = await ctx.run(RUN_OUTCOME_QUERY, { uuid: r.scanUuid, snapshotAt: r.snapshotAt });
    const structured = { uuid: r.scanUuid, run_id: r.id, started_at: r.snapshotAt, is_running: false, status: 'completed', summary: scans.summary(scan.summary), report_url: scan.reportUrl };
    return { ...base, status: 'completed', result: { structuredContent: structured, content: [{ type: 'text', text: JSON.stringify(structured) }] } };
  },
  async cancel(ctx, id) {
    await ctx.run(SCAN_RUN_QUERY, { id });
    return true;
  },
};

/** The task of the run a call started (create_scan's or run_scan's). */
const runTask = <D>(started: (d: D) => scans.RunData): ToolTask<D, unknown> => ({
  kind: scanRunTasks,
  support: 'optional',
  idOf: (d) => started(d).runId,
});

/** Starting runs spends ranking-provider queries: not idempotent, and it reaches a third party. */
const STARTS_RUN: ToolAnnotations = { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true };

interface CreateScanArgs {
  location: string;
  keywords: string[];
  grid_size: number;
  distance: number;
  distance_unit: 'km' | 'miles';
  address?: string;
  lat?: number;
  lng?: number;
  target_place_id?: string;
  type: 'business' | 'sab';
}

export const createScan = defineTool({
  name: 'create_scan',
  title: 'Create a Local Search Grid scan',
  description:
    'Creates a rank-tracking scan: a grid_size x grid_size grid of pins spread over distance (centre to edge) around the ' +
    'business, and queues its first snapshot at once (it runs in the background; poll get_scan until is_running is false, or, ' +
    'with the MCP Tasks extension, get a task and poll tasks/get for the run\'s outcome). ' +
    'Give lat and lng, or an address to geocode. type "sab" is a service-area business without a storefront. ' +
    'Each run queries the ranking provider once per pin and keyword, so keep grids and keyword lists as small as the question allows.',
  inputSchema: input(
    {
      location: str({ minLength: 1, maxLength: 255, description: 'Name of the business as it appears on the map.' }),
      keywords: arr(str({ minLength: 1, maxLength: 100 }), { minItems: 1, maxItems: 20, description: 'Search terms to rank for (1-20).' }),
      grid_size: oneOf([3, 5, 7, 9, 11, 13, 15], { description: 'Pins per side.' }),
      distance: num({ exclusiveMinimum: 0, maximum: 50, description: 'From the centre to the outer ring, in distance_unit (> 0, <= 50).' }),
      distance_unit: oneOf(['km', 'miles']),
      address: str({ minLength: 1, maxLength: 500, description: 'Street address; geocoded when lat/lng are not given.' }),
      lat: num({ minimum: -90, maximum: 90 }),
      lng: num({ minimum: -180, maximum: 180 }),
      target_place_id: str({ minLength: 1, maxLength: 255, description: "The business's map place id, when known." }),
      type: oneOf(['business', 'sab'], { default: 'business' }),
    },
    ['location', 'keywords', 'grid_size', 'distance', 'distance_unit'],
    { dependencies: { lat: ['lng'], lng: ['lat'] } },
  ),
  outputSchema: runSchema,
  annotations: STARTS_RUN,
  permission: null,
  writes: true,
  tenantOwnerOnly: true,
  document: scans.CREATE_SCAN_MUTATION,
  variables: (a: CreateScanArgs) => ({ input: scans.createScanInput(a) }),
  result: (d) => runQueued(d.createScan),
  task: runTask((d: CreateScanMutation) => d.createScan),
  // The View follows the queued run (get_scan) and shows the grid when the first snapshot is complete.
  view: SCAN_GRID_URI,
});

export const runScan = defineTool({
  name: 'run_scan',
  title: 'Run a scan now',
  description:
    'Queues a new snapshot of an existing scan now (in the background; poll get_scan until is_running is false, or, with ' +
    'the MCP Tasks extension, get a task and poll tasks/get for the run\'s outcome). ' +
    'Refused while the scan is already running.',
  inputSchema: input({ uuid: uuidArg }, ['uuid']),
  outputSchema: runSchema,
  annotations: STARTS_RUN,
  permission: null,
  writes: true,
  tenantOwnerOnly: true,
  document: scans.RUN_SCAN_MUTATION,
  variables: (a: { uuid: string }) => ({ uuid: a.uuid }),
  result: (d) => runQueued(d.runScan),
  task: runTask((d: RunScanMutation) => d.runScan),
  // The View follows the run like create_scan's.
  view: SCAN_GRID_URI,
});

const HHMM = '^([01][0-9]|2[0-3]):[0-5][0-9]$';

export const scheduleScan = defineTool({
  name: 'schedule_scan',
  title: 'Schedule a scan',
  description:
    'Turns recurring runs of a scan on (is_scheduled true, with frequency weekly, bi-weekly or monthly, a daily window ' +
    'scheduled_from-scheduled_to in HH:MM, the weekdays 0-6 with 0 = Sunday, and an IANA timezone) or off (is_scheduled ' +
    'false; the settings are kept). Fields left out keep their stored values. Returns the schedule with next_run_at.',
  inputSchema: input(
    {
      uuid: uuidArg,
      is_scheduled: bool(),
      frequency: oneOf(['weekly', 'bi-weekly', 'monthly']),
      scheduled_from: str({ pattern: HHMM, description: 'Start of the daily window, HH:MM (24 hour).' }),
      scheduled_to: str({ pattern: HHMM, description: 'End of the daily window, HH:MM (24 hour), later than scheduled_from.' }),
      scheduled_days: arr(int({ minimum: 0, maximum: 6 }), { minItems: 1, maxItems: 7, uniqueItems: true, description: 'Weekdays, 0 = Sunday.' }),
      timezone: str({ minLength: 1, maxLength: 64, description: 'IANA timezone, e.g. "America/New_York".' }),
    },
    ['uuid', 'is_scheduled'],
  ),
  outputSchema: fromZod(scans.Schedule),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  permission: null,
  writes: true,
  tenantOwnerOnly: true,
  document: scans.SET_SCAN_SCHEDULE_MUTATION,
  // The window and timezone rules (invalid_schedule_window, invalid_timezone) are the service's, as for REST.
  variables: (a: scans.ScheduleArgs & { uuid: string }) => ({ uuid: a.uuid, input: scans.scheduleInput(a) }),
  result: (d) => scans.schedule(d.setScanSchedule),
});

export const scanTools = [listScans, getScan, getScanDataPoints, listScanSnapshots, getScanInsights, getScanReport, createScan, runScan, scheduleScan];
