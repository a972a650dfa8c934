import { randomUUID } from 'node:crypto';
import { col, fn, Op, QueryTypes, where, type Transaction, type WhereOptions } from 'sequelize';
import { loadConfig, publicBaseUrl } from '../config';
import { Conflict, Forbidden, NotFound, ruleViolation, Upstream, Validation, type FieldErrors } from '../domain/errors';
import { canSeeLocation, isTenantOwner } from '../domain/permissions';
import type { Principal } from '../domain/principal';
import * as metrics from '../grid/metrics';
import { assertGridParams, DISTANCE_UNITS, generatePins, type DistanceUnit } from '../grid/pins';
import { FREQUENCIES, nextRunAt, assertTimezone, assertWindow, type Frequency, type ScheduleSpec } from '../grid/schedule';
import { Location, Scan, ScanPin, ScanResult, ScanSnapshot } from '../models';
import { SCAN_TYPES, type ScanType } from '../models/scan.model';
import type { StoredPlace } from '../models/scan-result.model';
import { writeEvent } from '../outbox/writer';
import { scanLabel, startScanRunWorkflow } from '../../workflows/scans/client';
import { cleanName, clockOf, inTransaction, offset, tenantScoped, type Page, type ServiceOptions } from './common';
import { tenantLinkBase } from './link-domain.service';
import { requireGridProviders } from './grid-providers.service';
import { containsPattern } from '../db/like';
import { UUID } from '../domain/ids';
import { charCount } from '../domain/limits';
import { scanReportPath } from '../reports/links';

/**
 * Local Search Grid scans (spec: Scan, States > Scan, Endpoints > Local Search Grid scans). Tenant owners only.
 * Every number comes from src/grid/metrics.ts over the stored per-pin results.
 */

export const SCAN_LIMITS = { keywords: { min: 1, max: 20 }, keywordChars: 100, topN: { min: 0, max: 20, default: 5 } } as const;
/** Burst stagger (spec: Limits): from the 6th scan a tenant creates within 60 s, each first run starts later. */
export const BURST = { windowMs: 60_000, freeScans: 5 } as const;

const DAY_MS = 24 * 60 * 60 * 1000;

function assertTenantOwner(p: Principal): void {
  if (!isTenantOwner(p)) throw new Forbidden('Only the agency (tenant owner) can use the Local Search Grid.', 'tenant_owner_required');
}

/**
 * The public report of a scan (`report_url`), or of one keyword and snapshot of it, or its PDF (`format` pdf), on
 * `base`: the agency's link base (`tenantLinkBase`) where the caller has read it.
 */
export const reportUrlOf = (uuid: string, q: Parameters<typeof scanReportPath>[1] = {}, format: 'html' | 'pdf' = 'html', base: string = publicBaseUrl()): string =>
  `${base}${scanReportPath(uuid, q, format)}`;
export const reportPathOf = (uuid: string): string => scanReportPath(uuid);

/**
 * A scan of the caller's tenant, which every scan read and command goes through: tenant owners only (FORBIDDEN
 * `tenant_owner_required`), another tenant's, an unknown or a malformed UUID NOT_FOUND.
 */
export async function ownScan(p: Principal, uuid: string, opts: { transaction?: Transaction; lock?: boolean; active?: boolean } = {}): Promise<Scan> {
  assertTenantOwner(p);
  if (!UUID.test(uuid)) throw new NotFound('Scan');
  const scan = await Scan.findOne({
    where: { uuid: uuid.toLowerCase(), ...tenantScoped(p) },
    transaction: opts.transaction,
    lock: opts.lock && opts.transaction ? opts.transaction.LOCK.UPDATE : undefined,
  });
  if (!scan || (opts.active && scan.archivedAt)) throw new NotFound('Scan');
  return scan;
}

// ---- input rules ---------------------------------------------------------------------------------------

function cleanKeywords(keywords: readonly string[], fields: FieldErrors): string[] {
  const out: string[] = [];
  for (const k of keywords) {
    const t = typeof k === 'string' ? k.trim().replace(/\s+/g, ' ') : '';
    if (!t) {
      (fields.keywords ??= []).push('Each keyword must be a non-empty string.');
      continue;
    }
    if ([...t].length > SCAN_LIMITS.keywordChars) {
      (fields.keywords ??= []).push(`Each keyword may not be greater than ${SCAN_LIMITS.keywordChars} characters.`);
      continue;
    }
    if (!out.some((o) => o.toLowerCase() === t.toLowerCase())) out.push(t);
  }
  if (keywords.length < SCAN_LIMITS.keywords.min || keywords.length > SCAN_LIMITS.keywords.max) {
    (fields.keywords ??= []).push(`The keywords must have between ${SCAN_LIMITS.keywords.min} and ${SCAN_LIMITS.keywords.max} items.`);
  }
  return out;
}

/** `value` when it is one of `allowed`; otherwise undefined, with `message` recorded against `field`. */
function checkOneOf<T extends string>(value: string | null | undefined, allowed: readonly T[], field: string, message: string, fields: FieldErrors): T | undefined {
  if (value == null) return undefined;
  if (!(allowed as readonly string[]).includes(value)) {
    fields[field] = [message];
    return undefined;
  }
  return value as T;
}

const checkType = (type: string | null | undefined, fields: FieldErrors): ScanType | undefined => checkOneOf(type, SCAN_TYPES, 'type', 'The type must be business or sab.', fields);

const checkUnit = (unit: string | null | undefined, fields: FieldErrors): DistanceUnit | undefined =>
  checkOneOf(unit, DISTANCE_UNITS, 'distance_unit', 'The distance unit must be km or miles.', fields);

function checkCoords(lat: number | null | undefined, lng: number | null | undefined, fields: FieldErrors): void {
  if ((lat == null) !== (lng == null)) (fields[lat == null ? 'lat' : 'lng'] ??= []).push('The lat and lng fields must be given together.');
}

/**
 * The location a scan is tied to, if any: one the caller may see, in the caller's tenant. An unknown id, one out of
 * range and another tenant's get the same field error, so the answer never tells another tenant's ids from unused ones.
 */
async function checkLocationId(p: Principal, id: number | null | undefined, fields: FieldErrors, opts: ServiceOptions): Promise<number | null> {
  if (id == null) return null;
  const location = Number.isSafeInteger(id) && id > 0 ? await Location.findByPk(id, { attributes: ['id', 'tenantId', 'customerId'], transaction: opts.transaction }) : null;
  if (!location || !canSeeLocation(p, location)) {
    fields.location_id = ["The location must be one of the agency's locations."];
    return null;
  }
  return location.id;
}

