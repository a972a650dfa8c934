import { Context } from '@temporalio/activity';
import { createOutboxActivities, type BulkDelivery, type BulkSettings, type OutboxActivityDeps, type RetryGroup } from '../../../workflows/activities/outbox';
import { handoverPump } from '../../../workflows/activities/handovers';
import { GONE, type AttemptOutcome, type AttemptRecord } from '../../../workflows/activities/webhooks';
import type { DeliveryRetry } from '../../../workflows/webhooks/deliver.workflow';
import { waitUntil } from '../../support/wait';
import { activityEnv } from './support';

/**
 * The outbox dispatcher's activity (`dispatchPendingEvents`) with its dependencies injected (no database, no
 * receivers, no Temporal client): which first attempts it makes, bounded in total and per receiver; what it hands to
 * retry groups and when (after the batch's attempts are logged at once); a slow receiver handed off without holding
 * the batch; which events it marks dispatched; and its loop of batches (linger, budget, heartbeat, shutdown).
 */
describe('outbox activities', () => {
  const env = activityEnv;
  const retry: DeliveryRetry = { maximumAttempts: 11, initialIntervalMs: 1_000, maximumIntervalMs: 59_000, timeoutMs: 30_000 };
  /** The hand-off and the linger are out of the way unless a test sets them. */
  const settings: BulkSettings = {
    concurrency: 64,
    perReceiver: 8,
    handoffMs: 60_000,
    slowForMs: 60_000,
    handoverSpacingMs: 0,
    maxEventsInHand: 1_000,
    budgetMs: 60_000,
    lingerMs: 0,
    pollMs: 1,
  };

  const delivery = (id: string, endpointId: number, over: Partial<BulkDelivery> = {}): BulkDelivery => ({
    id,
    status: 'pending',
    body: `{"id":"${id}"}`,
    url: `https://receiver-${endpointId}.example/hook`,
    secrets: ['whsec_dGVzdA=='],
    endpointId,
    attempts: 0,
    label: { owner: { tenantId: 1, customerId: endpointId }, event: 'review.created', url: `https://receiver-${endpointId}.example/hook` },
    ...over,
  });
  const logged = (attempt: number, succeeded: boolean): AttemptRecord => ({
    attempt,
    statusCode: succeeded ? 200 : 503,
    latencyMs: 1,
    error: succeeded ? null : 'The receiver answered 503',
    responseExcerpt: null,
    succeeded,
  });

  interface Batch {
    events: Array<{ eventId: number; deliveryIds: string[] }>;
    deliveries: BulkDelivery[];
  }

  /**
   * A fake outbox answering `batches` one claim after the other (then nothing), and receivers answering each attempt
   * with `answer` (which logs it first, as `createDeliveryAttempt` does). `calls` keeps the order of what was done.
   */
  function outbox(batches: Batch[], over: Partial<OutboxActivityDeps> & { answer?: (d: BulkDelivery) => Promise<AttemptOutcome> | AttemptOutcome } = {}) {
    const { answer = () => ({ kind: 'succeeded' as const }), ...rest } = over;
    const calls: string[] = [];
    const claims: number[] = [];
    /** The events each claim was told to skip (a batch still handing them over). */
    const skips: number[][] = [];
    const attempts: Array<[string, number]> = [];
    const recordedOne: Array<{ deliveryId: string; attempt: AttemptRecord }> = [];
    const recordedMany: Array<Array<{ deliveryId: string; attempt: AttemptRecord }>> = [];
    const groups: Array<{ group: RetryGroup; label: BulkDelivery['label'] }> = [];
    const failed: Array<[string, string]> = [];
    const dispatched: number[][] = [];
    const done: Array<{ workflowId: string; deliveryIds: string[] }> = [];
    const deps: OutboxActivityDeps = {
      async claim(limit, skip) {
        claims.push(limit);
        skips.push([...skip]);
        calls.push('claim');
        const batch = batches.shift() ?? { events: [], deliveries: [] };
        return { events: batch.events, deliveries: new Map(batch.deliveries.map((d) => [d.id, d])) };
      },
      async attempt(d, attempt, record) {
        attempts.push([d.id, attempt]);
        const outcome = await answer(d);
        await record(d.id, logged(attempt, outcome.kind === 'succeeded'));
        return outcome;
      },
      async record(deliveryId, attempt) {
        recordedOne.push({ deliveryId, attempt });
      },
      async recordMany(records) {
        calls.push('recordMany');
        recordedMany.push(records);
      },
      async startRetryGroup(group, opts) {
        calls.push(`group ${group.deliveryIds.join(',')}`);
        groups.push({ group, ...opts });
        // The receiver's retry run (one per receiver and window): its id comes back for the first-attempts signal.
        return `retries-${group.endpointId}`;
      },
      async firstAttemptsEnded(workflowId, deliveryIds) {
        done.push({ workflowId, deliveryIds });
      },
      async fail(deliveryId, reason) {
        failed.push([deliveryId, reason]);
      },
      async markDispatched(eventIds) {
        calls.push('markDispatched');
        dispatched.push(eventIds);
      },
      heartbeat: () => undefined,
      stopping: () => false,
      retry: () => retry,
      settings,
      now: () => 1_000_000,
      ...rest,
    };
    return { deps, activities: createOutboxActivities(deps), calls, claims, skips, attempts, recordedOne, recordedMany, groups, failed, dispatched, done };
  }

  /** A promise settled from outside. */
  function deferred<T = void>() {
    let resolve!: (v: T) => void;
    const promise = new Promise<T>((r) => (resolve = r));
    return { promise, resolve };
  }

  describe('one batch', () => {
    it('makes the first attempt of every pending delivery, logs them together before marking the events dispatched, and answers the events claimed', async () => {
      const o = outbox([
        {
          events: [
            { eventId: 1, deliveryIds: ['a', 'b'] },
            { eventId: 2, deliveryIds: ['c', 'settled', 'given-up'] },
          ],
          deliveries: [delivery('a', 1), delivery('b', 2), delivery('c', 1), delivery('settled', 1, { status: 'succeeded' }), delivery('given-up', 2, { status: 'failed' })],
        },
      ]);
      expect(await env().run(o.activities.dispatchPendingEvents, 25)).toBe(2);
      expect(o.claims).toEqual([25, 25]);
      // Only what is still pending is POSTed, as attempt 1; a settled delivery is never sent again.
      expect(o.attempts.sort()).toEqual([
        ['a', 1],
        ['b', 1],
        ['c', 1],
      ]);
      // The batch's attempt logs go in one write, none one by one.
      expect(o.recordedOne).toEqual([]);
      expect(o.recordedMany).toHaveLength(1);
      expect(o.recordedMany[0].map((r) => r.deliveryId).sort()).toEqual(['a', 'b', 'c']);
      expect(o.recordedMany[0].every((r) => r.attempt.succeeded && r.attempt.attempt === 1)).toBe(true);
      expect(o.groups).toEqual([]);
      expect(o.failed).toEqual([]);
      expect(o.dispatched).toEqual([[1, 2]]);
      // The batch's logs go before its events are marked; the next claim does not wait for them, and skips the events
      // still being handed over.
      expect(o.calls.filter((c) => c !== 'claim')).toEqual(['recordMany', 'markDispatched']);
      expect(o.skips[0]).toEqual([]);
      expect(o.skips[1]).toEqual(o.calls.indexOf('markDispatched') < o.calls.lastIndexOf('claim') ? [] : [1, 2]);
    });

    it('fails a delivery whose receiver is gone (absent from the load) and still marks its event dispatched', async () => {
      const o = outbox([{ events: [{ eventId: 7, deliveryIds: ['gone', 'here'] }], deliveries: [delivery('here', 3)] }]);
      expect(await env().run(o.activities.dispatchPendingEvents, 10)).toBe(1);
      expect(o.attempts).toEqual([['here', 1]]);
      expect(o.failed).toEqual([['gone', GONE]]);
      expect(o.dispatched).toEqual([[7]]);
    });

    it("hands a receiver's retryable failures to one retry group in claim order, after the first interval or the longest Retry-After; fails what failed for good", async () => {
      // Receiver 1's first delivery answers last: the group still lists the receiver's deliveries as claimed (its
      // workflow id is its first delivery's, which a dispatcher retry after a crash must name again).
      const a1Answer = deferred<AttemptOutcome>();
      const o = outbox(
        [
          {
            events: [
              { eventId: 1, deliveryIds: ['a1', 'b1'] },
              { eventId: 2, deliveryIds: ['a2', 'b2'] },
              { eventId: 3, deliveryIds: ['a3'] },
            ],
            deliveries: [delivery('a1', 1), delivery('b1', 2), delivery('a2', 1), delivery('b2', 2), delivery('a3', 1)],
          },
        ],
        {
          answer: (d) => {
            if (d.id === 'a1') return a1Answer.promise;
            if (d.id === 'a2') {
              setImmediate(() => a1Answer.resolve({ kind: 'retry', message: 'The receiver answered 503', delayMs: null }));
              return { kind: 'retry', message: 'The receiver answered 429', delayMs: 5_000 };
            }
            if (d.id === 'b1') return { kind: 'retry', message: 'No answer within 30000 ms', delayMs: null };
            if (d.id === 'b2') return { kind: 'permanent', message: 'The receiver answered 410' };
            return { kind: 'succeeded' };
          },
        },
      );
      expect(await env().run(o.activities.dispatchPendingEvents, 10)).toBe(3);
      expect(o.groups.sort((x, y) => x.group.endpointId - y.group.endpointId)).toEqual([
        { group: { endpointId: 1, deliveryIds: ['a1', 'a2'], after: { attempts: 1, delayMs: 5_000 } }, label: delivery('a1', 1).label },
        { group: { endpointId: 2, deliveryIds: ['b1'], after: { attempts: 1, delayMs: retry.initialIntervalMs } }, label: delivery('b1', 2).label },
      ]);
      expect(o.failed).toEqual([['b2', 'The receiver answered 410']]);
      // Every event's deliveries are settled or in a group: all dispatched, after the attempts are logged.
      expect(o.dispatched).toEqual([[1, 2, 3]]);
      expect(o.calls.indexOf('recordMany')).toBeLessThan(o.calls.findIndex((c) => c.startsWith('group')));

      // Had it died before marking the events, its retry would claim the tried deliveries again and name the same
      // groups (their starts are no-ops).
      const again = outbox([
        {
          events: [
            { eventId: 1, deliveryIds: ['a1', 'b1'] },
            { eventId: 2, deliveryIds: ['a2'] },
          ],
          deliveries: [delivery('a1', 1, { attempts: 1 }), delivery('b1', 2, { attempts: 1 }), delivery('a2', 1, { attempts: 1 })],
        },
      ]);
      await env().run(again.activities.dispatchPendingEvents, 10);
      expect(again.groups.map((g) => g.group.deliveryIds[0]).sort()).toEqual(o.groups.map((g) => g.group.deliveryIds[0]).sort());
    });

    it('hands deliveries tried before this claim (a dispatcher that died after the POST) to a group without POSTing them again', async () => {
      const o = outbox([
        {
          events: [{ eventId: 4, deliveryIds: ['r1', 'r2', 'f1'] }],
          deliveries: [delivery('r1', 5, { attempts: 3 }), delivery('r2', 5, { attempts: 2 }), delivery('f1', 6)],
        },
      ]);
      expect(await env().run(o.activities.dispatchPendingEvents, 10)).toBe(1);
      expect(o.attempts).toEqual([['f1', 1]]);
      // From the fewest attempts any of them had, at once (the group's schedule goes on from there).
      expect(o.groups).toEqual([{ group: { endpointId: 5, deliveryIds: ['r1', 'r2'], after: { attempts: 2, delayMs: 0 } }, label: delivery('r1', 5).label }]);
      expect(o.dispatched).toEqual([[4]]);
    });

    it('leaves the events of a receiver whose retry group could not be started to the next claim, marks the others, and fails the activity', async () => {
      const o = outbox(
        [
          {
            events: [
              { eventId: 1, deliveryIds: ['a1'] },
              { eventId: 2, deliveryIds: ['b1'] },
              { eventId: 3, deliveryIds: ['a2', 'b2'] },
            ],
            deliveries: [delivery('a1', 1), delivery('b1', 2), delivery('a2', 1), delivery('b2', 2)],
          },
        ],
        {
          answer: (d) => (d.endpointId === 2 ? { kind: 'retry', message: 'The receiver answered 500', delayMs: null } : { kind: 'succeeded' }),
          startRetryGroup: async () => Promise.reject(new Error('Temporal unavailable')),
        },
      );
      await expect(env().run(o.activities.dispatchPendingEvents, 10)).rejects.toThrow('Temporal unavailable');
      // Event 2 and 3 went to receiver 2: claimed again by the retry (whose deliveries then go to a group as tried).
      expect(o.dispatched).toEqual([[1]]);
      // The next batch may be claimed while this one hands over (skipping its events); no batch after the failure is.
      expect(o.claims.length).toBeLessThanOrEqual(2);
      if (o.claims.length === 2) expect(o.skips[1]).toEqual([1, 2, 3]);
      expect(o.recordedMany[0]).toHaveLength(4);
    });
  });

  describe('bounded first attempts', () => {
    it('makes at most `concurrency` attempts at once, and at most `perReceiver` to one receiver', async () => {
      let active = 0;
      let most = 0;
      const perReceiver = new Map<number, number>();
      const mostPerReceiver = new Map<number, number>();
      const deliveries = [1, 2, 3].flatMap((endpointId) => [1, 2, 3, 4, 5].map((n) => delivery(`e${endpointId}-${n}`, endpointId)));
      const o = outbox([{ events: [{ eventId: 1, deliveryIds: deliveries.map((d) => d.id) }], deliveries }], {
        settings: { ...settings, concurrency: 4, perReceiver: 2 },
        answer: async (d) => {
          active++;
          most = Math.max(most, active);
          perReceiver.set(d.endpointId, (perReceiver.get(d.endpointId) ?? 0) + 1);
          mostPerReceiver.set(d.endpointId, Math.max(mostPerReceiver.get(d.endpointId) ?? 0, perReceiver.get(d.endpointId)!));
          // Held over a turn of the event loop, so every attempt the limits let start is running side by side.
          await new Promise((r) => setImmediate(r));
          active--;
          perReceiver.set(d.endpointId, perReceiver.get(d.endpointId)! - 1);
          return { kind: 'succeeded' };
        },
      });
      expect(await env().run(o.activities.dispatchPendingEvents, 10)).toBe(1);
      expect(o.attempts).toHaveLength(15);
      expect(most).toBe(4);
      expect([...mostPerReceiver.values()]).toEqual([2, 2, 2]);
    });
  });

  describe('a slow receiver', () => {
    it('is handed off once an attempt waits `handoffMs`: its attempts in flight handed over waiting for their end, those not begun to be tried at once; the batch does not wait', async () => {
      let clock = 1_000_000;
      const answers = new Map<string, ReturnType<typeof deferred<AttemptOutcome>>>();
      const o = outbox(
        [
          {
            events: [
              { eventId: 1, deliveryIds: ['fast', 'slow1'] },
              { eventId: 2, deliveryIds: ['slow2', 'slow3'] },
            ],
            deliveries: [delivery('fast', 1), delivery('slow1', 2), delivery('slow2', 2), delivery('slow3', 2)],
          },
        ],
        {
          settings: { ...settings, perReceiver: 1, handoffMs: 50 },
          now: () => clock,
          answer: (d) => {
            if (d.endpointId === 1) return { kind: 'succeeded' };
            const answer = deferred<AttemptOutcome>();
            answers.set(d.id, answer);
            return answer.promise;
          },
        },
      );
      // The activity answers while receiver 2's first attempt still waits for its answer.
      expect(await env().run(o.activities.dispatchPendingEvents, 10)).toBe(2);
      expect(o.attempts).toEqual([
        ['fast', 1],
        ['slow1', 1],
      ]);
      expect(o.groups).toEqual([
        { group: { endpointId: 2, deliveryIds: ['slow2', 'slow3'], after: { attempts: 0, delayMs: 0 } }, label: delivery('slow2', 2).label },
        // Handed over waiting for the attempt's end (the run waits for the signal, or the attempt's timeout).
        {
          group: { endpointId: 2, deliveryIds: ['slow1'], after: { attempts: 1, delayMs: retry.initialIntervalMs }, awaitingFirstAttempts: true },
          label: delivery('slow1', 2).label,
        },
      ]);
      expect(o.dispatched).toEqual([[1, 2]]);
      expect(o.recordedMany[0].map((r) => r.deliveryId)).toEqual(['fast']);
      expect(o.done).toEqual([]);

      // The attempt ends after its batch: logged on its own, and the receiver's retry run is told it ended.
      answers.get('slow1')!.resolve({ kind: 'retry', message: 'The receiver answered 503', delayMs: null });
      await waitUntil(async () => o.done.length === 1, 5_000, 5);
      expect(o.done[0]).toEqual({ workflowId: 'retries-2', deliveryIds: ['slow1'] });
      expect(o.recordedOne).toEqual([{ deliveryId: 'slow1', attempt: logged(1, false) }]);

      // Within `slowForMs` the receiver's next deliveries go straight to a group, untried; another receiver's are tried.
      o.groups.length = 0;
      const next = outbox([{ events: [{ eventId: 3, deliveryIds: ['fast2', 'slow4'] }], deliveries: [delivery('fast2', 1), delivery('slow4', 2)] }]);
      Object.assign(o.deps, { claim: next.deps.claim });
      clock += settings.slowForMs - 1;
      expect(await env().run(o.activities.dispatchPendingEvents, 10)).toBe(1);
      expect(o.attempts.slice(2)).toEqual([['fast2', 1]]);
      expect(o.groups.map((g) => g.group)).toEqual([{ endpointId: 2, deliveryIds: ['slow4'], after: { attempts: 0, delayMs: 0 } }]);

      // Once it has passed, the receiver's first attempts are made again.
      const later = outbox([{ events: [{ eventId: 4, deliveryIds: ['slow5'] }], deliveries: [delivery('slow5', 2)] }]);
      Object.assign(o.deps, { claim: later.deps.claim });
      clock += 2;
      const run = env().run(o.activities.dispatchPendingEvents, 10);
      await waitUntil(async () => answers.has('slow5'), 5_000, 5);
      answers.get('slow5')!.resolve({ kind: 'succeeded' });
      expect(await run).toBe(1);
      expect(o.attempts.slice(3)).toEqual([['slow5', 1]]);
    });
  });

  describe('the loop of batches', () => {
    /** Batches of `sizes[i]` single-delivery events, on a clock that moves `stepMs` at every claim. */
    function stream(sizes: number[], stepMs: number, loop: Partial<BulkSettings>) {
      let clock = 0;
      let eventId = 0;
      const batches = sizes.map((n) => {
        const events = Array.from({ length: n }, () => ({ eventId: ++eventId, deliveryIds: [`d${eventId}`] }));
        return { events, deliveries: events.map((e) => delivery(e.deliveryIds[0], 1)) };
      });
      const o = outbox(batches, { settings: { ...settings, ...loop }, now: () => clock });
      const claim = o.deps.claim;
      o.deps.claim = (limit, skip) => ((clock += stepMs), claim(limit, skip));
      return o;
    }

    it('claims batch after batch while there are events, and lingers `lingerMs` polling after the outbox is empty (an event then restarts it)', async () => {
      const o = stream([3, 2, 0, 1, 0, 0, 0, 0, 0], 30, { lingerMs: 100 });
      expect(await env().run(o.activities.dispatchPendingEvents, 10)).toBe(6);
      // Empty at t=90 (the event at t=120 restarts the linger), empty from t=150 on, returns at t=150+120 >= 100.
      expect(o.claims).toHaveLength(9);
    });

    it('answers at least `limit` when its budget runs out with events left, so the workflow starts the next round at once', async () => {
      const busy = stream([1, 1, 1], 60, { budgetMs: 100 });
      expect(await env().run(busy.activities.dispatchPendingEvents, 10)).toBe(10);
      expect(busy.claims).toHaveLength(2);
      // Out of budget on an empty outbox: it answers what it handled (the workflow waits for a nudge).
      const idle = stream([1, 0, 0], 60, { budgetMs: 100, lingerMs: 1_000 });
      expect(await env().run(idle.activities.dispatchPendingEvents, 10)).toBe(1);
    });

    it('beats every second while it works, and stops beating when it answers', async () => {
      jest.useFakeTimers({ doNotFake: ['nextTick', 'queueMicrotask', 'setImmediate'] });
      try {
        let beats = 0;
        const claimed = deferred();
        const o = outbox([], { heartbeat: () => void beats++ });
        const claim = o.deps.claim;
        o.deps.claim = async (limit, skip) => (await claimed.promise, claim(limit, skip));
        const run = env().run(o.activities.dispatchPendingEvents, 10);
        await jest.advanceTimersByTimeAsync(3_000);
        expect(beats).toBe(3);
        claimed.resolve();
        expect(await run).toBe(0);
        await jest.advanceTimersByTimeAsync(3_000);
        expect(beats).toBe(3);
      } finally {
        jest.useRealTimers();
      }
    });

    it("ends after the batch in hand once it is cancelled (its worker shutting down), that batch's events marked", async () => {
      const e = env();
      const o = outbox(
        [
          { events: [{ eventId: 1, deliveryIds: ['a'] }], deliveries: [delivery('a', 1)] },
          { events: [{ eventId: 2, deliveryIds: ['b'] }], deliveries: [delivery('b', 1)] },
        ],
        {
          stopping: () => Context.current().cancellationSignal.aborted,
          answer: () => (e.cancel('WORKER_SHUTDOWN'), { kind: 'succeeded' }),
        },
      );
      expect(await e.run(o.activities.dispatchPendingEvents, 10)).toBe(1);
      expect(o.claims).toHaveLength(1);
      expect(o.dispatched).toEqual([[1]]);
    });
  });

  describe('batches that hand over while the next go on', () => {
    /** `n` batches of one event each, to receiver 1 (answers) and receiver 2 (answers 500: a retry group each). */
    const failingStream = (n: number) =>
      Array.from({ length: n }, (_, i) => ({
        events: [{ eventId: i + 1, deliveryIds: [`ok${i + 1}`, `bad${i + 1}`] }],
        deliveries: [delivery(`ok${i + 1}`, 1), delivery(`bad${i + 1}`, 2)],
      }));
    const failing = (d: BulkDelivery): AttemptOutcome => (d.endpointId === 2 ? { kind: 'retry', message: 'The receiver answered 500', delayMs: null } : { kind: 'succeeded' });

    it("makes the next batch's first attempts while a batch's retry group is still being handed over, its claim skipping that batch's events; marks each once its group is in", async () => {
      const started = deferred();
      const o = outbox(failingStream(2), {
        answer: failing,
        startRetryGroup: async (group) => (await started.promise, `retries-${group.endpointId}`),
      });
      const run = env().run(o.activities.dispatchPendingEvents, 10);
      // The second batch's healthy delivery goes out although the first batch's hand-over has not ended.
      await waitUntil(async () => o.attempts.some(([id]) => id === 'ok2'));
      expect(o.dispatched).toEqual([]);
      expect(o.skips[1]).toEqual([1]);
      started.resolve();
      expect(await run).toBe(2);
      expect(o.dispatched.flat().sort()).toEqual([1, 2]);
    });

    it('hands the groups of one receiver and schedule that come within `handoverSpacingMs` over together, each batch learning the run', async () => {
      const handedOver: string[][] = [];
      const o = outbox(failingStream(5), {
        answer: failing,
        settings: { ...settings, handoverSpacingMs: 200 },
        startRetryGroup: async (group) => (handedOver.push(group.deliveryIds), `retries-${group.endpointId}`),
      });
      expect(await env().run(o.activities.dispatchPendingEvents, 10)).toBe(5);
      // The first goes at once; the batches claimed within its spacing (all four, unless the machine stalls) go together.
      expect(handedOver[0]).toEqual(['bad1']);
      expect(handedOver.length).toBeLessThan(5);
      expect(handedOver.flat()).toEqual(['bad1', 'bad2', 'bad3', 'bad4', 'bad5']);
      expect(o.dispatched.flat().sort()).toEqual([1, 2, 3, 4, 5]);
    });

    it('answers the groups of a hand-over that throws at once with its error, and the next group of that receiver still goes', async () => {
      let calls = 0;
      const pump = handoverPump(
        {
          startRetryGroup: (group) => {
            if (++calls === 1) throw new Error('no client');
            return Promise.resolve(`retries-${group.endpointId}`);
          },
          now: () => 0,
        },
        0,
      );
      const group = (id: string): RetryGroup => ({ endpointId: 2, deliveryIds: [id], after: { attempts: 1, delayMs: 1_000 } });
      const label = delivery('x', 2).label;
      await expect(pump.handOver(group('bad1'), label)).rejects.toThrow('no client');
      await expect(pump.handOver(group('bad2'), label)).resolves.toBe('retries-2');
    });

    it('claims no more while `maxEventsInHand` events are being handed over: it waits for the oldest batch', async () => {
      const started = deferred();
      const o = outbox(failingStream(3), {
        answer: failing,
        // Room for one claim of 10 (the limit) beside one event in hand, not beside two.
        settings: { ...settings, maxEventsInHand: 11 },
        startRetryGroup: async (group) => (await started.promise, `retries-${group.endpointId}`),
      });
      const run = env().run(o.activities.dispatchPendingEvents, 10);
      await waitUntil(async () => o.claims.length === 2 && o.attempts.some(([id]) => id === 'bad2'));
      // Two events in hand: a third claim of up to 10 could pass 11, so it waits until a hand-over ends.
      await new Promise((r) => setImmediate(r));
      expect(o.claims).toHaveLength(2);
      started.resolve();
      expect(await run).toBe(3);
      expect(o.skips[2]).not.toContain(1);
    });
  });
});
