import {
  ActivityFailure,
  ApplicationFailure,
  CancellationScope,
  condition,
  defineSignal,
  isCancellation,
  patched,
  proxyActivities,
  setHandler,
  type ActivityOptions,
} from '@temporalio/workflow';
import type { PinQuery, ScanActivities } from '../activities/scans';
import { backoffPolicy } from '../retry';

/** Retries of one pin query while the provider is unavailable (5xx, 429 with Retry-After, network). */
export interface ScanRunRetry {
  maximumAttempts: number;
  initialIntervalMs: number;
  maximumIntervalMs: number;
}

export interface ScanRunInput {
  scanUuid: string;
  runId: string;
  /** Pin queries in flight at once (SCAN_CONCURRENCY). */
  concurrency: number;
  retry?: ScanRunRetry;
  /**
   * The task queue of the pin queries (`<task queue>:scan-pins`, slots of their own in every worker process); absent:
   * the run's own queue. Read only by runs since the `scan-run-turns` patch.
   */
  pinQueue?: string;
  /**
   * Runs of the tenant that may query the provider at once (SCAN_MAX_RUNNING_PER_TENANT): the run waits for one of
   * these turns before its first query. Absent: no turn is asked for. Read only by runs since the patch.
   */
  maxRunningPerTenant?: number;
}

export interface ScanRunResult {
  status: 'completed' | 'failed' | 'superseded';
  queries: number;
  error: string | null;
}

const DEFAULT_RETRY: ScanRunRetry = { maximumAttempts: 8, initialIntervalMs: 2_000, maximumIntervalMs: 60_000 };

/**
 * The run's change of 2026-12-03 (docs/decisions/local-search-grid.md, "one tenant's scans and everyone else's
 * work"): pin queries on their own task queue, waiting for their tenant's pace at the server rather than in a worker
 * slot, and the run waiting for one of its tenant's turns before its first query. Runs started before it replay and
 * finish as they ran (their history has no marker).
 */
export const SCAN_RUN_TURNS_PATCH = 'scan-run-turns';
/** Sent to a run waiting for its tenant's turn when one frees (the run that ended wakes the longest-waiting one). */
export const SCAN_TURN_FREED = 'scanTurnFreed';
export const scanTurnFreed = defineSignal(SCAN_TURN_FREED);
/** A waiting run looks for a turn after 1 s, then doubling up to every 30 s (sooner when woken). */
const TURN_LOOK_FIRST_MS = 1_000;
const TURN_LOOK_MAX_MS = 30_000;

/**
 * The run's database-only activities (load, complete, fail): retried until the database answers, every 5 minutes at
 * most. When they gave up after a few minutes the workflow failed, and the next tick stored the run failed, throwing
 * away the provider results already paid for and stored; an outage that lasts shows as pending attempts in the
 * Temporal UI. A failure thrown as non-retryable still ends the activity at once.
 */
const DATABASE_ACTIVITY: ActivityOptions = {
  startToCloseTimeout: '2m',
  retry: { initialInterval: '1s', backoffCoefficient: 2, maximumInterval: '5m' },
};

/**
 * One run of a scan (`scan-run:<uuid>:<run id>`): first one of its tenant's turns (at most
 * SCAN_MAX_RUNNING_PER_TENANT runs of a tenant query at once; the run waits for one), then every pin x keyword query,
 * `concurrency` at a time, each result stored as it arrives; then the snapshots and scan-completed. A provider
 * refusal (or unavailability past the retries) stops the run: scan-failed. A worker killed mid-run resumes from the
 * history; queries whose activity completed are not asked again, and a re-asked one upserts the same row.
 */
export async function runScan(input: ScanRunInput): Promise<ScanRunResult> {
  try {
    return await runScanSteps(input);
  } catch (err) {
    // An operator canceled the run (Temporal UI or `temporal workflow cancel`): the scan must not stay `running`
    // (it would refuse every new run with scan_running), so the run is stored failed outside the canceled scope.
    if (isCancellation(err)) {
      const { failScanRun } = proxyActivities<ScanActivities>(DATABASE_ACTIVITY);
      await CancellationScope.nonCancellable(() =>
        failScanRun.executeWithOptions({ summary: `Mark run ${input.runId} canceled` }, [input.runId, 'The run was canceled by an operator.']),
      );
    }
    throw err;
  }
}

