import type { DeliveryLabel } from '../client';
import type { DeliveryRetry } from '../webhooks/deliver.workflow';
import { intervalAfter } from '../webhooks/deliver.workflow';
import type { RetryCohort } from '../webhooks/receiver-retries.workflow';
import { runBatches, type BatchLoopSettings } from './batches';
import { handoverPump } from './handovers';
import { limiter } from './limiter';
import { GONE, type AttemptOutcome, type AttemptRecord, type LoadedDelivery } from './webhooks';

/** A claimed delivery as the first attempt needs it (absent from the load: gone, or its receiver deleted or disabled). */
export interface BulkDelivery extends LoadedDelivery {
  endpointId: number;
  /** POSTs made so far: more than 0 on a claim after a crash (its retries are then a group's). */
  attempts: number;
  label: DeliveryLabel;
}

/**
 * How first attempts run: bounded in total and per receiver; `handoffMs` is how long one receiver may hold its batch;
 * the activity's budget, linger and poll as for every dispatcher (`runBatches`).
 */
export interface BulkSettings extends BatchLoopSettings {
  concurrency: number;
  perReceiver: number;
  /** A first attempt unanswered after this long hands its receiver's share of the batch to retry groups. */
  handoffMs: number;
  /** A receiver that needed a hand-off gets its deliveries straight as a retry group for this long. */
  slowForMs: number;
  /** A receiver's retry run gets at most one hand-over per schedule this often; groups meanwhile go together. */
  handoverSpacingMs: number;
  /**
   * Events of batches still handing over (their retry groups and marks), at most: the next batches go on meanwhile
   * (their claims skip those events); beyond it a batch waits for the oldest to finish.
   */
  maxEventsInHand: number;
}

/** A group of one receiver's deliveries to retry, as its receiver's retry run takes it (`retryReceiverDeliveries`). */
export type RetryGroup = RetryCohort & { endpointId: number };

export interface OutboxActivityDeps {
  /**
   * Undispatched events (but those in `skip`, which a batch still hands over) with one delivery per enabled receiver (the same ids on a retry), and those deliveries as the
   * attempts need them (absent: the receiver is gone or disabled).
   */
  claim(limit: number, skip: readonly number[]): Promise<{ events: Array<{ eventId: number; deliveryIds: string[] }>; deliveries: Map<string, BulkDelivery> }>;
  /** One POST (`createDeliveryAttempt`), logged through `record`. */
  attempt(delivery: BulkDelivery, attempt: number, record: (deliveryId: string, attempt: AttemptRecord) => Promise<void>): Promise<AttemptOutcome>;
  /** Logs one attempt now (an attempt that ends after its batch let go of it). */
  record(deliveryId: string, attempt: AttemptRecord): Promise<void>;
  /** Logs a batch's attempts at once. */
  recordMany(records: Array<{ deliveryId: string; attempt: AttemptRecord }>): Promise<void>;
  /**
   * Hands the group to the retry run of its receiver and the current window (started by the first group, joined by
   * the others; a group handed over twice counts once); answers that run's workflow id.
   */
  startRetryGroup(group: RetryGroup, opts: { label: DeliveryLabel }): Promise<string>;
  /** Tells that run the first attempts of these deliveries have ended (their retries may begin). */
  firstAttemptsEnded(workflowId: string, deliveryIds: string[]): Promise<void>;
  fail(deliveryId: string, reason: string): Promise<void>;
  markDispatched(eventIds: number[]): Promise<void>;
  /** Tells Temporal the activity is alive (a killed worker's batch is retried elsewhere within the heartbeat timeout). */
  heartbeat(): void;
  /** The activity was asked to stop (its worker is shutting down): it ends after the batch in hand. */
  stopping(): boolean;
  retry(): DeliveryRetry;
  settings: BulkSettings;
  now(): number;
  /**
   * Looks for redeliveries whose run never started (`resumeUnstartedRedeliveries`); called by the dispatcher's activity
   * at most once per REDELIVERY_SWEEP_MS per worker process; it logs its own failure, which is never the batch's.
   */
  resumeRedeliveries?: () => Promise<unknown>;
}

