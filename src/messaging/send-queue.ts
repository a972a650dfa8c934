import { QueryTypes } from 'sequelize';
import { systemClock, type Clock } from '../domain/clock';
import { Invite } from '../models';
import { claimBatch, type BatchClaim } from './batch';
import { DUE_TOLERANCE_MS, failInviteStep, failUnplannedInvite, planInvite, releaseClaim, sendClaimed, sendInviteStep, settleSent, StepInFlight, type DeliveryOptions, type SentStep, type StepResult } from './delivery';
import { inviteDeliverySettings } from './settings';
import { MessagingUnavailable } from './types';

/**
 * The invites table is the send queue (issue 17 item 2). No workflow per invite: the invite dispatcher (one
 * workflow per task queue, `invite-dispatcher:<queue>`) claims what is due and sends it side by side, through the
 * same step claim as before (src/messaging/delivery.ts: lock the invite, take the credit, write the step's row as
 * `sending`, call the provider, settle), so a step still goes at most once whoever picks it up.
 *
 * Due work, three kinds:
 * - first steps: `scheduled` invites whose send time has come (campaign not paused, account active; a held invite
 *   simply waits in the table until they are active again);
 * - follow-ups: `sent` invites whose `next_step_at` has come (set with each step's claim);
 * - steps left `sending` longer than the in-flight grace (the attempt died after its claim): settled.
 * A step the provider could not take (nothing accepted) waits `retry_at` (2 s doubling to 10 min, or the provider's
 * Retry-After) and is recorded failed after `maxAttempts`.
 *
 * Fair between accounts (review finding H1): each kind is claimed in turns of accounts (the first due step of every
 * account, then the second of each, ...), so a backlog of one account, or its steps being retried with their old send
 * times, never puts another account's steps behind all of it; and the caller can leave out accounts that already have
 * plenty waiting for a send slot (`exclude`: a slow mail server's account whose sends queue up).
 */
export interface DueStep {
  inviteId: number;
  /** null: the invite's first step (the plan decides which); else the campaign step to send or settle. */
  stepIndex: number | null;
  kind: 'first' | 'follow-up' | 'stale';
  /** The invite's account (what `claimDueSteps` answers): the sends of one account share the send slots fairly. */
  customerId?: number;
}

/** `released`: claimed, but never sent (the activity ended first): the claim was undone, the step is due again. */
export type DueOutcome = StepResult['outcome'] | 'waiting' | 'done' | 'retry' | 'in_flight' | 'released';

/** A claimed step's send never started: its activity ended (out of time, shutting down) while it waited for a slot. */
export class NotStarted extends Error {
  constructor() {
    super('The send was not started: its activity ended first.');
    this.name = 'NotStarted';
  }
}

/** How many due rows of each kind a claim looks at, per step it may claim, to take them in turns of accounts. */
const SCAN_PER_STEP = 20;

const MAX_SEND_ATTEMPTS = 12;

const db = () => {
  const s = Invite.sequelize;
  if (!s) throw new Error('Database not initialised');
  return s;
};

/**
 * Up to `limit` due steps of each kind, in turns of accounts: of the soonest due rows (`limit` x 20 of them), the
 * first of each account, then the second of each, and so on, soonest first within a turn. Accounts in `exclude` are
 * left out (the caller's: those with plenty already waiting for a send slot).
 */
