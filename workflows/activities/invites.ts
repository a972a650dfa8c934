import { ApplicationFailure, Context } from '@temporalio/activity';
import type { DeliveryOptions, InvitePlan, StepInput, StepResult } from '../../src/messaging/delivery';
import { failInviteStep, planInvite, sendInviteStep, StepInFlight } from '../../src/messaging/delivery';
import { claimBatch } from '../../src/messaging/batch';
import { claimDueSteps, deferDueStep, deliverBatch, NotStarted, type DueOutcome, type DueStep, type Run } from '../../src/messaging/send-queue';
import { MessagingUnavailable } from '../../src/messaging/types';
import { runBatches, type BatchLoopSettings } from './batches';
import { accountShare, fairLimiter } from './limiter';

/**
 * Activities of invite delivery: `sendDueInvites` for the invite dispatcher (`dispatchInvites`), and the per-step ones
 * of `inviteDelivery`, the workflow-per-invite design before it (kept so runs started before an upgrade finish and
 * their histories replay). All I/O, wired to src/messaging by `buildActivities`; the workflows see only their types.
 */
export interface InviteActivityDeps {
  plan(inviteId: number): Promise<InvitePlan>;
  sendStep(input: StepInput): Promise<StepResult>;
  failStep(input: StepInput & { reason: string }): Promise<StepResult>;
  /**
   * The send queue: due steps (first steps, follow-ups, stale claims) in turns of accounts, leaving out the accounts
   * in `exclude`; and a batch of them sent or settled.
   */
  claimDue(limit: number, exclude?: ReadonlySet<number>): Promise<DueStep[]>;
  /**
   * Claims a batch (`claimBatch`) and starts sending it: answers once it is claimed, with `delivered`, each step's
   * outcome in order or why it failed (`deliverBatch`); `run` bounds the sends at once, shares them between accounts,
   * and refuses (NotStarted) the ones it will no longer start.
   */
  sendDue(dues: DueStep[], run: Run): Promise<{ delivered: Promise<Array<PromiseSettledResult<DueOutcome>>> }>;
  /** Puts back a due step that failed unexpectedly (`deferDueStep`). */
  defer(due: DueStep, err: unknown): Promise<DueOutcome>;
  /** The activity's log (the worker's logger, with the activity's context). */
  warn(message: string, attrs: Record<string, unknown>): void;
  heartbeat(): void;
  /** The activity was asked to stop (its worker is shutting down): it ends after the batch in hand. */
  stopping(): boolean;
  queue: InviteQueueSettings;
}

/** How the invite dispatcher's activity sends: steps at once, and its budget, linger and poll (`runBatches`). */
export interface InviteQueueSettings extends BatchLoopSettings {
  /** Steps sent side by side (INVITE_SEND_CONCURRENCY); one account's at most `accountShare` of them (three quarters). */
  concurrency: number;
}

const DEFAULT_INVITE_QUEUE: InviteQueueSettings = { concurrency: 32, budgetMs: 30_000, lingerMs: 1_000, pollMs: 100 };

/** The real wiring (buildActivities); tests pass `opts` to inject a fault or a sender. */
export function inviteActivityDeps(opts: DeliveryOptions = {}, queue: Partial<InviteQueueSettings> = {}): InviteActivityDeps {
  return {
    claimDue: (limit, exclude) => claimDueSteps(limit, (opts.clock ?? { now: () => new Date() }).now(), exclude),
    sendDue: async (dues, run) => {
      const batch = await claimBatch(dues, opts);
      return { delivered: deliverBatch(dues, batch, run, opts) };
    },
    defer: (due, err) => deferDueStep(due, err, opts),
    warn: (message, attrs) => Context.current().log.warn(message, attrs),
    heartbeat: () => Context.current().heartbeat(),
    stopping: () => Context.current().cancellationSignal.aborted,
    queue: { ...DEFAULT_INVITE_QUEUE, ...queue },
    plan: (inviteId) => planInvite(inviteId, opts),
    sendStep: (input) => sendInviteStep(input, opts),
    failStep: (input) => failInviteStep(input, opts),
  };
}

