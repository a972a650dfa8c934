import { condition, defineSignal, proxyActivities, setHandler, sleep } from '@temporalio/workflow';
import type { WebhookActivities } from '../activities/webhooks';
import { intervalAfter, type DeliveryRetry } from './deliver.workflow';

export interface RetryDeliveriesInput {
  /** The receiver every delivery of the group goes to. */
  endpointId: number;
  deliveryIds: string[];
  retry: DeliveryRetry;
  /** The task queue of the POSTs (`<queue>:webhook-retries`). */
  activityQueue: string;
  /** Attempts already made (the dispatcher's first, or none for a receiver known to be slow) and the wait before the next. */
  after: { attempts: number; delayMs: number };
  /** First attempts still waiting for a slow receiver when the run was started (delayed): it waits for their end. */
  awaitingFirstAttempts?: boolean;
}

/** The dispatcher's first attempts of the group have all ended (the signal also ends the run's start delay). */
export const firstAttemptsDoneSignal = defineSignal('first-attempts-done');

/**
 * The retries of a group of webhook deliveries to one receiver (workflow id `webhook-retries:<first delivery id>`):
 * what one dispatcher batch could not deliver there at the first attempt. Each round POSTs every delivery of the group
 * still pending, side by side, then waits the schedule's next interval (1 s doubling to 59 s by default, or the
 * receiver's longest Retry-After); after the last attempt (11 in all: 10 retries over about 5 minutes) what is still
 * pending is marked failed. One run per receiver and batch rather than per delivery: a receiver that is down costs
 * the engine a few workflows, not one per event.
 */
export async function retryWebhookDeliveries(input: RetryDeliveriesInput): Promise<{ succeeded: number; failed: number }> {
  const { attemptWebhookDeliveries } = proxyActivities<WebhookActivities>({
    // Every POST of a round runs at once, each with the HTTP timeout; room to record them.
    startToCloseTimeout: input.retry.timeoutMs + 30_000,
    heartbeatTimeout: '15s',
    taskQueue: input.activityQueue,
    retry: { initialInterval: '1s', maximumInterval: '30s' },
  });
  const { markWebhookDeliveriesGaveUp } = proxyActivities<WebhookActivities>({
    startToCloseTimeout: '30s',
    retry: { initialInterval: '1s', maximumInterval: '30s' },
  });
  let firstDone = !input.awaitingFirstAttempts;
  setHandler(firstAttemptsDoneSignal, () => {
    firstDone = true;
  });
  // Started with a delay past the attempts' own timeout, so without the signal (a worker gone) they are over anyway.
  await condition(() => firstDone, input.retry.timeoutMs + 5_000);
  let pending = input.deliveryIds;
  let delayMs = input.after.delayMs;
  let succeeded = 0;
  for (let attempt = input.after.attempts + 1; attempt <= input.retry.maximumAttempts; attempt++) {
    if (delayMs > 0) await sleep(delayMs);
    const round = await attemptWebhookDeliveries.executeWithOptions(
      { summary: `POST ${pending.length === 1 ? '1 delivery' : `${pending.length} deliveries`} to receiver ${input.endpointId} (attempt ${attempt})` },
      [pending, attempt],
    );
    succeeded += round.succeeded;
    pending = round.retry;
    if (pending.length === 0) return { succeeded, failed: input.deliveryIds.length - succeeded };
    delayMs = Math.max(intervalAfter(input.retry, attempt), round.retryAfterMs ?? 0);
  }
  // Each keeps its last attempt's error as the reason.
  await markWebhookDeliveriesGaveUp.executeWithOptions({ summary: `Mark ${pending.length === 1 ? '1 delivery' : `${pending.length} deliveries`} failed` }, [pending]);
  return { succeeded, failed: input.deliveryIds.length - succeeded };
}
