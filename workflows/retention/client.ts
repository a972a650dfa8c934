import { ScheduleAlreadyRunning, ScheduleNotFoundError, type ScheduleOptionsStartWorkflowAction } from '@temporalio/client';
import { startMetadata } from '../../src/temporal/search-attributes';
import { temporal } from '../client';
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

/** Temporal keeps intervals in whole seconds: compare what it will store. */
const storedEvery = (ms: number): number => Math.max(1, Math.round(ms / 1000)) * 1000;

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
  const { client, settings: t } = temporal();
  const scheduleId = retentionScheduleId();
  const every = storedEvery(settings.everyMs);
  try {
    await client.schedule.create({
      scheduleId,
      spec: { intervals: [{ every }] },
      action: action(t.taskQueue),
      policies: { overlap: 'SKIP', catchupWindow: '1 minute' },
    });
    return 'created';
  } catch (e) {
    if (!(e instanceof ScheduleAlreadyRunning)) throw e;
  }
  const handle = client.schedule.getHandle(scheduleId);
  const current = await handle.describe();
  const intervals = current.spec.intervals ?? [];
  const sameSpec = intervals.length === 1 && intervals[0].every === every && !current.spec.calendars?.length;
  // A renamed task queue (TEMPORAL_TASK_QUEUE) would leave the runs to no worker: the action follows it too.
  const sameQueue = current.action.type === 'startWorkflow' && current.action.taskQueue === t.taskQueue;
  if (sameSpec && sameQueue) return 'unchanged';
  await handle.update((previous) => ({ ...previous, spec: { intervals: [{ every }] }, action: action(t.taskQueue) }));
  return 'updated';
}

export async function removeRetentionSchedule(): Promise<void> {
  const { client } = temporal();
  try {
    await client.schedule.getHandle(retentionScheduleId()).delete();
  } catch (e) {
    if (!(e instanceof ScheduleNotFoundError)) throw e;
  }
}