/** Failure types the workflow's retry policy knows: a provider that did not take the message, a claim in flight. */
export const MESSAGING_UNAVAILABLE = 'MessagingUnavailable';
export const STEP_IN_FLIGHT = 'StepInFlight';

export function createInviteActivities(deps: InviteActivityDeps) {
  /** A batch handed to the sender: its outcome, and its steps in the send slots (by account, null: of none). */
  interface Batch {
    /** Settles once every step has its outcome and the failed ones were put back (never rejects: see `error`). */
    done: Promise<void>;
    finished: boolean;
    waiting: Map<number | null, number>;
    sending: number;
  }

  return {
    /**
     * The invite dispatcher's work: batch after batch of due steps while there are any (up to `budgetMs`), then
     * lingers `lingerMs` polling, so a burst never waits for a workflow round trip. Beats every second: a killed
     * worker's batch is claimed again once the heartbeat times out (a step claimed before the kill is settled, never
     * sent twice). Returns how many steps were due.
     *
     * Fair between accounts (review finding H1): the sends share `concurrency` slots, one account holding at most
     * `accountShare` of them and freed slots going to the accounts in turn (`fairLimiter`); claims take the accounts in
     * turns and leave out an account that has `limit` steps or more waiting for its share; and the next batch is claimed
     * once the one before the last has been sent, or has nothing waiting but its accounts' shares (a slow mail server's
     * queue holds up its own account's steps, no one else's). While steps wait for a slot the activity keeps looking for
     * due work past its linger; at its budget (or when its worker shuts down) the steps still waiting for a slot after
     * `lingerMs` are released (their claims undone: due again at once, for the next activity) and it answers once the
     * sends under way are done, so it lasts its budget plus the longest send (SMTP_SEND_DEADLINE_MS, 2 min).
     */
    async sendDueInvites(limit: number): Promise<number> {
      const slots = fairLimiter(deps.queue.concurrency, accountShare(deps.queue.concurrency));
      // Once per invite and activity: a step claimed here and still waiting for a send slot past the in-flight grace
      // may look stale to the next claim, and its 'stale' row (kind and step index of its own) must not send it a second
      // time beside the first.
      const seen = new Set<number>();
      const open = new Set<Batch>();
      let error: { reason: unknown } | null = null;
      let previous: Batch | null = null;
      let last: Batch | null = null;
      /** The accounts the last claim left out: each had a batch's worth waiting for its share of the slots. */
      let heldBack = new Set<number>();

      const bump = (counts: Map<number | null, number>, key: number | null, by: number) => counts.set(key, (counts.get(key) ?? 0) + by);
      /** The batch's `run`: the shared slots, with the batch's steps counted in them. */
      const slotsOf =
        (b: Batch): Run =>
        (work, account) => {
          const key = account ?? null;
          let started = false;
          bump(b.waiting, key, 1);
          return slots(async () => {
            started = true;
            bump(b.waiting, key, -1);
            b.sending++;
            try {
              return await work();
            } finally {
              b.sending--;
            }
          }, account).catch((e: unknown) => {
            if (!started) bump(b.waiting, key, -1);
            throw e;
          });
        };
      /** The batch no longer holds up the next claim: it is done, or its steps still waiting wait for their accounts' shares. */
      const clear = (b: Batch) =>
        b.finished || (b.sending + [...b.waiting.values()].reduce((n, w) => n + w, 0) > 0 && [...b.waiting].every(([key, n]) => n === 0 || slots.full(key)));

      /** One batch: up to `limit` due steps of each kind, claimed, then sent side by side; returns how many were due. */
      async function sendBatch(): Promise<number> {
        if (previous) {
          const before = previous;
          while (!clear(before)) await Promise.race([before.done, slots.changed()]);
        }
        if (error) throw error.reason;
        // An account with a batch's worth waiting for its share gets no more until some of it has gone.
        const exclude = new Set([...slots.backlog()].filter(([, waiting]) => waiting >= limit).map(([account]) => account));
        heldBack = exclude;
        const due = (await deps.claimDue(limit, exclude)).filter((d) => !seen.has(d.inviteId));
        for (const d of due) seen.add(d.inviteId);
        const b: Batch = { done: Promise.resolve(), finished: false, waiting: new Map(), sending: 0 };
        const { delivered } = await deps.sendDue(due, slotsOf(b));
        // A step that fails unexpectedly is put back with a backoff, so it never holds up the others; if even that fails
        // (the database went away) the activity fails and Temporal retries it; what was sent is recorded.
        b.done = delivered
          .then(async (results) => {
            for (const [i, r] of results.entries()) {
              if (r.status === 'fulfilled') continue;
              const d = due[i];
              deps.warn('review request step put back after an unexpected error', { inviteId: d.inviteId, kind: d.kind, error: String(r.reason) });
              await deps.defer(d, r.reason);
            }
          })
          .catch((reason: unknown) => {
            error ??= { reason };
          })
          .finally(() => {
            b.finished = true;
            open.delete(b);
          });
        open.add(b);
        previous = last;
        last = b;
        return due.length;
      }

      // The sends under way finish (and are recorded) before the activity answers, whatever ended it, and the heartbeat
      // goes on while they do (`settle`): sends slower than the heartbeat timeout would otherwise have the batch claimed
      // again by a second attempt while this one still sends it. Steps still waiting for a slot get `lingerMs` to start
      // (a fast account's queue is gone by then), and what still waits is released: a slow account's queue.
      const settle = async () => {
        const until = Date.now() + deps.queue.lingerMs;
        while (slots.waiting() > 0 && Date.now() < until) {
          let timer: NodeJS.Timeout | undefined;
          await Promise.race([slots.changed(), new Promise((r) => (timer = setTimeout(r, until - Date.now())))]);
          clearTimeout(timer);
        }
        slots.close(new NotStarted());
        while (open.size > 0) await Promise.all([...open].map((b) => b.done));
      };
      /**
       * The poll's wait ends once an account left out of the last claim for its backlog has room again: its steps are
       * claimed while the ones before them are still being sent, so its send slots never run dry for a whole poll.
       */
      const wake = (): Promise<void> | undefined => {
        const held = heldBack;
        if (held.size === 0) return undefined;
        const until = Date.now() + deps.queue.pollMs;
        const room = () => [...held].some((account) => (slots.backlog().get(account) ?? 0) < limit);
        return (async () => {
          while (!room() && Date.now() < until) await slots.changed();
        })();
      };
      let handled: number;
      try {
        handled = await runBatches(limit, deps.queue, { ...deps, now: () => Date.now(), settle, busy: () => slots.waiting() > 0, wake }, sendBatch);
      } catch (e) {
        await settle();
        throw e;
      }
      if (error) throw (error as { reason: unknown }).reason;
      return handled;
    },

    /** What to do with the invite now: send its steps, wait for the stored send time, or nothing. */
    async planInviteDelivery(inviteId: number): Promise<InvitePlan> {
      return deps.plan(inviteId);
    },

    /** Sends one step at most once; an unavailable provider (nothing accepted) is retried by Temporal. */
    async sendInviteStep(input: StepInput): Promise<StepResult> {
      try {
        return await deps.sendStep(input);
      } catch (e) {
        if (e instanceof MessagingUnavailable) {
          throw ApplicationFailure.create({ message: e.message, type: MESSAGING_UNAVAILABLE, nextRetryDelay: e.retryAfterMs ?? undefined });
        }
        if (e instanceof StepInFlight) throw ApplicationFailure.retryable(e.message, STEP_IN_FLIGHT);
        throw e;
      }
    },

    /** Records the step as failed once every retry found the provider unavailable. */
    async failInviteStep(input: StepInput & { reason: string }): Promise<StepResult> {
      try {
        return await deps.failStep(input);
      } catch (e) {
        // Another attempt's claim of the step is still within its grace: looked at again later.
        if (e instanceof StepInFlight) throw ApplicationFailure.retryable(e.message, STEP_IN_FLIGHT);
        throw e;
      }
    },
  };
}

export type InviteActivities = ReturnType<typeof createInviteActivities>;
