import { runBatches, type BatchLoopDeps } from '../../../workflows/activities/batches';

/**
 * The dispatchers' batch loop (workflows/activities/batches.ts) with batches that answer as told: between batches that
 * found nothing it waits its poll, or less when its `wake` says held-back work may be claimed.
 */
describe('runBatches', () => {
  const deps = (over: Partial<BatchLoopDeps>): BatchLoopDeps => ({ heartbeat: () => undefined, stopping: () => false, now: () => Date.now(), ...over });

  it('ends the wait between batches when wake resolves, long before the poll', async () => {
    let calls = 0;
    let woken = 0;
    const handled = await runBatches(
      10,
      // A poll of a minute: without the wake the test would time out waiting for the second batch.
      { budgetMs: 120_000, lingerMs: 0, pollMs: 60_000 },
      deps({
        // The first batch found nothing while work waited for room: the loop does not end for it.
        busy: () => calls < 2,
        wake: () => (calls === 1 ? new Promise<void>((r) => setTimeout(() => (woken++, r()), 5)) : undefined),
      }),
      async () => (++calls === 2 ? 3 : 0),
    );
    expect(woken).toBe(1);
    expect(calls).toBe(3);
    expect(handled).toBe(3);
  });

  it('waits its poll between empty batches when nothing was held back (wake answers undefined)', async () => {
    const at: number[] = [];
    await runBatches(10, { budgetMs: 120_000, lingerMs: 120, pollMs: 50 }, deps({ wake: () => undefined }), async () => (at.push(Date.now()), 0));
    // Found nothing three times or so within its linger: each after a poll's wait, not at once.
    expect(at.length).toBeGreaterThanOrEqual(2);
    for (let i = 1; i < at.length; i++) expect(at[i] - at[i - 1]).toBeGreaterThanOrEqual(45);
  });
});
