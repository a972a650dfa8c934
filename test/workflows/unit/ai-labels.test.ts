import { Context } from '@temporalio/activity';
import type { LabelReviewsInput, SentimentActivities } from '../../../workflows/activities/sentiment';
import type { labelSentimentWithAi } from '../../../workflows/reviews/ai-label.workflow';
import type { LabelResult } from '../../../src/jobs/sentiment-labels';
import { retryFailure, useWorkflowTestEnv, workflowId } from './support';

/**
 * `labelSentimentWithAi` with a mocked activity: batch after batch from where the last ended, the bound on calls per
 * run, a failed chat call ending the run, a database error retried. The e2e test
 * (test/workflows/sentiment-ai-labels.e2e.test.ts) has the real database and a chat server.
 */
jest.setTimeout(60_000);

const batch = (after: number, asked: number, more: boolean, extra: Partial<LabelResult> = {}): LabelResult => ({
  after,
  asked,
  labelled: asked,
  refused: 0,
  failed: null,
  more,
  ...extra,
});

describe('labelSentimentWithAi (mocked activity)', () => {
  const temporal = useWorkflowTestEnv();
  const run = (taskQueue: string, input: Parameters<typeof labelSentimentWithAi>[0]) =>
    temporal.client().workflow.execute<typeof labelSentimentWithAi>('labelSentimentWithAi', { taskQueue, workflowId: workflowId('ai-labels'), args: [input] });

  /** The activity answering `answers` in turn (the last one again once they run out), recording what it was asked. */
  function scripted(answers: (LabelResult | ((input: LabelReviewsInput) => LabelResult))[]) {
    const calls: LabelReviewsInput[] = [];
    const activities: Pick<SentimentActivities, 'labelReviewsWithAi'> = {
      async labelReviewsWithAi(input) {
        calls.push(input);
        const answer = answers[Math.min(calls.length, answers.length) - 1];
        return typeof answer === 'function' ? answer(input) : answer;
      },
    };
    return { calls, activities };
  }

  it('asks batch after batch, each after the last id of the one before, until no review is left, and adds up the counts', async () => {
    const chat = scripted([batch(40, 20, true, { labelled: 18, refused: 2 }), batch(75, 15, false)]);
    const result = await temporal.withWorker(chat.activities, (q) => run(q, { batchSize: 20 }));
    expect(result).toEqual({ batches: 2, asked: 35, labelled: 33, refused: 2, failed: null });
    expect(chat.calls).toEqual([{ after: 0, batchSize: 20 }, { after: 40, batchSize: 20 }]);
  });

  it('makes at most `maxBatches` calls a run, however many reviews are left', async () => {
    const chat = scripted([(input) => batch(input.after + 5, 5, true)]);
    const result = await temporal.withWorker(chat.activities, (q) => run(q, { batchSize: 5, maxBatches: 3 }));
    expect(result).toEqual({ batches: 3, asked: 15, labelled: 15, refused: 0, failed: null });
    expect(chat.calls.map((c) => c.after)).toEqual([0, 5, 10]);
  });

  it('stops at a failed chat call: its batch counts as asked, nothing as labelled, and no further call is made', async () => {
    const chat = scripted([batch(20, 20, true), batch(40, 20, true, { labelled: 0, failed: 'http: 503 model overloaded' }), batch(60, 20, true)]);
    const result = await temporal.withWorker(chat.activities, (q) => run(q, { batchSize: 20 }));
    expect(result).toEqual({ batches: 2, asked: 40, labelled: 20, refused: 0, failed: 'http: 503 model overloaded' });
    expect(chat.calls).toHaveLength(2);
  });

  it('ends at once when no review is waiting', async () => {
    const chat = scripted([batch(0, 0, false)]);
    const result = await temporal.withWorker(chat.activities, (q) => run(q, {}));
    expect(result).toEqual({ batches: 0, asked: 0, labelled: 0, refused: 0, failed: null });
    expect(chat.calls).toEqual([{ after: 0, batchSize: 20 }]);
  });

  it('retries a batch whose activity threw (the database, not the model) and carries on from its answer', async () => {
    const attempts: number[] = [];
    const chat = scripted([
      (input) => {
        attempts.push(Context.current().info.attempt);
        if (attempts.length < 3) throw retryFailure('database connection lost');
        return batch(input.after + 10, 10, false);
      },
    ]);
    const result = await temporal.withWorker(chat.activities, (q) => run(q, { batchSize: 10 }));
    expect(result).toEqual({ batches: 1, asked: 10, labelled: 10, refused: 0, failed: null });
    expect(attempts).toEqual([1, 2, 3]);
  });
});
