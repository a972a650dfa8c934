import { Context } from '@temporalio/activity';
import type { WorkflowHandle, WorkflowHandleWithFirstExecutionRunId } from '@temporalio/client';
import type { OutboxActivities } from '../../../workflows/activities/outbox';
import { DISPATCH_HISTORY_EVENTS, nudgeSignal } from '../../../workflows/dispatch-rounds';
import type { dispatchOutbox } from '../../../workflows/outbox/dispatch.workflow';
import { waitUntil } from '../../support/wait';
import { useWorkflowTestEnv, workflowId } from './support';

/**
 * The outbox dispatcher's rounds (`dispatchRounds`, shared with the invite dispatcher) with a mocked activity: a
 * nudge signal starts the next round, a full batch is followed by the next at once, the poll timer otherwise, and
 * continue-as-new after 200 rounds or at the first quiet round once the history reaches DISPATCH_HISTORY_EVENTS. The e2e tests (test/workflows/webhooks.e2e.test.ts) see only deliveries.
 */
jest.setTimeout(90_000);

const HOUR = 3_600_000;

describe('dispatchOutbox rounds (mocked activity)', () => {
  const temporal = useWorkflowTestEnv();

  /** The activity answering `handled(round)` (1-based, across runs), recording each round's run id. */
  function rounds(handled: (round: number) => number) {
    const runIds: string[] = [];
    const activities: Pick<OutboxActivities, 'dispatchPendingEvents'> = {
      async dispatchPendingEvents() {
        runIds.push(Context.current().info.workflowExecution!.runId);
        return handled(runIds.length);
      },
    };
    return { runIds, activities };
  }

  /** Runs the dispatcher while `test` looks at it; it never ends by itself, so it is terminated after. */
  async function withDispatcher(activities: object, input: { pollMs: number; batchSize: number }, test: (handle: WorkflowHandleWithFirstExecutionRunId<typeof dispatchOutbox>) => Promise<void>) {
    await temporal.withWorker(activities, async (taskQueue) => {
      const handle = await temporal.client().workflow.start<typeof dispatchOutbox>('dispatchOutbox', { taskQueue, workflowId: workflowId('outbox'), args: [input] });
      try {
        await test(handle);
      } finally {
        await handle.terminate('test finished');
      }
    });
  }

  /** Timers the run has started (the wait between rounds is a `condition` with the poll as its timeout). */
  const timersStarted = async (handle: WorkflowHandle) => ((await handle.fetchHistory()).events ?? []).filter((e) => e.timerStartedEventAttributes).length;

  it('waits after a round that found little until nudged (an hour-long poll never fires); each nudge starts one round', async () => {
    const dispatcher = rounds(() => 0);
    await withDispatcher(dispatcher.activities, { pollMs: HOUR, batchSize: 10 }, async (handle) => {
      // The workflow waits once its timer is started: no round can come now but through a signal.
      await waitUntil(async () => (await timersStarted(handle)) === 1, 20_000, 50);
      expect(dispatcher.runIds).toHaveLength(1);
      await handle.signal(nudgeSignal);
      await waitUntil(async () => (await timersStarted(handle)) === 2, 20_000, 50);
      expect(dispatcher.runIds).toHaveLength(2);
      await handle.signal(nudgeSignal);
      await waitUntil(async () => (await timersStarted(handle)) === 3, 20_000, 50);
      expect(dispatcher.runIds).toHaveLength(3);
    });
  });

  it('starts the next round at once after a full batch, and waits after the first that was not', async () => {
    const dispatcher = rounds((round) => (round <= 3 ? 10 : 4));
    await withDispatcher(dispatcher.activities, { pollMs: HOUR, batchSize: 10 }, async (handle) => {
      await waitUntil(async () => (await timersStarted(handle)) === 1, 20_000, 50);
      expect(dispatcher.runIds).toHaveLength(4);
    });
  });

  it('polls when nobody nudges', async () => {
    const dispatcher = rounds(() => 0);
    await withDispatcher(dispatcher.activities, { pollMs: 100, batchSize: 10 }, async () => {
      await waitUntil(async () => dispatcher.runIds.length >= 3, 20_000, 20);
    });
  });

  it('goes on past DISPATCH_HISTORY_EVENTS while its rounds find full batches, and continues as new, with the same input, after the first that does not', async () => {
    // About six events a round: the history passes DISPATCH_HISTORY_EVENTS around round 170, while rounds are full.
    const dispatcher = rounds((round) => (round <= 180 ? 10 : 4));
    await withDispatcher(dispatcher.activities, { pollMs: HOUR, batchSize: 10 }, async (handle) => {
      await waitUntil(async () => new Set(dispatcher.runIds).size > 1, 60_000, 50);
      const runs = [...new Set(dispatcher.runIds)];
      expect(runs[0]).toBe(handle.firstExecutionRunId);
      expect(dispatcher.runIds.filter((id) => id === runs[0])).toHaveLength(181);
      const first = await temporal.client().workflow.getHandle(handle.workflowId, handle.firstExecutionRunId).fetchHistory();
      const events = first.events!;
      // Full rounds went on past the cap (a continue-as-new under load stalled delivery for seconds) ...
      const roundsBeforeCap = events.slice(0, DISPATCH_HISTORY_EVENTS).filter((e) => e.activityTaskScheduledEventAttributes).length;
      expect(roundsBeforeCap).toBeLessThan(181);
      expect(events.length).toBeGreaterThan(DISPATCH_HISTORY_EVENTS);
      // ... and the first quiet round ended the run without a wait (no timer) and with the same input.
      expect(events.filter((e) => e.timerStartedEventAttributes)).toHaveLength(0);
      expect(events[events.length - 1].workflowExecutionContinuedAsNewEventAttributes?.input).toBeDefined();
    });
  });

  it('continues as new sooner when nudges fill its history', async () => {
    const dispatcher = rounds(() => 0);
    await withDispatcher(dispatcher.activities, { pollMs: HOUR, batchSize: 10 }, async (handle) => {
      await waitUntil(async () => (await timersStarted(handle)) === 1, 20_000, 50);
      // A burst of nudges while a round waits: each is a signal event in the history.
      for (let i = 0; i < DISPATCH_HISTORY_EVENTS; i += 50) await Promise.all(Array.from({ length: 50 }, () => handle.signal(nudgeSignal)));
      await waitUntil(async () => new Set(dispatcher.runIds).size > 1, 60_000, 50);
      const first = await temporal.client().workflow.getHandle(handle.workflowId, handle.firstExecutionRunId).fetchHistory();
      expect(first.events!.length).toBeGreaterThanOrEqual(DISPATCH_HISTORY_EVENTS);
      expect(dispatcher.runIds.filter((id) => id === handle.firstExecutionRunId).length).toBeLessThan(200);
    });
  });
});
