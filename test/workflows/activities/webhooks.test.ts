import {
  createDeliveryAttempt,
  createWebhookActivities,
  GONE,
  type AttemptRecord,
  type LoadedDelivery,
  type RoundAttemptEnded,
  type RoundOutcome,
  type WebhookActivityDeps,
} from '../../../workflows/activities/webhooks';
import { tenantShare } from '../../../workflows/activities/tenant-share';
import { waitUntil } from '../../support/wait';
import { activityEnv, failureOf } from './support';

/**
 * The webhook delivery activities with their dependencies injected (no database, no network): what one attempt sends
 * and logs, how each answer or fault becomes an outcome (succeeded, retry with the receiver's Retry-After, permanent),
 * how the redelivery activity turns them into the failures `deliverWebhook`'s retry policy knows, and a retry group's
 * round (side by side, in the group's order, heartbeating).
 */
describe('webhook activities', () => {
  const env = activityEnv;
  const NOW = new Date('2026-10-01T12:00:00.000Z');
  const pending = (id: string, over: Partial<LoadedDelivery> = {}): LoadedDelivery => ({
    id,
    status: 'pending',
    body: `{"type":"review.created","id":"${id}"}`,
    url: `https://receiver.example/hooks/${id}`,
    secrets: ['whsec_bmV3', 'whsec_b2xk'],
    ...over,
  });

  /** Receivers answering `post`; `recorded` and `failed` keep what the log and the deliveries were told. */
  function receiver(over: Partial<WebhookActivityDeps> = {}) {
    const recorded: Array<[string, AttemptRecord]> = [];
    const failed: Array<[string, string]> = [];
    const posted: Array<{ url: string; headers: Record<string, string>; body: string; signal: AbortSignal }> = [];
    const signed: unknown[] = [];
    const deps: WebhookActivityDeps = {
      load: async (id) => pending(id),
      loadMany: async (ids) => new Map(ids.map((id) => [id, pending(id)])),
      gaveUp: async () => undefined,
      heartbeat: () => undefined,
      record: async (id, attempt) => void recorded.push([id, attempt]),
      fail: async (id, reason) => void failed.push([id, reason]),
      sign: (input) => (signed.push(input), { 'webhook-id': input.id, 'webhook-signature': `v1,sig-of-${input.body.length}` }),
      checkUrl: async () => undefined,
      post: async () => new Response('ok', { status: 200 }),
      refused: () => null,
      timeoutMs: 5_000,
      userAgent: 'ReviewGrid-Webhooks/1.0',
      now: () => NOW,
      ...over,
    };
    const postFn = deps.post;
    deps.post = (url, init) => (posted.push({ url, ...init }), postFn(url, init));
    return { deps, recorded, failed, posted, signed };
  }
  const attemptWith = (over: Partial<WebhookActivityDeps>) => {
    const r = receiver(over);
    return { ...r, attempt: createDeliveryAttempt(r.deps) };
  };
  /** An error as the guarded client throws for a connection that failed (undici: the reason in `cause`). */
  const fetchFailed = (cause: string) => Object.assign(new TypeError('fetch failed'), { cause: new Error(cause) });

  describe('one attempt (createDeliveryAttempt)', () => {
    it('POSTs the stored body, signed now with every secret, and logs what it sent and what came back', async () => {
      const r = attemptWith({ post: async () => new Response('{"received":true}', { status: 202, headers: { 'X-Request-Id': 'req-1' } }) });
      expect(await r.attempt(pending('msg_1'), 3)).toEqual({ kind: 'succeeded' });
      expect(r.signed).toEqual([{ id: 'msg_1', timestamp: NOW, body: pending('msg_1').body, secrets: ['whsec_bmV3', 'whsec_b2xk'] }]);
      expect(r.posted).toHaveLength(1);
      expect(r.posted[0]).toMatchObject({
        url: 'https://receiver.example/hooks/msg_1',
        body: pending('msg_1').body,
        headers: { 'Content-Type': 'application/json', 'User-Agent': 'ReviewGrid-Webhooks/1.0', 'webhook-id': 'msg_1', 'webhook-signature': `v1,sig-of-${pending('msg_1').body.length}` },
      });
      expect(r.posted[0].signal).toBeInstanceOf(AbortSignal);
      expect(r.recorded).toEqual([
        [
          'msg_1',
          {
            attempt: 3,
            statusCode: 202,
            latencyMs: expect.any(Number),
            error: null,
            responseExcerpt: '{"received":true}',
            requestHeaders: { 'content-type': 'application/json', 'user-agent': 'ReviewGrid-Webhooks/1.0', 'webhook-id': 'msg_1', 'webhook-signature': `v1,sig-of-${pending('msg_1').body.length}` },
            responseHeaders: expect.objectContaining({ 'x-request-id': 'req-1' }),
            succeeded: true,
          },
        ],
      ]);
    });

    it.each([
      [400, 'permanent'],
      [404, 'permanent'],
      [410, 'permanent'],
      [408, 'retry'],
      [429, 'retry'],
      [500, 'retry'],
      [503, 'retry'],
      [307, 'retry'],
    ] as const)('answers %i as a failed attempt to %s', async (status, kind) => {
      const r = attemptWith({ post: async () => new Response(status === 307 ? null : 'nope', { status }) });
      expect(await r.attempt(pending('msg_1'), 1)).toEqual(kind === 'retry' ? { kind, message: `The receiver answered ${status}`, delayMs: null } : { kind, message: `The receiver answered ${status}` });
      expect(r.recorded[0][1]).toMatchObject({ statusCode: status, error: `The receiver answered ${status}`, responseExcerpt: status === 307 ? null : 'nope', succeeded: false });
    });

    it("waits a 429's Retry-After, in seconds or as an HTTP date", async () => {
      const answer = (retryAfter: string) => attemptWith({ post: async () => new Response(null, { status: 429, headers: { 'Retry-After': retryAfter } }) }).attempt(pending('msg_1'), 1);
      expect(await answer('120')).toEqual({ kind: 'retry', message: 'The receiver answered 429', delayMs: 120_000 });
      expect(await answer(new Date(NOW.getTime() + 90_000).toUTCString())).toEqual({ kind: 'retry', message: 'The receiver answered 429', delayMs: 90_000 });
      expect(await answer('soon')).toEqual({ kind: 'retry', message: 'The receiver answered 429', delayMs: null });
    });

    it("cuts a Retry-After longer than the schedule's longest interval to it (10 retries stay within minutes)", async () => {
      const answer = (retryAfter: string) =>
        attemptWith({ maxRetryAfterMs: 59_000, post: async () => new Response(null, { status: 429, headers: { 'Retry-After': retryAfter } }) }).attempt(pending('msg_1'), 1);
      expect(await answer('86400')).toEqual({ kind: 'retry', message: 'The receiver answered 429', delayMs: 59_000 });
      expect(await answer(new Date(NOW.getTime() + 3_600_000).toUTCString())).toEqual({ kind: 'retry', message: 'The receiver answered 429', delayMs: 59_000 });
      expect(await answer('20')).toEqual({ kind: 'retry', message: 'The receiver answered 429', delayMs: 20_000 });
    });

    it('refuses a URL the policy rejects without POSTing, for good unless its name did not resolve', async () => {
      const refusing = (e: Error) => attemptWith({ checkUrl: async () => Promise.reject(e) });
      const privateAddress = refusing(Object.assign(new Error('The URL points to a private address'), { reason: 'private_address' }));
      expect(await privateAddress.attempt(pending('msg_1'), 1)).toEqual({ kind: 'permanent', message: 'The URL points to a private address' });
      expect(privateAddress.posted).toEqual([]);
      expect(privateAddress.recorded[0][1]).toMatchObject({ statusCode: null, error: 'The URL points to a private address', requestHeaders: null, responseHeaders: null, succeeded: false });
      const dns = refusing(Object.assign(new Error('receiver.example does not resolve'), { reason: 'unresolvable_host' }));
      expect(await dns.attempt(pending('msg_1'), 1)).toEqual({ kind: 'retry', message: 'receiver.example does not resolve', delayMs: null });
    });

    it('logs a refusal at connect time (the address policy) as the policy says, and a failed connection as one to retry', async () => {
      const policy = (transient: boolean) => attemptWith({ post: async () => Promise.reject(fetchFailed('blocked')), refused: () => ({ message: 'Resolves to 10.0.0.1, a private address', transient }) });
      const refused = policy(false);
      expect(await refused.attempt(pending('msg_1'), 1)).toEqual({ kind: 'permanent', message: 'Resolves to 10.0.0.1, a private address' });
      // The headers were sent for: the log shows them even though no answer came.
      expect(refused.recorded[0][1]).toMatchObject({ statusCode: null, requestHeaders: expect.objectContaining({ 'webhook-id': 'msg_1' }), responseHeaders: null });
      expect(await policy(true).attempt(pending('msg_1'), 1)).toMatchObject({ kind: 'retry', delayMs: null });
      const down = attemptWith({ post: async () => Promise.reject(fetchFailed('connect ECONNREFUSED 203.0.113.7:443')) });
      expect(await down.attempt(pending('msg_1'), 1)).toEqual({ kind: 'retry', message: 'Connection failed: connect ECONNREFUSED 203.0.113.7:443', delayMs: null });
    });

    it('gives up on a receiver that does not answer within `timeoutMs` (the POST is aborted), as one to retry', async () => {
      const r = attemptWith({
        timeoutMs: 20,
        // fetch rejects with the signal's reason, a TimeoutError DOMException: Node's own class, which is no `Error` of
        // Jest's sandbox (a worker process has one realm), so the fake rejects with a TimeoutError of this one.
        post: (_url, init) =>
          new Promise((_resolve, reject) => init.signal.addEventListener('abort', () => reject(Object.assign(new Error((init.signal.reason as Error).message), { name: (init.signal.reason as Error).name })))),
      });
      expect(await r.attempt(pending('msg_1'), 1)).toEqual({ kind: 'retry', message: 'No answer within 20 ms', delayMs: null });
      expect(r.recorded[0][1]).toMatchObject({ error: 'No answer within 20 ms', statusCode: null });
    });

    it('logs at most 500 characters of an error', async () => {
      const r = attemptWith({ post: async () => Promise.reject(fetchFailed('x'.repeat(600))) });
      const outcome = await r.attempt(pending('msg_1'), 1);
      expect(outcome.kind === 'retry' && outcome.message.length).toBe('Connection failed: '.length + 600);
      expect(r.recorded[0][1].error).toHaveLength(500);
    });
  });

  describe('a redelivery attempt (attemptWebhookDelivery)', () => {

    it("POSTs the stored delivery as Temporal's attempt number and completes on success", async () => {
      const loaded: string[] = [];
      const r = receiver({ load: async (id) => (loaded.push(id), pending(id)) });
      await env(4).run(createWebhookActivities(r.deps).attemptWebhookDelivery, 'msg_9');
      expect(loaded).toEqual(['msg_9']);
      expect(r.posted.map((p) => p.url)).toEqual(['https://receiver.example/hooks/msg_9']);
      expect(r.recorded.map(([id, a]) => [id, a.attempt, a.succeeded])).toEqual([['msg_9', 4, true]]);
    });

    it('sends nothing for a delivery that already succeeded', async () => {
      const r = receiver({ load: async (id) => pending(id, { status: 'succeeded' }) });
      await env().run(createWebhookActivities(r.deps).attemptWebhookDelivery, 'msg_9');
      expect(r.posted).toEqual([]);
    });

    it('stops for good (PermanentDeliveryFailure, not retried) on a delivery gone and on a permanent outcome', async () => {
      const gone = await failureOf(env().run(createWebhookActivities(receiver({ load: async () => null }).deps).attemptWebhookDelivery, 'msg_9'));
      expect([gone.type, gone.nonRetryable, gone.message]).toEqual(['PermanentDeliveryFailure', true, GONE]);
      const refused = await failureOf(env().run(createWebhookActivities(receiver({ post: async () => new Response(null, { status: 410 }) }).deps).attemptWebhookDelivery, 'msg_9'));
      expect([refused.type, refused.nonRetryable, refused.message]).toEqual(['PermanentDeliveryFailure', true, 'The receiver answered 410']);
    });

    it("is retried (DeliveryFailure) on a failed attempt, after the receiver's Retry-After when it gave one", async () => {
      const busy = await failureOf(
        env().run(createWebhookActivities(receiver({ post: async () => new Response(null, { status: 429, headers: { 'Retry-After': '30' } }) }).deps).attemptWebhookDelivery, 'msg_9'),
      );
      expect([busy.type, busy.nonRetryable, busy.nextRetryDelay, busy.message]).toEqual(['DeliveryFailure', false, 30_000, 'The receiver answered 429']);
      const down = await failureOf(env().run(createWebhookActivities(receiver({ post: async () => new Response(null, { status: 502 }) }).deps).attemptWebhookDelivery, 'msg_9'));
      expect([down.type, down.nonRetryable, down.nextRetryDelay]).toEqual(['DeliveryFailure', false, undefined]);
    });
  });

  describe("a retry group's round (attemptWebhookDeliveries)", () => {
    it('POSTs every pending delivery as attempt `attempt`, fails the gone and the refused, and answers the rest to retry in the group order with the longest Retry-After', async () => {
      const statuses: Record<string, number> = { ok: 200, busy1: 429, down: 503, busy2: 429, refused: 404 };
      const answered: string[] = [];
      const r = receiver({
        loadMany: async (ids) =>
          new Map(
            ids
              .filter((id) => id !== 'gone')
              .map((id) => [id, pending(id, { status: id === 'done' ? 'succeeded' : id === 'given-up' ? 'failed' : 'pending' })]),
          ),
        post: async (url) => {
          const id = url.split('/').pop()!;
          // The group's first delivery answers last.
          if (id === 'busy1') await new Promise((resolve) => setImmediate(resolve));
          answered.push(id);
          return new Response(null, { status: statuses[id], headers: id === 'busy1' ? { 'Retry-After': '20' } : id === 'busy2' ? { 'Retry-After': '45' } : {} });
        },
      });
      const ids = ['busy1', 'ok', 'gone', 'down', 'done', 'given-up', 'busy2', 'refused'];
      const round = await env().run(createWebhookActivities(r.deps).attemptWebhookDeliveries, ids, 5);
      expect(round).toEqual({ succeeded: 2, retry: ['busy1', 'down', 'busy2'], retryAfterMs: 45_000 });
      expect(answered.at(-1)).toBe('busy1');
      // Settled ones are not POSTed again; every POST is this round's attempt number.
      expect(r.posted.map((p) => p.url.split('/').pop()).sort()).toEqual(['busy1', 'busy2', 'down', 'ok', 'refused']);
      expect(r.recorded.every(([, a]) => a.attempt === 5)).toBe(true);
      expect(r.failed.sort()).toEqual([
        ['gone', GONE],
        ['refused', 'The receiver answered 404'],
      ]);
    });

    it('answers no Retry-After when no receiver asked for one', async () => {
      const r = receiver({ post: async () => new Response(null, { status: 500 }) });
      expect(await env().run(createWebhookActivities(r.deps).attemptWebhookDeliveries, ['a', 'b'], 2)).toEqual({ succeeded: 0, retry: ['a', 'b'], retryAfterMs: null });
    });

    it('POSTs the whole group side by side', async () => {
      let active = 0;
      let most = 0;
      const r = receiver({
        post: async () => {
          active++;
          most = Math.max(most, active);
          await new Promise((resolve) => setImmediate(resolve));
          active--;
          return new Response(null, { status: 204 });
        },
      });
      const ids = Array.from({ length: 12 }, (_, i) => `d${i}`);
      expect(await env().run(createWebhookActivities(r.deps).attemptWebhookDeliveries, ids, 2)).toEqual({ succeeded: 12, retry: [], retryAfterMs: null });
      expect(most).toBe(12);
    });

    it('beats every second while its POSTs wait for answers, and stops beating when it answers', async () => {
      jest.useFakeTimers({ doNotFake: ['nextTick', 'queueMicrotask', 'setImmediate'] });
      try {
        let beats = 0;
        let answer!: () => void;
        const answered = new Promise<void>((resolve) => (answer = resolve));
        const r = receiver({ heartbeat: () => void beats++, post: async () => (await answered, new Response(null, { status: 200 })) });
        const round = env().run(createWebhookActivities(r.deps).attemptWebhookDeliveries, ['a'], 2);
        await jest.advanceTimersByTimeAsync(2_000);
        expect(beats).toBe(2);
        answer();
        expect(await round).toMatchObject({ succeeded: 1 });
        await jest.advanceTimersByTimeAsync(2_000);
        expect(beats).toBe(2);
      } finally {
        jest.useRealTimers();
      }
    });
  });

  describe("a receiver's retry round (attemptWebhookDeliveryRound)", () => {
    it('POSTs each pending delivery with its own attempt number, fails the gone and the refused, and answers what succeeded and what to retry with each Retry-After', async () => {
      const statuses: Record<string, number> = { ok: 200, busy: 429, down: 503, refused: 404 };
      const r = receiver({
        loadMany: async (ids) => new Map(ids.filter((id) => id !== 'gone').map((id) => [id, pending(id, { status: id === 'done' ? 'succeeded' : 'pending' })])),
        post: async (url) => {
          const id = url.split('/').pop()!;
          return new Response(null, { status: statuses[id], headers: id === 'busy' ? { 'Retry-After': '20' } : {} });
        },
      });
      const items = [
        { id: 'ok', attempt: 2 },
        { id: 'busy', attempt: 4 },
        { id: 'down', attempt: 7 },
        { id: 'refused', attempt: 3 },
        { id: 'gone', attempt: 2 },
        { id: 'done', attempt: 5 },
      ];
      const round: RoundOutcome = await env().run(createWebhookActivities(r.deps).attemptWebhookDeliveryRound, items);
      expect(round.succeeded.sort()).toEqual(['done', 'ok']);
      expect(round.retry.sort((a, b) => a.id.localeCompare(b.id))).toEqual([
        { id: 'busy', retryAfterMs: 20_000 },
        { id: 'down', retryAfterMs: null },
      ]);
      // Each POST is logged as its delivery's own attempt; the settled one is not sent again.
      expect(Object.fromEntries(r.recorded.map(([id, a]) => [id, a.attempt]))).toEqual({ ok: 2, busy: 4, down: 7, refused: 3 });
      expect(r.failed.sort()).toEqual([
        ['gone', GONE],
        ['refused', 'The receiver answered 404'],
      ]);
    });

    it('logs the whole round in one call once every POST has ended, before failing what failed for good', async () => {
      const order: string[] = [];
      const batches: Array<Array<{ deliveryId: string; attempt: AttemptRecord }>> = [];
      const r = receiver({
        post: async (url) => new Response(null, { status: url.endsWith('/bad') ? 410 : 204 }),
        record: async () => void order.push('record one'),
        recordMany: async (records) => void (batches.push(records), order.push('record many')),
        fail: async (id) => void order.push(`fail ${id}`),
      });
      const items = ['a', 'b', 'bad'].map((id) => ({ id, attempt: 3 }));
      const round: RoundOutcome = await env().run(createWebhookActivities(r.deps).attemptWebhookDeliveryRound, items);
      expect([round.succeeded.sort(), round.retry]).toEqual([['a', 'b'], []]);
      expect(order).toEqual(['record many', 'fail bad']);
      expect(batches[0].map((b) => [b.deliveryId, b.attempt.attempt, b.attempt.succeeded]).sort()).toEqual([
        ['a', 3, true],
        ['b', 3, true],
        ['bad', 3, false],
      ]);
    });

    it('POSTs nothing for a delivery another run holds and answers it as elsewhere; claims the rest under its workflow id', async () => {
      const claims: Array<[string[], string]> = [];
      const loadedIds: string[][] = [];
      const r = receiver({
        claim: async (ids, owner) => (claims.push([ids, owner]), new Set(['theirs'])),
        loadMany: async (ids) => (loadedIds.push(ids), new Map(ids.map((id) => [id, pending(id)]))),
      });
      const items = [
        { id: 'mine', attempt: 2 },
        { id: 'theirs', attempt: 2 },
      ];
      const round: RoundOutcome = await env().run(createWebhookActivities(r.deps).attemptWebhookDeliveryRound, items);
      expect(round).toEqual({ succeeded: ['mine'], retry: [], elsewhere: ['theirs'] });
      expect(r.posted.map((p) => p.url.split('/').pop())).toEqual(['mine']);
      expect(claims).toEqual([[['mine', 'theirs'], env().context.info.workflowExecution!.workflowId]]);
      expect(loadedIds).toEqual([['mine']]);
    });
  });

  describe("a retry round that lets its slot go (handoff: WEBHOOK_RETRY_HANDOFF_MS) and each tenant's share of the slots", () => {
    /** A POST that stays unanswered until `answer` is called (a receiver that hangs, or is slow). */
    function held() {
      let answer: (status: number) => void = () => undefined;
      const response = new Promise<Response>((resolve) => (answer = (status) => resolve(new Response(null, { status }))));
      return { response, answer: (status: number) => answer(status) };
    }

    it('answers after `roundHandoffMs` what has ended, the attempts still out as inFlight; logs each when it ends, then tells the run how', async () => {
      const slow = held();
      const late = held();
      const order: string[] = [];
      const batches: Array<Array<[string, number, boolean]>> = [];
      const told: Array<[string, RoundAttemptEnded[]]> = [];
      const share = tenantShare({ slots: 5, deferMs: 1_000 });
      const r = receiver({
        loadMany: async (ids) => new Map(ids.map((id) => [id, pending(id, { tenantId: 3 })])),
        post: async (url) => (url.endsWith('/slow') ? slow.response : url.endsWith('/late') ? late.response : new Response(null, { status: 503 })),
        recordMany: async (records) => void (batches.push(records.map((x) => [x.deliveryId, x.attempt.attempt, x.attempt.succeeded])), order.push('record')),
        fail: async (id) => void order.push(`fail ${id}`),
        roundHandoffMs: 50,
        roundAttemptsEnded: async (workflowId, ended) => void (told.push([workflowId, ended]), order.push('tell')),
        tenantShare: share,
      });
      const items = [
        { id: 'down', attempt: 2 },
        { id: 'slow', attempt: 3 },
        { id: 'late', attempt: 4 },
      ];
      const started = Date.now();
      const round: RoundOutcome = await env().run(createWebhookActivities(r.deps).attemptWebhookDeliveryRound, items, { handoff: true });
      expect(Date.now() - started).toBeLessThan(1_000);
      expect(round).toEqual({ succeeded: [], retry: [{ id: 'down', retryAfterMs: null }], elsewhere: [], inFlight: ['slow', 'late'] });
      // What ended is logged by the round; the round's place in its tenant's share is free again.
      expect(batches).toEqual([[['down', 2, false]]]);
      expect(share.running(3)).toBe(0);
      expect(told).toEqual([]);

      slow.answer(204);
      late.answer(410);
      await waitUntil(async () => told.length > 0, 5_000, 10);
      // Both ended within the gathering time: one log, the permanent failure marked, then one signal to the run.
      expect(order).toEqual(['record', 'record', 'fail late', 'tell']);
      expect(batches[1].sort()).toEqual([
        ['late', 4, false],
        ['slow', 3, true],
      ]);
      expect(told).toEqual([
        [
          env().context.info.workflowExecution!.workflowId,
          expect.arrayContaining([
            { id: 'slow', attempt: 3, outcome: 'succeeded' },
            { id: 'late', attempt: 4, outcome: 'failed' },
          ]),
        ],
      ]);
      expect(told[0][1]).toHaveLength(2);
    });

    it('tells the run nothing about an attempt whose log failed (the run tries it again after its timeout)', async () => {
      const slow = held();
      let calls = 0;
      const told: RoundAttemptEnded[][] = [];
      const r = receiver({
        post: async () => slow.response,
        recordMany: async () => {
          if (++calls > 1) throw new Error('database gone');
        },
        roundHandoffMs: 20,
        roundAttemptsEnded: async (_id, ended) => void told.push(ended),
      });
      const round: RoundOutcome = await env().run(createWebhookActivities(r.deps).attemptWebhookDeliveryRound, [{ id: 'slow', attempt: 2 }], { handoff: true });
      expect(round.inFlight).toEqual(['slow']);
      slow.answer(500);
      await waitUntil(async () => calls === 2, 5_000, 10);
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(told).toEqual([]);
    });

    it('waits for every answer when the run did not ask for a hand-off (runs from before it)', async () => {
      const slow = held();
      const r = receiver({ post: async () => slow.response, roundHandoffMs: 20, roundAttemptsEnded: async () => undefined });
      setTimeout(() => slow.answer(200), 150);
      const started = Date.now();
      const round: RoundOutcome = await env().run(createWebhookActivities(r.deps).attemptWebhookDeliveryRound, [{ id: 'slow', attempt: 2 }]);
      expect(Date.now() - started).toBeGreaterThanOrEqual(140);
      expect(round).toEqual({ succeeded: ['slow'], retry: [], elsewhere: [] });
    });

    it("defers a round of a tenant whose rounds hold its whole share, POSTing nothing and using up no attempt; another tenant's round goes", async () => {
      const hang = held();
      const share = tenantShare({ slots: 1, deferMs: 1_000 }, () => 0);
      const r = receiver({
        loadMany: async (ids) => new Map(ids.map((id) => [id, pending(id, { tenantId: id.startsWith('a-') ? 1 : 2 })])),
        post: async (url) => (url.endsWith('/a-hang') ? hang.response : new Response(null, { status: 200 })),
        tenantShare: share,
      });
      const round = createWebhookActivities(r.deps).attemptWebhookDeliveryRound;
      const first = env().run(round, [{ id: 'a-hang', attempt: 2 }]);
      await waitUntil(async () => r.posted.length === 1, 5_000, 10);
      expect(share.running(1)).toBe(1);

      const deferred = await failureOf(env().run(round, [{ id: 'a-next', attempt: 2 }]));
      expect(deferred.type).toBe('RetryRoundDeferred');
      expect(deferred.nonRetryable).toBe(false);
      expect(deferred.nextRetryDelay).toBe(1_000);
      expect(r.posted.map((p) => p.url.split('/').pop())).toEqual(['a-hang']);
      expect(r.recorded.map(([id]) => id)).toEqual([]);

      expect(await env().run(round, [{ id: 'b-other', attempt: 2 }])).toEqual({ succeeded: ['b-other'], retry: [], elsewhere: [] });
      hang.answer(200);
      expect(await first).toEqual({ succeeded: ['a-hang'], retry: [], elsewhere: [] });
      expect(share.running(1)).toBe(0);
      expect(await env().run(round, [{ id: 'a-next', attempt: 2 }])).toEqual({ succeeded: ['a-next'], retry: [], elsewhere: [] });
    });
  });

  describe('settling deliveries', () => {
    it('marks what a group still has pending after its last attempt failed, and one redelivery failed with its reason', async () => {
      const gaveUp: string[][] = [];
      const owners: Array<string | undefined> = [];
      const r = receiver({ gaveUp: async (ids, owner) => void (gaveUp.push(ids), owners.push(owner)) });
      const a = createWebhookActivities(r.deps);
      await env().run(a.markWebhookDeliveriesGaveUp, ['a', 'b']);
      await env().run(a.markWebhookDeliveryFailed, 'c', 'The receiver answered 500');
      expect(gaveUp).toEqual([['a', 'b']]);
      // Only what no other run holds: the run names itself.
      expect(owners).toEqual([env().context.info.workflowExecution!.workflowId]);
      expect(r.failed).toEqual([['c', 'The receiver answered 500']]);
    });
  });
});
