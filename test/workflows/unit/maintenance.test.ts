import { Context } from '@temporalio/activity';
import type { RetentionActivities } from '../../../workflows/activities/retention';
import type { SentimentActivities } from '../../../workflows/activities/sentiment';
import { RETENTION_KINDS, type RetentionKind } from '../../../workflows/retention/kinds';
import type { purgeExpiredData } from '../../../workflows/retention/purge.workflow';
import type { rescoreSentiment } from '../../../workflows/reviews/rescore.workflow';
import { retryFailure, useWorkflowTestEnv, workflowId } from './support';

/**
 * The two maintenance walks with mocked activities: the retention purge (kind by kind, a kind's backlog in several
 * bounded calls, one cutoff time for the whole run, a failed call retried) and the sentiment re-score (id order,
 * resumed where the last call stopped). Their e2e tests (test/retention, test/workflows/sentiment-rescore) have the
 * real database.
 */
jest.setTimeout(60_000);

describe('maintenance workflows (mocked activities)', () => {
  const temporal = useWorkflowTestEnv();

  it('purges kind by kind, calls a kind again while it has more, with one `now` for the run, and retries a failed call', async () => {
    const calls: Array<{ kind: RetentionKind; now: string; maxBatches: number }> = [];
    const left: Record<RetentionKind, number> = { outbox: 3, webhookDeliveries: 1, mcpAudit: 0, inboundSubmissions: 2 };
    let failedOnce = false;
    const activities: Pick<RetentionActivities, 'purgeExpiredRows'> = {
      async purgeExpiredRows({ kind, now, maxBatches }) {
        if (kind === 'webhookDeliveries' && !failedOnce) {
          failedOnce = true;
          throw retryFailure('database restarting');
        }
        calls.push({ kind, now, maxBatches });
        const batches = Math.min(maxBatches, left[kind]);
        left[kind] -= batches;
        return { kind, cutoff: kind === 'mcpAudit' ? null : '2026-10-01T00:00:00.000Z', deleted: batches * 1_000, batches, more: left[kind] > 0 };
      },
    };
    const result = await temporal.withWorker(activities, (taskQueue) =>
      temporal.client().workflow.execute<typeof purgeExpiredData>('purgeExpiredData', { taskQueue, workflowId: workflowId('purge'), args: [{ maxBatchesPerActivity: 2 }] }),
    );
    expect(calls.map((c) => c.kind)).toEqual(['outbox', 'outbox', 'webhookDeliveries', 'mcpAudit', 'inboundSubmissions']);
    expect(new Set(calls.map((c) => c.now)).size).toBe(1);
    expect(calls.every((c) => c.maxBatches === 2)).toBe(true);
    expect(Object.keys(result)).toEqual([...RETENTION_KINDS]);
    expect(result.outbox).toEqual({ cutoff: '2026-10-01T00:00:00.000Z', deleted: 3_000, batches: 3 });
    expect(result.mcpAudit).toEqual({ cutoff: null, deleted: 0, batches: 0 });
    expect(result.inboundSubmissions.deleted).toBe(2_000);
  });

  it('re-scores in id order, each call resuming after the last id the workflow was told, until none is stale', async () => {
    const afters: number[] = [];
    const activities: Pick<SentimentActivities, 'rescoreReviews'> = {
      async rescoreReviews({ after, batchSize, maxBatches }) {
        expect([batchSize, maxBatches]).toEqual([10, 2]);
        // The first call's worker dies once: the retry starts from the same id.
        if (after === 0 && Context.current().info.attempt === 1) throw retryFailure('worker lost');
        afters.push(after);
        const next = after + batchSize * maxBatches;
        return { after: next, rescored: 15, batches: maxBatches, more: next < 60 };
      },
    };
    const result = await temporal.withWorker(activities, (taskQueue) =>
      temporal.client().workflow.execute<typeof rescoreSentiment>('rescoreSentiment', { taskQueue, workflowId: workflowId('rescore'), args: [{ version: 3, batchSize: 10, maxBatchesPerActivity: 2 }] }),
    );
    expect(afters).toEqual([0, 20, 40]);
    expect(result).toEqual({ rescored: 45 });
  });
});
