import { ApplicationFailure, WorkflowFailedError } from '@temporalio/client';
import type { ScanActivities, ScanRunPlan } from '../../../workflows/activities/scans';
import type { runScan } from '../../../workflows/scans/run.workflow';
import { retryFailure, useWorkflowTestEnv, workflowId } from './support';

/**
 * `runScan` while the database is away (mocked activities): its database-only activities are retried until the
 * database answers, more attempts than the 10 that used to fail the workflow (and then the run, with every provider
 * result already stored). Each failed attempt names a 10 ms retry delay, standing in for minutes of backoff.
 */
jest.setTimeout(120_000);

type Mocked = Pick<ScanActivities, 'loadScanRun' | 'queryScanPin' | 'completeScanRun' | 'failScanRun'>;

describe('runScan while the database is away (mocked activities)', () => {
  const temporal = useWorkflowTestEnv();
  const retry = { maximumAttempts: 3, initialIntervalMs: 20, maximumIntervalMs: 100 };
  const plan: ScanRunPlan = { tenantId: 1, targetPlaceId: 'place-1', snapshots: [{ id: 10, keyword: 'dentist' }], pins: [{ id: 1, lat: 52, lng: 13 }], done: [] };
  const OUTAGE = 11; // one past the 10 attempts that used to fail the workflow (each retry costs the dev server ~1 s)

  /** Mocked activities; the database-only ones named in `away` fail OUTAGE times before they answer. */
  function activities(away: Array<'loadScanRun' | 'completeScanRun' | 'failScanRun'>, query: () => void = () => undefined) {
    const attempts = { loadScanRun: 0, completeScanRun: 0, failScanRun: 0 };
    const ended: string[] = [];
    const database = (name: keyof typeof attempts) => {
      attempts[name]++;
      if (away.includes(name) && attempts[name] <= OUTAGE) throw retryFailure('connect ECONNREFUSED 127.0.0.1:3306');
    };
    const mocked: Mocked = {
      async loadScanRun() {
        database('loadScanRun');
        return plan;
      },
      async queryScanPin() {
        query();
      },
      async completeScanRun(runId) {
        database('completeScanRun');
        ended.push(`completed ${runId}`);
      },
      async failScanRun(runId, message) {
        database('failScanRun');
        ended.push(`failed ${runId}: ${message}`);
      },
    };
    return { attempts, ended, mocked };
  }

  const run = (mocked: Mocked) =>
    temporal.withWorker(mocked, (taskQueue) =>
      temporal.client().workflow.execute<typeof runScan>('runScan', { taskQueue, workflowId: workflowId('scan-db'), args: [{ scanUuid: 'scan-1', runId: 'run-1', concurrency: 1, retry }] }),
    );

  // Loading shares completing's activity options (run.workflow.ts DATABASE_ACTIVITY): completing stands for both.
  it(`completes the run when completing it fails ${OUTAGE} times before the database answers`, async () => {
    const a = activities(['completeScanRun']);
    expect(await run(a.mocked)).toEqual({ status: 'completed', queries: 1, error: null });
    expect(a.attempts).toEqual({ loadScanRun: 1, completeScanRun: OUTAGE + 1, failScanRun: 0 });
    expect(a.ended).toEqual(['completed run-1']);
  });

  it(`stores a refused run failed with the provider's reason when failing it fails ${OUTAGE} times first`, async () => {
    const a = activities(['failScanRun'], () => {
      throw ApplicationFailure.nonRetryable('The provider refused: quota exceeded', 'GridProviderRejected');
    });
    await expect(run(a.mocked)).rejects.toBeInstanceOf(WorkflowFailedError);
    expect(a.attempts.failScanRun).toBe(OUTAGE + 1);
    expect(a.ended).toEqual(['failed run-1: The provider refused: quota exceeded']);
  });
});
