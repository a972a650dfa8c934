import { proxyActivities } from '@temporalio/workflow';
import type { SentimentActivities } from '../activities/sentiment';

export interface LabelSentimentInput {
  /** Reviews per chat call (default 20). */
  batchSize?: number;
  /** Chat calls per run (default 10: at most 200 reviews a run). */
  maxBatches?: number;
}

export interface LabelSentimentResult {
  batches: number;
  asked: number;
  labelled: number;
  refused: number;
  /** Why the run stopped early (a failed chat call); null otherwise. */
  failed: string | null;
}

const { labelReviewsWithAi } = proxyActivities<SentimentActivities>({
  // One chat call (bounded by AI_API_TIMEOUT_MS) and two statements.
  startToCloseTimeout: '5m',
  // A failed chat call is an answer, not an error; what retries here is the database.
  retry: { initialInterval: '10s', backoffCoefficient: 2, maximumInterval: '1m', maximumAttempts: 5 },
  summary: 'label a batch of reviews with the chat model',
});

/**
 * AI sentiment labels (Temporal Schedule `sentiment-ai-labels`, every few minutes while AI_API_URL is set, overlapping
 * runs skipped): asks the model about the reviews still `local` and not yet asked, in id order, a batch per activity
 * call, at most `maxBatches` calls a run so a backlog costs a bounded number of calls per interval. A failed call
 * ends the run; its reviews stay unasked and the next run asks again. Idempotent: what a run wrote is no longer
 * unasked, and a re-run after a crash picks up the rest.
 */
export async function labelSentimentWithAi(input: LabelSentimentInput = {}): Promise<LabelSentimentResult> {
  const batchSize = Math.max(1, input.batchSize ?? 20);
  const maxBatches = Math.max(1, input.maxBatches ?? 10);
  const total: LabelSentimentResult = { batches: 0, asked: 0, labelled: 0, refused: 0, failed: null };
  let after = 0;
  while (total.batches < maxBatches) {
    const result = await labelReviewsWithAi({ after, batchSize });
    if (result.asked === 0) break;
    total.batches += 1;
    total.asked += result.asked;
    total.labelled += result.labelled;
    total.refused += result.refused;
    if (result.failed) {
      total.failed = result.failed;
      break;
    }
    after = result.after;
    if (!result.more) break;
  }
  return total;
}
