import { WorkflowExecutionAlreadyStartedError, WorkflowNotFoundError } from '@temporalio/client';
import { ensureSchedule, isEvery, requestedStart, storedEvery, temporal } from '../client';
import { SCAN_TURN_FREED, type ScanRunInput, type ScanRunRetry, type scanScheduleTick } from './run.workflow';
import { ownedBy, shortId, startMetadata, type Owner } from '../../src/temporal/search-attributes';

/**
 * Starting Local Search Grid runs and the scheduling tick. Workflow id `scan-run:<scan uuid>:<run id>`; the tick is
 * the Temporal Schedule `scan-schedule-tick` (every 15 minutes) that starts `scanScheduleTick`.
 */
export interface ScanEngineSettings {
  /** Provider queries in flight per run. */
  concurrency: number;
  /** Retries of one pin query while the provider is unavailable; absent = the workflow's default. */
  retry?: ScanRunRetry;
  /** Runs of one tenant that query the provider at once (SCAN_MAX_RUNNING_PER_TENANT); its other runs wait their turn. */
  maxRunningPerTenant: number;
  /** Appended to the tick's schedule id: tests sharing one dev server scope it by task queue. Unset in production. */
  idScope?: string;
  tickEveryMs?: number;
}

let engine: ScanEngineSettings = { concurrency: 8, maxRunningPerTenant: 2 };

export function configureScanEngine(settings: Partial<ScanEngineSettings>): void {
  engine = { ...engine, ...settings };
}

export const scanRunWorkflowId = (scanUuid: string, runId: string): string => `scan-run:${scanUuid}:${runId}`;

/**
 * The task queue of scan runs' pin queries, next to the main one: its own worker and activity slots in every worker
 * process, so provider calls (and a provider that answers slowly) never hold the slots webhooks, review requests,
 * syncs and the other workflows' activities need.
 */
export const scanPinQueue = (taskQueue: string): string => `${taskQueue}:scan-pins`;

export const SCAN_TICK_SCHEDULE = 'scan-schedule-tick';
export const scanTickScheduleId = (): string => (engine.idScope ? `${SCAN_TICK_SCHEDULE}:${engine.idScope}` : SCAN_TICK_SCHEDULE);

/** What the Temporal UI shows of a scan run: who the scan belongs to and the business it scans. */
export interface ScanLabel {
  owner: Owner;
  /** The scanned business (the scan's `location`). */
  business: string;
}

/** A scan's label from its row: its account is the customer's, or the agency's own account for agency-level scans. */
export const scanLabel = (scan: { tenantId: number; customerId: number | null; ownerCustomerId: number | null; location: string }): ScanLabel => ({
  owner: { tenantId: scan.tenantId, customerId: scan.customerId ?? scan.ownerCustomerId },
  business: scan.location,
});

/**
 * Starts the run's workflow (a second start of the same run is a no-op); answers whether this call started it.
 * `delayMs` staggers the first run of a burst.
 */
export async function startScanRunWorkflow(scanUuid: string, runId: string, delayMs = 0, label: ScanLabel | null = null): Promise<boolean> {
  const { settings } = temporal();
  // A run asked for now starts eagerly where a local worker can take it; a staggered one waits its delay.
  const { client, options } = delayMs > 0 ? { client: temporal().client, options: {} } : requestedStart();
  const input: ScanRunInput = {
    scanUuid,
    runId,
    concurrency: engine.concurrency,
    retry: engine.retry,
    pinQueue: scanPinQueue(settings.taskQueue),
    maxRunningPerTenant: engine.maxRunningPerTenant,
  };
  try {
    await client.workflow.start('runScan', {
      workflowId: scanRunWorkflowId(scanUuid, runId),
      taskQueue: settings.taskQueue,
      args: [input],
      ...(delayMs > 0 ? { startDelay: delayMs } : options),
      ...startMetadata(ownedBy(label?.owner, 'scan-run', scanUuid), `Scan ${shortId(scanUuid)} run ${shortId(runId)}${label ? ` for ${label.business}` : ''}`),
    });
    return true;
  } catch (e) {
    if (!(e instanceof WorkflowExecutionAlreadyStartedError)) throw e;
    return false;
  }
}

/**
 * Wakes a run waiting for its tenant's turn (one has freed); a run that is not waiting ignores it. Answers false when
 * the run has no workflow going (not started yet: the tick starts it, and it then looks for a turn itself).
 */
export async function signalScanTurnFreed(scanUuid: string, runId: string): Promise<boolean> {
  try {
    await temporal().client.workflow.getHandle(scanRunWorkflowId(scanUuid, runId)).signal(SCAN_TURN_FREED);
    return true;
  } catch (e) {
    if (e instanceof WorkflowNotFoundError) return false;
    throw e;
  }
}

/** Where a run's workflow is: never started, still going, or closed (Temporal's status name: TERMINATED, ...). */
export async function scanRunWorkflowState(scanUuid: string, runId: string): Promise<'missing' | 'running' | string> {
  try {
    const { status } = await temporal().client.workflow.getHandle(scanRunWorkflowId(scanUuid, runId)).describe();
    return status.name === 'RUNNING' ? 'running' : status.name;
  } catch (e) {
    if (e instanceof WorkflowNotFoundError) return 'missing';
    throw e;
  }
}

/**
 * A bound on one tick, so a run no worker takes (its task queue renamed since it started) cannot keep the schedule,
 * whose overlap policy skips while a run goes, from ever starting another: no scheduled scans, no stalled-run
 * recovery. The tick is one activity of at most five 5-minute attempts.
 */
const SCAN_TICK_RUN_TIMEOUT_MS = 30 * 60_000;

/**
 * Makes sure the 15-minute tick exists on the configured task queue (every API and worker process calls this at
 * boot): `created`, `updated` (it existed with another interval or queue) or `unchanged`.
 */
export async function ensureScanScheduleTick(): Promise<'created' | 'updated' | 'unchanged'> {
  const scheduleId = scanTickScheduleId();
  const every = storedEvery(engine.tickEveryMs ?? 15 * 60_000);
  return ensureSchedule<typeof scanScheduleTick>(
    {
      scheduleId,
      spec: { intervals: [{ every }] },
      action: {
        type: 'startWorkflow',
        workflowType: 'scanScheduleTick',
        workflowId: scheduleId,
        taskQueue: temporal().settings.taskQueue,
        args: [],
        workflowRunTimeout: SCAN_TICK_RUN_TIMEOUT_MS,
        ...startMetadata({ tenant: null, kind: 'scan-tick', businessId: scheduleId }, 'Starts the scheduled scans that are due'),
      },
      policies: { overlap: 'SKIP', catchupWindow: '1 minute' },
    },
    isEvery(every),
  );
}