/** The business's place id as stored (scans.target_place_id holds 255 characters); blank is none. */
function checkTargetPlaceId(value: string | null | undefined, fields: FieldErrors): string | null {
  const id = value?.trim() || null;
  if (id && charCount(id) > 255) fields.target_place_id = ['The target place id may not be greater than 255 characters.'];
  return id;
}

// ---- runs ----------------------------------------------------------------------------------------------

/**
 * Queues a run in the caller's transaction: the scan is running, one `running` snapshot per keyword exists with
 * `snapshot_at` = the run's (planned) start. The workflow is started after the commit (`launch`).
 */
export async function queueRun(scan: Scan, startAt: Date, transaction: Transaction, now: Date): Promise<string> {
  const runId = randomUUID();
  await ScanSnapshot.bulkCreate(
    scan.keywords.map((keyword) => ({ tenantId: scan.tenantId, scanId: scan.id, runId, keyword, pinVersion: scan.pinVersion, snapshotAt: startAt, status: 'running', createdAt: now, updatedAt: now })),
    { transaction },
  );
  // The run waits for one of its tenant's turns (src/jobs/scan-runs.ts, claimRunTurn) before its first query.
  await scan.update({ isRunning: true, currentRunId: runId, lastRunAt: startAt, runTurnAt: null }, { transaction });
  return runId;
}

/**
 * Starts the run's workflow once its rows are committed; if the engine cannot be reached the run fails at once: the
 * caller is told (scan_not_queued) and may ask again, where a run left queued would refuse that with scan_running and
 * start up to a tick later unasked. The tick's own runs stay queued instead (`startDueScheduledScans`).
 */
async function launch(scan: Scan, runId: string, delayMs: number, opts: ServiceOptions): Promise<void> {
  try {
    await startScanRunWorkflow(scan.uuid, runId, delayMs, scanLabel(scan));
  } catch {
    await failRun(runId, 'The scan could not be queued.', opts);
    throw new Upstream('The scan could not be queued: the workflow engine is unreachable. Try again.', 'scan_not_queued');
  }
}

export interface RunStarted {
  uuid: string;
  /** The run (one snapshot per keyword): what `scanRun` reads and the MCP Tasks extension's task id names. */
  runId: string;
  startedAt: Date;
  isRunning: boolean;
}

async function ensureRunnable(scan: Scan, transaction: Transaction): Promise<void> {
  if (scan.isRunning) throw new Conflict('The scan is already running.', 'scan_running');
  await requireGridProviders(scan.tenantId, { transaction });
  if (scan.keywords.length === 0) throw ruleViolation('The scan has no keywords.', 'no_keywords');
  const pins = await ScanPin.count({ where: { ...tenantScoped(scan), scanId: scan.id, version: scan.pinVersion }, transaction });
  if (pins === 0) throw ruleViolation('The scan has no saved pins.', 'no_pins');
}

// ---- create --------------------------------------------------------------------------------------------

export interface CreateScanInput {
  location: string;
  address?: string | null;
  keywords: string[];
  gridSize: number;
  distance: number;
  distanceUnit: string;
  type?: string | null;
  targetPlaceId?: string | null;
  lat?: number | null;
  lng?: number | null;
  locationId?: number | null;
}

/**
 * The create rules that need no provider: field errors (422 with fields, together with those in `fields` already),
 * then the grid's size and spacing.
 */
function checkCreate(input: CreateScanInput, fields: FieldErrors = {}): { location: string; keywords: string[]; type: ScanType; unit: DistanceUnit; targetPlaceId: string | null } {
  let location = '';
  try {
    location = cleanName(input.location ?? '', 'location');
  } catch (e) {
    Object.assign(fields, (e as Validation).fields);
  }
  const keywords = cleanKeywords(input.keywords ?? [], fields);
  const type = checkType(input.type, fields) ?? 'business';
  const unit = checkUnit(input.distanceUnit, fields);
  checkCoords(input.lat, input.lng, fields);
  if (input.address != null && input.address.length > 500) fields.address = ['The address may not be greater than 500 characters.'];
  const targetPlaceId = checkTargetPlaceId(input.targetPlaceId, fields);
  if (Object.keys(fields).length) throw new Validation(fields);
  // Size and distance first (no centre needed), so a bad grid is told before any geocoding.
  assertGridParams({ lat: 0, lng: 0, gridSize: input.gridSize, distance: input.distance, unit: unit! });
  return { location, keywords, type, unit: unit!, targetPlaceId };
}

/** Runs a year at each schedule frequency (weekly: 52, bi-weekly: 26, monthly: 12). */
const RUNS_PER_YEAR: Record<Frequency, number> = { weekly: 52, 'bi-weekly': 26, monthly: 12 };

export interface ScanCost {
  pins: number;
  keywords: number;
  /** One credit per pin search (a pin x keyword query to the ranking provider). */
  creditsPerRun: number;
  schedules: Array<{ frequency: Frequency; runsPerYear: number; creditsPerYear: number }>;
}

/**
 * What a scan would cost before it exists (`dry_run`): the same rules as createScan without a provider call (no
 * geocoding, no provider check), and nothing created, charged or started. The cost of a run does not depend on where
 * the grid is: grid_size x grid_size pins, each searched once per keyword.
 */
export async function scanCost(p: Principal, input: CreateScanInput, opts: ServiceOptions = {}): Promise<ScanCost> {
  assertTenantOwner(p);
  const fields: FieldErrors = {};
  await checkLocationId(p, input.locationId, fields, opts);
  const { keywords } = checkCreate(input, fields);
  const pins = input.gridSize * input.gridSize;
  const creditsPerRun = pins * keywords.length;
  return {
    pins,
    keywords: keywords.length,
    creditsPerRun,
    schedules: FREQUENCIES.map((frequency) => ({ frequency, runsPerYear: RUNS_PER_YEAR[frequency], creditsPerYear: RUNS_PER_YEAR[frequency] * creditsPerRun })),
  };
}

