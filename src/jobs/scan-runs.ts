import { randomUUID } from 'node:crypto';
import { Op, QueryTypes } from 'sequelize';
import * as metrics from '../grid/metrics';
import { generatePins } from '../grid/pins';
import { nextRunAt } from '../grid/schedule';
import type { MapResult } from '../providers/ranking/types';
import { Scan, ScanPin, ScanResult, ScanSnapshot } from '../models';
import { writeEvent } from '../outbox/writer';
import { scanLabel, scanRunWorkflowState, signalScanTurnFreed, startScanRunWorkflow } from '../../workflows/scans/client';
import type { PinQuery, ScanRunPlan, ScanRunTurn } from '../../workflows/activities/scans';
import { clockOf, inTransaction, tenantScoped, type ServiceOptions } from '../services/common';
import { gridProvidersFor } from '../services/grid-providers.service';
import { byKeywordOrder, currentRun, failRun, outcomeOf, queueRun, reportPathOf, resultsOf, sameKeyword, scheduleSpecOf } from '../services/scans.service';

/**
 * The scan run engine, worker side (the activities of `scanRun` and the schedule tick call it; no principal does):
 * what a run still has to do, one pin's answer from the tenant's ranking provider, storing it, completing or failing
 * the run, and starting scheduled runs when due. The principal's commands and queries on scans are
 * src/services/scans.service.ts. Every number comes from src/grid/metrics.ts over the stored per-pin results.
 */
/** What the run still has to do; null when the run is not the scan's current one any more. */
export async function runPlan(runId: string): Promise<ScanRunPlan | null> {
  const snapshots = await ScanSnapshot.findAll({ where: { runId, status: 'running' }, order: [['id', 'ASC']] });
  if (snapshots.length === 0) return null;
  const scan = await Scan.findByPk(snapshots[0].scanId);
  if (!scan || scan.currentRunId !== runId) return null;
  const pins = await ScanPin.findAll({ where: { ...tenantScoped(scan), scanId: scan.id, version: snapshots[0].pinVersion }, order: [['id', 'ASC']] });
  const done = await ScanResult.findAll({ where: { ...tenantScoped(scan), snapshotId: snapshots.map((s) => s.id) }, attributes: ['snapshotId', 'pinId'] });
  return {
    tenantId: scan.tenantId,
    targetPlaceId: scan.targetPlaceId,
    snapshots: snapshots.map((s) => ({ id: s.id, keyword: s.keyword })),
    pins: pins.map((p) => ({ id: p.id, lat: p.lat, lng: p.lng })),
    done: done.map((r) => `${r.snapshotId}:${r.pinId}`),
  };
}

/** The tenant's ranking provider answers a query (a tenant whose settings vanished gets a refusal). */
export async function searchFor(tenantId: number, query: { keyword: string; lat: number; lng: number }): Promise<MapResult[]> {
  const providers = await gridProvidersFor(tenantId);
  if (!providers) {
    const { GridProviderRejected } = await import('../providers/ranking/types');
    throw new GridProviderRejected('grid', 'Ranking-data credentials are not configured.');
  }
  return providers.ranking.searchMaps(query);
}

/** Stores one pin's answer: an upsert on (snapshot, pin), so a retried or resumed query never duplicates. */
export async function storePinResult(q: PinQuery, results: MapResult[], opts: ServiceOptions = {}): Promise<void> {
  const top = results.filter((r) => r.rank >= 1 && r.rank <= metrics.MAX_RANK).sort((a, b) => a.rank - b.rank);
  const target = q.targetPlaceId ? top.find((r) => r.placeId === q.targetPlaceId) : undefined;
  const now = clockOf(opts).now();
  await ScanResult.bulkCreate(
    [
      {
        tenantId: q.tenantId,
        snapshotId: q.snapshotId,
        pinId: q.pinId,
        lat: q.lat,
        lng: q.lng,
        targetRank: target?.rank ?? null,
        topResults: top.map((r) => ({ place_id: r.placeId, name: r.name, rank: r.rank })),
        status: 'complete',
        createdAt: now,
        updatedAt: now,
      },
    ],
    { updateOnDuplicate: ['targetRank', 'topResults', 'status', 'updatedAt'], transaction: opts.transaction },
  );
}

