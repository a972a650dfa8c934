import { z } from 'zod';
import { bool as textBool, integer, parseInput, text } from '../../shared/input';
import { envelope } from '../../shared/pagination';
import * as scans from '../../shared/scans';
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

interface ScanData extends scans.ScanRowData {
  distance: number;
  distanceUnit: string;
  type: string;
  address: string | null;
  targetPlaceId: string | null;
  lat: number;
  lng: number;
  lastRunFailed: boolean;
  archivedAt: string | null;
  reportUrl: string;
  createdAt: string;
  updatedAt: string;
}

const SCAN_FIELDS = `${scans.SCAN_ROW_FIELDS} distance distanceUnit type address targetPlaceId lat lng lastRunFailed archivedAt reportUrl createdAt updatedAt`;

/** Update, archive and restore answer the list row plus the scan's settings. */
const scanFull = (s: ScanData) => ({
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

const topNParam = { top_n: integer('top_n').optional() };
const pageParams = { page: integer('page').optional(), per_page: integer('per_page').optional() };

export const scanRoutes = [
  route<{ scans: { items: scans.ScanRowData[]; total: number; page: number; perPage: number } }>({
    method: 'get',
    path: '/scans',
    document: `query ($page: Int!, $perPage: Int!, $search: String, $isScheduled: Boolean, $completed: Boolean, $failed: Boolean,
        $sinceDays: Int, $archivedOnly: Boolean, $includeArchived: Boolean) {
      scans(page: $page, perPage: $perPage, search: $search, isScheduled: $isScheduled, completed: $completed, failed: $failed,
        sinceDays: $sinceDays, archivedOnly: $archivedOnly, includeArchived: $includeArchived) {
        total page perPage items { ${scans.SCAN_ROW_FIELDS} }
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
      body: { data: d.scans.items.map(scans.scanRow), meta: { current_page: d.scans.page, per_page: d.scans.perPage, total: d.scans.total } },
    }),
  }),
  route<{ scan: scans.ScanDetailData }>({
    method: 'get',
    path: '/scans/:uuid',
    document: scans.SCAN_DETAIL_QUERY,
    variables: (req) => {
      const q = parseInput(z.object({ snapshot_at: text('snapshot_at').optional(), ...topNParam }), req.query);
      return { uuid: req.params.uuid, snapshotAt: q.snapshot_at ?? null, topN: q.top_n ?? null };
    },
    respond: ({ scan: d }) => ({ body: { data: scans.scanDetail(d) } }),
  }),
  route<{ scanDataPoints: scans.DataPointsData }>({
    method: 'get',
    path: '/scans/:uuid/data_points',
    document: scans.SCAN_DATA_POINTS_QUERY,
    variables: (req) => {
      const q = parseInput(z.object({ snapshot_at: text('snapshot_at').optional(), keyword: text('keyword').optional(), ...topNParam, ...pageParams }), req.query);
      return { uuid: req.params.uuid, snapshotAt: q.snapshot_at ?? null, keyword: q.keyword ?? null, topN: q.top_n ?? null, page: q.page ?? 1, perPage: q.per_page ?? 100 };
    },
    respond: ({ scanDataPoints: d }, req) => {
      // top_n=0 asks for positions and ranks only: the REST pins leave out keyword, snapshot_at and results.
      const body = envelope(req, d, (r: scans.PinData) => (d.topN === 0 ? { lat: r.lat, lng: r.lng, target_rank: r.rank } : scans.dataPoint(r)));
      return { body: { ...body, meta: { ...body.meta, ...scans.dataPointsMeta(d) } } };
    },
  }),
  route<{ scanSnapshots: scans.SnapshotData[] }>({
    method: 'get',
    path: '/scans/:uuid/snapshots',
    document: scans.SCAN_SNAPSHOTS_QUERY,
    variables: (req) => {
      const q = parseInput(z.object({ keyword: text('keyword').optional() }), req.query);
      return { uuid: req.params.uuid, keyword: q.keyword ?? null };
    },
    respond: (d) => ({ body: { data: d.scanSnapshots.map(scans.snapshot) } }),
  }),
  route<{ scanInsights: scans.InsightsData }>({
    method: 'get',
    path: '/scans/:uuid/insights',
    document: scans.SCAN_INSIGHTS_QUERY,
    variables: (req) => {
      const q = parseInput(z.object({ keyword: text('keyword').optional(), snapshot_at: text('snapshot_at').optional() }), req.query);
      return { uuid: req.params.uuid, keyword: q.keyword ?? null, snapshotAt: q.snapshot_at ?? null };
    },
    respond: ({ scanInsights: d }) => ({ body: { data: scans.insights(d) } }),
  }),
  route<{ createScan: scans.RunData }>({
    method: 'post',
    path: '/scans',
    document: scans.CREATE_SCAN_MUTATION,
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
      return { input: scans.createScanInput(b) };
    },
    respond: (d) => ({ status: 202, body: { data: scans.runStarted(d.createScan) } }),
  }),
  route<{ runScan: scans.RunData }>({
    method: 'post',
    path: '/scans/:uuid/run',
    document: scans.RUN_SCAN_MUTATION,
    variables: (req) => ({ uuid: req.params.uuid }),
    respond: (d) => ({ status: 202, body: { data: scans.runStarted(d.runScan) } }),
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
  route<{ scanSchedule: scans.ScheduleData }>({
    method: 'get',
    path: '/scans/:uuid/schedule',
    document: `query ($uuid: String!) { scanSchedule(uuid: $uuid) { ${scans.SCHEDULE_FIELDS} } }`,
    variables: (req) => ({ uuid: req.params.uuid }),
    respond: (d) => ({ body: { data: scans.schedule(d.scanSchedule) } }),
  }),
  route<{ setScanSchedule: scans.ScheduleData }>({
    method: 'post',
    path: '/scans/:uuid/schedule',
    document: scans.SET_SCAN_SCHEDULE_MUTATION,
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
      return { uuid: req.params.uuid, input: scans.scheduleInput(b) };
    },
    respond: (d) => ({ body: { data: scans.schedule(d.setScanSchedule) } }),
  }),
];
