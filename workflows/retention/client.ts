import type { ScheduleOptionsStartWorkflowAction } from '@temporalio/client';
import { startMetadata } from '../../src/temporal/search-attributes';
import { deleteSchedule, ensureSchedule, isEvery, storedEvery, temporal } from '../client';
import type { purgeExpiredData, RetentionInput } from './purge.workflow';

/**
 * Data retention's Temporal Schedule `retention-purge` (every RETENTION_INTERVAL_MINUTES, daily by default,
 * overlapping runs skipped) starts `purgeExpiredData`. Which rows go is read by the worker's activity from its own
 * settings at each run, so changing an age needs no schedule change; the interval lives in the schedule and is
 * brought in line with the configuration at every boot.
 */
export interface RetentionScheduleSettings {
  everyMs: number;
  /** Appended to the schedule id: tests sharing one dev server scope it by task queue. */
  idScope?: string;
  input?: RetentionInput;
}

let settings: RetentionScheduleSettings = { everyMs: 24 * 60 * 60_000 };

export function configureRetention(next: Partial<RetentionScheduleSettings>): void {
  settings = { ...settings, ...next };
}

export const RETENTION_SCHEDULE = 'retention-purge';
export const retentionScheduleId = (): string => (settings.idScope ? `${RETENTION_SCHEDULE}:${settings.idScope}` : RETENTION_SCHEDULE);

function action(taskQueue: string): ScheduleOptionsStartWorkflowAction<typeof purgeExpiredData> {
  return {
    type: 'startWorkflow',
    workflowType: 'purgeExpiredData',
    workflowId: retentionScheduleId(),
    taskQueue,
    args: [settings.input ?? {}],
    // Platform-wide work: RgTenant/RgAccount `platform`, RgKind `retention`.
    ...startMetadata({ kind: 'retention', businessId: retentionScheduleId() }, 'Data retention: purge log rows past their age (outbox, webhook deliveries, MCP audit, inbound submissions)'),
  };
}

/**
 * Makes sure the schedule exists with the configured interval and task queue (every API and worker process calls
 * this at boot): `created`, `updated` (it existed with another interval or queue: the configuration changed) or
 * `unchanged`.
 */
export async function ensureRetentionSchedule(): Promise<'created' | 'updated' | 'unchanged'> {
  const every = storedEvery(settings.everyMs);
  return ensureSchedule(
    {
      scheduleId: retentionScheduleId(),
      spec: { intervals: [{ every }] },
      action: action(temporal().settings.taskQueue),
      policies: { overlap: 'SKIP', catchupWindow: '1 minute' },
    },
    isEvery(every),
  );
}

export async function removeRetentionSchedule(): Promise<void> {
  await deleteSchedule(retentionScheduleId());
}
