import fs from 'node:fs';
import path from 'node:path';
import { Context } from '@temporalio/activity';
import type { WorkflowHandle } from '@temporalio/client';
import { historyToJSON } from '@temporalio/common/lib/proto-utils';
import type { RoundAttemptEnded, WebhookActivities } from '../../../workflows/activities/webhooks';
import { HANDED_OFF_GRACE_MS, ROUND_GATHER_MS, type ReceiverRetriesInput, type RetryCohort, type retryReceiverDeliveries } from '../../../workflows/webhooks/receiver-retries.workflow';
import { HISTORIES_DIR } from '../../support/temporal';
import { waitUntil } from '../../support/wait';
import { retryFailure, useWorkflowTestEnv, workflowId } from './support';

/**
 * `retryReceiverDeliveries` (one receiver's retries for a window of hand-overs) with mocked activities: deliveries join
 * by signal, each keeps its own schedule (attempt numbers, doubling waits, Retry-After), those due together go in one
 * round, what is left after the last attempt is marked failed, first attempts still out are waited for, and the run
 * ends once its window has closed and nothing is pending. The e2e tests (test/workflows/webhooks.e2e.test.ts) have the
 * real receivers and database.
 */
jest.setTimeout(60_000);

type Mocked = Pick<WebhookActivities, 'attemptWebhookDeliveryRound' | 'markWebhookDeliveriesGaveUp'>;

