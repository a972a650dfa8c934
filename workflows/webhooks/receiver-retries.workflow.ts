import { condition, defineSignal, patched, proxyActivities, setHandler } from '@temporalio/workflow';
import type { RoundAttemptEnded, WebhookActivities } from '../activities/webhooks';
import { intervalAfter, type DeliveryRetry } from './deliver.workflow';

export interface ReceiverRetriesInput {
  /** The receiver every delivery of the run goes to. */
  endpointId: number;
  retry: DeliveryRetry;
  /** The task queue of the POSTs (`<queue>:webhook-retries`). */
  activityQueue: string;
  /** The end of the run's window (epoch ms): deliveries handed over until then join it; after it, it ends once done. */
  acceptUntil: number;
}

/**
 * Deliveries a dispatcher batch hands over: the attempts made so far and the wait before the next.
 * `awaitingFirstAttempts`: their first attempts are still out (a receiver slower than the hand-off); the run waits for
 * the `first-attempts-ended` signal naming them, or their timeout.
 */
export interface RetryCohort {
  deliveryIds: string[];
  after: { attempts: number; delayMs: number };
  awaitingFirstAttempts?: boolean;
}

/** Adds deliveries to the run (sent with signal-with-start: the first one starts it). */
export const addRetriesSignal = defineSignal<[RetryCohort]>('add-retries');
/** The dispatcher's first attempts of these deliveries have ended: their retries may begin. */
export const firstAttemptsEndedSignal = defineSignal<[string[]]>('first-attempts-ended');
/**
 * Attempts a round handed off (left in the background when it let its slot go) have ended, each with its outcome
 * (sent by the worker once they are logged). Only runs with the `webhook-round-handoff` patch hand rounds off.
 */
export const roundAttemptsEndedSignal = defineSignal<[RoundAttemptEnded[]]>('round-attempts-ended');

/** Deliveries due this close to the earliest one go in the same round (fewer rounds, at most this much early). */
export const ROUND_GATHER_MS = 250;

/**
 * How long past its HTTP timeout a handed-off attempt is waited for when its end is never told (its worker died): the
 * wait for one of the receiver's slots (`WEBHOOK_RECEIVER_STALE_MS`, 5 s) and the logging, with room.
 */
export const HANDED_OFF_GRACE_MS = 10_000;

interface Pending {
  /** POSTs made so far. */
  attempts: number;
  /** When the next is due (workflow time, epoch ms). */
  dueAt: number;
  /** Still waiting for the first attempt's end: then the next is due `delayMs` after it. */
  awaitingFirst: boolean;
  delayMs: number;
  /** A round handed off this attempt (number) of it, still out: no new round until told it ended (or its timeout). */
  awaitingRound?: number;
}

/**
 * The retries of one receiver's deliveries handed over in one window of time (workflow id
 * `webhook-retries:<receiver id>:<window start>`, one run per receiver and window, `WEBHOOK_RETRY_WINDOW_MS`):
 * dispatcher batches add their deliveries that failed (or that a slow receiver has not answered) by signal. Each
 * delivery keeps its own schedule (1 s doubling to 59 s by default, or the receiver's longer Retry-After; 11 attempts,
 * 10 retries over about 5 minutes), and the deliveries due together are POSTed in one round. After its last attempt a
 * delivery still pending is marked failed. A receiver that fails a steady stream costs the engine a workflow per
 * window and a signal per batch, not a workflow per batch (at 50 events/s that was a start per event, the engine's
 * whole ceiling). Runs started before this design (`retryWebhookDeliveries`, one per batch) finish on their own code.
 */
