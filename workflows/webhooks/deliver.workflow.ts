import { ActivityFailure, ApplicationFailure, proxyActivities } from '@temporalio/workflow';
import type { WebhookActivities } from '../activities/webhooks';
import { backoffPolicy } from '../retry';

/** Retry schedule of one delivery; comes from configuration so tests can shorten time instead of waiting. */
export interface DeliveryRetry {
  maximumAttempts: number;
  initialIntervalMs: number;
  maximumIntervalMs: number;
  timeoutMs: number;
}

export interface DeliverWebhookInput {
  deliveryId: string;
  retry: DeliveryRetry;
  /**
   * The task queue of the POSTs (`<queue>:webhook-retries`, served by a worker of its own so receivers that hang
   * never take the activity slots the dispatcher and the other workflows need). Absent in runs started before it
   * existed: the workflow's own queue.
   */
  activityQueue?: string;
}

/** The schedule's wait after attempt `attempts` (1 s doubling to the maximum by default). */
export function intervalAfter(retry: DeliveryRetry, attempts: number): number {
  return Math.min(retry.maximumIntervalMs, retry.initialIntervalMs * 2 ** Math.max(0, attempts - 1));
}

/**
 * Every attempt of one webhook delivery (workflow id `webhook:<delivery id>`), for a redelivery: POSTs until the
 * receiver answers 2xx, with exponential backoff (default 1 s doubling to 59 s: 10 retries over about 5 minutes). A
 * 4xx other than 408/429 stops at once; 429 waits for its Retry-After. After the last attempt the delivery is marked
 * failed. (An event's first delivery is the dispatcher's, in bulk, with retry groups: `retryWebhookDeliveries`.)
 */
export async function deliverWebhook(input: DeliverWebhookInput): Promise<'succeeded' | 'failed'> {
  const { attemptWebhookDelivery } = proxyActivities<WebhookActivities>({
    // The HTTP timeout plus room to record the attempt.
    startToCloseTimeout: input.retry.timeoutMs + 10_000,
    ...(input.activityQueue ? { taskQueue: input.activityQueue } : {}),
    retry: backoffPolicy(input.retry, ['PermanentDeliveryFailure']),
  });
  const { markWebhookDeliveryFailed } = proxyActivities<WebhookActivities>({
    startToCloseTimeout: '30s',
    retry: { initialInterval: '1s', maximumInterval: '30s' },
  });
  try {
    // Summaries name the business object in the UI's event history; they are metadata, not replay-checked commands.
    await attemptWebhookDelivery.executeWithOptions({ summary: `POST delivery ${input.deliveryId} to its receiver` }, [input.deliveryId]);
    return 'succeeded';
  } catch (err) {
    const cause = err instanceof ActivityFailure ? err.cause : err;
    const reason = cause instanceof ApplicationFailure || cause instanceof Error ? cause.message : 'delivery failed';
    await markWebhookDeliveryFailed.executeWithOptions({ summary: `Mark delivery ${input.deliveryId} failed` }, [input.deliveryId, reason.slice(0, 500)]);
    return 'failed';
  }
}