export async function claimDueSteps(limit: number, now: Date = systemClock.now(), exclude: Iterable<number> = []): Promise<DueStep[]> {
  const due = new Date(now.getTime() + DUE_TOLERANCE_MS);
  const staleBefore = new Date(now.getTime() - inviteDeliverySettings().inFlightGraceMs);
  const excluded = [...exclude].filter(Number.isSafeInteger);
  const notExcluded = excluded.length > 0 ? 'AND i.customer_id NOT IN (:excluded)' : '';
  const rows = await db().query<{ id: number; customer_id: number; step: number | null; kind: DueStep['kind'] }>(
    `(SELECT r.id, r.customer_id, NULL AS step, 'first' AS kind
        FROM (SELECT d.id, d.customer_id, d.send_at, ROW_NUMBER() OVER (PARTITION BY d.customer_id ORDER BY d.send_at, d.id) AS turn
                FROM (SELECT i.id, i.customer_id, i.send_at
                        FROM invites i
                        JOIN campaigns c ON c.id = i.campaign_id
                        JOIN customers cu ON cu.id = i.customer_id
                       WHERE i.status = 'scheduled' AND i.send_at <= :due AND (i.retry_at IS NULL OR i.retry_at <= :now)
                         AND c.paused_at IS NULL AND cu.subscription_status = 'active' ${notExcluded}
                       ORDER BY i.send_at, i.id LIMIT :scan) d) r
       ORDER BY r.turn, r.send_at, r.id LIMIT :limit)
     UNION ALL
     (SELECT r.id, r.customer_id, r.step, 'follow-up' AS kind
        FROM (SELECT d.id, d.customer_id, d.step, d.next_step_at, ROW_NUMBER() OVER (PARTITION BY d.customer_id ORDER BY d.next_step_at, d.id) AS turn
                FROM (SELECT i.id, i.customer_id, i.next_step_index AS step, i.next_step_at
                        FROM invites i
                       WHERE i.status = 'sent' AND i.next_step_at <= :now AND (i.retry_at IS NULL OR i.retry_at <= :now) ${notExcluded}
                       ORDER BY i.next_step_at, i.id LIMIT :scan) d) r
       ORDER BY r.turn, r.next_step_at, r.id LIMIT :limit)
     UNION ALL
     (SELECT m.invite_id AS id, i.customer_id, m.step_index AS step, 'stale' AS kind
        FROM invite_messages m
        JOIN invites i ON i.id = m.invite_id
       WHERE m.status = 'sending' AND m.sent_at <= :staleBefore ${notExcluded}
       ORDER BY m.sent_at LIMIT :limit)`,
    { replacements: { due, now, staleBefore, limit, scan: limit * SCAN_PER_STEP, excluded }, type: QueryTypes.SELECT },
  );
  return rows.map((r) => ({ inviteId: Number(r.id), stepIndex: r.step === null ? null : Number(r.step), kind: r.kind, customerId: Number(r.customer_id) }));
}

/** Retry delay of the n-th unavailable attempt: 2 s doubling, at most 10 minutes (as the workflow's policy was). */
const backoffMs = (attempt: number) => Math.min(2_000 * 2 ** (attempt - 1), 10 * 60_000);

/**
 * Sends (or settles) one due step. Never throws for what the queue can handle itself: an unavailable provider
 * puts the step back with its retry time, a claim still in flight is looked at again after the grace.
 */
export async function sendDueStep(due: DueStep, opts: DeliveryOptions = {}): Promise<DueOutcome> {
  let stepIndex = due.stepIndex;
  const first = due.kind === 'first';
  try {
    if (first) {
      const plan = await planInvite(due.inviteId, opts);
      if (plan.action === 'wait') return 'waiting';
      if (plan.action === 'done') return 'done';
      stepIndex = plan.steps[0].index;
    }
    const result = await sendInviteStep({ inviteId: due.inviteId, stepIndex: stepIndex!, first }, opts);
    // A follow-up that may not go (link clicked, unsubscribed, paused, step removed) ends the invite's steps.
    if (due.kind === 'follow-up' && result.outcome === 'stopped') {
      await Invite.update({ nextStepIndex: null, nextStepAt: null }, { where: { id: due.inviteId, nextStepIndex: stepIndex! } });
    }
    return result.outcome;
  } catch (e) {
    return stepFailed(due.inviteId, stepIndex, first, e, opts);
  }
}

/**
 * A step whose attempt threw: a claim still in flight is looked at again after the grace; an unavailable provider
 * (nothing accepted) puts the step back with its retry time, and records it failed after the last attempt. Anything
 * else is thrown on (the caller defers the step: `deferDueStep`).
 */
async function stepFailed(inviteId: number, stepIndex: number | null, first: boolean, e: unknown, opts: DeliveryOptions): Promise<DueOutcome> {
  const clock = opts.clock ?? systemClock;
  if (e instanceof StepInFlight) return waitForClaim(inviteId, clock);
  if (!(e instanceof MessagingUnavailable)) throw e;
  const attempts = await postpone(inviteId, e.retryAfterMs ?? null, clock.now());
  if (attempts < MAX_SEND_ATTEMPTS) return 'retry';
  return failStep({ inviteId, stepIndex: stepIndex!, first, reason: e.message.slice(0, 400) }, opts);
}

