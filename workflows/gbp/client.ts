import { ScheduleAlreadyRunning, WorkflowExecutionAlreadyStartedError } from '@temporalio/client';
import { deleteSchedule, temporal } from '../client';
import { ownedBy, startMetadata, type Owner } from '../../src/temporal/search-attributes';
import { gbpSyncWorkflowId, type GbpSweepInput, type GbpSyncResult, type GbpSyncRetry } from './sync.workflow';

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
 * Makes sure the sweep's schedule exists (every API and worker process calls this at boot). A new schedule runs at
 * once, so a fresh installation has data without waiting a whole interval. Returns true when it was created.
 */
export async function ensureGbpSyncSchedule(): Promise<boolean> {
  const { client, settings: t } = temporal();
  try {
    await client.schedule.create({
      scheduleId: gbpSyncScheduleId(),
      spec: { intervals: [{ every: settings.intervalMs }] },
      action: {
        type: 'startWorkflow',
        workflowType: 'syncGbpPerformanceSweep',
        workflowId: gbpSyncScheduleId(),
        taskQueue: t.taskQueue,
        args: [sweepInput()],
        ...startMetadata({ tenant: null, kind: 'gbp-sync', businessId: gbpSyncScheduleId() }, 'Business-profile performance sync of every connected Google location'),
      },
      policies: { overlap: 'SKIP', catchupWindow: '1 minute' },
      state: { triggerImmediately: true },
    });
    return true;
  } catch (e) {
    if (!(e instanceof ScheduleAlreadyRunning)) throw e;
    return false;
  }
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
