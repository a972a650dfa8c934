import { WorkflowExecutionAlreadyStartedError } from '@temporalio/client';
import { requestedStart, temporal } from '../client';
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