async function runScanSteps(input: ScanRunInput): Promise<ScanRunResult> {
  const retry = input.retry ?? DEFAULT_RETRY;
  // Asked once, before the first command: a run is of one kind from start to end.
  const turns = patched(SCAN_RUN_TURNS_PATCH);
  const { loadScanRun, completeScanRun, failScanRun, claimScanRunTurn } = proxyActivities<ScanActivities>(DATABASE_ACTIVITY);
  const { queryScanPin } = proxyActivities<ScanActivities>({
    startToCloseTimeout: '2m',
    // The activity heartbeats while it waits: a query of a killed worker is retried after 20 s, not 2 minutes.
    heartbeatTimeout: '20s',
    ...(turns && input.pinQueue ? { taskQueue: input.pinQueue } : {}),
    // Since the patch the query counts its own tries (its pace waits left out), each of which may follow one wait.
    retry: backoffPolicy(turns ? { ...retry, maximumAttempts: 2 * retry.maximumAttempts } : retry, ['GridProviderRejected']),
  });

  const plan = await loadScanRun.executeWithOptions({ summary: `Load run ${input.runId} of scan ${input.scanUuid}` }, [input.runId]);
  if (!plan) return { status: 'superseded', queries: 0, error: null };
  if (turns && input.maxRunningPerTenant) {
    // The tenant's other runs may hold every turn: the run waits (a durable timer, no worker slot), woken early by
    // the signal of a run that ends. A run that ended meanwhile has nothing left to do.
    let woken = false;
    setHandler(scanTurnFreed, () => void (woken = true));
    for (let look = TURN_LOOK_FIRST_MS; ; look = Math.min(2 * look, TURN_LOOK_MAX_MS)) {
      // A signal that comes while the claim goes (a turn freed after it counted) makes the next look at once.
      woken = false;
      const turn = await claimScanRunTurn.executeWithOptions({ summary: `Claim a turn of tenant ${plan.tenantId} for run ${input.runId}` }, [
        input.runId,
        input.maxRunningPerTenant,
      ]);
      if (turn === 'granted') break;
      if (turn === 'ended') return { status: 'superseded', queries: 0, error: null };
      await condition(() => woken, look);
    }
  }
  const done = new Set(plan.done);
  const queue: PinQuery[] = [];
  for (const s of plan.snapshots) {
    for (const p of plan.pins) {
      if (done.has(`${s.id}:${p.id}`)) continue;
      queue.push({
        tenantId: plan.tenantId,
        snapshotId: s.id,
        pinId: p.id,
        keyword: s.keyword,
        lat: p.lat,
        lng: p.lng,
        targetPlaceId: plan.targetPlaceId,
        ...(turns ? { retry } : {}),
      });
    }
  }

  let next = 0;
  let error: string | null = null;
  const lane = async (): Promise<void> => {
    while (error === null && next < queue.length) {
      const q = queue[next++];
      try {
        await queryScanPin.executeWithOptions({ summary: `Rank "${q.keyword}" at pin ${q.pinId}` }, [q]);
      } catch (err) {
        const cause = err instanceof ActivityFailure ? err.cause : err;
        error ??= cause instanceof Error ? cause.message : 'The ranking provider failed.';
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(input.concurrency, queue.length)) }, () => lane()));

  if (error !== null) {
    await failScanRun.executeWithOptions({ summary: `Mark run ${input.runId} failed` }, [input.runId, error]);
    throw ApplicationFailure.nonRetryable(error, 'ScanRunFailed');
  }
  await completeScanRun.executeWithOptions({ summary: `Complete run ${input.runId}` }, [input.runId]);
  return { status: 'completed', queries: queue.length, error: null };
}

/** The 15-minute tick (Temporal Schedule `scan-schedule-tick`): starts the scheduled runs that are due. */
export async function scanScheduleTick(): Promise<number> {
  const { startDueScans } = proxyActivities<ScanActivities>({
    startToCloseTimeout: '5m',
    retry: { initialInterval: '1s', maximumInterval: '30s', maximumAttempts: 5 },
  });
  return startDueScans.executeWithOptions({ summary: 'Start the scheduled scan runs that are due' }, []);
}
