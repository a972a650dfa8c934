import { Context } from '@temporalio/activity';
import { createInviteActivities, MESSAGING_UNAVAILABLE, STEP_IN_FLIGHT, type InviteActivityDeps } from '../../../workflows/activities/invites';
import { StepInFlight, type InvitePlan, type StepResult } from '../../../src/messaging/delivery';
import { NotStarted, type DueOutcome, type DueStep } from '../../../src/messaging/send-queue';
import { MessagingUnavailable } from '../../../src/messaging/types';
import { waitUntil } from '../../support/wait';
import { activityEnv, failureOf } from './support';

/**
 * The invite activities with their dependencies injected (no database, no providers): the invite dispatcher's
 * `sendDueInvites` (batches claimed while the previous one is sending, one bound on the sends of all batches, a step
 * that fails unexpectedly put back, the sends finished before it answers whatever ended it, heartbeat, shutdown), and
 * the per-step activities of the legacy `inviteDelivery` with the failures its retry policy knows.
 */
describe('invite activities', () => {
  const env = activityEnv;
  const step = (inviteId: number, kind: DueStep['kind'] = 'first', stepIndex: number | null = kind === 'first' ? null : 1): DueStep => ({ inviteId, stepIndex, kind });
  const sent = (dues: DueStep[]): Array<PromiseSettledResult<DueOutcome>> => dues.map(() => ({ status: 'fulfilled', value: 'sent' }));

  /** A promise settled from outside. */
  function deferred<T = void>() {
    let resolve!: (v: T) => void;
    const promise = new Promise<T>((r) => (resolve = r));
    return { promise, resolve };
  }
  /** One turn of the event loop: whatever the code does next without waiting on I/O or a timer has happened. */
  const turn = () => new Promise((resolve) => setImmediate(resolve));
  /** Whether a promise has settled (it is looked at after a `turn`). */
  const watch = (p: Promise<unknown>) => {
    const state = { settled: false };
    p.then(
      () => (state.settled = true),
      () => (state.settled = true),
    );
    return state;
  };

  /** A send queue answering `batches` one claim after the other (then nothing); `sendDue` as given or all sent. */
  function queue(batches: DueStep[][], over: Partial<InviteActivityDeps> = {}) {
    const claims: number[] = [];
    const handed: DueStep[][] = [];
    const warned: Array<Record<string, unknown>> = [];
    const deferredSteps: Array<[DueStep, unknown]> = [];
    const deps: InviteActivityDeps = {
      plan: async () => ({ action: 'done', inviteId: 0, outcome: 'missing', detail: null }),
      sendStep: async () => ({ outcome: 'sent', reason: null, sendAt: null }),
      failStep: async () => ({ outcome: 'failed', reason: null, sendAt: null }),
      async claimDue(limit) {
        claims.push(limit);
        return batches.shift() ?? [];
      },
      async sendDue(dues) {
        handed.push(dues);
        return { delivered: Promise.resolve(sent(dues)) };
      },
      async defer(due, err) {
        deferredSteps.push([due, err]);
        return 'retry';
      },
      warn: (_message, attrs) => void warned.push(attrs),
      heartbeat: () => undefined,
      stopping: () => false,
      queue: { concurrency: 8, budgetMs: 60_000, lingerMs: 0, pollMs: 1 },
      ...over,
    };
    const sendDue = deps.sendDue;
    deps.sendDue = (dues, run) => (over.sendDue ? (handed.push(dues), sendDue(dues, run)) : sendDue(dues, run));
    return { deps, activities: createInviteActivities(deps), claims, handed, warned, deferredSteps };
  }

  describe('the invite dispatcher (sendDueInvites)', () => {
    it('claims up to `limit` due steps a batch, hands each batch to the sender, and answers how many were due', async () => {
      const q = queue([[step(1), step(2, 'follow-up'), step(3, 'stale', 0)], [step(4)]]);
      expect(await env().run(q.activities.sendDueInvites, 3)).toBe(4);
      expect(q.claims).toEqual([3, 3, 3]);
      expect(q.handed).toEqual([[step(1), step(2, 'follow-up'), step(3, 'stale', 0)], [step(4)], []]);
    });

    it('never hands on again a step it claimed earlier in the same activity (one still due waits for the next activity)', async () => {
      const q = queue([[step(1), step(2)], [step(2), step(3)], [step(3)]]);
      expect(await env().run(q.activities.sendDueInvites, 10)).toBe(3);
      expect(q.handed).toEqual([[step(1), step(2)], [step(3)], []]);
    });

    it('claims the next batch while the previous one is sending, and no further until that one is sent', async () => {
      const sends = [deferred<Array<PromiseSettledResult<DueOutcome>>>(), deferred<Array<PromiseSettledResult<DueOutcome>>>(), deferred<Array<PromiseSettledResult<DueOutcome>>>()];
      const q = queue([[step(1), step(2)], [step(3), step(4)], [step(5)]], {
        sendDue: async (dues) => ({ delivered: dues.length ? sends[q.handed.length - 1].promise : Promise.resolve([]) }),
      });
      const run = env().run(q.activities.sendDueInvites, 2);
      const answered = watch(run);
      await waitUntil(async () => q.claims.length >= 2, 5_000, 5);
      // Batch 1 is sending, batch 2 claimed and sending too: a third claim waits for batch 1.
      await turn();
      expect(q.claims).toHaveLength(2);
      sends[1].resolve(sent([step(3), step(4)]));
      await turn();
      expect(q.claims).toHaveLength(2);
      sends[0].resolve(sent([step(1), step(2)]));
      // Batch 3 claimed (batch 2 was sent already), then a claim that finds nothing: the loop ends, but the last
      // batch's sends are done before the activity answers.
      await waitUntil(async () => q.claims.length === 4, 5_000, 5);
      await turn();
      expect(answered.settled).toBe(false);
      sends[2].resolve(sent([step(5)]));
      expect(await run).toBe(5);
    });

    it('bounds the sends of all its batches together at `concurrency`', async () => {
      let active = 0;
      let most = 0;
      const gate = deferred();
      const q = queue([[1, 2, 3, 4].map((id) => step(id)), [5, 6, 7, 8].map((id) => step(id))], {
        queue: { concurrency: 3, budgetMs: 60_000, lingerMs: 0, pollMs: 1 },
        async sendDue(dues, run) {
          const delivered = Promise.allSettled(
            dues.map(() =>
              run(async (): Promise<DueOutcome> => {
                active++;
                most = Math.max(most, active);
                await gate.promise;
                active--;
                return 'sent';
              }),
            ),
          );
          return { delivered };
        },
      });
      const run = env().run(q.activities.sendDueInvites, 4);
      // Both batches are claimed and sending before any send ends.
      await waitUntil(async () => q.handed.length >= 2, 5_000, 5);
      await turn();
      expect(active).toBe(3);
      gate.resolve();
      expect(await run).toBe(8);
      expect(most).toBe(3);
    });

    it("leaves out of its claims an account with a batch's worth waiting for its share, and sends another account's step in the slot left (H1)", async () => {
      const slow = deferred();
      const started: number[] = [];
      const ofA = [1, 2, 3, 4, 5, 6, 7].map((id) => ({ ...step(id), customerId: 1 }));
      const ofB = { ...step(8), customerId: 2 };
      const answers: DueStep[][] = [ofA, [], [ofB]];
      const excluded: number[][] = [];
      const q = queue([], {
        queue: { concurrency: 4, budgetMs: 60_000, lingerMs: 0, pollMs: 1 },
        async claimDue(_limit, exclude) {
          excluded.push([...(exclude ?? [])]);
          return answers.shift() ?? [];
        },
        async sendDue(dues, run) {
          const delivered = Promise.allSettled(
            dues.map((d) =>
              run(async (): Promise<DueOutcome> => {
                started.push(d.inviteId);
                if (d.customerId === 1) await slow.promise;
                return 'sent';
              }, d.customerId),
            ),
          );
          return { delivered };
        },
      });
      const run = env().run(q.activities.sendDueInvites, 3);
      // Account 1 holds its share (three of the four slots) with four more waiting: the next claims leave it out, and
      // account 2's step, claimed meanwhile, goes in the fourth slot while account 1's sends are still open.
      await waitUntil(async () => started.includes(8), 5_000, 5);
      expect(started.filter((id) => id <= 7)).toEqual([1, 2, 3]);
      expect(excluded.slice(0, 3)).toEqual([[], [1], [1]]);
      slow.resolve();
      expect(await run).toBe(8);
      expect(started).toHaveLength(8);
    });

    it('at its budget, releases the steps still waiting for a slot and answers once the sends under way are done', async () => {
      const hold = deferred();
      let outcomes: Promise<Array<PromiseSettledResult<DueOutcome>>> = Promise.resolve([]);
      const q = queue([[1, 2, 3, 4, 5].map((id) => ({ ...step(id), customerId: 1 }))], {
        queue: { concurrency: 2, budgetMs: 50, lingerMs: 0, pollMs: 1 },
        async sendDue(dues, run) {
          const delivered = Promise.allSettled(
            dues.map((d) =>
              run(async (): Promise<DueOutcome> => {
                await hold.promise;
                return 'sent';
              }, d.customerId),
            ),
          ).then((results) =>
            results.map((r): PromiseSettledResult<DueOutcome> => (r.status === 'rejected' && r.reason instanceof NotStarted ? { status: 'fulfilled', value: 'released' } : r)),
          );
          if (dues.length > 0) outcomes = delivered;
          return { delivered };
        },
      });
      const run = env().run(q.activities.sendDueInvites, 10);
      const answered = watch(run);
      await new Promise((r) => setTimeout(r, 200));
      // Past its budget: one send under way (an account's share of two slots is one), the four waiting released.
      expect(answered.settled).toBe(false);
      hold.resolve();
      expect(await run).toBe(5);
      expect((await outcomes).map((o) => (o.status === 'fulfilled' ? o.value : o.reason))).toEqual(['sent', 'released', 'released', 'released', 'released']);
      expect(q.deferredSteps).toEqual([]);
    });

    it('puts a step that failed unexpectedly back (with a warning) and sends the rest of its batch', async () => {
      const boom = new Error('a rule tripped over this row');
      const q = queue([[step(1), step(2), step(3)]], {
        sendDue: async (dues) => ({
          delivered: Promise.resolve(dues.map((d): PromiseSettledResult<DueOutcome> => (d.inviteId === 2 ? { status: 'rejected', reason: boom } : { status: 'fulfilled', value: 'sent' }))),
        }),
      });
      expect(await env().run(q.activities.sendDueInvites, 10)).toBe(3);
      expect(q.deferredSteps).toEqual([[step(2), boom]]);
      expect(q.warned).toEqual([{ inviteId: 2, kind: 'first', error: 'Error: a rule tripped over this row' }]);
    });

    it('fails (for Temporal to retry) once a step cannot even be put back, after the batch claimed meanwhile is sent', async () => {
      const second = deferred<Array<PromiseSettledResult<DueOutcome>>>();
      const q = queue([[step(1)], [step(2)]], {
        sendDue: async () => ({ delivered: q.handed.length === 1 ? Promise.resolve([{ status: 'rejected', reason: new Error('lock wait timeout') }]) : second.promise }),
        defer: async () => Promise.reject(new Error('database went away')),
      });
      const run = env().run(q.activities.sendDueInvites, 1);
      const answered = watch(run);
      await waitUntil(async () => q.handed.length >= 2, 5_000, 5);
      await turn();
      expect(answered.settled).toBe(false);
      second.resolve(sent([step(2)]));
      await expect(run).rejects.toThrow('database went away');
      expect(q.claims).toHaveLength(2);
    });

    it('fails when a claim fails, after the batch in flight is sent', async () => {
      const first = deferred<Array<PromiseSettledResult<DueOutcome>>>();
      let claims = 0;
      const q = queue([], {
        claimDue: async () => (++claims === 1 ? [step(1)] : Promise.reject(new Error('connection lost'))),
        sendDue: async () => ({ delivered: first.promise }),
      });
      const run = env().run(q.activities.sendDueInvites, 1);
      const answered = watch(run);
      await waitUntil(async () => claims === 2, 5_000, 5);
      await turn();
      expect(answered.settled).toBe(false);
      first.resolve(sent([step(1)]));
      await expect(run).rejects.toThrow('connection lost');
    });

    it('sends a step that becomes due while it lingers', async () => {
      const q = queue([[step(1)], [], [], [step(2)]], { queue: { concurrency: 8, budgetMs: 60_000, lingerMs: 200, pollMs: 1 } });
      expect(await env().run(q.activities.sendDueInvites, 10)).toBe(2);
      expect(q.handed.filter((b) => b.length)).toEqual([[step(1)], [step(2)]]);
    });

    it('beats every second while it works, and stops beating when it answers', async () => {
      jest.useFakeTimers({ doNotFake: ['nextTick', 'queueMicrotask', 'setImmediate'] });
      try {
        let beats = 0;
        const claimed = deferred<DueStep[]>();
        const q = queue([], { heartbeat: () => void beats++, claimDue: () => claimed.promise });
        const run = env().run(q.activities.sendDueInvites, 10);
        await jest.advanceTimersByTimeAsync(3_000);
        expect(beats).toBe(3);
        claimed.resolve([]);
        expect(await run).toBe(0);
        await jest.advanceTimersByTimeAsync(3_000);
        expect(beats).toBe(3);
      } finally {
        jest.useRealTimers();
      }
    });

    it("keeps beating while the last batch's sends finish after the budget, so no second attempt claims them meanwhile", async () => {
      jest.useFakeTimers({ doNotFake: ['nextTick', 'queueMicrotask', 'setImmediate'] });
      try {
        let beats = 0;
        const sending = deferred<Array<PromiseSettledResult<DueOutcome>>>();
        const q = queue([[step(1)]], {
          queue: { concurrency: 8, budgetMs: 0, lingerMs: 0, pollMs: 1 },
          heartbeat: () => void beats++,
          sendDue: async () => ({ delivered: sending.promise }),
        });
        const run = env().run(q.activities.sendDueInvites, 10);
        const answered = watch(run);
        await jest.advanceTimersByTimeAsync(15_000);
        expect(answered.settled).toBe(false);
        expect(beats).toBeGreaterThanOrEqual(14);
        sending.resolve(sent([step(1)]));
        expect(await run).toBe(10);
        const after = beats;
        await jest.advanceTimersByTimeAsync(3_000);
        expect(beats).toBe(after);
      } finally {
        jest.useRealTimers();
      }
    });

    it('ends after the batch in hand once cancelled (its worker shutting down), answering when its sends are done', async () => {
      const e = env();
      const sending = deferred<Array<PromiseSettledResult<DueOutcome>>>();
      const q = queue([[step(1), step(2)], [step(3)]], {
        stopping: () => Context.current().cancellationSignal.aborted,
        sendDue: async () => (e.cancel('WORKER_SHUTDOWN'), { delivered: sending.promise }),
      });
      const run = e.run(q.activities.sendDueInvites, 10);
      const answered = watch(run);
      await waitUntil(async () => q.handed.length === 1, 5_000, 5);
      await turn();
      expect(answered.settled).toBe(false);
      sending.resolve(sent([step(1), step(2)]));
      expect(await run).toBe(2);
      expect(q.claims).toHaveLength(1);
    });
  });

  describe('the per-step activities of inviteDelivery', () => {
    const input = { inviteId: 12, stepIndex: 1, first: false };

    it("answers the stored invite's plan, a step's result, and a failed step's record", async () => {
      const calls: unknown[] = [];
      const plan: InvitePlan = { action: 'send', inviteId: 12, sendAt: '2026-10-01T09:00:00.000Z', steps: [{ index: 0, channel: 'email', offsetMs: 0 }] };
      const result: StepResult = { outcome: 'sent', reason: null, sendAt: null };
      const failed: StepResult = { outcome: 'failed', reason: 'provider_unavailable', sendAt: null };
      const q = queue([], {
        plan: async (id) => (calls.push(['plan', id]), plan),
        sendStep: async (i) => (calls.push(['send', i]), result),
        failStep: async (i) => (calls.push(['fail', i]), failed),
      });
      expect(await env().run(q.activities.planInviteDelivery, 12)).toEqual(plan);
      expect(await env().run(q.activities.sendInviteStep, input)).toEqual(result);
      expect(await env().run(q.activities.failInviteStep, { ...input, reason: 'SMTP down' })).toEqual(failed);
      expect(calls).toEqual([
        ['plan', 12],
        ['send', input],
        ['fail', { ...input, reason: 'SMTP down' }],
      ]);
    });

    it("retries a provider that took nothing (MessagingUnavailable, after its Retry-After) and a claim another attempt holds (StepInFlight); lets anything else through as it is", async () => {
      const throwing = (e: Error) => queue([], { sendStep: async () => Promise.reject(e) }).activities.sendInviteStep;
      const away = await failureOf(env().run(throwing(new MessagingUnavailable('SMTP 421 try later', 30_000)), input));
      expect([away.type, away.nonRetryable, away.nextRetryDelay, away.message]).toEqual([MESSAGING_UNAVAILABLE, false, 30_000, 'SMTP 421 try later']);
      const down = await failureOf(env().run(throwing(new MessagingUnavailable('connect ECONNREFUSED')), input));
      expect([down.type, down.nonRetryable, down.nextRetryDelay]).toEqual([MESSAGING_UNAVAILABLE, false, undefined]);
      const busy = await failureOf(env().run(throwing(new StepInFlight(12, 1)), input));
      expect([busy.type, busy.nonRetryable, busy.message]).toEqual([STEP_IN_FLIGHT, false, 'Step 1 of invite 12 is being sent by another attempt.']);
      const other = new Error('deadlock found');
      await expect(env().run(throwing(other), input)).rejects.toBe(other);
    });
  });
});
