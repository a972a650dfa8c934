import { ApplicationFailure, WorkflowFailedError } from '@temporalio/client';
import type { PinQuery, ScanActivities, ScanRunPlan } from '../../../workflows/activities/scans';
import type { runScan, scanScheduleTick } from '../../../workflows/scans/run.workflow';
import { retryFailure, useWorkflowTestEnv, workflowId } from './support';

/**
 * `runScan` and the schedule's tick with mocked activities: every pin x keyword not done yet, `concurrency` at a time,
 * a query retried while the provider is unavailable, a refusal failing the run (scan-failed) and stopping the lanes,
 * a superseded run. The e2e tests (test/workflows/scan-run*.test.ts) have the provider's wire format and the database.
 */
jest.setTimeout(60_000);

type Mocked = Pick<ScanActivities, 'loadScanRun' | 'queryScanPin' | 'completeScanRun' | 'failScanRun' | 'startDueScans'>;

describe('runScan (mocked activities)', () => {
  const temporal = useWorkflowTestEnv();
  const retry = { maximumAttempts: 3, initialIntervalMs: 20, maximumIntervalMs: 100 };
  const plan = (done: string[] = []): ScanRunPlan => ({
    tenantId: 1,
    targetPlaceId: 'place-1',
    snapshots: [
      { id: 10, keyword: 'dentist' },
      { id: 11, keyword: 'dentist near me' },
    ],
    pins: [1, 2, 3].map((id) => ({ id, lat: 52 + id / 100, lng: 13 })),
    done,
  });

  function provider(p: ScanRunPlan | null, query: (q: PinQuery, n: number) => Promise<void> | void = () => undefined) {
    const asked: string[] = [];
    const ended: string[] = [];
    let inFlight = 0;
    let most = 0;
    const activities: Mocked = {
      async loadScanRun() {
        return p;
      },
      async queryScanPin(q) {
        inFlight++;
        most = Math.max(most, inFlight);
        try {
          asked.push(`${q.snapshotId}:${q.pinId}`);
          await new Promise((r) => setTimeout(r, 20));
          await query(q, asked.length);
        } finally {
          inFlight--;
        }
      },
      async completeScanRun(runId) {
        ended.push(`completed ${runId}`);
      },
      async failScanRun(runId, message) {
        ended.push(`failed ${runId}: ${message}`);
      },
      async startDueScans() {
        return 3;
      },
    };
    return { asked, ended, most: () => most, activities };
  }

  const run = (activities: Mocked, concurrency = 2) =>
    temporal.withWorker(activities, (taskQueue) =>
      temporal.client().workflow.execute<typeof runScan>('runScan', { taskQueue, workflowId: workflowId('scan'), args: [{ scanUuid: 'scan-1', runId: 'run-1', concurrency, retry }] }),
    );

  it('asks every pin x keyword not done yet, at most `concurrency` at once, retrying one while the provider is away', async () => {
    let failed = false;
    const p = provider(plan(['10:1']), (q) => {
      if (q.snapshotId === 11 && q.pinId === 2 && !failed) {
        failed = true;
        throw retryFailure('HTTP 503 from the provider');
      }
    });
    expect(await run(p.activities)).toEqual({ status: 'completed', queries: 5, error: null });
    expect([...new Set(p.asked)].sort()).toEqual(['10:2', '10:3', '11:1', '11:2', '11:3']);
    expect(p.asked.filter((k) => k === '11:2')).toHaveLength(2);
    expect(p.most()).toBeLessThanOrEqual(2);
    expect(p.ended).toEqual(['completed run-1']);
  });

  it('stops at a refusal: marks the run failed with the reason, and the workflow fails', async () => {
    const p = provider(plan(), (q) => {
      if (q.pinId === 1) throw ApplicationFailure.nonRetryable('The provider refused: quota exceeded', 'GridProviderRejected');
    });
    await expect(run(p.activities, 1)).rejects.toBeInstanceOf(WorkflowFailedError);
    // One lane: the first query was refused, none after it was asked.
    expect(p.asked).toEqual(['10:1']);
    expect(p.ended).toEqual(['failed run-1: The provider refused: quota exceeded']);
  });

  it('does nothing for a run that is no longer the scan\'s (superseded)', async () => {
    const p = provider(null);
    expect(await run(p.activities)).toEqual({ status: 'superseded', queries: 0, error: null });
    expect(p.asked).toEqual([]);
  });

  it('ticks: starts the due scheduled runs and answers how many', async () => {
    const p = provider(null);
    const started = await temporal.withWorker(p.activities, (taskQueue) =>
      temporal.client().workflow.execute<typeof scanScheduleTick>('scanScheduleTick', { taskQueue, workflowId: workflowId('tick'), args: [] }),
    );
    expect(started).toBe(3);
  });
});
