import { QueryTypes } from 'sequelize';
import { systemClock, type Clock } from '../domain/clock';
import { Invite } from '../models';
import { claimBatch, type BatchClaim } from './batch';
import { DUE_TOLERANCE_MS, failInviteStep, planInvite, sendClaimed, sendInviteStep, settleSent, StepInFlight, type DeliveryOptions, type SentStep, type StepResult } from './delivery';
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
 */
export interface DueStep {
  inviteId: number;
  /** null: the invite's first step (the plan decides which); else the campaign step to send or settle. */
  stepIndex: number | null;
  kind: 'first' | 'follow-up' | 'stale';
}

export type DueOutcome = StepResult['outcome'] | 'waiting' | 'done' | 'retry' | 'in_flight';

const MAX_SEND_ATTEMPTS = 12;

const db = () => {
  const s = Invite.sequelize;
  if (!s) throw new Error('Database not initialised');
  return s;
};

/** Up to `limit` due steps of each kind, soonest first. */
export async function claimDueSteps(limit: number, now: Date = systemClock.now()): Promise<DueStep[]> {
  const due = new Date(now.getTime() + DUE_TOLERANCE_MS);
  const staleBefore = new Date(now.getTime() - inviteDeliverySettings().inFlightGraceMs);
  const rows = await db().query<{ id: number; step: number | null; kind: DueStep['kind'] }>(
    `(SELECT i.id, NULL AS step, 'first' AS kind
        FROM invites i
        JOIN campaigns c ON c.id = i.campaign_id
        JOIN customers cu ON cu.id = i.customer_id
       WHERE i.status = 'scheduled' AND i.send_at <= :due AND (i.retry_at IS NULL OR i.retry_at <= :now)
         AND c.paused_at IS NULL AND cu.subscription_status = 'active'
       ORDER BY i.send_at, i.id LIMIT :limit)
     UNION ALL
     (SELECT i.id, i.next_step_index AS step, 'follow-up' AS kind
        FROM invites i
       WHERE i.status = 'sent' AND i.next_step_at <= :now AND (i.retry_at IS NULL OR i.retry_at <= :now)
       ORDER BY i.next_step_at, i.id LIMIT :limit)
     UNION ALL
     (SELECT m.invite_id AS id, m.step_index AS step, 'stale' AS kind
        FROM invite_messages m
       WHERE m.status = 'sending' AND m.sent_at <= :staleBefore
       ORDER BY m.sent_at LIMIT :limit)`,
    { replacements: { due, now, staleBefore, limit }, type: QueryTypes.SELECT },
  );
  return rows.map((r) => ({ inviteId: Number(r.id), stepIndex: r.step === null ? null : Number(r.step), kind: r.kind }));
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

/** Runs one piece of work within the caller's limit of sends at once. */
export type Run = <T>(work: () => Promise<T>) => Promise<T>;

/**
 * Sends a batch of due steps: claimed together in one transaction (`claimBatch`), sent side by side within `run`,
 * the ones the providers took recorded in one transaction; what the batch leaves to the one-at-a-time path goes
 * through `sendDueStep`. Answers each due step's outcome, in order, or why it failed (the caller defers those).
 */
export async function sendDueSteps(dues: readonly DueStep[], run: Run, opts: DeliveryOptions = {}): Promise<Array<PromiseSettledResult<DueOutcome>>> {
  return deliverBatch(dues, await claimBatch(dues, opts), run, opts);
}

/** The sending half of `sendDueSteps`: a claimed batch sent, settled, and each step's outcome in the order of `dues`. */
export async function deliverBatch(dues: readonly DueStep[], batch: BatchClaim, run: Run, opts: DeliveryOptions = {}): Promise<Array<PromiseSettledResult<DueOutcome>>> {
  const outcomes = new Map<DueStep, PromiseSettledResult<DueOutcome>>();
  const done = (due: DueStep, value: DueOutcome) => outcomes.set(due, { status: 'fulfilled', value });
  const failed = (due: DueStep, reason: unknown) => outcomes.set(due, { status: 'rejected', reason });
  for (const d of batch.decided) done(d.due, d.outcome);
  const sent: Array<SentStep & { due: DueStep }> = [];
  await Promise.all([
    ...batch.claimed.map(({ due, claim, input }) =>
      run(async () => {
        try {
          const result = await sendClaimed(claim, input, opts);
          if ('outcome' in result) done(due, result.outcome);
          else sent.push({ ...result, due });
        } catch (e) {
          await stepFailed(due.inviteId, input.stepIndex, input.first, e, opts).then((outcome) => done(due, outcome), (err: unknown) => failed(due, err));
        }
      }),
    ),
    ...batch.single.map((due) => run(() => sendDueStep(due, opts)).then((outcome) => done(due, outcome), (err: unknown) => failed(due, err))),
  ]);
  await settleSent(sent, opts.clock);
  for (const s of sent) done(s.due, 'sent');
  return dues.map((d) => outcomes.get(d) ?? { status: 'rejected', reason: new Error(`Step of invite ${d.inviteId} was not handled.`) });
}

/**
 * A due step that failed in a way the queue did not expect (a bug, a row the rules trip over): it waits its turn
 * again (the same backoff), so one invite can never hold up the others, and after the last attempt its step is
 * recorded failed with the error. A database that is down makes this write fail too: the caller's batch then fails
 * and Temporal retries it.
 */
export async function deferDueStep(due: DueStep, err: unknown, opts: DeliveryOptions = {}): Promise<DueOutcome> {
  const clock = opts.clock ?? systemClock;
  const attempts = await postpone(due.inviteId, null, clock.now());
  if (attempts < MAX_SEND_ATTEMPTS || due.stepIndex === null) return 'retry';
  const reason = `internal_error: ${err instanceof Error ? err.message : String(err)}`.slice(0, 400);
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
