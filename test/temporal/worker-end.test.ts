import { randomUUID } from 'node:crypto';
import { runWorker } from '../../workflows/worker';
import { quietRuntime } from '../support/temporal';
import { testWorkflows } from '../support/workflow-bundle';
import { waitUntil } from '../support/wait';

/**
 * The process's workers (the task queue's and the webhook retries') against the run's Temporal server: when one ends
 * on its own (here the SDK shuts it down, as on a fatal error), both end and the process is told, so it can exit for
 * its supervisor; a stop the process asked for tells it nothing.
 */
describe('the worker pair ending', () => {
  beforeAll(() => quietRuntime());

  const start = (onUnexpectedEnd: (err: unknown) => void) =>
    runWorker({
      address: process.env.REVIEWGRID_TEST_TEMPORAL!,
      namespace: 'default',
      taskQueue: `worker-end-${randomUUID().slice(0, 8)}`,
      workflows: testWorkflows(),
      activities: { noop: async () => undefined }, // the retries' worker polls activities only
      onUnexpectedEnd,
    });

  it('ends both workers and reports it once when one of them ends without a stop', async () => {
    const ends: unknown[] = [];
    const running = await start((err) => ends.push(err));
    await waitUntil(async () => running.worker.getState() === 'RUNNING', 10_000, 20);
    running.worker.shutdown();
    await running.done;
    await waitUntil(async () => ends.length > 0, 10_000, 20);
    expect(ends).toEqual([null]);
    expect(running.worker.getState()).toBe('STOPPED');
  });

  it('reports nothing when the process stops the workers', async () => {
    const ends: unknown[] = [];
    const running = await start((err) => ends.push(err));
    await waitUntil(async () => running.worker.getState() === 'RUNNING', 10_000, 20);
    await running.stop();
    await new Promise((r) => setImmediate(r));
    expect(ends).toEqual([]);
  });
});