/**
 * Completes the run: each keyword's snapshot summary (metrics.summarise over its stored results) and
 * `change_from_previous` (against that keyword's previous completed snapshot), then the scan goes idle and
 * scan-completed is written, all in one transaction. Idempotent: a run already completed is left alone.
 */
export async function completeRun(runId: string, opts: ServiceOptions = {}): Promise<void> {
  const now = clockOf(opts).now();
  await inTransaction(opts, async (transaction) => {
    const current = await currentRun(runId, transaction);
    if (!current) return;
    const { first, scan } = current;
    const snaps = byKeywordOrder(scan, await ScanSnapshot.findAll({ where: { ...tenantScoped(scan), runId, status: 'running' }, transaction }));
    if (snaps.length === 0) return;
    const all: metrics.PinOutcome[] = [];
    for (const s of snaps) {
      const { rows } = await resultsOf([s], transaction);
      const outcomes = rows.map(outcomeOf);
      all.push(...outcomes);
      const sum = metrics.summarise(outcomes);
      const prev = await ScanSnapshot.findOne({
        where: { ...tenantScoped(scan), scanId: scan.id, status: 'completed', snapshotAt: { [Op.lt]: s.snapshotAt }, [Op.and]: [sameKeyword(s.keyword)] },
        order: [['snapshotAt', 'DESC']],
        transaction,
      });
      // No business to track: no figure of the business to store (the formula's 21 would read "absent everywhere");
      // the pins searched are still counted. The snapshots list answers such a row with zeros (scans.service).
      const figures = scan.targetPlaceId
        ? {
            avgRank: sum.avgRank,
            top3Count: sum.top3,
            top10Count: sum.top10,
            belowTop10Count: sum.belowTop10,
            notRankingCount: sum.notRanking,
            visibilityScore: sum.visibilityScore,
            changeFromPrevious: prev?.avgRank != null ? Math.round((sum.avgRank - prev.avgRank) * 100) / 100 : 0,
          }
        : { avgRank: null, top3Count: null, top10Count: null, belowTop10Count: null, notRankingCount: null, visibilityScore: null, changeFromPrevious: null };
      await s.update({ status: 'completed', ...figures, totalPins: sum.totalPins, completedAt: now }, { transaction });
    }
    await scan.update({ isRunning: false, currentRunId: null, runTurnAt: null, lastRunFailed: false, lastError: null }, { transaction });
    // A scan with no business to track has no rank to report (the scan detail's `summary` is null the same way).
    const total = metrics.targetSummary(all, scan.targetPlaceId);
    await writeEvent(
      transaction,
      {
        tenantId: scan.tenantId,
        customerId: scan.ownerCustomerId,
        event: 'scan-completed',
        aggregateType: 'scan',
        aggregateId: scan.uuid,
        payload: {
          uuid: scan.uuid,
          status: 'completed',
          snapshot_at: first.snapshotAt.toISOString(),
          location: scan.location,
          keyword: scan.keywords[0] ?? first.keyword,
          keywords: scan.keywords,
          grid_size: scan.gridSize,
          summary: total && { average_rank: total.avgRank, top_3_count: total.top3, top_4_to_10_count: total.top4to10, not_ranking_count: total.notRanking },
          report_url: reportPathOf(scan.uuid),
        },
      },
      { clock: clockOf(opts) },
    );
  });
}

/**
 * One of the tenant's turns for the run (its workflow asks before the first pin query): `granted` when fewer than
 * `maxRunning` of the tenant's scans run holding one (the scan's `run_turn_at` is then set), and again for a run that
 * holds one already (a retried attempt, a resumed workflow); `waiting` otherwise; `ended` when the run is no longer
 * the scan's current one. The tenant's claims are serialised on its row (as its scan creations are), so two runs
 * never take the last turn together. A turn is given back when the run completes or fails (`completeRun`, `failRun`
 * clear it with `is_running`), including a run the tick fails because its workflow ended.
 */
