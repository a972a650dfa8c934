import { bool as textBool, integer, text } from '../../shared/input';
import { envelope } from '../../shared/pagination';
import { dataOf, listOf, PageLinks, PageMeta } from '../../shared/presenters/common';
import { timestamp, z } from '../../shared/presenters/zod';
import * as scans from '../../shared/scans';
import type { Operation } from '../../shared/execute';
import { pathString, route } from '../route';
import { graphql } from '../../shared/graphql';
import type { CreateScanMutation, PinFieldsFragment, ScanCostQuery, ScanFieldsFragment } from '../../shared/graphql/graphql';

/**
 * Local Search Grid scans (agency API, tenant owners): `/scans`. Spec: "Scan (Local Search Grid)", "States > Scan",
 * "Endpoints > Local Search Grid scans"; decisions in docs/decisions/local-search-grid.md, "Local Search Grid: scans".
 */
const TAG = 'Local Search Grid';
const uuid = { uuid: pathString('Scan', 'The scan UUID.') };

const number = (field: string) =>
  z.preprocess(
    (v) => (typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v)) ? Number(v) : v),
    z.number({ required_error: `The ${field.replace(/_/g, ' ')} field is required.`, invalid_type_error: `The ${field.replace(/_/g, ' ')} must be a number.` }).finite(),
  );
/** Booleans accept true/false/1/0, as text (query strings) or JSON values. */
const bool = (field: string) => z.preprocess((v) => (v === 1 ? true : v === 0 ? false : v), textBool(field));
const strings = (field: string) => z.array(text(field), { required_error: `The ${field} field is required.`, invalid_type_error: `The ${field} must be an array of strings.` });
const ints = (field: string) => z.array(integer(field), { invalid_type_error: `The ${field.replace(/_/g, ' ')} must be an array of integers.` });

graphql(`fragment ScanFields on Scan { ...ScanRowFields distance distanceUnit type address targetPlaceId lat lng lastRunFailed archivedAt reportUrl createdAt updatedAt }`);

const Scan = scans.ScanRow.extend({
  distance: z.number(),
  distance_unit: z.string().openapi({ example: 'km' }),
  type: z.string(),
  address: z.string().nullable(),
  target_place_id: z.string().nullable(),
  lat: z.number(),
  lng: z.number(),
  last_run_failed: z.boolean(),
  archived_at: timestamp().nullable(),
  report_url: z.string(),
  created_at: timestamp(),
  updated_at: timestamp(),
}).openapi('Scan');