export async function createScan(p: Principal, input: CreateScanInput, opts: ServiceOptions = {}): Promise<RunStarted> {
  assertTenantOwner(p);
  const fields: FieldErrors = {};
  const locationId = await checkLocationId(p, input.locationId, fields, opts);
  const { location, keywords, type, unit, targetPlaceId: givenTarget } = checkCreate(input, fields);
  const providers = await requireGridProviders(p.tenantId, opts);

  let centre: { lat: number; lng: number } | null = null;
  if (input.lat != null && input.lng != null) centre = { lat: input.lat, lng: input.lng };
  else if (input.address?.trim()) {
    const found = await providers.geocoder.geocode(input.address.trim()).catch(() => null);
    if (found) centre = { lat: found.lat, lng: found.lng };
  }
  if (!centre) throw ruleViolation('The grid centre could not be found: geocoding the address failed and no lat/lng were given.', 'missing_coords');
  const pins = generatePins({ ...centre, gridSize: input.gridSize, distance: input.distance, unit: unit! });
  const targetPlaceId = givenTarget ?? (await simulatedTargetOf(providers, keywords[0], centre));

  const clock = clockOf(opts);
  const now = clock.now();
  const { scan, runId, delayMs, startAt } = await inTransaction(opts, async (transaction) => {
    // Serialise a tenant's creations so the burst count is exact.
    await Scan.sequelize!.query('SELECT id FROM tenants WHERE id = ? FOR UPDATE', { replacements: [p.tenantId], transaction, type: QueryTypes.SELECT });
    const recent = await Scan.count({ where: { ...tenantScoped(p), createdAt: { [Op.gt]: new Date(now.getTime() - BURST.windowMs) } }, transaction });
    const position = recent + 1;
    const delayMs = position > BURST.freeScans ? (position - BURST.freeScans) * loadConfig().SCAN_BURST_STAGGER_SECONDS * 1000 : 0;
    const startAt = new Date(now.getTime() + delayMs);
    const scan = await Scan.create(
      {
        uuid: randomUUID(),
        tenantId: p.tenantId,
        ownerCustomerId: p.customerId,
        customerId: null,
        locationId,
        location,
        address: input.address?.trim() || null,
        keywords,
        gridSize: input.gridSize,
        distance: input.distance,
        distanceUnit: unit!,
        type,
        targetPlaceId,
        lat: centre!.lat,
        lng: centre!.lng,
        pinVersion: 1,
        createdAt: now,
        updatedAt: now,
      },
      { transaction },
    );
    await ScanPin.bulkCreate(pins.map((pin) => ({ tenantId: scan.tenantId, scanId: scan.id, version: 1, ...pin })), { transaction });
    const runId = await queueRun(scan, startAt, transaction, now);
    return { scan, runId, delayMs, startAt };
  });
  await launch(scan, runId, delayMs, opts);
  return { uuid: scan.uuid, runId, startedAt: startAt, isRunning: true };
}

export async function runScanNow(p: Principal, uuid: string, opts: ServiceOptions = {}): Promise<RunStarted> {
  const now = clockOf(opts).now();
  const { scan, runId } = await inTransaction(opts, async (transaction) => {
    const scan = await ownScan(p, uuid, { transaction, lock: true, active: true });
    await ensureRunnable(scan, transaction);
    return { scan, runId: await queueRun(scan, now, transaction, now) };
  });
  await launch(scan, runId, 0, opts);
  return { uuid: scan.uuid, runId, startedAt: now, isRunning: true };
}

export interface ScanRunView {
  id: string;
  scanUuid: string;
  /** `running` until every keyword's snapshot is done, then `completed` or `failed`. */
  status: 'running' | 'completed' | 'failed';
  /** The run's snapshot time: its planned start (later than the request for a staggered first run). */
  snapshotAt: Date;
  queuedAt: Date;
  lastUpdatedAt: Date;
  /** Why it failed (the scan's last error), null otherwise. */
  error: string | null;
  pinsDone: number;
  pinsTotal: number;
}

/**
 * One run of a scan by its id (from createScan/runScan): its status and progress. Tenant owners only, like every scan
 * read; an unknown run and another tenant's are the same NOT_FOUND.
 */
export async function scanRun(p: Principal, runId: string, opts: ServiceOptions = {}): Promise<ScanRunView> {
  assertTenantOwner(p);
  if (!UUID.test(runId)) throw new NotFound('Scan run');
  const snaps = await ScanSnapshot.findAll({ where: { ...tenantScoped(p), runId: runId.toLowerCase() }, transaction: opts.transaction });
  const scan = snaps.length ? await Scan.findOne({ where: { id: snaps[0].scanId, ...tenantScoped(p) }, transaction: opts.transaction }) : null;
  if (!scan) throw new NotFound('Scan run');
  const status = snaps.some((s) => s.status === 'running') ? 'running' : snaps.some((s) => s.status === 'failed') ? 'failed' : 'completed';
  const { pinsDone, pinsTotal } = await runProgress(snaps, opts.transaction);
  // The scan keeps the error of its latest run only.
  const latest = scan.lastRunAt?.getTime() === snaps[0].snapshotAt.getTime();
  return {
    id: snaps[0].runId,
    scanUuid: scan.uuid,
    status,
    snapshotAt: snaps[0].snapshotAt,
    queuedAt: new Date(Math.min(...snaps.map((s) => s.createdAt.getTime()))),
    lastUpdatedAt: new Date(Math.max(...snaps.map((s) => s.updatedAt.getTime()))),
    error: status === 'failed' ? (latest && scan.lastRunFailed && scan.lastError ? scan.lastError : 'The scan run failed.') : null,
    pinsDone,
    pinsTotal,
  };
}

export interface RunProgress {
  pinsDone: number;
  pinsTotal: number;
}

/** A run's pin searches done (stored results) and in all (its pins x its keywords); `snaps` are the run's snapshots. */
async function runProgress(snaps: ScanSnapshot[], transaction?: Transaction): Promise<RunProgress> {
  if (snaps.length === 0) return { pinsDone: 0, pinsTotal: 0 };
  const [pinsDone, pins] = await Promise.all([
    ScanResult.count({ where: { ...tenantScoped(snaps[0]), snapshotId: snaps.map((s) => s.id) }, transaction }),
    ScanPin.count({ where: { ...tenantScoped(snaps[0]), scanId: snaps[0].scanId, version: snaps[0].pinVersion }, transaction }),
  ]);
  return { pinsDone, pinsTotal: pins * snaps.length };
}

// ---- update, archive, restore --------------------------------------------------------------------------

export interface UpdateScanInput {
  location?: string | null;
  address?: string | null;
  keywords?: string[] | null;
  targetPlaceId?: string | null;
  type?: string | null;
  gridSize?: number | null;
  distance?: number | null;
  distanceUnit?: string | null;
  lat?: number | null;
  lng?: number | null;
  regeneratePins?: boolean | null;
}

