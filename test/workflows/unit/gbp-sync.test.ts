import { ApplicationFailure, WorkflowFailedError } from '@temporalio/client';
import type { GbpActivities } from '../../../workflows/activities/gbp';
import type { syncGbpPerformance, syncGbpPerformanceSweep } from '../../../workflows/gbp/sync.workflow';
import { retryFailure, useWorkflowTestEnv, workflowId } from './support';

/**
 * The business-profile sync with mocked activities: one integration's plan, daily metrics and keyword months (a call
 * retried while Google is unavailable, a refusal failing the run), and the sweep's children, a few at a time, a
 * failing integration counted, a full batch continued as new. The e2e tests (test/gbp) have Google's wire format.
 */
jest.setTimeout(60_000);

type Mocked = Pick<GbpActivities, 'planGbpSync' | 'syncGbpDailyMetrics' | 'syncGbpKeywordMonth' | 'listGbpSyncIntegrations'>;

describe('syncGbpPerformance and its sweep (mocked activities)', () => {
  const temporal = useWorkflowTestEnv();
  const retry = { maximumAttempts: 3, initialIntervalMs: 20, maximumIntervalMs: 100 };
  const months = [
    { year: 2026, month: 9 },
    { year: 2026, month: 10 },
  ];

  function google(opts: { refuse?: number[]; unavailableOnce?: boolean; integrations?: number[] } = {}) {
    const calls: string[] = [];
    let failedOnce = false;
    const activities: Mocked = {
      async planGbpSync() {
        return { skip: null, metrics: { from: '2026-10-01', to: '2026-11-20' }, months };
      },
      async syncGbpDailyMetrics({ integrationId, from, to }) {
        calls.push(`daily ${integrationId} ${from}..${to}`);
        if (opts.refuse?.includes(integrationId)) throw ApplicationFailure.nonRetryable('Google refused: access revoked', 'ProviderRejected');
        return { values: 51 };
      },
      async syncGbpKeywordMonth({ integrationId, year, month }) {
        if (opts.unavailableOnce && !failedOnce) {
          failedOnce = true;
          throw retryFailure('HTTP 503 from Google');
        }
        calls.push(`keywords ${integrationId} ${year}-${month}`);
        return { keywords: 10, removed: 0 };
      },
      async listGbpSyncIntegrations(afterId, limit) {
        return (opts.integrations ?? []).filter((id) => id > afterId).slice(0, limit);
      },
    };
    return { calls, activities };
  }

  it('syncs the daily metrics, then each keyword month, retrying a call while Google is unavailable', async () => {
    const g = google({ unavailableOnce: true });
    const id = workflowId('gbp');
    const result = await temporal.withWorker(g.activities, (taskQueue) =>
      temporal.client().workflow.execute<typeof syncGbpPerformance>('syncGbpPerformance', { taskQueue, workflowId: id, args: [{ integrationId: 9, retry }] }),
    );
    expect(result).toEqual({ status: 'synced', reason: null, values: 51, months: 2, keywords: 20 });
    expect(g.calls).toEqual(['daily 9 2026-10-01..2026-11-20', 'keywords 9 2026-9', 'keywords 9 2026-10']);
    // A keyword month (up to 100 pages of 30 s) has an hour, and a lost worker shows within its heartbeat timeout.
    const history = await temporal.client().workflow.getHandle(id).fetchHistory();
    const scheduled = history.events!.map((e) => e.activityTaskScheduledEventAttributes).filter((a) => a?.activityType?.name === 'syncGbpKeywordMonth');
    expect(scheduled.map((a) => [Number(a!.startToCloseTimeout!.seconds), Number(a!.heartbeatTimeout!.seconds)])).toEqual([
      [3600, 120],
      [3600, 120],
    ]);
  });

  it('fails the run at once when Google refuses', async () => {
    const g = google({ refuse: [9] });
    await expect(
      temporal.withWorker(g.activities, (taskQueue) =>
        temporal.client().workflow.execute<typeof syncGbpPerformance>('syncGbpPerformance', { taskQueue, workflowId: workflowId('gbp'), args: [{ integrationId: 9, retry }] }),
      ),
    ).rejects.toBeInstanceOf(WorkflowFailedError);
    expect(g.calls).toEqual(['daily 9 2026-10-01..2026-11-20']);
  });

  it('sweeps every integration in batches (continuing as new), counting a failing one without stopping', async () => {
    const g = google({ integrations: [1, 2, 3, 4, 5], refuse: [3] });
    const result = await temporal.withWorker(g.activities, (taskQueue) =>
      temporal.client().workflow.execute<typeof syncGbpPerformanceSweep>('syncGbpPerformanceSweep', {
        taskQueue,
        workflowId: workflowId('gbp-sweep'),
        args: [{ idScope: workflowId('scope'), batchSize: 2, concurrency: 2, retry }],
      }),
    );
    expect(result).toEqual({ synced: 4, failed: 1 });
    expect(g.calls.filter((c) => c.startsWith('daily')).map((c) => Number(c.split(' ')[1])).sort()).toEqual([1, 2, 3, 4, 5]);
  });
});
