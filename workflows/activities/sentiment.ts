import { heartbeat } from '@temporalio/activity';
import type { RescoreOptions, RescoreResult } from '../../src/services/sentiment-rescore.service';

/** Activities of the sentiment re-scoring (`rescoreSentiment`), wired to src/services/sentiment-rescore.service. */
export interface SentimentActivityDeps {
  rescore(opts: RescoreOptions): Promise<RescoreResult>;
}

export interface RescoreReviewsInput {
  after: number;
  batchSize: number;
  maxBatches: number;
}

export function createSentimentActivities(deps: SentimentActivityDeps) {
  return {
    /** Re-scores up to `maxBatches` batches of stale reviews after `after`, heartbeating after each batch. */
    async rescoreReviews(input: RescoreReviewsInput): Promise<RescoreResult> {
      return deps.rescore({ ...input, onBatch: (rescored) => heartbeat(rescored) });
    },
  };
}

export type SentimentActivities = ReturnType<typeof createSentimentActivities>;