export async function updateScan(p: Principal, uuid: string, input: UpdateScanInput, opts: ServiceOptions = {}): Promise<Scan> {
  return inTransaction(opts, async (transaction) => {
    const scan = await ownScan(p, uuid, { transaction, lock: true, active: true });
    const fields: FieldErrors = {};
    const changes: Partial<Scan> = {};
    if (input.location != null) {
      try {
        changes.location = cleanName(input.location, 'location');
      } catch (e) {
        Object.assign(fields, (e as Validation).fields);
      }
    }
    if (input.address !== undefined) {
      if (input.address != null && input.address.length > 500) fields.address = ['The address may not be greater than 500 characters.'];
      else changes.address = input.address?.trim() || null;
    }
    if (input.keywords != null) changes.keywords = cleanKeywords(input.keywords, fields);
    if (input.targetPlaceId !== undefined) changes.targetPlaceId = checkTargetPlaceId(input.targetPlaceId, fields);
    const type = checkType(input.type, fields);
    if (type) changes.type = type;
    const unit = checkUnit(input.distanceUnit, fields);
    checkCoords(input.lat, input.lng, fields);
    if (Object.keys(fields).length) throw new Validation(fields);

    const geometry = {
      gridSize: input.gridSize ?? scan.gridSize,
      distance: input.distance ?? scan.distance,
      unit: unit ?? scan.distanceUnit,
      lat: input.lat ?? scan.lat,
      lng: input.lng ?? scan.lng,
    };
    const geometryChanged =
      geometry.gridSize !== scan.gridSize || geometry.distance !== scan.distance || geometry.unit !== scan.distanceUnit || geometry.lat !== scan.lat || geometry.lng !== scan.lng;
    if (geometryChanged) {
      assertGridParams(geometry);
      // A snapshot still running completes on the pins it started with, so it counts as one on the old grid: without
      // the acknowledgement the first run's snapshot would silently sit on another grid than the scan says.
      const onOldGrid = await ScanSnapshot.count({ where: { ...tenantScoped(scan), scanId: scan.id, status: ['completed', 'running'] }, transaction });
      if (onOldGrid > 0 && input.regeneratePins !== true) {
        throw ruleViolation(
          'The scan has completed snapshots, or one in progress: send regenerate_pins=true to change its geometry (earlier snapshots stay queryable).',
          'geometry_change_requires_acknowledgement',
        );
      }
      const version = scan.pinVersion + 1;
      await ScanPin.bulkCreate(generatePins(geometry).map((pin) => ({ tenantId: scan.tenantId, scanId: scan.id, version, ...pin })), { transaction });
      Object.assign(changes, { gridSize: geometry.gridSize, distance: geometry.distance, distanceUnit: geometry.unit, lat: geometry.lat, lng: geometry.lng, pinVersion: version });
    }
    return scan.update({ ...changes, updatedAt: clockOf(opts).now() }, { transaction });
  });
}

export function scheduleSpecOf(scan: Scan): ScheduleSpec | null {
  if (!scan.frequency || !scan.scheduledFrom || !scan.scheduledTo) return null;
  return { frequency: scan.frequency, from: scan.scheduledFrom, to: scan.scheduledTo, days: scan.scheduledDays ?? [], timezone: scan.timezone ?? 'UTC' };
}

/** Archive: `next_run_at` cleared, schedule fields kept; idempotent. */
export async function archiveScan(p: Principal, uuid: string, opts: ServiceOptions = {}): Promise<Scan> {
  return inTransaction(opts, async (transaction) => {
    const scan = await ownScan(p, uuid, { transaction, lock: true });
    if (scan.archivedAt) return scan;
    return scan.update({ archivedAt: clockOf(opts).now(), nextRunAt: null }, { transaction });
  });
}

/** Restore: a scheduled scan gets `next_run_at` recomputed from the current clock; idempotent. */
export async function restoreScan(p: Principal, uuid: string, opts: ServiceOptions = {}): Promise<Scan> {
  return inTransaction(opts, async (transaction) => {
    const scan = await ownScan(p, uuid, { transaction, lock: true });
    if (!scan.archivedAt) return scan;
    const spec = scan.isScheduled ? scheduleSpecOf(scan) : null;
    return scan.update({ archivedAt: null, nextRunAt: spec ? nextRunAt(spec, clockOf(opts).now()) : null }, { transaction });
  });
}

// ---- schedule ------------------------------------------------------------------------------------------

export interface ScheduleView {
  uuid: string;
  isScheduled: boolean;
  frequency: string | null;
  nextRunAt: Date | null;
  scheduledFrom: string | null;
  scheduledTo: string | null;
  scheduledDays: number[];
  timezone: string | null;
}

export const scheduleOf = (scan: Scan): ScheduleView => ({
  uuid: scan.uuid,
  isScheduled: scan.isScheduled,
  frequency: scan.frequency,
  nextRunAt: scan.nextRunAt,
  scheduledFrom: scan.scheduledFrom,
  scheduledTo: scan.scheduledTo,
  scheduledDays: scan.scheduledDays ?? [],
  timezone: scan.timezone,
});

export const getSchedule = async (p: Principal, uuid: string, opts: ServiceOptions = {}): Promise<ScheduleView> =>
  scheduleOf(await ownScan(p, uuid, { transaction: opts.transaction }));

export interface SetScheduleInput {
  isScheduled: boolean;
  frequency?: string | null;
  scheduledFrom?: string | null;
  scheduledTo?: string | null;
  scheduledDays?: number[] | null;
  timezone?: string | null;
}

const HHMM = /^([01]\d|2[0-3]):([0-5]\d)$/;

export async function setSchedule(p: Principal, uuid: string, input: SetScheduleInput, opts: ServiceOptions = {}): Promise<ScheduleView> {
  return inTransaction(opts, async (transaction) => {
    const scan = await ownScan(p, uuid, { transaction, lock: true, active: true });
    if (!input.isScheduled) return scheduleOf(await scan.update({ isScheduled: false, nextRunAt: null }, { transaction }));
    const fields: FieldErrors = {};
    const frequency = input.frequency ?? scan.frequency;
    const from = input.scheduledFrom ?? scan.scheduledFrom;
    const to = input.scheduledTo ?? scan.scheduledTo ?? '23:59';
    const days = input.scheduledDays ?? scan.scheduledDays ?? [];
    const timezone = input.timezone ?? scan.timezone ?? 'UTC';
    if (!frequency) fields.frequency = ['The frequency field is required when is scheduled is true.'];
    else if (!(FREQUENCIES as readonly string[]).includes(frequency)) fields.frequency = ['The frequency must be weekly, bi-weekly or monthly.'];
    if (!from) fields.scheduled_from = ['The scheduled from field is required when is scheduled is true.'];
    else if (!HHMM.test(from)) fields.scheduled_from = ['The scheduled from must be a time in HH:MM (24 hour) format.'];
    if (!HHMM.test(to)) fields.scheduled_to = ['The scheduled to must be a time in HH:MM (24 hour) format.'];
    if (days.some((d) => !Number.isInteger(d) || d < 0 || d > 6)) fields.scheduled_days = ['Each scheduled day must be an integer from 0 (Sunday) to 6 (Saturday).'];
    if (Object.keys(fields).length) throw new Validation(fields);
    assertWindow(from!, to);
    assertTimezone(timezone);
    const spec: ScheduleSpec = { frequency: frequency as Frequency, from: from!, to, days: [...new Set(days)].sort(), timezone };
    const updated = await scan.update(
      {
        isScheduled: true,
        frequency: spec.frequency,
        scheduledFrom: spec.from,
        scheduledTo: spec.to,
        scheduledDays: [...spec.days],
        timezone: spec.timezone,
        nextRunAt: nextRunAt(spec, clockOf(opts).now()),
      },
      { transaction },
    );
    return scheduleOf(updated);
  });
}

