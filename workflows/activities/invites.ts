import { ApplicationFailure, Context } from '@temporalio/activity';
import type { DeliveryOptions, InvitePlan, StepInput, StepResult } from '../../src/messaging/delivery';
import { failInviteStep, planInvite, sendInviteStep, StepInFlight } from '../../src/messaging/delivery';
import { claimBatch } from '../../src/messaging/batch';
import { claimDueSteps, deferDueStep, deliverBatch, type DueOutcome, type DueStep, type Run } from '../../src/messaging/send-queue';
import { MessagingUnavailable } from '../../src/messaging/types';
import { runBatches, type BatchLoopSettings } from './batches';
import { limiter } from './limiter';

/**
 * Activities of invite delivery: `sendDueInvites` for the invite dispatcher (`dispatchInvites`), and the per-step ones
 * of `inviteDelivery`, the workflow-per-invite design before it (kept so runs started before an upgrade finish and
 * their histories replay). All I/O, wired to src/messaging by `buildActivities`; the workflows see only their types.
 */
export interface InviteActivityDeps {
  plan(inviteId: number): Promise<InvitePlan>;
  sendStep(input: StepInput): Promise<StepResult>;
  failStep(input: StepInput & { reason: string }): Promise<StepResult>;
  /** The send queue: due steps (first steps, follow-ups, stale claims), and a batch of them sent or settled. */
  claimDue(limit: number): Promise<DueStep[]>;
  /**
   * Claims a batch (`claimBatch`) and starts sending it: answers once it is claimed, with `delivered`, each step's
   * outcome in order or why it failed (`deliverBatch`); `run` bounds the sends at once.
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
  /** Steps sent side by side (INVITE_SEND_CONCURRENCY). */
  concurrency: number;
}

const DEFAULT_INVITE_QUEUE: InviteQueueSettings = { concurrency: 32, budgetMs: 30_000, lingerMs: 1_000, pollMs: 100 };

/** The real wiring (buildActivities); tests pass `opts` to inject a fault or a sender. */
export function inviteActivityDeps(opts: DeliveryOptions = {}, queue: Partial<InviteQueueSettings> = {}): InviteActivityDeps {
  return {
    claimDue: (limit) => claimDueSteps(limit, (opts.clock ?? { now: () => new Date() }).now()),
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
  /** The batch being sent while the next one is claimed, and the first error of a batch's sending. */
  interface InFlight {
    last: Promise<void>;
    error: { reason: unknown } | null;
  }

  /**
   * One batch: up to `limit` due steps of each kind, claimed, then sent side by side while the next batch is claimed
   * (at most one batch sending, one claimed); returns how many were due. A claimed step is no longer due, so the next
   * claim never takes it again; one still due (its plan said wait, say) waits for the next activity.
   */
  async function sendBatch(limit: number, seen: Set<number>, total: ReturnType<typeof limiter>, inFlight: InFlight): Promise<number> {
    // Once per invite and activity: a step claimed here and still waiting for a send slot (or on the wire) past the
    // in-flight grace looks stale to the next claim, and its 'stale' row (kind and step index of its own) must not send
    // it a second time beside the first.
    const due = (await deps.claimDue(limit)).filter((d) => !seen.has(d.inviteId));
    for (const d of due) seen.add(d.inviteId);
    const { delivered } = await deps.sendDue(due, total);
    // A step that fails unexpectedly is put back with a backoff, so it never holds up the others; if even that fails
    // (the database went away) the activity fails and Temporal retries it; what was sent is recorded.
    const settled = delivered
      .then(async (results) => {
        for (const [i, r] of results.entries()) {
          if (r.status === 'fulfilled') continue;
          const d = due[i];
          deps.warn('review request step put back after an unexpected error', { inviteId: d.inviteId, kind: d.kind, error: String(r.reason) });
          await deps.defer(d, r.reason);
        }
      })
      .catch((reason: unknown) => {
        inFlight.error ??= { reason };
      });
    const previous = inFlight.last;
    inFlight.last = settled;
    await previous;
    if (inFlight.error) throw inFlight.error.reason;
    return due.length;
  }

  return {
    /**
     * The invite dispatcher's work: batch after batch of due steps while there are any (up to `budgetMs`), then
     * lingers `lingerMs` polling, so a burst never waits for a workflow round trip. Beats every second: a killed
     * worker's batch is claimed again once the heartbeat times out (a step claimed before the kill is settled, never
     * sent twice). Returns how many steps were due.
     */
    async sendDueInvites(limit: number): Promise<number> {
      const total = limiter(deps.queue.concurrency);
      const seen = new Set<number>();
      const inFlight: InFlight = { last: Promise.resolve(), error: null };
      // The last batch's sends finish (and are recorded) before the activity answers, whatever ended it, and the
      // heartbeat goes on while they do (`settle`): sends slower than the heartbeat timeout would otherwise have the
      // batch claimed again by a second attempt while this one still sends it.
      let handled: number;
      try {
        handled = await runBatches(limit, deps.queue, { ...deps, now: () => Date.now(), settle: () => inFlight.last }, () =>
          sendBatch(limit, seen, total, inFlight),
        );
      } catch (e) {
        await inFlight.last;
        throw e;
      }
      await inFlight.last;
      if (inFlight.error) throw inFlight.error.reason;
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
