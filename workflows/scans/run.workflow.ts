import { ActivityFailure, ApplicationFailure, CancellationScope, isCancellation, proxyActivities, type ActivityOptions } from '@temporalio/workflow';
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
}

export interface ScanRunResult {
  status: 'completed' | 'failed' | 'superseded';
  queries: number;
  error: string | null;
}

const DEFAULT_RETRY: ScanRunRetry = { maximumAttempts: 8, initialIntervalMs: 2_000, maximumIntervalMs: 60_000 };

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
 * One run of a scan (`scan-run:<uuid>:<run id>`): every pin x keyword query, `concurrency` at a time, each result
 * stored as it arrives; then the snapshots and scan-completed. A provider refusal (or unavailability past the
 * retries) stops the run: scan-failed. A worker killed mid-run resumes from the history; queries whose activity
 * completed are not asked again, and a re-asked one upserts the same row.
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
  const { loadScanRun, completeScanRun, failScanRun } = proxyActivities<ScanActivities>(DATABASE_ACTIVITY);
  const { queryScanPin } = proxyActivities<ScanActivities>({
    startToCloseTimeout: '2m',
    // The activity heartbeats while it waits: a query of a killed worker is retried after 20 s, not 2 minutes.
    heartbeatTimeout: '20s',
    retry: backoffPolicy(retry, ['GridProviderRejected']),
  });

  const plan = await loadScanRun.executeWithOptions({ summary: `Load run ${input.runId} of scan ${input.scanUuid}` }, [input.runId]);
  if (!plan) return { status: 'superseded', queries: 0, error: null };
  const done = new Set(plan.done);
  const queue: PinQuery[] = [];
  for (const s of plan.snapshots) {
    for (const p of plan.pins) {
      if (done.has(`${s.id}:${p.id}`)) continue;
      queue.push({ tenantId: plan.tenantId, snapshotId: s.id, pinId: p.id, keyword: s.keyword, lat: p.lat, lng: p.lng, targetPlaceId: plan.targetPlaceId });
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