// ---- reads ---------------------------------------------------------------------------------------------

export interface ScanListFilter {
  search?: string | null;
  isScheduled?: boolean | null;
  completed?: boolean | null;
  failed?: boolean | null;
  sinceDays?: number | null;
  archivedOnly?: boolean | null;
  includeArchived?: boolean | null;
  page: number;
  perPage: number;
}

export async function listScans(p: Principal, f: ScanListFilter, opts: ServiceOptions = {}): Promise<Page<Scan>> {
  assertTenantOwner(p);
  const and: WhereOptions[] = [tenantScoped(p)];
  if (f.archivedOnly) and.push({ archivedAt: { [Op.ne]: null } });
  else if (!f.includeArchived) and.push({ archivedAt: null });
  if (f.search?.trim()) {
    const like = containsPattern(f.search.trim());
    // Keywords are a JSON array in a TEXT column: match each keyword's value, not the JSON text (whose brackets,
    // commas and escaped quotes would match `[` or `","` on every scan and miss a keyword with a `"` in it).
    const db = Scan.sequelize!;
    const keyword = db.literal(
      `EXISTS (SELECT 1 FROM JSON_TABLE(\`Scan\`.\`keywords\`, '$[*]' COLUMNS (k VARCHAR(255) CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci PATH '$')) jt ` +
        `WHERE jt.k LIKE ${db.escape(like)} ESCAPE '\\\\')`,
    );
    and.push({ [Op.or]: [{ location: { [Op.like]: like } }, keyword as unknown as WhereOptions] });
  }
  if (f.isScheduled != null) and.push({ isScheduled: f.isScheduled });
  if (f.failed != null) and.push({ lastRunFailed: f.failed });
  if (f.sinceDays != null) and.push({ createdAt: { [Op.gte]: new Date(clockOf(opts).now().getTime() - f.sinceDays * DAY_MS) } });
  if (f.completed != null) {
    const sub = `(SELECT 1 FROM scan_snapshots ss WHERE ss.scan_id = \`Scan\`.\`id\` AND ss.status = 'completed')`;
    and.push(Scan.sequelize!.literal(`${f.completed ? '' : 'NOT '}EXISTS ${sub}`) as unknown as WhereOptions);
  }
  const { rows, count } = await Scan.findAndCountAll({
    where: { [Op.and]: and },
    order: [
      ['createdAt', 'DESC'],
      ['id', 'DESC'],
    ],
    ...offset(f),
    transaction: opts.transaction,
  });
  return { items: rows, total: count, page: f.page, perPage: f.perPage };
}

export interface Place {
  placeId: string;
  name: string;
  rank: number;
}

export interface PinView {
  lat: number;
  lng: number;
  /** The pin's place in its grid (0 = north row, west column). */
  row: number;
  col: number;
  rank: number | null;
  keyword: string;
  status: string;
  snapshotAt: Date;
  topResults: Place[];
}

export interface SummaryView {
  averageRank: number;
  top3Count: number;
  top4To10Count: number;
  notRankingCount: number;
}

export interface ScanDetail {
  scan: Scan;
  /** While a run goes: its pins searched so far and in all; null when the scan is idle. */
  progress: RunProgress | null;
  summary: SummaryView | null;
  reportUrl: string;
  availableSnapshots: Date[];
  results: PinView[];
}

function parseSnapshotAt(value: string | null | undefined): Date | null {
  if (value == null || value === '') return null;
  const d = new Date(value);
  if (!/^\d{4}-\d{2}-\d{2}T/.test(value) || Number.isNaN(d.getTime())) {
    throw new Validation({ snapshot_at: ['The snapshot at must be an ISO 8601 timestamp.'] });
  }
  return d;
}

function checkTopN(topN: number | null | undefined): number {
  const n = topN ?? SCAN_LIMITS.topN.default;
  if (!Number.isInteger(n) || n < SCAN_LIMITS.topN.min || n > SCAN_LIMITS.topN.max) {
    throw new Validation({ top_n: [`The top n must be between ${SCAN_LIMITS.topN.min} and ${SCAN_LIMITS.topN.max}.`] });
  }
  return n;
}

/**
 * Snapshots of `keyword` whatever its letter case: a scan's keywords are told apart ignoring case only
 * (`cleanKeywords`), so "Dentist" asked, or a keyword renamed from "dentist" to "Dentist", finds the history stored as
 * "dentist" (the column compares byte-wise since migration 20261214000100, so "Café" and "Cafe" stay apart).
 */
export const sameKeyword = (keyword: string): WhereOptions => where(fn('LOWER', col('keyword')), keyword.toLowerCase());

const completedSnapshots = (scan: Scan, transaction?: Transaction, keyword?: string | null) =>
  ScanSnapshot.findAll({
    where: { ...tenantScoped(scan), scanId: scan.id, status: 'completed', ...(keyword != null ? { [Op.and]: [sameKeyword(keyword)] } : {}) },
    order: [
      ['snapshotAt', 'ASC'],
      ['id', 'ASC'],
    ],
    transaction,
  });

/** The snapshot time asked for (must be one of the completed ones: 404 otherwise), or the latest. */
function pickTime(times: Date[], asked: Date | null): Date | null {
  if (asked) {
    const hit = times.find((t) => t.getTime() === asked.getTime());
    if (!hit) throw new NotFound('Snapshot');
    return hit;
  }
  return times.length ? times[times.length - 1] : null;
}

const uniqueTimes = (snaps: ScanSnapshot[]): Date[] => {
  const seen = new Map<number, Date>();
  for (const s of snaps) seen.set(s.snapshotAt.getTime(), s.snapshotAt);
  return [...seen.values()].sort((a, b) => a.getTime() - b.getTime());
};

