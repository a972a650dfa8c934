import { ApplicationFailure, Context } from '@temporalio/activity';
import type { AttemptInput } from '../../src/jobs/webhook-delivery';
import { loggedHeaders, readExcerpt, type LoggedHeaders } from '../../src/webhooks/delivery-log';
import type { ReceiverGate } from './receiver-gate';
import type { TenantShare } from './tenant-share';

/** What one attempt needs: the delivery's stored body and id, where it goes, and the secrets that sign it now. */
export interface LoadedDelivery {
  id: string;
  status: 'pending' | 'succeeded' | 'failed';
  body: string;
  url: string;
  secrets: string[];
  /** The tenant of the delivery (and of its receiver): its share of the retry worker (`tenantShare`). */
  tenantId?: number;
}

/** One POST as the delivery log records it. */
export type AttemptRecord = AttemptInput;

export interface WebhookActivityDeps {
  load(deliveryId: string): Promise<LoadedDelivery | null>;
  /** `load` for many (absent: gone, or the receiver deleted or disabled). */
  loadMany(deliveryIds: string[]): Promise<Map<string, LoadedDelivery>>;
  /**
   * Claims still-pending deliveries for the retry run `owner` (its workflow id) where no run holds them; answers those
   * another run holds (`claimDeliveriesForRetries`). Absent: every delivery is this run's.
   */
  claim?(deliveryIds: string[], owner: string): Promise<Set<string>>;
  /**
   * Marks still-pending deliveries failed, each keeping its last attempt's error; with `owner`, only those no other
   * run holds.
   */
  gaveUp(deliveryIds: string[], owner?: string): Promise<void>;
  heartbeat(): void;
  record(deliveryId: string, attempt: AttemptRecord): Promise<void>;
  /** Logs many attempts at once (a round's): absent, each is logged as it ends. */
  recordMany?(records: Array<{ deliveryId: string; attempt: AttemptRecord }>): Promise<void>;
  fail(deliveryId: string, reason: string): Promise<void>;
  sign(input: { id: string; timestamp: Date; body: string; secrets: string[] }): Record<string, string>;
  /** Refuses malformed URLs and private literal addresses before the attempt (names are checked as they connect). */
  checkUrl(url: string): Promise<void>;
  /** The POST: the guarded client (`src/net/guarded-fetch.ts`), which resolves once and connects to checked addresses. */
  post(url: string, init: { headers: Record<string, string>; body: string; signal: AbortSignal }): Promise<Response>;
  /** Whether a failed POST was refused by the address policy: its message and whether a later try may pass. */
  refused(e: unknown): { message: string; transient: boolean } | null;
  timeoutMs: number;
  /**
   * The longest wait a receiver's `Retry-After` may ask for (the retry schedule's longest interval): a longer one is
   * cut to it, so a 429 cannot stretch the spec's 10 retries over 5 minutes to days. Absent: not cut.
   */
  maxRetryAfterMs?: number;
  userAgent: string;
  now(): Date;
  /** The worker's slots per receiver (`receiverGate`): absent, every attempt POSTs at once. */
  gate?: ReceiverGate;
  /**
   * How long a retry round asked to (`handoff`) waits for its attempts before it lets its slot go, the rest going on in
   * the background (`WEBHOOK_RETRY_HANDOFF_MS`); absent or 0, or without `roundAttemptsEnded`: until every one ends.
   */
  roundHandoffMs?: number;
  /** Tells the retry run `workflowId` that attempts its round handed off have ended (`round-attempts-ended`). */
  roundAttemptsEnded?(workflowId: string, ended: RoundAttemptEnded[]): Promise<void>;
  /** Each tenant's share of the retry worker's slots (`tenantShare`): absent, none. */
  tenantShare?: TenantShare;
}

/** Why nothing may be sent for a delivery any more. */
export const GONE = 'The delivery was removed, or its receiver was deleted or disabled.';

/** Longest error logged (the column width). */
const ERROR_CHARS = 500;

/** Retry-After in seconds or as an HTTP date, as milliseconds from now, at most `max`. */
function retryAfterMs(header: string | null, now: Date, max = Infinity): number | null {
  if (!header) return null;
  if (/^\d+$/.test(header.trim())) return Math.min(max, Number(header.trim()) * 1000);
  const at = Date.parse(header);
  return Number.isNaN(at) ? null : Math.min(max, Math.max(0, at - now.getTime()));
}


/**
 * How one attempt ended. `retry`: worth another try (`delayMs`: the receiver's Retry-After); `permanent`: never
 * again (a 4xx other than 408/429, a refused address, a bad URL).
 */
export type AttemptOutcome =
  | { kind: 'succeeded' }
  | { kind: 'retry'; message: string; delayMs: number | null }
  | { kind: 'permanent'; message: string };

