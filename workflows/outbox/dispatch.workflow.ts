import { continueAsNew, defineSignal, patched, proxyActivities, setHandler } from '@temporalio/workflow';
import type { OutboxActivities } from '../activities/outbox';
import { dispatchRounds, type DispatchRoundsInput } from '../dispatch-rounds';

export type DispatchOutboxInput = DispatchRoundsInput;

/**
 * The settings of the process that ensures the dispatcher (`ensureDispatcher`, at every API and worker start, by
 * signal-with-start): the run takes them from its next wait on and continues as new with them, so a changed
 * `OUTBOX_POLL_MS` takes effect without a new workflow. A field that is not a sane positive integer is ignored.
 */
export const configureDispatcherSignal = defineSignal<[Partial<DispatchOutboxInput>]>('configure');

/**
 * Applies `settings` to `input` (the object the rounds read before each wait and the run continues as new with).
 * Behind the `dispatch-configure` patch: a history of before it that holds such a signal (sent by a newer client to a
 * run of older code, which ignored it) replays as it ran.
 */
export function applyDispatcherSettings(input: DispatchRoundsInput, settings: Partial<DispatchRoundsInput>): void {
  if (!patched('dispatch-configure')) return;
  const valid = (n: unknown, min: number): n is number => typeof n === 'number' && Number.isInteger(n) && n >= min;
  if (valid(settings?.pollMs, 10)) input.pollMs = settings.pollMs;
  if (valid(settings?.batchSize, 1)) input.batchSize = settings.batchSize;
}

/**
 * The outbox dispatcher (workflow id `outbox-dispatcher`, one per namespace): delivers undispatched outbox rows,
 * the first attempt of each in bulk and a delivery workflow for the retries of those that failed. It waits for a nudge after each commit, or polls; it continues as new to keep its
 * history short. Being a workflow, it survives any process dying: the activity is retried and is idempotent.
 */
export async function dispatchOutbox(input: DispatchOutboxInput): Promise<void> {
  setHandler(configureDispatcherSignal, (settings) => applyDispatcherSettings(input, settings));
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
