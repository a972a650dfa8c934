import type { ProbeActivities } from '../../../workflows/activities/probe';
import type { engineProbe } from '../../../workflows/probe/engine-probe.workflow';
import { useWorkflowTestEnv, workflowId } from './support';

/**
 * `engineProbe` (the benchmarks' unit of the engine ceiling, and an operator's end-to-end check of a worker) with a
 * mocked activity: one activity, then done.
 */
jest.setTimeout(30_000);

describe('engineProbe (mocked activity)', () => {
  const temporal = useWorkflowTestEnv();

  it('runs its one activity once and completes', async () => {
    let probes = 0;
    const activities: ProbeActivities = {
      async probe() {
        probes++;
      },
    };
    await temporal.withWorker(activities, async (taskQueue) => {
      const handle = await temporal.client().workflow.start<typeof engineProbe>('engineProbe', { taskQueue, workflowId: workflowId('probe') });
      await handle.result();
      const types = ((await handle.fetchHistory()).events ?? []).filter((e) => e.activityTaskScheduledEventAttributes).map((e) => e.activityTaskScheduledEventAttributes!.activityType!.name);
      expect(types).toEqual(['probe']);
    });
    expect(probes).toBe(1);
  });
});