/** Another attempt holds the step's claim: the invite is looked at again after the grace (30 s at most). */
async function waitForClaim(inviteId: number, clock: Clock): Promise<DueOutcome> {
  await Invite.update({ retryAt: new Date(clock.now().getTime() + Math.min(inviteDeliverySettings().inFlightGraceMs, 30_000)) }, { where: { id: inviteId } });
  return 'in_flight';
}

/** Records the step failed after its last attempt, unless another attempt's claim of it is still in flight. */
async function failStep(input: Parameters<typeof failInviteStep>[0], opts: DeliveryOptions): Promise<DueOutcome> {
  try {
    return (await failInviteStep(input, opts)).outcome;
  } catch (e) {
    if (e instanceof StepInFlight) return waitForClaim(input.inviteId, opts.clock ?? systemClock);
    throw e;
  }
}

/**
 * Runs one piece of work within the caller's limit of sends at once; `account` is whose send it is (the caller shares
 * its slots between accounts). It may refuse work it will no longer start with NotStarted.
 */
export type Run = <T>(work: () => Promise<T>, account?: number) => Promise<T>;

/**
 * Sends a batch of due steps: claimed together in one transaction (`claimBatch`), sent side by side within `run`,
 * the ones the providers took recorded as they are taken (in groups, `settleSent`, within `SETTLE_LINGER_MS`); what the batch leaves to the
 * one-at-a-time path goes through `sendDueStep`. Answers each due step's outcome, in order, or why it failed (the
 * caller defers those).
 */
export async function sendDueSteps(dues: readonly DueStep[], run: Run, opts: DeliveryOptions = {}): Promise<Array<PromiseSettledResult<DueOutcome>>> {
  return deliverBatch(dues, await claimBatch(dues, opts), run, opts);
}

/**
 * How long a sent step waits for others to be recorded with it, and how many go in one group. Each group is one
 * transaction of four statements (begin, the steps' rows, their timeline rows, commit); recorded as soon as each was
 * taken, a batch sent at a few hundred a second made groups of five or six, and those statements were most of what the
 * database did for a send (`npm run bench:invites`; README, "Invites, where the send time goes"). A crash loses at most this long of
 * records: those steps stay `sending` and are settled by the stale path after the grace, as after any crash mid-send.
 */
export const SETTLE_LINGER_MS = 25;
export const SETTLE_GROUP_MAX = 100;

/**
 * Records sent steps in groups: a group is written once its first step has waited `SETTLE_LINGER_MS` or it holds
 * `SETTLE_GROUP_MAX` steps, one group at a time (the steps taken while one commits wait for the next). Each step's
 * promise settles with its group's commit.
 */
function settleInGroups(clock: Clock | undefined): (step: SentStep) => Promise<void> {
  const pending: Array<{ step: SentStep; at: number; resolve: () => void; reject: (e: unknown) => void }> = [];
  let flushing = false;
  /** Wakes the linger early: the group is full. */
  let full: (() => void) | null = null;
  const flush = async () => {
    flushing = true;
    while (pending.length > 0) {
      const wait = pending[0].at + SETTLE_LINGER_MS - Date.now();
      if (pending.length < SETTLE_GROUP_MAX && wait > 0) {
        let timer: NodeJS.Timeout | undefined;
        await new Promise<void>((resolve) => {
          full = resolve;
          timer = setTimeout(resolve, wait);
        });
        clearTimeout(timer);
        full = null;
      }
      const group = pending.splice(0, SETTLE_GROUP_MAX);
      try {
        await settleSent(
          group.map((g) => g.step),
          clock,
        );
        for (const g of group) g.resolve();
      } catch (e) {
        for (const g of group) g.reject(e);
      }
    }
    flushing = false;
  };
  return (step) =>
    new Promise<void>((resolve, reject) => {
      pending.push({ step, at: Date.now(), resolve, reject });
      if (!flushing) void flush();
      else if (pending.length >= SETTLE_GROUP_MAX) full?.();
    });
}

