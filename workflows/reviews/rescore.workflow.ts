import { continueAsNew, proxyActivities } from '@temporalio/workflow';
import type { SentimentActivities } from '../activities/sentiment';

export interface RescoreSentimentInput {
  /** The analyser version being brought in (for the operator; the activity compares with its own). */
  version: number;
  /** Reviews per SELECT and UPDATE (default 500). */
  batchSize?: number;
  /** Batches per activity call (default 40: 20,000 reviews). */
  maxBatchesPerActivity?: number;
  /** Carried over a continue-as-new. */
  after?: number;
  rescored?: number;
}

export interface RescoreSentimentResult {
  rescored: number;
}

/** Activity calls before the history is handed to a fresh run. */
const CALLS_PER_RUN = 100;

const { rescoreReviews } = proxyActivities<SentimentActivities>({
  startToCloseTimeout: '30m',
  // Each batch heartbeats; a killed worker's call is retried from the last id the workflow knows (rows written
  // since carry the new version and are skipped).
  heartbeatTimeout: '2m',
  retry: { initialInterval: '10s', backoffCoefficient: 2, maximumInterval: '10m', maximumAttempts: 20 },
  summary: 're-score reviews of an older sentiment analyser',
});

/**
 * Re-scores every review whose sentiment came from an older analyser (started by every API and worker process at
 * boot, `sentiment-rescore:v<version>`, one at a time): walks the reviews in id order, a bounded number of batches
 * per activity call, and ends when none is stale. Reviews written meanwhile are scored by the model's hook.
 */
export async function rescoreSentiment(input: RescoreSentimentInput): Promise<RescoreSentimentResult> {
  const batchSize = input.batchSize ?? 500;
  const maxBatches = input.maxBatchesPerActivity ?? 40;
  let after = input.after ?? 0;
  let rescored = input.rescored ?? 0;
  for (let call = 0; call < CALLS_PER_RUN; call += 1) {
    const result = await rescoreReviews({ after, batchSize, maxBatches });
    after = result.after;
    rescored += result.rescored;
    if (!result.more) return { rescored };
  }
  return continueAsNew<typeof rescoreSentiment>({ ...input, after, rescored });
}