interface LoadedResult {
  result: ScanResult;
  pin: ScanPin;
  snapshot: ScanSnapshot;
}

export async function resultsOf(snapshots: ScanSnapshot[], transaction?: Transaction, page?: { offset: number; limit: number }): Promise<{ rows: LoadedResult[]; total: number }> {
  if (snapshots.length === 0) return { rows: [], total: 0 };
  const bySnapshot = new Map(snapshots.map((s) => [s.id, s]));
  const where = { ...tenantScoped(snapshots[0]), snapshotId: snapshots.map((s) => s.id) };
  const total = page ? await ScanResult.count({ where, transaction }) : 0;
  // Order: the snapshots' order (keyword order of the scan), then pins north-west first.
  const order = snapshots.map((s) => s.id);
  const results = await ScanResult.findAll({
    where,
    order: [
      [Scan.sequelize!.literal(`FIELD(snapshot_id, ${order.join(',')})`), 'ASC'],
      ['pinId', 'ASC'],
    ],
    ...(page ?? {}),
    transaction,
  });
  const pins = await ScanPin.findAll({ where: { ...tenantScoped(snapshots[0]), id: [...new Set(results.map((r) => r.pinId))] }, transaction });
  const pinById = new Map(pins.map((p) => [p.id, p]));
  const rows = results.map((result) => ({ result, pin: pinById.get(result.pinId)!, snapshot: bySnapshot.get(result.snapshotId)! }));
  return { rows, total: page ? total : rows.length };
}

/** A stored place of a pin's top 20 as the reads answer it. */
const placeView = (t: StoredPlace) => ({ placeId: t.place_id, name: t.name, rank: t.rank });

/** The places ranked above `rank` (absent: 21) in a pin's top 20. */
const placesAbove = (places: StoredPlace[], rank: number | null) => new Set(places.filter((t) => t.rank < (rank ?? ABSENT_RANK)).map((t) => t.place_id));
const ABSENT_RANK = 21;

export const outcomeOf = (r: LoadedResult): metrics.PinOutcome => ({
  row: r.pin.row,
  col: r.pin.col,
  targetRank: r.result.targetRank,
  results: r.result.topResults.map(placeView),
});

const summaryView = (s: metrics.Summary): SummaryView => ({ averageRank: s.avgRank, top3Count: s.top3, top4To10Count: s.top4to10, notRankingCount: s.notRanking });

/** Orders snapshots of one time by the scan's current keyword order (others after, alphabetically). */
export function byKeywordOrder(scan: Scan, snaps: ScanSnapshot[]): ScanSnapshot[] {
  const rank = (k: string) => {
    const i = scan.keywords.indexOf(k);
    return i < 0 ? scan.keywords.length : i;
  };
  return [...snaps].sort((a, b) => rank(a.keyword) - rank(b.keyword) || a.keyword.localeCompare(b.keyword));
}

export async function scanDetail(p: Principal, uuid: string, args: { snapshotAt?: string | null; topN?: number | null }, opts: ServiceOptions = {}): Promise<ScanDetail> {
  const scan = await ownScan(p, uuid, { transaction: opts.transaction });
  const topN = checkTopN(args.topN);
  const asked = parseSnapshotAt(args.snapshotAt);
  const all = await completedSnapshots(scan, opts.transaction);
  const times = uniqueTimes(all);
  const at = pickTime(times, asked);
  const progress = scan.isRunning && scan.currentRunId ? await runProgress(await ScanSnapshot.findAll({ where: { ...tenantScoped(scan), runId: scan.currentRunId }, transaction: opts.transaction }), opts.transaction) : null;
  const base = { scan, progress, reportUrl: reportUrlOf(scan.uuid, {}, 'html', await tenantLinkBase(scan.tenantId, opts)), availableSnapshots: [...times].reverse() };
  if (!at) return { ...base, summary: null, results: [] };
  const snaps = byKeywordOrder(scan, all.filter((s) => s.snapshotAt.getTime() === at.getTime()));
  const { rows } = await resultsOf(snaps, opts.transaction);
  // No business to track: its rank is unknown, so no summary (as before the first snapshot), not "absent everywhere".
  const summary = metrics.targetSummary(rows.map(outcomeOf), scan.targetPlaceId);
  return {
    ...base,
    summary: summary && summaryView(summary),
    results: rows.map((r) => pinView(r, topN)),
  };
}

function pinView(r: LoadedResult, topN: number): PinView {
  return {
    lat: r.result.lat,
    lng: r.result.lng,
    row: r.pin.row,
    col: r.pin.col,
    rank: r.result.targetRank,
    keyword: r.snapshot.keyword,
    status: r.result.status,
    snapshotAt: r.snapshot.snapshotAt,
    topResults: r.result.topResults.slice(0, topN).map(placeView),
  };
}

export interface DataPointsPage extends Page<PinView> {
  scanUuid: string;
  snapshotAt: Date | null;
  keyword: string | null;
  topN: number;
}

export async function dataPoints(
  p: Principal,
  uuid: string,
  args: { snapshotAt?: string | null; keyword?: string | null; topN?: number | null; page: number; perPage: number },
  opts: ServiceOptions = {},
): Promise<DataPointsPage> {
  const scan = await ownScan(p, uuid, { transaction: opts.transaction });
  const topN = checkTopN(args.topN);
  if (!Number.isInteger(args.perPage) || args.perPage < 1 || args.perPage > 500) throw new Validation({ per_page: ['The per page must be between 1 and 500.'] });
  const asked = parseSnapshotAt(args.snapshotAt);
  const keyword = args.keyword?.trim() || null;
  const all = await completedSnapshots(scan, opts.transaction, keyword);
  const at = pickTime(uniqueTimes(all), asked);
  const empty: DataPointsPage = { scanUuid: scan.uuid, snapshotAt: at, keyword, topN, items: [], total: 0, page: args.page, perPage: args.perPage };
  if (!at) return empty;
  const snaps = byKeywordOrder(scan, all.filter((s) => s.snapshotAt.getTime() === at.getTime()));
  const { rows, total } = await resultsOf(snaps, opts.transaction, offset(args));
  return { ...empty, items: rows.map((r) => pinView(r, topN)), total };
}

import type { SnapshotRow } from '../reports/types';

export type { SnapshotRow };

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const two = (n: number) => String(n).padStart(2, '0');

