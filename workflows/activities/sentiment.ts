import { Context, heartbeat } from '@temporalio/activity';
import type { RescoreOptions, RescoreResult } from '../../src/jobs/sentiment-rescore';
import type { LabelOptions, LabelResult } from '../../src/jobs/sentiment-labels';

/**
 * Activities of the sentiment re-scoring (`rescoreSentiment`) and the AI labelling (`labelSentimentWithAi`), wired to
 * src/jobs/sentiment-rescore and src/jobs/sentiment-labels.ts.
 */
export interface SentimentActivityDeps {
  rescore(opts: RescoreOptions): Promise<RescoreResult>;
  label(opts: LabelOptions): Promise<LabelResult>;
}

export interface RescoreReviewsInput {
  after: number;
  batchSize: number;
  maxBatches: number;
}

export interface LabelReviewsInput {
  after: number;
  batchSize: number;
}

export function createSentimentActivities(deps: SentimentActivityDeps) {
  return {
    /** Re-scores up to `maxBatches` batches of stale reviews after `after`, heartbeating after each batch. */
    async rescoreReviews(input: RescoreReviewsInput): Promise<RescoreResult> {
      return deps.rescore({ ...input, onBatch: (rescored) => heartbeat(rescored) });
    },
    /**
     * Asks the chat model for the labels of one batch of unasked reviews after `after` (one chat call) and stores
     * them; a failed call is answered as `failed`, not thrown: the run stops and a later one asks again.
     */
    async labelReviewsWithAi(input: LabelReviewsInput): Promise<LabelResult> {
      const result = await deps.label({ ...input, signal: Context.current().cancellationSignal });
      if (result.failed) Context.current().log.warn('AI sentiment labels: the chat call failed; the reviews keep their local labels', { failed: result.failed });
      return result;
    },
  };
}

export type SentimentActivities = ReturnType<typeof createSentimentActivities>;