/**
 * One POST of a loaded delivery, logged (`deps.record`) whatever happens: what the delivery workflow's activity
 * and the dispatcher's first attempts in bulk both run. Never throws for the receiver's faults; the log and the
 * outcome say them.
 */
export function createDeliveryAttempt(deps: WebhookActivityDeps) {
  return async function attemptDelivery(delivery: Pick<LoadedDelivery, 'id' | 'body' | 'url' | 'secrets'>, attempt: number): Promise<AttemptOutcome> {
    const started = Date.now();
    // What the log shows of the exchange: set once the POST is made, and once an answer comes.
    let requestHeaders: LoggedHeaders | null = null;
    let responseHeaders: LoggedHeaders | null = null;
    const record = (statusCode: number | null, error: string | null, excerpt: string | null) =>
      deps.record(delivery.id, {
        attempt,
        statusCode,
        latencyMs: Date.now() - started,
        error: error === null ? null : error.slice(0, ERROR_CHARS),
        responseExcerpt: excerpt,
        requestHeaders,
        responseHeaders,
        succeeded: error === null,
      });
    try {
      await deps.checkUrl(delivery.url);
    } catch (e) {
      const message = e instanceof Error ? e.message : String(e);
      await record(null, message, null);
      // A name that does not resolve right now may next time (a DNS hiccup); a private address or a bad URL won't.
      const transient = (e as { reason?: string }).reason === 'unresolvable_host';
      return transient ? { kind: 'retry', message, delayMs: null } : { kind: 'permanent', message };
    }
    const headers = {
      'Content-Type': 'application/json',
      'User-Agent': deps.userAgent,
      ...deps.sign({ id: delivery.id, timestamp: deps.now(), body: delivery.body, secrets: delivery.secrets }),
    };
    // A receiver that leaves this worker's requests unanswered gets no more of them (`receiverGate`).
    const release = deps.gate ? await deps.gate.enter(delivery.url) : () => undefined;
    if (!release) {
      const message = 'Not sent: every request this worker may have open to the receiver was still unanswered (it answers slowly or not at all)';
      await record(null, message, null);
      return { kind: 'retry', message, delayMs: null };
    }
    // Exactly what was sent: the signature may be shown to the receiver's owner; the secret is never in a header.
    requestHeaders = loggedHeaders(Object.entries(headers));
    let response: Response;
    try {
      response = await deps.post(delivery.url, { headers, body: delivery.body, signal: AbortSignal.timeout(deps.timeoutMs) });
    } catch (e) {
      release();
      const refused = deps.refused(e);
      if (refused) {
        await record(null, refused.message, null);
        return refused.transient ? { kind: 'retry', message: refused.message, delayMs: null } : { kind: 'permanent', message: refused.message };
      }
      const message = e instanceof Error && e.name === 'TimeoutError' ? `No answer within ${deps.timeoutMs} ms` : `Connection failed: ${e instanceof Error ? (e.cause instanceof Error ? e.cause.message : e.message) : String(e)}`;
      await record(null, message, null);
      return { kind: 'retry', message, delayMs: null };
    }
    responseHeaders = loggedHeaders(response.headers.entries());
    const text = await readExcerpt(response).finally(release);
    if (response.status >= 200 && response.status < 300) {
      await record(response.status, null, text || null);
      return { kind: 'succeeded' };
    }
    const message = `The receiver answered ${response.status}`;
    await record(response.status, message, text || null);
    if (response.status === 429) return { kind: 'retry', message, delayMs: retryAfterMs(response.headers.get('retry-after'), deps.now(), deps.maxRetryAfterMs) };
    if (response.status >= 400 && response.status < 500 && response.status !== 408) return { kind: 'permanent', message };
    return { kind: 'retry', message, delayMs: null };
  };
}

/**
 * What a round of retries did: succeeded, and worth another try (with the receiver's Retry-After); `elsewhere`: held
 * by another run (a redelivery, or another window's run), not POSTed here and not this run's to count; the rest failed.
 */
export interface RoundOutcome {
  succeeded: string[];
  retry: Array<{ id: string; retryAfterMs: number | null }>;
  elsewhere?: string[];
  /**
   * Attempts still out when the round let its slot go (asked to hand off): they go on in the worker, which tells the
   * run how each ended (`round-attempts-ended`) once it is logged.
   */
  inFlight?: string[];
}

/** How a handed-off attempt of a round ended (`failed`: for good, and marked so before the run is told). */
export interface RoundAttemptEnded {
  id: string;
  attempt: number;
  outcome: 'succeeded' | 'retry' | 'failed';
  /** For `retry`: the receiver's Retry-After, when it gave one. */
  retryAfterMs?: number | null;
}

/** Ends of handed-off attempts this close together are logged and told in one go (one signal, not one each). */
export const HANDED_OFF_GATHER_MS = 250;