describe('retryReceiverDeliveries (mocked activities)', () => {
  const temporal = useWorkflowTestEnv();
  const retry = { maximumAttempts: 4, initialIntervalMs: 400, maximumIntervalMs: 1_600, timeoutMs: 1_500 };

  /** Rounds as the activity saw them: when, and each delivery with its attempt number. */
  function receiver(answer: (id: string, attempt: number) => 'ok' | 'retry' | 'gone' | 'elsewhere' | number) {
    const rounds: Array<{ at: number; items: Array<[string, number]> }> = [];
    const gaveUp: string[][] = [];
    const activities: Mocked = {
      async attemptWebhookDeliveryRound(items) {
        rounds.push({ at: Date.now(), items: items.map((i) => [i.id, i.attempt]) });
        const out: Awaited<ReturnType<Mocked['attemptWebhookDeliveryRound']>> = { succeeded: [], retry: [] };
        for (const { id, attempt } of items) {
          const a = answer(id, attempt);
          if (a === 'ok') out.succeeded.push(id);
          else if (a === 'elsewhere') (out.elsewhere ??= []).push(id);
          else if (a === 'retry') out.retry.push({ id, retryAfterMs: null });
          else if (typeof a === 'number') out.retry.push({ id, retryAfterMs: a });
        }
        return out;
      },
      async markWebhookDeliveriesGaveUp(ids) {
        gaveUp.push([...ids]);
      },
    };
    return { rounds, gaveUp, activities };
  }

  const input = (taskQueue: string, windowMs = 300): ReceiverRetriesInput => ({ endpointId: 7, retry, activityQueue: taskQueue, acceptUntil: Date.now() + windowMs });
  const handOver = (taskQueue: string, id: string, cohort: RetryCohort, windowMs?: number) =>
    temporal.client().workflow.signalWithStart<typeof retryReceiverDeliveries, [RetryCohort]>('retryReceiverDeliveries', {
      taskQueue,
      workflowId: id,
      args: [input(taskQueue, windowMs)],
      signal: 'add-retries',
      signalArgs: [cohort],
    });

  it('gives each delivery its own attempt number and doubling wait, and POSTs those due together in one round', async () => {
    // d1 (one attempt made) succeeds at attempt 3, d2 (none made) at attempt 2, d3 (one made) at attempt 2.
    const at = { d1: 3, d2: 2, d3: 2 } as Record<string, number>;
    const r = receiver((id, attempt) => (attempt >= at[id] ? 'ok' : 'retry'));
    const result = await temporal.withWorker(r.activities, async (q) => {
      const id = workflowId('receiver-retries');
      const handle = await handOver(q, id, { deliveryIds: ['d1', 'd3'], after: { attempts: 1, delayMs: 400 } });
      await handOver(q, id, { deliveryIds: ['d2'], after: { attempts: 0, delayMs: 0 } });
      return handle.result();
    });
    expect(result).toEqual({ succeeded: 3, failed: 0 });
    const attempts = r.rounds.flatMap((round) => round.items);
    expect(attempts.filter(([id]) => id === 'd1').map(([, a]) => a)).toEqual([2, 3]);
    expect(attempts.filter(([id]) => id === 'd2').map(([, a]) => a)).toEqual([1, 2]);
    expect(attempts.filter(([id]) => id === 'd3').map(([, a]) => a)).toEqual([2]);
    // d1 and d3 were handed over together, due together: one round.
    expect(r.rounds.some((round) => round.items.some(([id]) => id === 'd1') && round.items.some(([id]) => id === 'd3'))).toBe(true);
    // d1 waits the schedule's interval after its attempt 2 (400 ms doubling: 800 ms), less the gathering allowance.
    const roundOf = (id: string, attempt: number) => r.rounds.find((x) => x.items.some(([i, a]) => i === id && a === attempt))!;
    expect(roundOf('d1', 3).at - roundOf('d1', 2).at).toBeGreaterThanOrEqual(800 - ROUND_GATHER_MS);
    expect(r.gaveUp).toEqual([]);
  });

  it('counts a delivery handed over twice once', async () => {
    const r = receiver(() => 'ok');
    const result = await temporal.withWorker(r.activities, async (q) => {
      const id = workflowId('receiver-retries');
      const handle = await handOver(q, id, { deliveryIds: ['d1'], after: { attempts: 1, delayMs: 100 } });
      await handOver(q, id, { deliveryIds: ['d1', 'd2'], after: { attempts: 1, delayMs: 100 } });
      return handle.result();
    });
    expect(result).toEqual({ succeeded: 2, failed: 0 });
    expect(r.rounds.flatMap((x) => x.items).map(([id]) => id).sort()).toEqual(['d1', 'd2']);
  });

  it("waits for the receiver's Retry-After when it is longer than the schedule's interval", async () => {
    const r = receiver((_id, attempt) => (attempt === 1 ? 2_000 : 'ok'));
    await temporal.withWorker(r.activities, async (q) => (await handOver(q, workflowId('receiver-retries'), { deliveryIds: ['d1'], after: { attempts: 0, delayMs: 0 } })).result());
    expect(r.rounds).toHaveLength(2);
    expect(r.rounds[1].at - r.rounds[0].at).toBeGreaterThanOrEqual(2_000 - ROUND_GATHER_MS);
  });

  it('marks what is still pending after the last attempt failed, and counts what failed for good', async () => {
    const r = receiver((id) => (id === 'gone' ? 'gone' : 'retry'));
    const result = await temporal.withWorker(r.activities, async (q) =>
      (await handOver(q, workflowId('receiver-retries'), { deliveryIds: ['d1', 'gone'], after: { attempts: 1, delayMs: 0 } })).result(),
    );
    expect(result).toEqual({ succeeded: 0, failed: 2 });
    expect(r.rounds.flatMap((x) => x.items).filter(([id]) => id === 'd1').map(([, a]) => a)).toEqual([2, 3, 4]);
    expect(r.gaveUp).toEqual([['d1']]);
  });

  it('lets a delivery another run holds go (not retried here, not counted), and keeps retrying its own', async () => {
    const r = receiver((id, attempt) => (id === 'theirs' ? 'elsewhere' : attempt >= 3 ? 'ok' : 'retry'));
    const result = await temporal.withWorker(r.activities, async (q) =>
      (await handOver(q, workflowId('receiver-retries'), { deliveryIds: ['mine', 'theirs'], after: { attempts: 1, delayMs: 0 } })).result(),
    );
    expect(result).toEqual({ succeeded: 1, failed: 0 });
    const attempts = r.rounds.flatMap((x) => x.items);
    expect(attempts.filter(([id]) => id === 'theirs').map(([, a]) => a)).toEqual([2]);
    expect(attempts.filter(([id]) => id === 'mine').map(([, a]) => a)).toEqual([2, 3]);
    expect(r.gaveUp).toEqual([]);
  });

  it('retries a round whose activity failed, as the same attempts', async () => {
    let calls = 0;
    const r = receiver(() => 'ok');
    const flaky: Mocked = {
      ...r.activities,
      async attemptWebhookDeliveryRound(items) {
        if (++calls === 1) throw retryFailure('worker lost');
        return r.activities.attemptWebhookDeliveryRound(items);
      },
    };
    const result = await temporal.withWorker(flaky, async (q) => (await handOver(q, workflowId('receiver-retries'), { deliveryIds: ['d1'], after: { attempts: 1, delayMs: 0 } })).result());
    expect(result).toEqual({ succeeded: 1, failed: 0 });
    expect(r.rounds.map((x) => x.items)).toEqual([[['d1', 2]]]);
  });

  it('holds the retries of first attempts still out until told they ended', async () => {
    const r = receiver(() => 'ok');
    await temporal.withWorker(r.activities, async (q) => {
      const id = workflowId('receiver-retries');
      const handle = await handOver(q, id, { deliveryIds: ['slow'], after: { attempts: 1, delayMs: 0 }, awaitingFirstAttempts: true }, 100);
      // Once the run waits on its timer (the fallback, 6.5 s away), nothing more happens before the signal.
      await waitUntil(async () => ((await handle.fetchHistory()).events ?? []).some((e) => e.timerStartedEventAttributes), 20_000, 20);
      expect(r.rounds).toEqual([]);
      const signalled = Date.now();
      await handle.signal('first-attempts-ended', ['slow']);
      expect(await handle.result()).toEqual({ succeeded: 1, failed: 0 });
      expect(r.rounds).toHaveLength(1);
      expect(r.rounds[0].at).toBeGreaterThanOrEqual(signalled);
    });
  });

  it('without that signal (a dispatcher gone), starts them once their attempt timed out', async () => {
    const r = receiver(() => 'ok');
    const started = Date.now();
    await temporal.withWorker(r.activities, async (q) =>
      (await handOver(q, workflowId('receiver-retries'), { deliveryIds: ['slow'], after: { attempts: 1, delayMs: 0 }, awaitingFirstAttempts: true }, 100)).result(),
    );
    expect(r.rounds).toHaveLength(1);
    expect(r.rounds[0].at - started).toBeGreaterThanOrEqual(retry.timeoutMs);
  });

  describe('rounds that let their slot go while attempts are still out (patch webhook-round-handoff)', () => {
    type Round = Awaited<ReturnType<Mocked['attemptWebhookDeliveryRound']>>;
    /** The first round answers every attempt still out (`inFlight`); the later ones as `later` says. */
    function handingOff(later: (id: string, attempt: number) => 'ok' | 'retry' = () => 'ok') {
      const rounds: Array<{ at: number; items: Array<[string, number]>; opts: unknown }> = [];
      const gaveUp: string[][] = [];
      const activities: Mocked = {
        async attemptWebhookDeliveryRound(items, opts) {
          rounds.push({ at: Date.now(), items: items.map((i) => [i.id, i.attempt]), opts });
          if (rounds.length === 1) return { succeeded: [], retry: [], inFlight: items.map((i) => i.id) } satisfies Round;
          const out: Round = { succeeded: [], retry: [] };
          for (const { id, attempt } of items) {
            if (later(id, attempt) === 'ok') out.succeeded.push(id);
            else out.retry.push({ id, retryAfterMs: null });
          }
          return out;
        },
        async markWebhookDeliveriesGaveUp(ids) {
          gaveUp.push([...ids]);
        },
      };
      return { rounds, gaveUp, activities };
    }
    const tell = (handle: WorkflowHandle, ended: RoundAttemptEnded[]) => handle.signal('round-attempts-ended', ended);
    /** Until the run waits on a timer (its first round has been answered, and nothing is due). */
    const waiting = async (handle: WorkflowHandle) =>
      waitUntil(async () => ((await handle.fetchHistory()).events ?? []).some((e) => e.timerStartedEventAttributes), 20_000, 20);

    it('asks each round to hand off; an attempt still out is not sent again until the run is told it ended, then after its interval', async () => {
      const r = handingOff();
      await temporal.withWorker(r.activities, async (q) => {
        const handle = await handOver(q, workflowId('receiver-retries'), { deliveryIds: ['d1'], after: { attempts: 1, delayMs: 0 } }, 100);
        await waiting(handle);
        await new Promise((resolve) => setTimeout(resolve, 1_000));
        expect(r.rounds).toHaveLength(1);
        const told = Date.now();
        await tell(handle, [{ id: 'd1', attempt: 2, outcome: 'retry', retryAfterMs: null }]);
        expect(await handle.result()).toEqual({ succeeded: 1, failed: 0 });
        // The schedule's interval after attempt 2 (400 ms doubling: 800 ms), counted from its end.
        expect(r.rounds[1].at - told).toBeGreaterThanOrEqual(800 - ROUND_GATHER_MS);
        if (process.env.RECORD_HISTORIES === '1') {
          fs.writeFileSync(path.join(HISTORIES_DIR, 'receiver-retries-handoff.json'), historyToJSON(await handle.fetchHistory()));
        }
      });
      expect(r.rounds.map((x) => x.items)).toEqual([[['d1', 2]], [['d1', 3]]]);
      expect(r.rounds.map((x) => x.opts)).toEqual([{ handoff: true }, { handoff: true }]);
    });

    it("takes the receiver's Retry-After told with the end, when longer than the interval", async () => {
      const r = handingOff();
      await temporal.withWorker(r.activities, async (q) => {
        const handle = await handOver(q, workflowId('receiver-retries'), { deliveryIds: ['d1'], after: { attempts: 1, delayMs: 0 } }, 100);
        await waiting(handle);
        const told = Date.now();
        await tell(handle, [{ id: 'd1', attempt: 2, outcome: 'retry', retryAfterMs: 2_000 }]);
        await handle.result();
        expect(r.rounds[1].at - told).toBeGreaterThanOrEqual(2_000 - ROUND_GATHER_MS);
      });
    });

    it('counts what it is told succeeded or failed for good, without another round', async () => {
      const r = handingOff();
      const result = await temporal.withWorker(r.activities, async (q) => {
        const handle = await handOver(q, workflowId('receiver-retries'), { deliveryIds: ['d1', 'd2'], after: { attempts: 1, delayMs: 0 } }, 100);
        await waiting(handle);
        // An end of another attempt than the one out changes nothing; one told twice counts once.
        await tell(handle, [{ id: 'd1', attempt: 5, outcome: 'failed' }]);
        await tell(handle, [
          { id: 'd1', attempt: 2, outcome: 'succeeded' },
          { id: 'd2', attempt: 2, outcome: 'failed' },
          { id: 'd1', attempt: 2, outcome: 'succeeded' },
        ]);
        return handle.result();
      });
      expect(result).toEqual({ succeeded: 1, failed: 1 });
      expect(r.rounds).toHaveLength(1);
      expect(r.gaveUp).toEqual([]);
    });

    it('does not give a last attempt up while it is out; gives it up once told it failed', async () => {
      const r = handingOff();
      const result = await temporal.withWorker(r.activities, async (q) => {
        const handle = await handOver(q, workflowId('receiver-retries'), { deliveryIds: ['d1'], after: { attempts: retry.maximumAttempts - 1, delayMs: 0 } }, 100);
        await waiting(handle);
        await new Promise((resolve) => setTimeout(resolve, 500));
        expect(r.gaveUp).toEqual([]);
        await tell(handle, [{ id: 'd1', attempt: retry.maximumAttempts, outcome: 'retry', retryAfterMs: null }]);
        return handle.result();
      });
      expect(result).toEqual({ succeeded: 0, failed: 1 });
      expect(r.rounds.map((x) => x.items)).toEqual([[['d1', retry.maximumAttempts]]]);
      expect(r.gaveUp).toEqual([['d1']]);
    });

    it('keeps an end told before the round has answered (both can come in one workflow task)', async () => {
      const r = handingOff();
      const telling: Mocked = {
        ...r.activities,
        async attemptWebhookDeliveryRound(items, opts) {
          // The end reaches the run before the round's own answer does.
          await temporal.client().workflow.getHandle(Context.current().info.workflowExecution!.workflowId).signal('round-attempts-ended', [
            { id: 'd1', attempt: 2, outcome: 'succeeded' } satisfies RoundAttemptEnded,
          ]);
          return r.activities.attemptWebhookDeliveryRound(items, opts);
        },
      };
      const started = Date.now();
      const result = await temporal.withWorker(telling, async (q) =>
        (await handOver(q, workflowId('receiver-retries'), { deliveryIds: ['d1'], after: { attempts: 1, delayMs: 0 } }, 100)).result(),
      );
      expect(result).toEqual({ succeeded: 1, failed: 0 });
      expect(r.rounds).toHaveLength(1);
      expect(Date.now() - started).toBeLessThan(retry.timeoutMs + HANDED_OFF_GRACE_MS);
    });

    it('without being told (its worker gone), tries it again once its timeout and the grace have passed', async () => {
      const r = handingOff();
      const result = await temporal.withWorker(r.activities, async (q) =>
        (await handOver(q, workflowId('receiver-retries'), { deliveryIds: ['d1'], after: { attempts: 1, delayMs: 0 } }, 100)).result(),
      );
      expect(result).toEqual({ succeeded: 1, failed: 0 });
      expect(r.rounds.map((x) => x.items)).toEqual([[['d1', 2]], [['d1', 3]]]);
      expect(r.rounds[1].at - r.rounds[0].at).toBeGreaterThanOrEqual(retry.timeoutMs + HANDED_OFF_GRACE_MS - ROUND_GATHER_MS);
    });
  });

  it('takes deliveries until its window closes, then ends once none is pending', async () => {
    const r = receiver(() => 'ok');
    await temporal.withWorker(r.activities, async (q) => {
      const id = workflowId('receiver-retries');
      const handle = await handOver(q, id, { deliveryIds: ['d1'], after: { attempts: 1, delayMs: 0 } }, 1_500);
      await waitUntil(async () => r.rounds.length === 1);
      // Still open: a later hand-over joins the same run.
      expect((await handle.describe()).status.name).toBe('RUNNING');
      await handOver(q, id, { deliveryIds: ['d2'], after: { attempts: 1, delayMs: 0 } });
      expect(await handle.result()).toEqual({ succeeded: 2, failed: 0 });
    });
    expect(r.rounds.map((x) => x.items)).toEqual([[['d1', 2]], [['d2', 2]]]);
  });
});
