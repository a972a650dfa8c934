import { continueAsNew, proxyActivities } from '@temporalio/workflow';
import type { OutboxActivities } from '../activities/outbox';
import { dispatchRounds, type DispatchRoundsInput } from '../dispatch-rounds';

export type DispatchOutboxInput = DispatchRoundsInput;

/**
 * The outbox dispatcher (workflow id `outbox-dispatcher`, one per namespace): delivers undispatched outbox rows,
 * the first attempt of each in bulk and a delivery workflow for the retries of those that failed. It waits for a nudge after each commit, or polls; it continues as new to keep its
 * history short. Being a workflow, it survives any process dying: the activity is retried and is idempotent.
 */
export async function dispatchOutbox(input: DispatchOutboxInput): Promise<void> {
  const { dispatchPendingEvents } = proxyActivities<OutboxActivities>({
    startToCloseTimeout: '2 minutes',
    // The batch beats every second: a worker killed in the middle is noticed in seconds, and the batch claimed again.
    heartbeatTimeout: '10s',
    retry: { initialInterval: '1s', maximumInterval: '30s' },
  });
  await dispatchRounds(input, () =>
    dispatchPendingEvents.executeWithOptions({ summary: `Deliver up to ${input.batchSize} outbox events (first attempts)` }, [input.batchSize]),
  );
  await continueAsNew<typeof dispatchOutbox>(input);
}