/** The workflow id of the run the current activity serves (its claim on the deliveries it retries). */
function runningFor(): string {
  const execution = Context.current().info.workflowExecution;
  if (!execution) throw new Error('A webhook retry activity runs for a workflow run.');
  return execution.workflowId;
}

export function createWebhookActivities(deps: WebhookActivityDeps) {
  const attemptDelivery = createDeliveryAttempt(deps);
  return {
    /** One POST of a redelivery. Throws to have Temporal retry; a PermanentDeliveryFailure is not retried. */
    async attemptWebhookDelivery(deliveryId: string): Promise<void> {
      const attempt = Context.current().info.attempt;
      const delivery = await deps.load(deliveryId);
      if (!delivery) throw ApplicationFailure.nonRetryable(GONE, 'PermanentDeliveryFailure');
      if (delivery.status === 'succeeded') return;
      const outcome = await attemptDelivery(delivery, attempt);
      if (outcome.kind === 'succeeded') return;
      if (outcome.kind === 'permanent') throw ApplicationFailure.nonRetryable(outcome.message, 'PermanentDeliveryFailure');
      throw ApplicationFailure.create({ message: outcome.message, type: 'DeliveryFailure', nextRetryDelay: outcome.delayMs ?? undefined });
    },

    /**
     * One round of a retry group: every delivery still pending POSTed side by side (attempt number `attempt`),
     * each logged. Answers what succeeded, what may be retried, and the longest Retry-After asked for; what failed
     * for good (or whose receiver is gone) is marked failed here.
     */
    async attemptWebhookDeliveries(deliveryIds: string[], attempt: number): Promise<{ succeeded: number; retry: string[]; retryAfterMs: number | null }> {
      const beat = setInterval(() => deps.heartbeat(), 1_000);
      try {
        const loaded = await deps.loadMany(deliveryIds);
        let succeeded = 0;
        let retryAfterMs: number | null = null;
        const retry: string[] = [];
        await Promise.all(
          deliveryIds.map(async (id) => {
            const delivery = loaded.get(id);
            if (!delivery) return deps.fail(id, GONE);
            if (delivery.status !== 'pending') {
              if (delivery.status === 'succeeded') succeeded++;
              return;
            }
            const outcome = await attemptDelivery(delivery, attempt);
            if (outcome.kind === 'succeeded') succeeded++;
            else if (outcome.kind === 'permanent') await deps.fail(id, outcome.message);
            else {
              retry.push(id);
              if (outcome.delayMs !== null) retryAfterMs = Math.max(retryAfterMs ?? 0, outcome.delayMs);
            }
          }),
        );
        // In the group's order, so the next round goes in the same order.
        const order = new Map(deliveryIds.map((id, i) => [id, i]));
        retry.sort((a, b) => order.get(a)! - order.get(b)!);
        return { succeeded, retry, retryAfterMs };
      } finally {
        clearInterval(beat);
      }
    },

    /**
     * One round of a receiver's retries (`retryReceiverDeliveries`): each delivery still pending POSTed with its own
     * attempt number, side by side (the worker's slots per receiver bound how many at once). Answers what succeeded
     * (now or before) and what may be retried, with the receiver's Retry-After where it gave one; the rest failed for
     * good (or the delivery or its receiver is gone) and is marked failed here.
     *
     * With `handoff` (runs that understand `inFlight`), the round waits at most `roundHandoffMs` for its answers, then
     * lets its slot go: attempts still out go on here (their HTTP timeout kept) and the run is told how they ended. A
     * receiver that hangs held a slot of the retry worker per round for the whole timeout, and enough of them (one
     * tenant's, or anyone's) held all 200, every other retry waiting in the queue. A round of a tenant whose rounds
     * hold its whole share of the slots (`tenantShare`) POSTs nothing and is tried again shortly, out of its slot.
     */
    async attemptWebhookDeliveryRound(items: Array<{ id: string; attempt: number }>, opts: { handoff?: boolean } = {}): Promise<RoundOutcome> {
      const beat = setInterval(() => deps.heartbeat(), 1_000);
      const { recordMany, roundAttemptsEnded } = deps;
      const handoffMs = opts.handoff && roundAttemptsEnded ? (deps.roundHandoffMs ?? 0) : 0;
      // The round's attempts are logged together when it answers (a receiver that does not answer makes a round of
      // hundreds of attempts not sent at the same moment: one transaction each was a burst the others waited for);
      // those that end after a hand-off, together with the others that end within HANDED_OFF_GATHER_MS.
      let handedOff = false;
      const logged: Array<{ deliveryId: string; attempt: AttemptRecord }> = [];
      const loggedLate: Array<{ deliveryId: string; attempt: AttemptRecord }> = [];
      const attempt = recordMany
        ? createDeliveryAttempt({ ...deps, record: async (deliveryId, a) => void (handedOff ? loggedLate : logged).push({ deliveryId, attempt: a }) })
        : attemptDelivery;
      let leave: (() => void) | null = null;
      try {
        const owner = runningFor();
        // A delivery is retried by one run: the first to claim it (a run handed it twice, or a redelivery, leaves it).
        const elsewhere = deps.claim ? await deps.claim(items.map((i) => i.id), owner) : new Set<string>();
        const mine = items.filter((i) => !elsewhere.has(i.id));
        const loaded = await deps.loadMany(mine.map((i) => i.id));
        const tenantId = mine.map((i) => loaded.get(i.id)).find((d) => d?.status === 'pending')?.tenantId;
        if (deps.tenantShare && tenantId !== undefined) {
          leave = deps.tenantShare.enter(tenantId);
          if (!leave) {
            // Out of the slot at once: Temporal offers the round again after the wait (no attempt used up).
            throw ApplicationFailure.create({
              type: 'RetryRoundDeferred',
              message: "Deferred: this tenant's retry rounds hold its whole share of the worker's slots",
              nextRetryDelay: deps.tenantShare.deferMs(),
            });
          }
        }
        const outcome: RoundOutcome = { succeeded: [], retry: [], elsewhere: items.filter((i) => elsewhere.has(i.id)).map((i) => i.id) };
        const failed: Array<{ id: string; reason: string }> = [];
        // Attempts that ended after the hand-off, to be logged and told to the run.
        const late: Array<RoundAttemptEnded & { reason?: string }> = [];
        let logging: Promise<unknown> = Promise.resolve();
        let reporting: NodeJS.Timeout | null = null;
        const report = async () => {
          reporting = null;
          const ended = late.splice(0);
          const records = loggedLate.splice(0);
          try {
            // The round's own log first; each attempt is logged (a permanent failure marked) before the run hears of it.
            await logging;
            if (recordMany && records.length) await recordMany(records);
            for (const e of ended) if (e.outcome === 'failed') await deps.fail(e.id, e.reason!);
            await roundAttemptsEnded!(owner, ended.map(({ reason: _reason, ...e }) => e));
          } catch {
            // Not told: the run tries them again once their timeout has passed (at least once, same webhook-id).
          }
        };
        const settled = new Set<string>();
        const running = mine.map(async ({ id, attempt: n }) => {
          const delivery = loaded.get(id);
          if (!delivery) {
            settled.add(id);
            return deps.fail(id, GONE);
          }
          if (delivery.status !== 'pending') {
            settled.add(id);
            if (delivery.status === 'succeeded') outcome.succeeded.push(id);
            return;
          }
          const result = await attempt(delivery, n);
          settled.add(id);
          if (handedOff) {
            late.push(
              result.kind === 'succeeded'
                ? { id, attempt: n, outcome: 'succeeded' }
                : result.kind === 'permanent'
                  ? { id, attempt: n, outcome: 'failed', reason: result.message }
                  : { id, attempt: n, outcome: 'retry', retryAfterMs: result.delayMs },
            );
            reporting ??= setTimeout(() => void report(), HANDED_OFF_GATHER_MS);
          } else if (result.kind === 'succeeded') outcome.succeeded.push(id);
          else if (result.kind === 'permanent') failed.push({ id, reason: result.message });
          else outcome.retry.push({ id, retryAfterMs: result.delayMs });
        });
        const all = Promise.all(running);
        if (handoffMs > 0) {
          let timer: NodeJS.Timeout | undefined;
          const letGo = new Promise<'handoff'>((resolve) => (timer = setTimeout(() => resolve('handoff'), handoffMs)));
          const first = await Promise.race([all, letGo]);
          clearTimeout(timer);
          if (first === 'handoff') {
            // From here on, each attempt that ends is the background's (logged, then told to the run).
            handedOff = true;
            const out = mine.filter((i) => !settled.has(i.id)).map((i) => i.id);
            if (out.length) outcome.inFlight = out;
          }
        } else {
          await all;
        }
        logging = recordMany ? recordMany(logged) : Promise.resolve();
        await logging;
        // After the log, so the failure's reason is the last word on the delivery.
        for (const f of failed) await deps.fail(f.id, f.reason);
        return outcome;
      } finally {
        leave?.();
        clearInterval(beat);
      }
    },

    async markWebhookDeliveriesGaveUp(deliveryIds: string[]): Promise<void> {
      await deps.gaveUp(deliveryIds, runningFor());
    },

    async markWebhookDeliveryFailed(deliveryId: string, reason: string): Promise<void> {
      await deps.fail(deliveryId, reason);
    },
  };
}

export type WebhookActivities = ReturnType<typeof createWebhookActivities>;