export async function retryReceiverDeliveries(input: ReceiverRetriesInput): Promise<{ succeeded: number; failed: number }> {
  // Rounds may let their slot go after WEBHOOK_RETRY_HANDOFF_MS, their attempts still out going on in the worker (a
  // receiver that hangs held a slot of the retry worker for the whole 30 s timeout, and enough of them held every
  // slot, other tenants' rounds waiting in the queue). Decided once, at the start: runs from before keep the old way.
  const handoff = patched('webhook-round-handoff');
  const { attemptWebhookDeliveryRound } = proxyActivities<WebhookActivities>({
    // Every POST of a round may wait for a slot and then its HTTP timeout; room to record them.
    startToCloseTimeout: 2 * input.retry.timeoutMs + 30_000,
    heartbeatTimeout: '15s',
    taskQueue: input.activityQueue,
    retry: { initialInterval: '1s', maximumInterval: '30s' },
  });
  const { markWebhookDeliveriesGaveUp } = proxyActivities<WebhookActivities>({
    startToCloseTimeout: '30s',
    retry: { initialInterval: '1s', maximumInterval: '30s' },
  });

  const pending = new Map<string, Pending>();
  // Every delivery the run was given: one handed over twice (a dispatcher batch retried after a crash) counts once.
  const given = new Set<string>();
  let changed = false;
  let succeeded = 0;
  let failed = 0;
  setHandler(addRetriesSignal, (cohort) => {
    const now = Date.now();
    for (const id of cohort.deliveryIds) {
      if (given.has(id)) continue;
      given.add(id);
      const awaitingFirst = cohort.awaitingFirstAttempts === true;
      // Without the signal (a worker gone), the first attempts are over by their own timeout.
      const dueAt = now + (awaitingFirst ? input.retry.timeoutMs + 5_000 : cohort.after.delayMs);
      pending.set(id, { attempts: cohort.after.attempts, dueAt, awaitingFirst, delayMs: cohort.after.delayMs });
    }
    changed = true;
  });
  setHandler(firstAttemptsEndedSignal, (ids) => {
    const now = Date.now();
    for (const id of ids) {
      const p = pending.get(id);
      if (!p?.awaitingFirst) continue;
      p.awaitingFirst = false;
      p.dueAt = now + p.delayMs;
    }
    changed = true;
  });
  // Ends of handed-off attempts told before the run has the round's answer (both may come in one workflow task).
  const told = new Map<string, RoundAttemptEnded>();
  /** Applies a told end to the attempt the run waits for (a late or repeated one changes nothing). */
  const settleTold = (id: string, now: number): void => {
    const p = pending.get(id);
    const e = told.get(id);
    if (!e) return;
    if (!p || (e.attempt <= p.attempts && p.awaitingRound !== e.attempt)) told.delete(id);
    if (!p || p.awaitingRound !== e.attempt) return;
    told.delete(id);
    p.awaitingRound = undefined;
    if (e.outcome === 'retry') {
      p.dueAt = now + Math.max(intervalAfter(input.retry, e.attempt), e.retryAfterMs ?? 0);
      return;
    }
    // Logged (and a permanent failure marked) before the signal was sent.
    if (e.outcome === 'succeeded') succeeded++;
    else failed++;
    pending.delete(id);
  };
  setHandler(roundAttemptsEndedSignal, (ended) => {
    const now = Date.now();
    for (const e of ended) {
      told.set(e.id, e);
      settleTold(e.id, now);
    }
    changed = true;
  });
  /** Waits until `ms` have passed or a signal changed something. */
  const wait = async (ms: number) => {
    changed = false;
    await condition(() => changed, ms);
  };

  for (;;) {
    // A handed-off attempt whose end was never told (its worker died) is over by its timeout: retried as failed.
    for (const p of pending.values()) if (p.awaitingRound !== undefined && p.dueAt <= Date.now()) p.awaitingRound = undefined;
    if (pending.size === 0) {
      const left = input.acceptUntil - Date.now();
      if (left <= 0) break;
      await wait(left);
      continue;
    }
    // (A last attempt still out is not given up on before it ends.)
    const exhausted = [...pending].filter(([, p]) => p.attempts >= input.retry.maximumAttempts && p.awaitingRound === undefined).map(([id]) => id);
    if (exhausted.length) {
      // Each keeps its last attempt's error as the reason.
      await markWebhookDeliveriesGaveUp.executeWithOptions({ summary: `Mark ${deliveries(exhausted.length)} failed` }, [exhausted]);
      for (const id of exhausted) pending.delete(id);
      failed += exhausted.length;
      continue;
    }
    const earliest = Math.min(...[...pending.values()].map((p) => p.dueAt));
    if (earliest > Date.now()) {
      await wait(earliest - Date.now());
      continue;
    }
    const horizon = Date.now() + ROUND_GATHER_MS;
    const due = [...pending].filter(([, p]) => p.dueAt <= horizon && p.awaitingRound === undefined).map(([id, p]) => ({ id, attempt: p.attempts + 1 }));
    const round = await attemptWebhookDeliveryRound.executeWithOptions(
      { summary: `POST ${deliveries(due.length)} to receiver ${input.endpointId} (attempts ${attemptRange(due)})` },
      handoff ? [due, { handoff: true }] : [due],
    );
    const ok = new Set(round.succeeded);
    const again = new Map(round.retry.map((r) => [r.id, r.retryAfterMs]));
    // Held by another run (handed over twice, or redelivered): that run retries it; this one lets it go uncounted.
    const elsewhere = new Set(round.elsewhere ?? []);
    // Still out when the round let its slot go: their end comes by signal.
    const inFlight = new Set(round.inFlight ?? []);
    const now = Date.now();
    for (const { id, attempt } of due) {
      const p = pending.get(id)!;
      if (inFlight.has(id)) {
        p.attempts = attempt;
        p.awaitingRound = attempt;
        p.dueAt = now + input.retry.timeoutMs + HANDED_OFF_GRACE_MS;
        settleTold(id, now);
        continue;
      }
      if (elsewhere.has(id)) pending.delete(id);
      else if (ok.has(id)) succeeded++;
      else if (!again.has(id)) failed++;
      else {
        p.attempts = attempt;
        p.dueAt = now + Math.max(intervalAfter(input.retry, attempt), again.get(id) ?? 0);
        continue;
      }
      pending.delete(id);
    }
  }
  return { succeeded, failed };
}

/** `1 delivery`, `3 deliveries` (for summaries). */
const deliveries = (n: number): string => `${n} ${n === 1 ? 'delivery' : 'deliveries'}`;

function attemptRange(due: Array<{ attempt: number }>): string {
  const attempts = due.map((d) => d.attempt);
  const lo = Math.min(...attempts);
  const hi = Math.max(...attempts);
  return lo === hi ? String(lo) : `${lo}-${hi}`;
}
