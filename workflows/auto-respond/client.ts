import { WorkflowExecutionAlreadyStartedError } from '@temporalio/client';
import { ensureSchedule, isEvery, requestedStart, storedEvery, temporal } from '../client';
import type { AutoRespondInput, AutoRespondRetry } from './respond.workflow';
import { ownedBy, startMetadata, type Owner } from '../../src/temporal/search-attributes';

/**
 * Starting the durable auto-respond handling of a new review: workflow `autoRespond`, id
 * `auto-respond:<review id>` (the business key). The stored `auto_respond_runs` row is the truth; the workflow
 * only drives it, so starting it twice is harmless.
 */
export interface AutoRespondEngineSettings {
  /**
   * Appended to workflow ids (`auto-respond:<review id>:<scope>`): tests sharing one dev server scope them by task
   * queue, since every test database numbers its reviews from 1. Unset in production.
   */
  idScope?: string;
  /** Retries of the publish step while the platform is unavailable; absent = the workflow's default. */
  retry?: AutoRespondRetry;
  /** How often the sweep looks for runs whose workflow never started (default five minutes). */
  sweepEveryMs?: number;
}

let engine: AutoRespondEngineSettings = {};

export function configureAutoRespond(settings: Partial<AutoRespondEngineSettings>): void {
  engine = { ...engine, ...settings };
}

export const autoRespondWorkflowId = (reviewId: number): string => `auto-respond:${reviewId}${engine.idScope ? `:${engine.idScope}` : ''}`;

/** Starts the review's workflow; one already running for it is fine (the run row decides what happens). `owner` tags it for operators. */
export async function startAutoRespondWorkflow(reviewId: number, owner: Owner | null = null): Promise<void> {
  const { settings } = temporal();
  const { client, options } = requestedStart();
  const input: AutoRespondInput = { reviewId, retry: engine.retry };
  try {
    await client.workflow.start('autoRespond', {
      workflowId: autoRespondWorkflowId(reviewId),
      taskQueue: settings.taskQueue,
      args: [input],
      ...options,
      ...startMetadata(ownedBy(owner, 'auto-respond', reviewId), `Auto-respond to review ${reviewId}`),
    });
  } catch (e) {
    if (!(e instanceof WorkflowExecutionAlreadyStartedError)) throw e;
  }
}

export const AUTO_RESPOND_SWEEP_SCHEDULE = 'auto-respond-sweep';
export const autoRespondSweepScheduleId = (): string =>
  engine.idScope ? `${AUTO_RESPOND_SWEEP_SCHEDULE}:${engine.idScope}` : AUTO_RESPOND_SWEEP_SCHEDULE;

/**
 * The sweep's Temporal Schedule (every five minutes, overlapping runs skipped) starts `autoRespondSweep`: a run is
 * stored `pending` in the review's transaction and its workflow started after the commit, so a start that failed
 * (Temporal unreachable for a moment) or a process killed in between left the run waiting for the next worker start.
 * Every API and worker process makes sure it exists at boot.
 */
export async function ensureAutoRespondSweep(): Promise<'created' | 'updated' | 'unchanged'> {
  const every = storedEvery(engine.sweepEveryMs ?? 5 * 60_000);
  return ensureSchedule(
    {
      scheduleId: autoRespondSweepScheduleId(),
      spec: { intervals: [{ every }] },
      action: {
        type: 'startWorkflow',
        workflowType: 'autoRespondSweep',
        workflowId: autoRespondSweepScheduleId(),
        taskQueue: temporal().settings.taskQueue,
        args: [],
        ...startMetadata({ kind: 'auto-respond-sweep', businessId: autoRespondSweepScheduleId() }, 'Starts the auto-respond runs whose workflow never started'),
      },
      policies: { overlap: 'SKIP', catchupWindow: '1 minute' },
    },
    isEvery(every),
  );
}
