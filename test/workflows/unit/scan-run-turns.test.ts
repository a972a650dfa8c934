import type { PinQuery, ScanActivities, ScanRunPlan, ScanRunTurn } from '../../../workflows/activities/scans';
import { SCAN_TURN_FREED, type runScan } from '../../../workflows/scans/run.workflow';
import { useWorkflowTestEnv, workflowId } from './support';
import { waitUntil } from '../../support/wait';

/**
 * `runScan` and its tenant's turns (mocked activities): a run started with `maxRunningPerTenant` claims a turn before
 * its first pin query and waits, on a durable timer (1 s, then doubling), while the tenant's other runs hold them all;
 * the signal of a run that ended wakes it at once; a run that ended while it waited asks nothing. Its queries carry the
 * run's retries, so the activity waits for the provider pace at the server (test/workflows/activities/scans.test.ts).
 */
jest.setTimeout(60_000);

type Mocked = Pick<ScanActivities, 'loadScanRun' | 'claimScanRunTurn' | 'queryScanPin' | 'completeScanRun' | 'failScanRun'>;

describe("runScan and its tenant's turns (mocked activities)", () => {
  const temporal = useWorkflowTestEnv();
  const retry = { maximumAttempts: 3, initialIntervalMs: 20, maximumIntervalMs: 100 };
  const plan: ScanRunPlan = {
    tenantId: 7,
    targetPlaceId: 'place-1',
    snapshots: [{ id: 10, keyword: 'dentist' }],
    pins: [1, 2].map((id) => ({ id, lat: 52 + id / 100, lng: 13 })),
    done: [],
  };

  /** Mocked activities: the claims answer `turns` in order (the last one from then on). */
  function activities(turns: ScanRunTurn[]) {
    const log: Array<{ what: string; at: number }> = [];
    const queries: PinQuery[] = [];
    const claims: Array<[string, number]> = [];
    const mocked: Mocked = {
      async loadScanRun() {
        log.push({ what: 'load', at: Date.now() });
        return plan;
      },
      async claimScanRunTurn(runId, maxRunning) {
        const turn = turns[Math.min(claims.length, turns.length - 1)];
        claims.push([runId, maxRunning]);
        log.push({ what: `claim: ${turn}`, at: Date.now() });
        return turn;
      },
      async queryScanPin(q) {
        queries.push(q);
        log.push({ what: 'query', at: Date.now() });
      },
      async completeScanRun(runId) {
        log.push({ what: `completed ${runId}`, at: Date.now() });
      },
      async failScanRun(runId) {
        log.push({ what: `failed ${runId}`, at: Date.now() });
      },
    };
    return { mocked, log, queries, claims, claimsAt: () => log.filter((l) => l.what.startsWith('claim')).map((l) => l.at) };
  }

  const input = { scanUuid: 'scan-1', runId: 'run-1', concurrency: 2, retry, maxRunningPerTenant: 2 };

  it("waits while the tenant's other runs hold every turn, looking again after 1 s then 2 s, then queries", async () => {
    const a = activities(['waiting', 'waiting', 'granted']);
    const result = await temporal.withWorker(a.mocked, (taskQueue) =>
      temporal.client().workflow.execute<typeof runScan>('runScan', { taskQueue, workflowId: workflowId('scan-turns'), args: [input] }),
    );
    expect(result).toEqual({ status: 'completed', queries: 2, error: null });
    expect(a.log.map((l) => l.what)).toEqual(['load', 'claim: waiting', 'claim: waiting', 'claim: granted', 'query', 'query', 'completed run-1']);
    expect(a.claims).toEqual([
      ['run-1', 2],
      ['run-1', 2],
      ['run-1', 2],
    ]);
    const [first, second, third] = a.claimsAt();
    expect(second - first).toBeGreaterThanOrEqual(1_000);
    expect(third - second).toBeGreaterThanOrEqual(2_000);
    // Each query carries the run's retries: the activity waits for the pace at the server and counts its own tries.
    expect(a.queries.map((q) => q.retry)).toEqual([retry, retry]);
  });

  it('is woken at once by the signal of a run that ended, not at its next look', async () => {
    const a = activities(['waiting', 'waiting', 'waiting', 'granted']);
    const result = await temporal.withWorker(a.mocked, async (taskQueue) => {
      const handle = await temporal.client().workflow.start<typeof runScan>('runScan', { taskQueue, workflowId: workflowId('scan-turns-woken'), args: [input] });
      // After its third claim its next look is 4 s away; a turn frees 300 ms later.
      await waitUntil(async () => a.claims.length === 3, 20_000, 20);
      await new Promise((r) => setTimeout(r, 300));
      await handle.signal(SCAN_TURN_FREED);
      return handle.result();
    });
    expect(result).toEqual({ status: 'completed', queries: 2, error: null });
    const at = a.claimsAt();
    expect(at).toHaveLength(4);
    expect(at[3] - at[2]).toBeLessThan(2_500);
  });

  it('asks nothing when the run ended while it waited (superseded)', async () => {
    const a = activities(['waiting', 'ended']);
    const result = await temporal.withWorker(a.mocked, (taskQueue) =>
      temporal.client().workflow.execute<typeof runScan>('runScan', { taskQueue, workflowId: workflowId('scan-turns-ended'), args: [input] }),
    );
    expect(result).toEqual({ status: 'superseded', queries: 0, error: null });
    expect(a.log.map((l) => l.what)).toEqual(['load', 'claim: waiting', 'claim: ended']);
  });
});