/** How often a worker process looks for redeliveries whose run never started. */
export const REDELIVERY_SWEEP_MS = 60_000;

/**
 * Attempt logs of a batch, written together (`flush`) before the batch hands anything on; an attempt that ends after
 * the flush (one left in the background) is logged on its own.
 */
function recorder(deps: Pick<OutboxActivityDeps, 'record' | 'recordMany'>) {
  let buffer: Array<{ deliveryId: string; attempt: AttemptRecord }> | null = [];
  return {
    record: async (deliveryId: string, attempt: AttemptRecord): Promise<void> => {
      if (buffer) buffer.push({ deliveryId, attempt });
      else await deps.record(deliveryId, attempt);
    },
    async flush(): Promise<void> {
      const records = buffer ?? [];
      buffer = null;
      await deps.recordMany(records);
    },
  };
}
type Recorder = ReturnType<typeof recorder>;

/**
 * The batches of one activity that are still handing over: their events (which the next claims skip) and the first
 * failure among them (which ends the activity at the next batch, as a failed hand-over always did).
 */
function inHand(maxEvents: number) {
  const tails = new Map<Promise<void>, number[]>();
  const count = () => [...tails.values()].reduce((n, ids) => n + ids.length, 0);
  let failure: { reason: unknown } | null = null;
  const check = () => {
    if (failure) throw failure.reason;
  };
  return {
    eventIds: (): number[] => [...tails.values()].flat(),
    add(eventIds: number[], tail: Promise<void>): void {
      const settled: Promise<void> = tail
        .catch((reason: unknown) => {
          failure ??= { reason };
        })
        .finally(() => tails.delete(settled));
      tails.set(settled, eventIds);
    },
    /** Before a claim of up to `limit`: throws a batch's failure; waits while the claim could pass the bound. */
    async room(limit: number): Promise<void> {
      check();
      while (count() + limit > maxEvents && tails.size) {
        await Promise.race(tails.keys());
        check();
      }
    },
    /** Every batch's hand-over ended (never throws: `check` after it). */
    settle: async (): Promise<void> => void (await Promise.all(tails.keys())),
    check,
  };
}
type InHand = ReturnType<typeof inHand>;