/** Labels in UTC: `Nov 23, 2026 10:00`, `Nov 23`, `Nov 2026`. */
export function snapshotLabels(at: Date): { label: string; shortLabel: string; monthYear: string } {
  const m = MONTHS[at.getUTCMonth()];
  return {
    label: `${m} ${at.getUTCDate()}, ${at.getUTCFullYear()} ${two(at.getUTCHours())}:${two(at.getUTCMinutes())}`,
    shortLabel: `${m} ${at.getUTCDate()}`,
    monthYear: `${m} ${at.getUTCFullYear()}`,
  };
}

/** A completed snapshot with figures of the business: one taken while the scan tracked none stored none (scan-runs). */
const hasFigures = (s: ScanSnapshot): boolean => s.avgRank != null;

/**
 * A completed snapshot as listed. Without a business to track (the scan's `target_place_id` now, or when the run
 * stored it: no figures) the row has no figures of the business, as the detail has no `summary`; the spec types them
 * as numbers, so they read 0 (no rank is 0, and no pin is counted for the business), `total_pins` still the pins
 * searched (docs/decisions/local-search-grid.md, "A scan with no business to track").
 */
const snapshotRow = (s: ScanSnapshot, tracked: boolean): SnapshotRow => {
  const figures = tracked && hasFigures(s);
  return {
    snapshotAt: s.snapshotAt,
    ...snapshotLabels(s.snapshotAt),
    avgRank: figures ? s.avgRank! : 0,
    changeFromPrevious: figures ? (s.changeFromPrevious ?? 0) : 0,
    top3Count: figures ? (s.top3Count ?? 0) : 0,
    top10Count: figures ? (s.top10Count ?? 0) : 0,
    belowTop10Count: figures ? (s.belowTop10Count ?? 0) : 0,
    notRankingCount: figures ? (s.notRankingCount ?? 0) : 0,
    totalPins: s.totalPins ?? 0,
    visibilityScore: figures ? (s.visibilityScore ?? 0) : 0,
    ranked: figures,
  };
};

/** The keyword asked for in the scan's own spelling (letter case and spacing aside), else as asked; default its first. */
function primaryKeyword(scan: Scan, keyword?: string | null): string {
  const wanted = keyword?.trim().replace(/\s+/g, ' ');
  if (!wanted) return scan.keywords[0] || '';
  return scan.keywords.find((k) => k.toLowerCase() === wanted.toLowerCase()) ?? wanted;
}

export interface PinChange {
  lat: number;
  lng: number;
  row: number;
  col: number;
  /** Each result's status (`complete`, or a failed search whose null rank says nothing). */
  status: string;
  previousStatus: string;
  /** The business's rank at the pin in the snapshot and in the one it is compared to; null: not in the top 20. */
  rank: number | null;
  previousRank: number | null;
  /** `gained` (a better rank, or into the top 20), `lost` (worse, or out of it) or `same`. */
  change: 'gained' | 'lost' | 'same';
  /** Places of the pin's top 20: now above the business and not above it before (lost), or the reverse (gained). */
  overtakenBy: Array<{ placeId: string; name: string; rank: number }>;
  overtook: Array<{ placeId: string; name: string; rank: number }>;
}

export interface PinChanges {
  scanUuid: string;
  keyword: string;
  snapshotAt: Date | null;
  previousSnapshotAt: Date | null;
  gained: number;
  lost: number;
  same: number;
  pins: PinChange[];
}

/**
 * Pin by pin, how one keyword's snapshot compares with an earlier one (default: the latest with the one before it):
 * which pins gained or lost rank, and which competitors moved above the business there (or fell below it). Pins are
 * matched by identity, so after regenerated pins only those in both snapshots count. Without two snapshots to compare,
 * the answer says so with nulls and no pins.
 */
export async function pinChanges(
  p: Principal,
  uuid: string,
  args: { keyword?: string | null; snapshotAt?: string | null; compareTo?: string | null },
  opts: ServiceOptions = {},
): Promise<PinChanges> {
  const scan = await ownScan(p, uuid, { transaction: opts.transaction });
  const keyword = primaryKeyword(scan, args.keyword);
  const snaps = await completedSnapshots(scan, opts.transaction, keyword);
  const at = pickTime(uniqueTimes(snaps), parseSnapshotAt(args.snapshotAt));
  const current = at ? snaps.find((s) => s.snapshotAt.getTime() === at.getTime()) : undefined;
  const earlier = current ? snaps.filter((s) => s.snapshotAt.getTime() < current.snapshotAt.getTime()) : [];
  const compareTo = parseSnapshotAt(args.compareTo);
  if (compareTo && current && compareTo.getTime() >= current.snapshotAt.getTime()) {
    throw new Validation({ compare_to: ['The compare_to snapshot must be earlier than snapshot_at.'] });
  }
  const previous = compareTo ? snaps.find((s) => s.snapshotAt.getTime() === compareTo.getTime()) : earlier[earlier.length - 1];
  if (compareTo && !previous) throw new NotFound('Snapshot');
  const none = { scanUuid: scan.uuid, keyword: keyword ?? '', snapshotAt: current?.snapshotAt ?? null, previousSnapshotAt: previous?.snapshotAt ?? null, gained: 0, lost: 0, same: 0, pins: [] };
  if (!current || !previous) return none;
  // A snapshot without figures of the business (taken while the scan tracked none) has no rank to compare, pin by pin:
  // as when there is no snapshot to compare with.
  if (!hasFigures(current) || !hasFigures(previous)) return { ...none, previousSnapshotAt: null };
  const [now, before] = await Promise.all([resultsOf([current], opts.transaction), resultsOf([previous], opts.transaction)]);
  const beforeByPin = new Map(before.rows.map((r) => [r.result.pinId, r.result]));
  const pins: PinChange[] = [];
  for (const { result, pin } of now.rows) {
    const old = beforeByPin.get(pin.id);
    if (!old) continue;
    const rank = result.targetRank;
    const previousRank = old.targetRank;
    const delta = (previousRank ?? ABSENT_RANK) - (rank ?? ABSENT_RANK);
    const aboveNow = placesAbove(result.topResults, rank);
    const aboveBefore = placesAbove(old.topResults, previousRank);
    pins.push({
      lat: result.lat,
      lng: result.lng,
      row: pin.row,
      col: pin.col,
      status: result.status,
      previousStatus: old.status,
      rank,
      previousRank,
      change: delta > 0 ? 'gained' : delta < 0 ? 'lost' : 'same',
      overtakenBy: result.topResults.filter((t) => aboveNow.has(t.place_id) && !aboveBefore.has(t.place_id)).map(placeView),
      overtook: old.topResults.filter((t) => aboveBefore.has(t.place_id) && !aboveNow.has(t.place_id)).map(placeView),
    });
  }
  const count = (c: PinChange['change']) => pins.filter((x) => x.change === c).length;
  return { ...none, gained: count('gained'), lost: count('lost'), same: count('same'), pins };
}

