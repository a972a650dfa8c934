import type { ScheduleOptionsStartWorkflowAction } from '@temporalio/client';
import { startMetadata } from '../../src/temporal/search-attributes';
import { deleteSchedule, ensureSchedule, isEvery, storedEvery, temporal } from '../client';
import type { labelSentimentWithAi, LabelSentimentInput } from './ai-label.workflow';

/**
 * The Temporal Schedule `sentiment-ai-labels` that starts `labelSentimentWithAi` every few minutes (overlapping runs
 * skipped) while a chat model is configured (AI_API_URL). Every API and worker process brings it in line at boot:
 * created or updated with AI set, removed without (docs/decisions/analytics.md, "Sentiment in six languages", AI labels).
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
  const every = storedEvery(settings.everyMs);
  return ensureSchedule(
    {
      scheduleId: aiLabelScheduleId(),
      spec: { intervals: [{ every }] },
      action: action(temporal().settings.taskQueue),
      policies: { overlap: 'SKIP', catchupWindow: '1 minute' },
    },
    isEvery(every),
  );
}

/** Removes the schedule; false when there was none. */
export async function removeAiLabelSchedule(): Promise<boolean> {
  return deleteSchedule(aiLabelScheduleId());
}
