import { ActivityFailure, ApplicationFailure, proxyActivities } from '@temporalio/workflow';
import type { AutoRespondActivities, AutoRespondOutcome } from '../activities/auto-respond';
import { backoffPolicy, QUERY_RETRY } from '../retry';

/** Retries of the publish step while the review's platform is unavailable (5xx, 429, network). */
export interface AutoRespondRetry {
  maximumAttempts: number;
  initialIntervalMs: number;
  maximumIntervalMs: number;
}

export interface AutoRespondInput {
  reviewId: number;
  retry?: AutoRespondRetry;
}

const DEFAULT_RETRY: AutoRespondRetry = { maximumAttempts: 8, initialIntervalMs: 10_000, maximumIntervalMs: 600_000 };

/**
 * The auto-respond handling of one new review (`auto-respond:<review id>`), started after the review's
 * transaction committed with the rule that matched on arrival. Two steps, so a retried publish sends the same
 * text: compose (re-checks the rule, the plan and the review, then writes the reply from the template or the chat
 * API), then publish through the reply path. A platform refusal, or retries running out, marks the run failed.
 */
export async function autoRespond(input: AutoRespondInput): Promise<AutoRespondOutcome> {
  const retry = input.retry ?? DEFAULT_RETRY;
  const { prepareAutoResponse, failAutoResponse } = proxyActivities<AutoRespondActivities>({
    // A chat API call of at most 30 s, and a few queries.
    startToCloseTimeout: '2m',
    retry: QUERY_RETRY,
  });
  const { publishAutoResponse } = proxyActivities<AutoRespondActivities>({
    startToCloseTimeout: '2m',
    retry: backoffPolicy(retry, ['AutoRespondRejected']),
  });

  const plan = await prepareAutoResponse.executeWithOptions({ summary: `Compose the reply to review ${input.reviewId}` }, [input.reviewId]);
  if (plan.action === 'skip') return { status: 'skipped', reason: plan.reason };
  try {
    return await publishAutoResponse.executeWithOptions({ summary: `Publish the reply to review ${input.reviewId}` }, [
      { reviewId: input.reviewId, message: plan.message, usedAi: plan.usedAi },
    ]);
  } catch (err) {
    const cause = err instanceof ActivityFailure ? err.cause : err;
    const message = cause instanceof Error ? cause.message : 'The reply could not be published.';
    await failAutoResponse.executeWithOptions({ summary: `Mark the auto-response to review ${input.reviewId} failed` }, [input.reviewId, message]);
    throw ApplicationFailure.nonRetryable(message, 'AutoRespondFailed');
  }
}

/**
 * The sweep (Temporal Schedule `auto-respond-sweep`, every five minutes): starts the workflow of each run still
 * `pending` a while after it was stored, whose start after the review's commit never happened. Answers how many.
 */
export async function autoRespondSweep(): Promise<number> {
  const { resumePendingAutoResponses } = proxyActivities<AutoRespondActivities>({
    startToCloseTimeout: '5m',
    retry: { initialInterval: '1s', maximumInterval: '30s', maximumAttempts: 5 },
  });
  return resumePendingAutoResponses.executeWithOptions({ summary: 'Start the auto-respond runs whose workflow never started' }, []);
}