export async function claimRunTurn(runId: string, maxRunning: number, opts: ServiceOptions = {}): Promise<ScanRunTurn> {
  const now = clockOf(opts).now();
  // Looked up before the transaction: its first statement must be the lock, so that the count below reads what the
  // claims before it committed (InnoDB's snapshot starts at a transaction's first plain read).
  const first = await ScanSnapshot.findOne({ where: { runId }, attributes: ['tenantId', 'scanId'], transaction: opts.transaction });
  if (!first) return 'ended';
  return inTransaction(opts, async (transaction) => {
    await Scan.sequelize!.query('SELECT id FROM tenants WHERE id = ? FOR UPDATE', { replacements: [first.tenantId], transaction, type: QueryTypes.SELECT });
    const scan = await Scan.findByPk(first.scanId, { transaction, lock: transaction.LOCK.UPDATE });
    if (!scan || !scan.isRunning || scan.currentRunId !== runId) return 'ended';
    if (scan.runTurnAt) return 'granted';
    const holding = await Scan.count({ where: { ...tenantScoped(scan), isRunning: true, runTurnAt: { [Op.ne]: null } }, transaction });
    if (holding >= maxRunning) return 'waiting';
    await scan.update({ runTurnAt: now }, { transaction });
    return 'granted';
  });
}

/**
 * After a run ended (its turn given back): the tenant's run that has waited longest for a turn (queued first, its
 * planned start passed) is told at once, so it need not wait for its next look. Answers whom it woke.
 */
export async function wakeLongestWaitingRun(endedRunId: string, opts: ServiceOptions = {}): Promise<string | null> {
  const first = await ScanSnapshot.findOne({ where: { runId: endedRunId }, attributes: ['tenantId'] });
  if (!first) return null;
  const waiting = await Scan.findOne({
    where: { tenantId: first.tenantId, isRunning: true, runTurnAt: null, currentRunId: { [Op.ne]: null }, lastRunAt: { [Op.lte]: clockOf(opts).now() } },
    attributes: ['uuid', 'currentRunId'],
    order: [
      ['lastRunAt', 'ASC'],
      ['id', 'ASC'],
    ],
  });
  if (!waiting) return null;
  return (await signalScanTurnFreed(waiting.uuid, waiting.currentRunId!)) ? waiting.currentRunId : null;
}

/** How long after its (planned) start a queued run must have had its workflow started by whoever queued it. */
const START_GRACE_MS = 2 * 60_000;

/**
 * Runs whose workflow is not going. A run's rows are committed before its workflow is started (`queueRun`, then
 * `launch` or the tick below), so a process killed in between, a tick activity retried after its commit, or a tick
 * whose start failed leaves the scan `running` with no workflow: nothing would ever finish the run, and every new run
 * would be refused with scan_running. The tick starts each such run's workflow (the run resumes from its stored
 * results; one that is no longer the scan's current run ends as `superseded`). A run whose workflow closed without
 * finishing it (terminated in the Temporal UI rather than canceled) is stored failed, so the scan can run again.
 * Answers how many it started. One scan that cannot be looked at (`warn` says why) holds up neither the others nor
 * the due scans after them.
 */
export async function resumeStalledRuns(opts: TickOptions = {}): Promise<number> {
  const before = new Date(clockOf(opts).now().getTime() - START_GRACE_MS);
  const running = await Scan.findAll({
    where: { isRunning: true, currentRunId: { [Op.ne]: null }, lastRunAt: { [Op.lte]: before } },
    attributes: ['id', 'uuid', 'currentRunId', 'tenantId', 'customerId', 'ownerCustomerId', 'location'],
  });
  let started = 0;
  for (const scan of running) {
    const runId = scan.currentRunId!;
    try {
      const state = await scanRunWorkflowState(scan.uuid, runId);
      if (state === 'missing') {
        if (await startScanRunWorkflow(scan.uuid, runId, 0, scanLabel(scan))) started++;
      } else if (state !== 'running') {
        await failRun(runId, `The run's workflow ended (${state.toLowerCase().replace(/_/g, ' ')}) without finishing the run.`, opts);
      }
    } catch (e) {
      opts.warn?.('A stalled scan run could not be resumed; the next tick tries again', { scan: scan.uuid, runId, error: e instanceof Error ? e.message : String(e) });
    }
  }
  return started;
}

export interface TickOptions extends ServiceOptions {
  /** Where the tick says what it could not do (the activity's log). */
  warn?: (message: string, attrs: Record<string, unknown>) => void;
}

