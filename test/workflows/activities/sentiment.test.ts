import { MockActivityEnvironment } from '@temporalio/testing';
import { DefaultLogger, type LogEntry } from '@temporalio/worker';
import { createSentimentActivities, type SentimentActivityDeps } from '../../../workflows/activities/sentiment';
import type { LabelOptions, LabelResult } from '../../../src/jobs/sentiment-labels';

/** The sentiment activities with their services injected (no database): what they pass on, heartbeat and log. */
describe('sentiment activities', () => {
  const answer: LabelResult = { after: 42, asked: 3, labelled: 2, refused: 1, failed: null, more: true };
  const deps = (over: Partial<SentimentActivityDeps>): SentimentActivityDeps => ({
    rescore: async () => {
      throw new Error('not expected');
    },
    label: async () => {
      throw new Error('not expected');
    },
    ...over,
  });
  const environment = () => {
    const logged: LogEntry[] = [];
    const env = new MockActivityEnvironment({}, { logger: new DefaultLogger('WARN', (entry) => logged.push(entry)) });
    return { env, logged };
  };

  describe('rescoreReviews', () => {
    it('re-scores from where it was told and heartbeats after each batch with how many it re-scored', async () => {
      const { rescoreReviews } = createSentimentActivities(
        deps({
          async rescore(opts) {
            expect(opts).toMatchObject({ after: 7, batchSize: 50, maxBatches: 3 });
            opts.onBatch?.(50);
            opts.onBatch?.(12);
            return { after: 120, rescored: 62, batches: 2, more: false };
          },
        }),
      );
      const { env } = environment();
      const beats: unknown[] = [];
      env.on('heartbeat', (d: unknown) => beats.push(d));
      expect(await env.run(rescoreReviews, { after: 7, batchSize: 50, maxBatches: 3 })).toEqual({ after: 120, rescored: 62, batches: 2, more: false });
      expect(beats).toEqual([50, 12]);
    });
  });

  describe('labelReviewsWithAi', () => {
    it("asks for one batch after `after` and answers the service's result, logging nothing when the model answered", async () => {
      const seen: LabelOptions[] = [];
      const { labelReviewsWithAi } = createSentimentActivities(deps({ label: async (opts) => (seen.push(opts), answer) }));
      const { env, logged } = environment();
      expect(await env.run(labelReviewsWithAi, { after: 10, batchSize: 20 })).toEqual(answer);
      expect(seen).toEqual([{ after: 10, batchSize: 20, signal: expect.any(AbortSignal) }]);
      expect(logged).toEqual([]);
    });

    it('hands the chat call the activity cancellation, so a cancelled run stops waiting for the model', async () => {
      const { labelReviewsWithAi } = createSentimentActivities(
        deps({
          label: (opts) =>
            new Promise<LabelResult>((resolve) => opts.signal!.addEventListener('abort', () => resolve({ ...answer, labelled: 0, refused: 0, failed: 'aborted' }))),
        }),
      );
      const { env } = environment();
      const running = env.run(labelReviewsWithAi, { after: 0, batchSize: 20 });
      env.cancel();
      expect(await running).toMatchObject({ failed: 'aborted' });
    });

    it('answers a failed chat call as `failed` (not thrown: nothing to retry) and logs a warning with the reason', async () => {
      const failed: LabelResult = { ...answer, labelled: 0, refused: 0, failed: 'http: 503 model overloaded' };
      const { labelReviewsWithAi } = createSentimentActivities(deps({ label: async () => failed }));
      const { env, logged } = environment();
      expect(await env.run(labelReviewsWithAi, { after: 0, batchSize: 20 })).toEqual(failed);
      expect(logged).toEqual([expect.objectContaining({ level: 'WARN', message: expect.stringMatching(/chat call failed/), meta: expect.objectContaining({ failed: 'http: 503 model overloaded' }) })]);
    });

    it('lets a service error through, so Temporal retries the activity', async () => {
      const { labelReviewsWithAi } = createSentimentActivities(deps({ label: async () => Promise.reject(new Error('ER_LOCK_DEADLOCK')) }));
      await expect(environment().env.run(labelReviewsWithAi, { after: 0, batchSize: 20 })).rejects.toThrow('ER_LOCK_DEADLOCK');
    });
  });
});
