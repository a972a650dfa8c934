import { condition, continueAsNew, defineSignal, proxyActivities, setHandler } from '@temporalio/workflow';
import type { OutboxActivities } from '../activities/outbox';

export const nudgeSignal = defineSignal('nudge');

export interface DispatchOutboxInput {
  pollMs: number;
  batchSize: number;
}

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
  let nudged = false;
  setHandler(nudgeSignal, () => {
    nudged = true;
  });
  for (let round = 0; round < 200; round++) {
    nudged = false;
    const handled = await dispatchPendingEvents.executeWithOptions({ summary: `Deliver up to ${input.batchSize} outbox events (first attempts)` }, [input.batchSize]);
    if (handled >= input.batchSize) continue;
    await condition(() => nudged, input.pollMs);
  }
  await continueAsNew<typeof dispatchOutbox>(input);
}