/**
 * The tick: first the runs queued but never started (`resumeStalledRuns`); then every active scheduled scan whose
 * `next_run_at` has passed gets a run (unless one is going) and its `next_run_at` advanced to the next window at least
 * one period later. Scheduled runs are never staggered. A run whose workflow cannot be started (Temporal unreachable)
 * stays queued for the next tick's `resumeStalledRuns`: failing it would lose the period's run, since `next_run_at`
 * has moved on. Answers how many it started.
 */
export async function startDueScheduledScans(opts: TickOptions = {}): Promise<number> {
  await resumeStalledRuns(opts);
  const now = clockOf(opts).now();
  const due = await Scan.findAll({ where: { isScheduled: true, archivedAt: null, nextRunAt: { [Op.lte]: now } }, attributes: ['id'], order: [['nextRunAt', 'ASC']] });
  let started = 0;
  for (const { id } of due) {
    const queued = await inTransaction(opts, async (transaction) => {
      const scan = await Scan.findByPk(id, { transaction, lock: transaction.LOCK.UPDATE });
      if (!scan || !scan.isScheduled || scan.archivedAt || !scan.nextRunAt || scan.nextRunAt > now) return null;
      const spec = scheduleSpecOf(scan);
      let runId: string | null = null;
      const providers = await gridProvidersFor(scan.tenantId, { transaction });
      if (!scan.isRunning && providers && scan.keywords.length) runId = await queueRun(scan, now, transaction, now);
      await scan.update({ nextRunAt: spec ? nextRunAt(spec, now, now) : null }, { transaction });
      return runId ? { scan, runId } : null;
    });
    if (!queued) continue;
    try {
      await startScanRunWorkflow(queued.scan.uuid, queued.runId, 0, scanLabel(queued.scan));
      started++;
    } catch (e) {
      opts.warn?.('A scheduled scan run could not be started; it stays queued and a later tick starts it', {
        scan: queued.scan.uuid,
        runId: queued.runId,
        error: e instanceof Error ? e.message : String(e),
      });
    }
  }
  return started;
}

/**
 * The demo's scan: the simulated market around a point in Austin, TX, the nearest relevant business as the target,
 * one completed snapshot computed in-process (the simulator answers synchronously, so the seed needs no worker).
 */
export async function seedDemoScan(tenantId: number, ownerCustomerId: number | null, opts: ServiceOptions = {}): Promise<Scan> {
  const { SimulatedMarket } = await import('../providers/ranking/simulator');
  const market = new SimulatedMarket();
  const keyword = 'dentist';
  const centre = { lat: 30.2672, lng: -97.7431 };
  const target = market.nearestPlace(keyword, centre.lat, centre.lng);
  const now = clockOf(opts).now();
  const pins = generatePins({ lat: target.lat, lng: target.lng, gridSize: 7, distance: 3, unit: 'km' });
  const { scan, runId } = await inTransaction(opts, async (transaction) => {
    const scan = await Scan.create(
      {
        uuid: randomUUID(),
        tenantId,
        ownerCustomerId,
        location: target.name,
        address: 'Congress Ave, Austin, TX',
        keywords: [keyword, 'teeth whitening'],
        gridSize: 7,
        distance: 3,
        distanceUnit: 'km',
        type: 'business',
        targetPlaceId: target.placeId,
        lat: target.lat,
        lng: target.lng,
        pinVersion: 1,
        createdAt: now,
        updatedAt: now,
      },
      { transaction },
    );
    await ScanPin.bulkCreate(pins.map((pin) => ({ tenantId: scan.tenantId, scanId: scan.id, version: 1, ...pin })), { transaction });
    return { scan, runId: await queueRun(scan, now, transaction, now) };
  });
  const plan = (await runPlan(runId))!;
  for (const s of plan.snapshots) {
    for (const p of plan.pins) {
      const q: PinQuery = { tenantId, snapshotId: s.id, pinId: p.id, keyword: s.keyword, lat: p.lat, lng: p.lng, targetPlaceId: scan.targetPlaceId };
      await storePinResult(q, market.rank(s.keyword, p.lat, p.lng), opts);
    }
  }
  await completeRun(runId, opts);
  return (await Scan.findByPk(scan.id))!;
}
