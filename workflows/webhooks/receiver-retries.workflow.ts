import { condition, defineSignal, proxyActivities, setHandler } from '@temporalio/workflow';
import type { WebhookActivities } from '../activities/webhooks';
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

/** Deliveries due this close to the earliest one go in the same round (fewer rounds, at most this much early). */
export const ROUND_GATHER_MS = 250;

interface Pending {
  /** POSTs made so far. */
  attempts: number;
  /** When the next is due (workflow time, epoch ms). */
  dueAt: number;
  /** Still waiting for the first attempt's end: then the next is due `delayMs` after it. */
  awaitingFirst: boolean;
  delayMs: number;
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
  /** Waits until `ms` have passed or a signal changed something. */
  const wait = async (ms: number) => {
    changed = false;
    await condition(() => changed, ms);
  };

  let succeeded = 0;
  let failed = 0;
  for (;;) {
    if (pending.size === 0) {
      const left = input.acceptUntil - Date.now();
      if (left <= 0) break;
      await wait(left);
      continue;
    }
    const exhausted = [...pending].filter(([, p]) => p.attempts >= input.retry.maximumAttempts).map(([id]) => id);
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
    const due = [...pending].filter(([, p]) => p.dueAt <= horizon).map(([id, p]) => ({ id, attempt: p.attempts + 1 }));
    const round = await attemptWebhookDeliveryRound.executeWithOptions(
      { summary: `POST ${deliveries(due.length)} to receiver ${input.endpointId} (attempts ${attemptRange(due)})` },
      [due],
    );
    const ok = new Set(round.succeeded);
    const again = new Map(round.retry.map((r) => [r.id, r.retryAfterMs]));
    // Held by another run (handed over twice, or redelivered): that run retries it; this one lets it go uncounted.
    const elsewhere = new Set(round.elsewhere ?? []);
    const now = Date.now();
    for (const { id, attempt } of due) {
      const p = pending.get(id)!;
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