/**
 * The sending half of `sendDueSteps`: a claimed batch sent, settled, and each step's outcome in the order of `dues`.
 * A step the providers took is recorded `sent` as soon as it is taken (review finding M2: the batch was recorded in one
 * statement after its slowest send, so a crash while one slow send was outstanding left every step of the batch
 * `sending`, and the stale path sent each email again); a step whose send `run` never started (NotStarted) has its
 * claim undone, as if it had never been claimed (`released`).
 */
export async function deliverBatch(dues: readonly DueStep[], batch: BatchClaim, run: Run, opts: DeliveryOptions = {}): Promise<Array<PromiseSettledResult<DueOutcome>>> {
  const outcomes = new Map<DueStep, PromiseSettledResult<DueOutcome>>();
  const done = (due: DueStep, value: DueOutcome) => outcomes.set(due, { status: 'fulfilled', value });
  const failed = (due: DueStep, reason: unknown) => outcomes.set(due, { status: 'rejected', reason });
  for (const d of batch.decided) done(d.due, d.outcome);
  const settle = settleInGroups(opts.clock);
  let settleError: { reason: unknown } | null = null;
  await Promise.all([
    ...batch.claimed.map(async ({ due, claim, input }) => {
      let result: SentStep | StepResult;
      try {
        result = await run(() => sendClaimed(claim, input, opts), claim.loaded.invite.customerId);
      } catch (e) {
        const handled = e instanceof NotStarted ? releaseClaim(claim, input, opts).then((): DueOutcome => 'released') : stepFailed(due.inviteId, input.stepIndex, input.first, e, opts);
        await handled.then(
          (outcome) => done(due, outcome),
          (err: unknown) => failed(due, err),
        );
        return;
      }
      if ('outcome' in result) done(due, result.outcome);
      else {
        await settle(result).then(
          () => done(due, 'sent'),
          (reason: unknown) => {
            settleError ??= { reason };
          },
        );
      }
    }),
    ...batch.single.map((due) =>
      run(() => sendDueStep(due, opts), due.customerId).then(
        (outcome) => done(due, outcome),
        (err: unknown) => (err instanceof NotStarted ? done(due, 'released') : failed(due, err)),
      ),
    ),
  ]);
  // A group that could not be recorded (the database went away): the batch fails and Temporal retries it; its steps
  // stay `sending`, settled by the stale path after the grace (as after a crash).
  if (settleError) throw (settleError as { reason: unknown }).reason;
  return dues.map((d) => outcomes.get(d) ?? { status: 'rejected', reason: new Error(`Step of invite ${d.inviteId} was not handled.`) });
}

/**
 * A due step that failed in a way the queue did not expect (a bug, a row the rules trip over): it waits its turn
 * again (the same backoff), so one invite can never hold up the others, and after the last attempt its step is
 * recorded failed with the error; a first step (whose plan may be what fails) fails its invite (review finding L2: it
 * was tried again every 10 minutes for ever). A database that is down makes this write fail too: the caller's batch
 * then fails and Temporal retries it.
 */
export async function deferDueStep(due: DueStep, err: unknown, opts: DeliveryOptions = {}): Promise<DueOutcome> {
  const clock = opts.clock ?? systemClock;
  const attempts = await postpone(due.inviteId, null, clock.now());
  if (attempts < MAX_SEND_ATTEMPTS) return 'retry';
  const reason = `internal_error: ${err instanceof Error ? err.message : String(err)}`.slice(0, 400);
  if (due.stepIndex === null) return (await failUnplannedInvite(due.inviteId, reason, opts)).outcome;
  return failStep({ inviteId: due.inviteId, stepIndex: due.stepIndex, first: false, reason }, opts);
}

/** Counts a failed attempt of the invite's current step and sets when it is tried again; returns the count. */
async function postpone(inviteId: number, retryAfterMs: number | null, now: Date): Promise<number> {
  return db().transaction(async (transaction) => {
    const invite = await Invite.findByPk(inviteId, { transaction, lock: transaction.LOCK.UPDATE });
    if (!invite) return MAX_SEND_ATTEMPTS;
    const attempts = invite.sendAttempts + 1;
    await invite.update({ sendAttempts: attempts, retryAt: new Date(now.getTime() + (retryAfterMs ?? backoffMs(attempts))) }, { transaction });
    return attempts;
  });
}
