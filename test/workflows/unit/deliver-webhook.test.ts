import { ApplicationFailure } from '@temporalio/common';
import { Context } from '@temporalio/activity';
import type { WebhookActivities } from '../../../workflows/activities/webhooks';
import type { deliverWebhook } from '../../../workflows/webhooks/deliver.workflow';
import { useWorkflowTestEnv, workflowId } from './support';

/**
 * `deliverWebhook` (a redelivery: every attempt of one delivery) with mocked activities: retried on the schedule
 * until the receiver takes it, stopped at once by a permanent failure, marked failed with the last error after the
 * last attempt. The e2e tests (test/workflows/webhooks.e2e.test.ts) have the real receivers.
 */
jest.setTimeout(60_000);

type Mocked = Pick<WebhookActivities, 'attemptWebhookDelivery' | 'markWebhookDeliveryFailed'>;

describe('deliverWebhook (mocked activities)', () => {
  const temporal = useWorkflowTestEnv();
  const retry = { maximumAttempts: 4, initialIntervalMs: 20, maximumIntervalMs: 100, timeoutMs: 1_000 };

  function receiver(attempt: (n: number) => void) {
    const attempts: number[] = [];
    const failed: Array<[string, string]> = [];
    const activities: Mocked = {
      async attemptWebhookDelivery() {
        const n = Context.current().info.attempt;
        attempts.push(n);
        attempt(n);
      },
      async markWebhookDeliveryFailed(id, reason) {
        failed.push([id, reason]);
      },
    };
    return { attempts, failed, activities };
  }

  const run = (activities: Mocked) =>
    temporal.withWorker(activities, (taskQueue) =>
      temporal.client().workflow.execute<typeof deliverWebhook>('deliverWebhook', { taskQueue, workflowId: workflowId('deliver'), args: [{ deliveryId: 'd1', retry, activityQueue: taskQueue }] }),
    );

  it('retries until the receiver takes it', async () => {
    const r = receiver((n) => {
      if (n < 3) throw ApplicationFailure.retryable(`HTTP 503 on attempt ${n}`, 'DeliveryFailure');
    });
    expect(await run(r.activities)).toBe('succeeded');
    expect(r.attempts).toEqual([1, 2, 3]);
    expect(r.failed).toEqual([]);
  });

  it('stops at once on a permanent failure and marks the delivery failed with its reason', async () => {
    const r = receiver(() => {
      throw ApplicationFailure.nonRetryable('HTTP 410 Gone', 'PermanentDeliveryFailure');
    });
    expect(await run(r.activities)).toBe('failed');
    expect(r.attempts).toEqual([1]);
    expect(r.failed).toEqual([['d1', 'HTTP 410 Gone']]);
  });

  it('marks it failed with the last error after the last attempt', async () => {
    const r = receiver((n) => {
      throw ApplicationFailure.retryable(`HTTP 500 on attempt ${n}`, 'DeliveryFailure');
    });
    expect(await run(r.activities)).toBe('failed');
    expect(r.attempts).toEqual([1, 2, 3, 4]);
    expect(r.failed).toEqual([['d1', 'HTTP 500 on attempt 4']]);
  });
});
