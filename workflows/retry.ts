import type { RetryPolicy } from '@temporalio/workflow';

/** How a workflow's own activities (a few queries each) are retried. */
export const QUERY_RETRY: RetryPolicy = { initialInterval: '1s', maximumInterval: '30s', maximumAttempts: 10 };

/** A workflow input's retry of its calls to a third party: attempts, and the interval that doubles up to a cap. */
export interface BackoffRetry {
  maximumAttempts: number;
  initialIntervalMs: number;
  maximumIntervalMs: number;
}

/** The activity retry policy of a `BackoffRetry`; the named failures end the activity at once. */
export const backoffPolicy = (retry: BackoffRetry, nonRetryableErrorTypes: string[]): RetryPolicy => ({
  maximumAttempts: retry.maximumAttempts,
  initialInterval: retry.initialIntervalMs,
  backoffCoefficient: 2,
  maximumInterval: retry.maximumIntervalMs,
  nonRetryableErrorTypes,
});
