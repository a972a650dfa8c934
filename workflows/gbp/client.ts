import { WorkflowExecutionAlreadyStartedError } from '@temporalio/client';
import { deleteSchedule, ensureSchedule, isEvery, storedEvery, temporal } from '../client';
import { ownedBy, startMetadata, type Owner } from '../../src/temporal/search-attributes';
import { gbpSyncWorkflowId, type GbpSweepInput, type GbpSyncResult, type GbpSyncRetry, type syncGbpPerformanceSweep } from './sync.workflow';

/**
 * Business-profile performance sync: one Temporal Schedule `gbp-performance-sync` (every GBP_SYNC_INTERVAL_MINUTES,
 * overlapping runs skipped) starts the sweep `syncGbpPerformanceSweep`, which runs `syncGbpPerformance` (workflow id
 * `gbp-sync:<integration id>`) for every connected Google integration. `startGbpSync` runs one now.
 */
export interface GbpSyncSettings {
  intervalMs: number;
  /** Appended to the schedule and workflow ids: tests sharing one dev server scope them by task queue. */
  idScope?: string;
  concurrency?: number;
  retry?: GbpSyncRetry;
}

let settings: GbpSyncSettings = { intervalMs: 360 * 60_000 };

export function configureGbpSync(next: Partial<GbpSyncSettings>): void {
  settings = { ...settings, ...next };
}

export const GBP_SYNC_SCHEDULE = 'gbp-performance-sync';
export const gbpSyncScheduleId = (): string => (settings.idScope ? `${GBP_SYNC_SCHEDULE}:${settings.idScope}` : GBP_SYNC_SCHEDULE);

const sweepInput = (): GbpSweepInput => ({ idScope: settings.idScope, concurrency: settings.concurrency, retry: settings.retry });

/**
 * A bound on one run of the sweep (a batch of 200 integrations: each batch continues as new with a bound of its own),
 * so a run no worker takes (its task queue renamed since it started) cannot keep the schedule, whose overlap policy
 * skips while a run goes, from starting another. Generous: a first sync of a location fetches 18 keyword months, and
 * the children of a sweep that times out are ended with it.
 */
const GBP_SWEEP_RUN_TIMEOUT_MS = 24 * 60 * 60_000;

/**
 * Makes sure the sweep's schedule exists with the configured interval and task queue (every API and worker process
 * calls this at boot; one that exists with another interval or queue is brought in line). A new schedule runs at
 * once, so a fresh installation has data without waiting a whole interval. Returns true when it was created.
 */
export async function ensureGbpSyncSchedule(): Promise<boolean> {
  const every = storedEvery(settings.intervalMs);
  const outcome = await ensureSchedule<typeof syncGbpPerformanceSweep>(
    {
      scheduleId: gbpSyncScheduleId(),
      spec: { intervals: [{ every }] },
      action: {
        type: 'startWorkflow',
        workflowType: 'syncGbpPerformanceSweep',
        workflowId: gbpSyncScheduleId(),
        taskQueue: temporal().settings.taskQueue,
        args: [sweepInput()],
        workflowRunTimeout: GBP_SWEEP_RUN_TIMEOUT_MS,
        ...startMetadata({ tenant: null, kind: 'gbp-sync', businessId: gbpSyncScheduleId() }, 'Business-profile performance sync of every connected Google location'),
      },
      policies: { overlap: 'SKIP', catchupWindow: '1 minute' },
      state: { triggerImmediately: true },
    },
    isEvery(every),
  );
  return outcome === 'created';
}

export async function removeGbpSyncSchedule(): Promise<void> {
  await deleteSchedule(gbpSyncScheduleId());
}

/** Syncs one integration now (say, right after it was connected); a run already going is left alone (null). */
export async function startGbpSync(integrationId: number, owner: Owner | null = null): Promise<{ workflowId: string; result: () => Promise<GbpSyncResult> } | null> {
  const { client, settings: t } = temporal();
  const workflowId = gbpSyncWorkflowId(integrationId, settings.idScope);
  try {
    const handle = await client.workflow.start('syncGbpPerformance', {
      workflowId,
      taskQueue: t.taskQueue,
      args: [{ integrationId, retry: settings.retry }],
      ...startMetadata(ownedBy(owner, 'gbp-sync', integrationId), `Business-profile sync of integration ${integrationId}`),
    });
    return { workflowId, result: () => handle.result() as Promise<GbpSyncResult> };
  } catch (e) {
    if (e instanceof WorkflowExecutionAlreadyStartedError) return null;
    throw e;
  }
}