/** One keyword's completed snapshots, newest first (default keyword: the scan's first). */
export async function listSnapshots(p: Principal, uuid: string, args: { keyword?: string | null }, opts: ServiceOptions = {}): Promise<SnapshotRow[]> {
  const scan = await ownScan(p, uuid, { transaction: opts.transaction });
  const snaps = await completedSnapshots(scan, opts.transaction, primaryKeyword(scan, args.keyword));
  return snaps.reverse().map((s) => snapshotRow(s, !!scan.targetPlaceId));
}

export interface Insights {
  scanUuid: string;
  snapshotAt: Date | null;
  keyword: string;
  summary: metrics.Summary | null;
  trendsVsFirstSnapshot: metrics.TrendVsFirst | null;
  trendsVsPreviousSnapshot: metrics.TrendVsPrevious | null;
  geographicStrength: metrics.RegionStrength[];
  topCompetitors: metrics.Competitor[];
  recommendations: metrics.Recommendation[];
}

export async function scanInsights(p: Principal, uuid: string, args: { keyword?: string | null; snapshotAt?: string | null }, opts: ServiceOptions = {}): Promise<Insights> {
  const scan = await ownScan(p, uuid, { transaction: opts.transaction });
  const keyword = primaryKeyword(scan, args.keyword);
  const asked = parseSnapshotAt(args.snapshotAt);
  const snaps = await completedSnapshots(scan, opts.transaction, keyword);
  const at = pickTime(uniqueTimes(snaps), asked);
  const empty: Insights = {
    scanUuid: scan.uuid,
    snapshotAt: at,
    keyword,
    summary: null,
    trendsVsFirstSnapshot: null,
    trendsVsPreviousSnapshot: null,
    geographicStrength: [],
    topCompetitors: [],
    recommendations: [],
  };
  if (!at) return empty;
  const index = snaps.findIndex((s) => s.snapshotAt.getTime() === at.getTime());
  const current = snaps[index];
  const summaryOfSnap = async (s: ScanSnapshot) => {
    const { rows } = await resultsOf([s], opts.transaction);
    return { rows, summary: metrics.summarise(rows.map(outcomeOf)) };
  };
  const { rows, summary } = await summaryOfSnap(current);
  const outcomes = rows.map(outcomeOf);
  // Without a business to track only the places in the results are known: no summary, trends, regions (the target's
  // coverage) or recommendations (all about the target), the businesses that rank kept (metrics.competitors). The same
  // for a snapshot taken while the scan tracked none (no figures stored), though it tracks one now.
  if (!scan.targetPlaceId || !hasFigures(current)) return { ...empty, topCompetitors: metrics.competitors(outcomes, null) };
  const gridSize = Math.round(Math.sqrt(outcomes.length)) || scan.gridSize;
  // The snapshots compared with are those with figures of the business: an earlier one without has no rank to compare.
  const before = index > 0 && hasFigures(snaps[index - 1]) ? snaps[index - 1] : null;
  const earliest = snaps.slice(0, index).find(hasFigures) ?? null;
  const previous = before ? { at: before.snapshotAt, summary: (await summaryOfSnap(before)).summary } : null;
  const first = earliest ? { at: earliest.snapshotAt, summary: earliest === before ? previous!.summary : (await summaryOfSnap(earliest)).summary } : null;
  const regions = metrics.geographicStrength(outcomes, gridSize);
  const rivals = metrics.competitors(outcomes, scan.targetPlaceId);
  const vsPrevious = previous ? metrics.trendVsPrevious(previous, summary) : null;
  return {
    ...empty,
    summary,
    trendsVsFirstSnapshot: first ? metrics.trendVsFirst(first, summary) : null,
    trendsVsPreviousSnapshot: vsPrevious,
    geographicStrength: regions,
    topCompetitors: rivals,
    recommendations: metrics.recommendations({ keyword, summary, regions, competitors: rivals, previous: vsPrevious }),
  };
}

/**
 * The simulated market is fictional, so a business named in a scan is not in it: in simulator mode a scan without
 * `target_place_id` tracks the simulated business nearest the centre for its first keyword (as the demo scan does).
 * Live providers never guess: without a place id no pin has a target rank.
 */
async function simulatedTargetOf(providers: { mode: string }, keyword: string, centre: { lat: number; lng: number }): Promise<string | null> {
  if (providers.mode !== 'simulator') return null;
  const { SimulatedMarket } = await import('../providers/ranking/simulator');
  return new SimulatedMarket().nearestPlace(keyword, centre.lat, centre.lng).placeId;
}

// ---- shared with the run engine (src/jobs/scan-runs.ts): a command whose run cannot start fails it ----

/** A run's first snapshot and its scan (locked), while the run is the scan's current one; null for any other run. */
export async function currentRun(runId: string, transaction: Transaction): Promise<{ first: ScanSnapshot; scan: Scan } | null> {
  const first = await ScanSnapshot.findOne({ where: { runId }, transaction });
  if (!first) return null;
  const scan = await Scan.findByPk(first.scanId, { transaction, lock: transaction.LOCK.UPDATE });
  return scan && scan.currentRunId === runId ? { first, scan } : null;
}

/** A short message for the scan-failed payload: no stack, at most 200 characters. */
export function safeError(message: string): string {
  const m = message.replace(/\s+/g, ' ').trim() || 'The scan run failed.';
  return m.length > 200 ? `${m.slice(0, 197)}...` : m;
}

/** Fails the run: its snapshots `failed`, the scan idle with `last_run_failed`, and scan-failed, in one transaction. */
export async function failRun(runId: string, message: string, opts: ServiceOptions = {}): Promise<void> {
  const now = clockOf(opts).now();
  await inTransaction(opts, async (transaction) => {
    const scan = (await currentRun(runId, transaction))?.scan;
    if (!scan) return;
    await ScanSnapshot.update({ status: 'failed' }, { where: { ...tenantScoped(scan), runId, status: 'running' }, transaction });
    const error = safeError(message);
    await scan.update({ isRunning: false, currentRunId: null, runTurnAt: null, lastRunFailed: true, lastError: error }, { transaction });
    await writeEvent(
      transaction,
      {
        tenantId: scan.tenantId,
        customerId: scan.ownerCustomerId,
        event: 'scan-failed',
        aggregateType: 'scan',
        aggregateId: scan.uuid,
        payload: { uuid: scan.uuid, status: 'failed', error_message: error, failed_at: now.toISOString() },
      },
      { clock: clockOf(opts) },
    );
  });
}