export function createOutboxActivities(deps: OutboxActivityDeps) {
  /** One per worker process: every activity's hand-overs to a receiver's retry run share its spacing. */
  const pump = handoverPump(deps, deps.settings.handoverSpacingMs);
  /** Receivers that recently kept a batch waiting, until when (per worker process). */
  const slow = new Map<number, number>();
  const isSlow = (endpointId: number) => (slow.get(endpointId) ?? 0) > deps.now();
  let sweptAt = -Infinity;
  async function sweepRedeliveries(): Promise<void> {
    if (!deps.resumeRedeliveries || deps.now() - sweptAt < REDELIVERY_SWEEP_MS) return;
    sweptAt = deps.now();
    // Never the batch's failure: the dependency logs its own, and the sweep runs again a minute later.
    await deps.resumeRedeliveries().catch(() => undefined);
  }
  const group = (deliveries: BulkDelivery[], after: RetryGroup['after'], awaitingFirstAttempts = false): RetryGroup => ({
    endpointId: deliveries[0].endpointId,
    deliveryIds: deliveries.map((d) => d.id),
    after,
    ...(awaitingFirstAttempts ? { awaitingFirstAttempts } : {}),
  });

  /** A retry group a lane asks for: handed over once the batch's attempts are logged. `running`: attempts it waits for. */
  interface Handover {
    group: RetryGroup;
    label: DeliveryLabel;
    running?: Promise<unknown>[];
  }

  /**
   * One receiver's share of a batch, in claim order: first attempts at most `perReceiver` at once (and the worker's
   * total); what failed and may be retried becomes one retry group. If the receiver has not answered everything
   * within the hand-off, the lane lets go: attempts in flight go on in the background, handed over as waiting for
   * their end (signalled when they end), those not begun are handed over to be tried at once.
   */
  async function lane(deliveries: BulkDelivery[], total: ReturnType<typeof limiter>, record: Recorder['record']): Promise<Handover[]> {
    const { settings } = deps;
    const label = deliveries[0].label;
    if (isSlow(deliveries[0].endpointId)) return [{ group: group(deliveries, { attempts: 0, delayMs: 0 }), label }];
    const retry = new Set<BulkDelivery>();
    let retryAfterMs = 0;
    let handedOff = false;
    const inFlight = new Map<string, Promise<void>>();
    const notBegun = [...deliveries];
    const settle = (d: BulkDelivery, outcome: AttemptOutcome): Promise<void> | void => {
      if (outcome.kind === 'permanent') return deps.fail(d.id, outcome.message);
      if (outcome.kind === 'retry' && !handedOff) {
        retry.add(d);
        retryAfterMs = Math.max(retryAfterMs, outcome.delayMs ?? 0);
      }
    };
    // The lane lets go as soon as one attempt has waited `handoffMs` for its answer (a slow receiver, not a long queue).
    let letGo: (v: 'handoff') => void = () => undefined;
    const handoff = new Promise<'handoff'>((resolve) => (letGo = resolve));
    const perReceiver = limiter(settings.perReceiver);
    const attempts = Promise.all(
      deliveries.map((d) =>
        perReceiver(() =>
          total(async () => {
            if (handedOff) return;
            notBegun.splice(notBegun.indexOf(d), 1);
            const running = deps.attempt(d, 1, record).then((o) => settle(d, o));
            inFlight.set(d.id, running);
            const timer = setTimeout(() => letGo('handoff'), settings.handoffMs);
            await running.finally(() => clearTimeout(timer));
            inFlight.delete(d.id);
          }),
        ),
      ),
    );
    const first = await Promise.race([attempts, handoff]);
    const out: Handover[] = [];
    if (first === 'handoff' && (inFlight.size || notBegun.length)) {
      handedOff = true;
      slow.set(deliveries[0].endpointId, deps.now() + settings.slowForMs);
      if (notBegun.length) out.push({ group: group(notBegun, { attempts: 0, delayMs: 0 }), label });
      const waiting = deliveries.filter((d) => inFlight.has(d.id));
      if (waiting.length) {
        // Their retries wait for the signal that they all ended (or, without it, for their own timeout).
        const standby = group(waiting, { attempts: 1, delayMs: intervalAfter(deps.retry(), 1) }, true);
        out.push({ group: standby, label, running: [...inFlight.values()] });
      }
    } else {
      await attempts;
    }
    // What failed before any hand-off: one group, after the schedule's first interval or the longest Retry-After. In
    // claim order, not as the answers came: the group's workflow id is its first delivery's, and a dispatcher retry
    // after a crash hands the same deliveries over in claim order, which must name the same group (a no-op start).
    if (retry.size) out.push({ group: group(deliveries.filter((d) => retry.has(d)), { attempts: 1, delayMs: Math.max(retryAfterMs, intervalAfter(deps.retry(), 1)) }), label });
    return out;
  }

  /**
   * One batch: claim, first attempts; then, while the next batches go on, its hand-overs and its events marked
   * (`finish`, in `held`). Answers how many events it claimed.
   */
  async function deliverBatch(limit: number, held: InHand): Promise<number> {
    await held.room(limit);
    const { events, deliveries: loaded } = await deps.claim(limit, held.eventIds());
    // A batch that failed meanwhile left the skip list: its events may be in this claim. End here (the activity fails
    // and its retry claims them again), rather than hand them over twice.
    held.check();
    if (events.length === 0) return 0;
    const fresh = new Map<number, BulkDelivery[]>();
    const resumed = new Map<number, BulkDelivery[]>();
    const gone: string[] = [];
    for (const e of events) {
      for (const id of e.deliveryIds) {
        const d = loaded.get(id);
        if (!d) gone.push(id);
        else if (d.status !== 'pending') continue;
        // Tried before this claim (a dispatcher that died after the POST): the rest is a retry group's.
        else (d.attempts > 0 ? resumed : fresh).set(d.endpointId, [...((d.attempts > 0 ? resumed : fresh).get(d.endpointId) ?? []), d]);
      }
    }
    const total = limiter(deps.settings.concurrency);
    const log = recorder(deps);
    const lanes = [...fresh.values()].map((deliveries) => lane(deliveries, total, log.record));
    const handovers = (await Promise.all(lanes)).flat();
    for (const deliveries of resumed.values()) {
      const attempts = Math.min(...deliveries.map((d) => d.attempts));
      handovers.push({ group: group(deliveries, { attempts, delayMs: 0 }), label: deliveries[0].label });
    }
    held.add(
      events.map((e) => e.eventId),
      finish(events, loaded, handovers, gone, log),
    );
    return events.length;
  }

  /**
   * The rest of a batch: what is gone failed, the attempts logged, the retry groups handed over (through the pump), and
   * the events marked dispatched. A hand-over that failed leaves its receiver's events to a later claim and fails.
   */
  async function finish(events: Array<{ eventId: number; deliveryIds: string[] }>, loaded: Map<string, BulkDelivery>, handovers: Handover[], gone: string[], log: Recorder): Promise<void> {
    await Promise.all(gone.map((id) => deps.fail(id, GONE)));
    // The attempts are logged before any group can look at them.
    await log.flush();
    const outcomes = new Map<number, PromiseSettledResult<unknown>>();
    await Promise.all(
      handovers.map(async (h) => {
        const [started] = await Promise.allSettled([pump.handOver(h.group, h.label)]);
        if (started.status === 'rejected' || !outcomes.has(h.group.endpointId)) outcomes.set(h.group.endpointId, started);
        if (started.status === 'fulfilled' && h.running) {
          const { value: workflowId } = started;
          const ids = h.group.deliveryIds;
          void Promise.allSettled(h.running).then(() => deps.firstAttemptsEnded(workflowId, ids).catch(() => undefined));
        }
      }),
    );
    // An event is dispatched when every receiver it went to was handled; the others are claimed again.
    const failedReceivers = new Set([...outcomes].filter(([, o]) => o.status === 'rejected').map(([id]) => id));
    const dispatched = events
      .filter((e) => e.deliveryIds.every((id) => !loaded.has(id) || !failedReceivers.has(loaded.get(id)!.endpointId)))
      .map((e) => e.eventId);
    if (dispatched.length) await deps.markDispatched(dispatched);
    const failure = [...outcomes.values()].find((o): o is PromiseRejectedResult => o.status === 'rejected');
    if (failure) throw failure.reason;
  }

  return {
    /**
     * Delivers outbox events, batch after batch for up to `budgetMs` and until the outbox has stayed empty for
     * `lingerMs` (so neither a burst nor a steady stream waits for a workflow round trip between batches). Each batch:
     * the first attempt of every delivery here, concurrently (bounded in total
     * and per receiver, over keep-alive connections), and one retry workflow per receiver for what failed and may be
     * retried. A receiver that takes longer than the hand-off never holds the batch. An event is marked dispatched
     * once each of its deliveries succeeded, failed for good, or is in a retry group; dying half-way is safe: the
     * retry claims the same deliveries (same `webhook-id`), skips what is settled and hands what was tried to a group.
     */
    async dispatchPendingEvents(limit: number): Promise<number> {
      await sweepRedeliveries();
      const held = inHand(deps.settings.maxEventsInHand);
      const handled = await runBatches(limit, deps.settings, { ...deps, settle: held.settle }, () => deliverBatch(limit, held));
      held.check();
      return handled;
    },
  };
}

export type OutboxActivities = ReturnType<typeof createOutboxActivities>;