/** Update, archive and restore answer the list row plus the scan's settings. */
const scanFull = (s: ScanFieldsFragment): z.infer<typeof Scan> => ({
  ...scans.scanRow(s),
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

const topNParam = { top_n: integer('top_n').optional().openapi({ description: 'Competitors per pin (0 = positions and ranks only).' }) };
const pageParams = { page: integer('page').optional(), per_page: integer('per_page').optional() };
const common = { tag: TAG, permissions: null } as const;

const createBody = z.object({
  location: text('location').openapi({ description: 'The business name as it appears on the map.' }),
  address: text('address').nullish(),
  keywords: strings('keywords'),
  grid_size: integer('grid_size').openapi({ description: 'Odd, 3-15.' }),
  distance: number('distance'),
  distance_unit: text('distance_unit').openapi({ enum: ['km', 'miles'] }),
  type: text('type').nullish(),
  target_place_id: text('target_place_id').nullish(),
  lat: number('lat').nullish(),
  lng: number('lng').nullish(),
  dry_run: bool('dry_run')
    .optional()
    .openapi({ description: 'true: answer 200 with what the scan would cost (the same checks, no geocoding) and create, charge and start nothing.' }),
});

const SCAN_COST_QUERY = graphql(`query ScanCost($input: CreateScanInput!) {
  scanCost(input: $input) { pins keywords creditsPerRun schedules { frequency runsPerYear creditsPerYear } }
}`);
const ScanCost = z
  .object({
    pins: z.number().int().openapi({ description: 'grid_size x grid_size.' }),
    keywords: z.number().int(),
    credits_per_run: z.number().int().openapi({ description: 'One credit per pin search: pins x keywords.' }),
    schedules: z
      .array(z.object({ frequency: z.enum(['weekly', 'bi-weekly', 'monthly']), runs_per_year: z.number().int(), credits_per_year: z.number().int() }))
      .openapi({ description: 'The yearly cost of scheduling the scan at each frequency.' }),
  })
  .openapi('ScanCost');
const scanCost = (c: ScanCostQuery['scanCost']): z.infer<typeof ScanCost> => ({
  pins: c.pins,
  keywords: c.keywords,
  credits_per_run: c.creditsPerRun,
  schedules: c.schedules.map((s) => ({ frequency: s.frequency as 'weekly', runs_per_year: s.runsPerYear, credits_per_year: s.creditsPerYear })),
});

const updateBody = z.object({
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
});

const scheduleBody = z.object({
  is_scheduled: bool('is_scheduled'),
  frequency: text('frequency').nullish(),
  scheduled_from: text('scheduled_from').nullish(),
  scheduled_to: text('scheduled_to').nullish(),
  scheduled_days: ints('scheduled_days').nullish(),
  timezone: text('timezone').nullish(),
});

export const scanRoutes = [
  route({
    ...common,
    method: 'get',
    path: '/scans',
    operationId: 'listScans',
    summary: 'List scans',
    query: z.object({
      search: text('search').optional(),
      is_scheduled: bool('is_scheduled').optional(),
      completed: bool('completed').optional(),
      failed: bool('failed').optional(),
      since_days: integer('since_days').optional(),
      archived_only: bool('archived_only').optional(),
      include_archived: bool('include_archived').optional(),
      ...pageParams,
    }),
    responses: {
      200: {
        description: 'A page of scans.',
        schema: z.object({ data: z.array(scans.ScanRow), meta: z.object({ current_page: z.number().int(), per_page: z.number().int(), total: z.number().int() }) }),
      },
    },
    document: graphql(`query ListScans($page: Int!, $perPage: Int!, $search: String, $isScheduled: Boolean, $completed: Boolean, $failed: Boolean,
        $sinceDays: Int, $archivedOnly: Boolean, $includeArchived: Boolean) {
      scans(page: $page, perPage: $perPage, search: $search, isScheduled: $isScheduled, completed: $completed, failed: $failed,
        sinceDays: $sinceDays, archivedOnly: $archivedOnly, includeArchived: $includeArchived) {
        total page perPage items { ...ScanRowFields }
      }
    }`),
    variables: ({ query: q }) => ({
      page: q.page ?? 1,
      perPage: q.per_page ?? 20,
      search: q.search ?? null,
      isScheduled: q.is_scheduled ?? null,
      completed: q.completed ?? null,
      failed: q.failed ?? null,
      sinceDays: q.since_days ?? null,
      archivedOnly: q.archived_only ?? null,
      includeArchived: q.include_archived ?? null,
    }),
    respond: (d) => ({
      body: { data: d.scans.items.map(scans.scanRow), meta: { current_page: d.scans.page, per_page: d.scans.perPage, total: d.scans.total } },
    }),
  }),
  route({
    ...common,
    method: 'get',
    path: '/scans/:uuid',
    operationId: 'getScan',
    summary: 'A scan\'s latest (or chosen) snapshot',
    params: uuid,
    query: z.object({ snapshot_at: text('snapshot_at').optional().openapi({ format: 'date-time' }), ...topNParam }),
    responses: { 200: { description: 'The scan with its pins.', schema: dataOf(scans.ScanDetail) } },
    document: scans.SCAN_DETAIL_QUERY,
    variables: ({ params, query: q }) => ({ uuid: params.uuid, snapshotAt: q.snapshot_at ?? null, topN: q.top_n ?? null }),
    respond: ({ scan: d }) => ({ body: { data: scans.scanDetail(d) } }),
  }),
  route({
    ...common,
    method: 'get',
    path: '/scans/:uuid/data_points',
    operationId: 'listScanDataPoints',
    summary: 'A snapshot\'s pins, with their competitors',
    params: uuid,
    query: z.object({ snapshot_at: text('snapshot_at').optional().openapi({ format: 'date-time' }), keyword: text('keyword').optional(), ...topNParam, ...pageParams }),
    responses: {
      200: {
        description: 'A page of pins; with `top_n=0` each pin is `{lat, lng, target_rank}`.',
        schema: z.object({ data: z.array(z.union([scans.DataPoint, scans.BarePin])), links: PageLinks, meta: PageMeta.merge(scans.DataPointsMeta) }),
      },
    },
    document: scans.SCAN_DATA_POINTS_QUERY,
    variables: ({ params, query: q }) => ({
      uuid: params.uuid,
      snapshotAt: q.snapshot_at ?? null,
      keyword: q.keyword ?? null,
      topN: q.top_n ?? null,
      page: q.page ?? 1,
      perPage: q.per_page ?? 100,
    }),
    respond: ({ scanDataPoints: d }, req) => {
      // top_n=0 asks for positions and ranks only: the REST pins leave out keyword, snapshot_at and results.
      const body = envelope(req, d, (r: PinFieldsFragment) => (d.topN === 0 ? { lat: r.lat, lng: r.lng, target_rank: r.rank } : scans.dataPoint(r)));
      return { body: { ...body, meta: { ...body.meta, ...scans.dataPointsMeta(d) } } };
    },
  }),
  route({
    ...common,
    method: 'get',
    path: '/scans/:uuid/snapshots',
    operationId: 'listScanSnapshots',
    summary: 'Every snapshot of a scan, with its figures',
    params: uuid,
    query: z.object({ keyword: text('keyword').optional() }),
    responses: { 200: { description: 'The snapshots of the keyword (by default the first), newest first.', schema: listOf(scans.Snapshot) } },
    document: scans.SCAN_SNAPSHOTS_QUERY,
    variables: ({ params, query: q }) => ({ uuid: params.uuid, keyword: q.keyword ?? null }),
    respond: (d) => ({ body: { data: d.scanSnapshots.map(scans.snapshot) } }),
  }),
  route({
    ...common,
    method: 'get',
    path: '/scans/:uuid/insights',
    operationId: 'getScanInsights',
    summary: 'Trends, strengths, competitors and recommendations',
    params: uuid,
    query: z.object({ keyword: text('keyword').optional(), snapshot_at: text('snapshot_at').optional().openapi({ format: 'date-time' }) }),
    responses: { 200: { description: 'The insights.', schema: dataOf(scans.Insights) } },
    document: scans.SCAN_INSIGHTS_QUERY,
    variables: ({ params, query: q }) => ({ uuid: params.uuid, keyword: q.keyword ?? null, snapshotAt: q.snapshot_at ?? null }),
    respond: ({ scanInsights: d }) => ({ body: { data: scans.insights(d) } }),
  }),
  route({
    ...common,
    method: 'get',
    path: '/scans/:uuid/pin-changes',
    operationId: 'getScanPinChanges',
    summary: 'Pin by pin, a snapshot against an earlier one',
    description:
      "For one keyword (default: the first), the business's rank at each pin in a snapshot (default: the latest) and in an earlier " +
      'one (default: the one before it): gained, lost or same, and the competitors that moved above it there or fell below it. ' +
      'Without two snapshots to compare, `previous_snapshot_at` is null and `pins` empty. 422 when `compare_to` is not earlier.',
    params: uuid,
    query: z.object({
      keyword: text('keyword').optional(),
      snapshot_at: text('snapshot_at').optional().openapi({ format: 'date-time' }),
      compare_to: text('compare_to').optional().openapi({ format: 'date-time', description: 'The earlier snapshot; default: the one before snapshot_at.' }),
    }),
    responses: { 200: { description: 'The changes.', schema: dataOf(scans.PinChanges) } },
    document: scans.SCAN_PIN_CHANGES_QUERY,
    variables: ({ params, query: q }) => ({ uuid: params.uuid, keyword: q.keyword ?? null, snapshotAt: q.snapshot_at ?? null, compareTo: q.compare_to ?? null }),
    respond: ({ scanPinChanges: d }) => ({ body: { data: scans.pinChanges(d) } }),
  }),
  route({
    ...common,
    method: 'post',
    path: '/scans',
    operationId: 'createScan',
    summary: 'Create a scan and start its first run',
    description:
      'Geocodes the address when no coordinates are sent (422 `missing_coords` when that fails); 422 `provider_not_configured` without ' +
      'ranking-data and maps credentials. `scan-completed` or `scan-failed` follows as a webhook. With `dry_run: true`: 200 with the ' +
      'cost (one credit per pin search, per run and per year at each schedule frequency) after the same checks, and nothing created.',
    body: createBody,
    errors: [402],
    responses: {
      200: { description: '`dry_run`: what the scan would cost; nothing was created, charged or started.', schema: dataOf(ScanCost) },
      202: { description: 'Accepted: the run started.', schema: dataOf(scans.RunStarted) },
    },
    document: ({ body }): Operation<ScanCostQuery | CreateScanMutation> => (body.dry_run === true ? SCAN_COST_QUERY : scans.CREATE_SCAN_MUTATION),
    variables: ({ body }) => ({ input: scans.createScanInput(body) }),
    respond: (d) =>
      'scanCost' in d ? { status: 200, body: { data: scanCost(d.scanCost) } } : { status: 202, body: { data: scans.runStarted(d.createScan) } },
  }),
  route({
    ...common,
    method: 'post',
    path: '/scans/:uuid/run',
    operationId: 'runScan',
    summary: 'Run a scan now',
    params: uuid,
    errors: [402, 409],
    responses: { 202: { description: 'Accepted: the run started.', schema: dataOf(scans.RunStarted) } },
    document: scans.RUN_SCAN_MUTATION,
    variables: ({ params }) => ({ uuid: params.uuid }),
    respond: (d) => ({ status: 202, body: { data: scans.runStarted(d.runScan) } }),
  }),
  route({
    ...common,
    method: 'put',
    path: '/scans/:uuid',
    operationId: 'updateScan',
    summary: 'Update a scan\'s settings',
    description: 'Only sent fields change; an archived scan answers 404.',
    params: uuid,
    body: updateBody,
    responses: { 200: { description: 'The scan after the change.', schema: dataOf(Scan) } },
    document: graphql(`mutation UpdateScan($uuid: String!, $input: UpdateScanInput!) { updateScan(uuid: $uuid, input: $input) { ...ScanFields } }`),
    variables: ({ params, body: b }) => {
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
      return { uuid: params.uuid, input: Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined)) };
    },
    respond: (d) => ({ body: { data: scanFull(d.updateScan) } }),
  }),
  route({
    ...common,
    method: 'post',
    path: '/scans/:uuid/archive',
    operationId: 'archiveScan',
    summary: 'Archive a scan',
    description: 'Clears `next_run_at`, keeps the schedule; idempotent.',
    params: uuid,
    responses: { 200: { description: 'The archived scan.', schema: dataOf(Scan) } },
    document: graphql(`mutation ArchiveScan($uuid: String!) { archiveScan(uuid: $uuid) { ...ScanFields } }`),
    variables: ({ params }) => ({ uuid: params.uuid }),
    respond: (d) => ({ body: { data: scanFull(d.archiveScan) } }),
  }),
  route({
    ...common,
    method: 'post',
    path: '/scans/:uuid/restore',
    operationId: 'restoreScan',
    summary: 'Restore an archived scan',
    description: 'A scheduled scan recomputes `next_run_at`; idempotent.',
    params: uuid,
    responses: { 200: { description: 'The restored scan.', schema: dataOf(Scan) } },
    document: graphql(`mutation RestoreScan($uuid: String!) { restoreScan(uuid: $uuid) { ...ScanFields } }`),
    variables: ({ params }) => ({ uuid: params.uuid }),
    respond: (d) => ({ body: { data: scanFull(d.restoreScan) } }),
  }),
  route({
    ...common,
    method: 'get',
    path: '/scans/:uuid/schedule',
    operationId: 'getScanSchedule',
    summary: 'A scan\'s schedule',
    params: uuid,
    responses: { 200: { description: 'The schedule.', schema: dataOf(scans.Schedule) } },
    document: graphql(`query GetScanSchedule($uuid: String!) { scanSchedule(uuid: $uuid) { ...ScheduleFields } }`),
    variables: ({ params }) => ({ uuid: params.uuid }),
    respond: (d) => ({ body: { data: scans.schedule(d.scanSchedule) } }),
  }),
  route({
    ...common,
    method: 'post',
    path: '/scans/:uuid/schedule',
    operationId: 'setScanSchedule',
    summary: 'Set a scan\'s schedule',
    description: 'What is left out keeps its stored value.',
    params: uuid,
    body: scheduleBody,
    responses: { 200: { description: 'The schedule after the change.', schema: dataOf(scans.Schedule) } },
    document: scans.SET_SCAN_SCHEDULE_MUTATION,
    variables: ({ params, body }) => ({ uuid: params.uuid, input: scans.scheduleInput(body) }),
    respond: (d) => ({ body: { data: scans.schedule(d.setScanSchedule) } }),
  }),
];
