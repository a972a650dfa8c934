import { connectTemporal, disconnectTemporal, ensureInviteDispatcher, inviteDispatcherWorkflowId, temporal } from '../../workflows/client';
import { testServerSettings } from './temporal-server';

/**
 * The app's Temporal client on the run's dev server and task queue `taskQueue`, with the invite dispatcher started
 * there before the tests and stopped after them (`stop` ends it earlier). No worker polls the queue: the tests read
 * what Temporal holds (the dispatcher's own tests do the sending).
 */
export function useInviteDispatcher(taskQueue: string): { workflowId: string; stop: () => Promise<void> } {
  const workflowId = inviteDispatcherWorkflowId(taskQueue);
  const stop = async (): Promise<void> => {
    await temporal().client.workflow.getHandle(workflowId).terminate('test finished').catch(() => undefined);
    await disconnectTemporal();
  };
  beforeAll(async () => {
    await connectTemporal(testServerSettings(taskQueue));
    await ensureInviteDispatcher();
  }, 60_000);
  afterAll(async () => {
    await stop().catch(() => undefined); // a test may have stopped it already
  });
  return { workflowId, stop };
}
