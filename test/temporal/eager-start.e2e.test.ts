import { randomUUID } from 'node:crypto';
import { requestedStart, temporal, useWorkerConnection } from '../../workflows/client';
import { scanRunWorkflowId, startScanRunWorkflow } from '../../workflows/scans/client';
import { useTemporalWorker } from '../support/temporal';

/**
 * Eager start (issue 17 item 3), on the run's real dev server: a process that runs a worker starts the workflows a
 * request asks for through a client on the worker's own connection, and the server hands the first workflow task
 * back in the start's answer; a process without a worker starts them the usual way.
 */
describe('eager start of the workflows a request asks for', () => {
  const engine = useTemporalWorker();
  afterEach(() => useWorkerConnection(null));

  const probe = async () => {
    const { client, options } = requestedStart();
    const handle = await client.workflow.start('engineProbe', { taskQueue: engine.settings().taskQueue, workflowId: `eager-probe-${randomUUID()}`, ...options });
    await handle.result();
    return { handle, options };
  };

  it("hands the first workflow task back in the start's answer when this process's worker shares the connection", async () => {
    useWorkerConnection(engine.workerConnection());
    const { handle, options } = await probe();
    expect(options).toEqual({ requestEagerStart: true });
    expect(handle.eagerlyStarted).toBe(true);
    const events = (await handle.fetchHistory()).events ?? [];
    expect(events.some((e) => e.workflowExecutionCompletedEventAttributes)).toBe(true);
  });

  it('starts through the task queue in a process without a worker (an API-only process)', async () => {
    useWorkerConnection(null);
    const { handle, options } = await probe();
    expect(options).toEqual({});
    expect(handle.eagerlyStarted).toBe(false);
  });

  it('starts a staggered scan run (a start delay) the usual way, never eagerly', async () => {
    useWorkerConnection(engine.workerConnection());
    const scanUuid = randomUUID();
    // No scan row: the run is only started, never executed (terminated below before its delay ends).
    await startScanRunWorkflow(scanUuid, 'run-1', 60_000);
    const handle = temporal().client.workflow.getHandle(scanRunWorkflowId(scanUuid, 'run-1'));
    try {
      const described = await handle.describe();
      expect(described.status.name).toBe('RUNNING');
      const events = (await handle.fetchHistory()).events ?? [];
      expect(events.filter((e) => e.workflowTaskStartedEventAttributes)).toHaveLength(0); // still waiting for its delay
    } finally {
      await handle.terminate('test finished').catch(() => undefined);
    }
  });
});
