import { ScheduleAlreadyRunning, ScheduleNotFoundError, type ScheduleOptionsStartWorkflowAction } from '@temporalio/client';
import { startMetadata } from '../../src/temporal/search-attributes';
import { temporal } from '../client';
import type { labelSentimentWithAi, LabelSentimentInput } from './ai-label.workflow';

/**
 * The Temporal Schedule `sentiment-ai-labels` that starts `labelSentimentWithAi` every few minutes (overlapping runs
 * skipped) while a chat model is configured (AI_API_URL). Every API and worker process brings it in line at boot:
 * created or updated with AI set, removed without (docs/decisions.md, "AI labels").
 */
export interface AiLabelScheduleSettings {
  everyMs: number;
  /** Appended to the schedule id: tests sharing one dev server scope it by task queue. */
  idScope?: string;
  input?: LabelSentimentInput;
}

let settings: AiLabelScheduleSettings = { everyMs: 5 * 60_000 };

export function configureAiLabels(next: Partial<AiLabelScheduleSettings>): void {
  settings = { ...settings, ...next };
}

export const AI_LABEL_SCHEDULE = 'sentiment-ai-labels';
export const aiLabelScheduleId = (): string => (settings.idScope ? `${AI_LABEL_SCHEDULE}:${settings.idScope}` : AI_LABEL_SCHEDULE);

/** Temporal keeps intervals in whole seconds: compare what it will store. */
const storedEvery = (ms: number): number => Math.max(1, Math.round(ms / 1000)) * 1000;

function action(taskQueue: string): ScheduleOptionsStartWorkflowAction<typeof labelSentimentWithAi> {
  return {
    type: 'startWorkflow',
    workflowType: 'labelSentimentWithAi',
    workflowId: aiLabelScheduleId(),
    taskQueue,
    args: [settings.input ?? {}],
    ...startMetadata({ kind: 'sentiment-ai-labels', businessId: aiLabelScheduleId() }, 'AI sentiment labels: ask the chat model about reviews still labelled locally'),
  };
}

/**
 * With `aiConfigured`, makes sure the schedule exists with the configured interval and task queue (`created`,
 * `updated`, `unchanged`); without, removes it if an earlier configuration left one (`removed`, `absent`).
 */
export async function ensureAiLabelSchedule(aiConfigured: boolean): Promise<'created' | 'updated' | 'unchanged' | 'removed' | 'absent'> {
  if (!aiConfigured) return (await removeAiLabelSchedule()) ? 'removed' : 'absent';
  const { client, settings: t } = temporal();
  const scheduleId = aiLabelScheduleId();
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
  const sameQueue = current.action.type === 'startWorkflow' && current.action.taskQueue === t.taskQueue;
  if (sameSpec && sameQueue) return 'unchanged';
  await handle.update((previous) => ({ ...previous, spec: { intervals: [{ every }] }, action: action(t.taskQueue) }));
  return 'updated';
}

/** Removes the schedule; false when there was none. */
export async function removeAiLabelSchedule(): Promise<boolean> {
  const { client } = temporal();
  try {
    await client.schedule.getHandle(aiLabelScheduleId()).delete();
    return true;
  } catch (e) {
    if (!(e instanceof ScheduleNotFoundError)) throw e;
    return false;
  }
}
