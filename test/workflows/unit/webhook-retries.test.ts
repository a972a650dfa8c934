import { Context } from '@temporalio/activity';
import type { WebhookActivities } from '../../../workflows/activities/webhooks';
import { firstAttemptsDoneSignal, type retryWebhookDeliveries, type RetryDeliveriesInput } from '../../../workflows/webhooks/retry-group.workflow';
import { waitUntil } from '../../support/wait';
import { retryFailure, useWorkflowTestEnv, workflowId } from './support';

/**
 * `retryWebhookDeliveries` (one receiver's retry group) with mocked activities: it waits for the dispatcher's first
 * attempts, POSTs what is still pending each round with the schedule's growing wait (or the receiver's Retry-After),
 * retries a round whose activity failed, and marks what is left failed after the last attempt. The e2e tests
 * (test/workflows/webhooks.e2e.test.ts) have the real receivers and database.
 */
jest.setTimeout(60_000);

type Mocked = Pick<WebhookActivities, 'attemptWebhookDeliveries' | 'markWebhookDeliveriesGaveUp'>;

describe('retryWebhookDeliveries (mocked activities)', () => {
  const temporal = useWorkflowTestEnv();
  const retry = { maximumAttempts: 5, initialIntervalMs: 40, maximumIntervalMs: 200, timeoutMs: 30_000 };

  /** Rounds as the activity saw them: when, which attempt, which deliveries. */
  function receiver(answer: (ids: string[], attempt: number) => { succeeded: string[]; retryAfterMs?: number }) {
    const rounds: Array<{ at: number; attempt: number; ids: string[] }> = [];
    const gaveUp: string[][] = [];
    const activities: Mocked = {
      async attemptWebhookDeliveries(ids, attempt) {
        rounds.push({ at: Date.now(), attempt, ids: [...ids] });
        const { succeeded, retryAfterMs } = answer(ids, attempt);
        return { succeeded: succeeded.length, retry: ids.filter((id) => !succeeded.includes(id)), retryAfterMs: retryAfterMs ?? null };
      },
      async markWebhookDeliveriesGaveUp(ids) {
        gaveUp.push([...ids]);
      },
    };
    return { rounds, gaveUp, activities };
  }

  const start = (taskQueue: string, input: Omit<RetryDeliveriesInput, 'activityQueue' | 'retry'>) =>
    temporal.client().workflow.start<typeof retryWebhookDeliveries>('retryWebhookDeliveries', {
      taskQueue,
      workflowId: workflowId('webhook-retries'),
      args: [{ ...input, retry, activityQueue: taskQueue }],
    });

  it('POSTs only what is still pending each round, waiting the doubling interval between rounds', async () => {
    // d1 succeeds at the second attempt, d2 at the fourth.
    const r = receiver((ids, attempt) => ({ succeeded: ids.filter((id) => (id === 'd1' ? attempt >= 2 : attempt >= 4)) }));
    const result = await temporal.withWorker(r.activities, async (q) => (await start(q, { endpointId: 7, deliveryIds: ['d1', 'd2'], after: { attempts: 1, delayMs: 40 } })).result());
    expect(result).toEqual({ succeeded: 2, failed: 0 });
    expect(r.rounds.map((x) => [x.attempt, x.ids])).toEqual([
      [2, ['d1', 'd2']],
      [3, ['d2']],
      [4, ['d2']],
    ]);
    // Waits after attempts 2 and 3: 80 and 160 ms (40 ms doubling).
    expect(r.rounds[1].at - r.rounds[0].at).toBeGreaterThanOrEqual(80);
    expect(r.rounds[2].at - r.rounds[1].at).toBeGreaterThanOrEqual(160);
    expect(r.gaveUp).toEqual([]);
  });

  it("waits for the receiver's Retry-After when it is longer than the schedule's interval", async () => {
    const r = receiver((ids, attempt) => (attempt === 2 ? { succeeded: [], retryAfterMs: 600 } : { succeeded: ids }));
    await temporal.withWorker(r.activities, async (q) => (await start(q, { endpointId: 7, deliveryIds: ['d1'], after: { attempts: 1, delayMs: 0 } })).result());
    expect(r.rounds.map((x) => x.attempt)).toEqual([2, 3]);
    expect(r.rounds[1].at - r.rounds[0].at).toBeGreaterThanOrEqual(600);
  });

  it('marks what is still pending failed after the last attempt', async () => {
    const r = receiver((ids) => ({ succeeded: ids.filter((id) => id === 'ok') }));
    const result = await temporal.withWorker(r.activities, async (q) => (await start(q, { endpointId: 7, deliveryIds: ['ok', 'dead'], after: { attempts: 1, delayMs: 0 } })).result());
    expect(result).toEqual({ succeeded: 1, failed: 1 });
    expect(r.rounds.map((x) => x.attempt)).toEqual([2, 3, 4, 5]);
    expect(r.gaveUp).toEqual([['dead']]);
  });

  it('retries a round whose activity failed, as the same attempt', async () => {
    let failures = 0;
    const r = receiver((ids) => ({ succeeded: ids }));
    const activities: Mocked = {
      ...r.activities,
      async attemptWebhookDeliveries(ids, attempt) {
        if (failures++ === 0) throw retryFailure('the worker lost its database');
        expect(Context.current().info.attempt).toBe(2);
        return r.activities.attemptWebhookDeliveries(ids, attempt);
      },
    };
    const result = await temporal.withWorker(activities, async (q) => (await start(q, { endpointId: 7, deliveryIds: ['d1'], after: { attempts: 1, delayMs: 0 } })).result());
    expect(result).toEqual({ succeeded: 1, failed: 0 });
    expect(r.rounds.map((x) => x.attempt)).toEqual([2]);
  });

  it('does not start its rounds before the first attempts are over: the signal starts them', async () => {
    const r = receiver((ids) => ({ succeeded: ids }));
    await temporal.withWorker(r.activities, async (q) => {
      const handle = await start(q, { endpointId: 7, deliveryIds: ['d1'], after: { attempts: 1, delayMs: 0 }, awaitingFirstAttempts: true });
      // Waiting: its timer (the attempts' timeout, 30 s + 5 s, the fallback without the signal) is started, no round.
      await waitUntil(async () => ((await handle.fetchHistory()).events ?? []).some((e) => e.timerStartedEventAttributes), 20_000, 50);
      expect(r.rounds).toEqual([]);
      const signalledAt = Date.now();
      await handle.signal(firstAttemptsDoneSignal);
      expect(await handle.result()).toEqual({ succeeded: 1, failed: 0 });
      expect(r.rounds[0].at).toBeGreaterThanOrEqual(signalledAt);
    });
  });
});
