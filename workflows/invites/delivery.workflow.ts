import { ActivityFailure, condition, continueAsNew, defineSignal, patched, proxyActivities, setHandler } from '@temporalio/workflow';
import type { InviteActivities } from '../activities/invites';
import type { StepResult } from '../../src/messaging/delivery';
import type { InviteRescheduleSignal } from './client';

/**
 * Durable delivery of the review requests of one (campaign, contact): workflow id
 * `invite:<campaign uuid>:<contact uuid>`, started (or signalled) by `scheduleInviteDelivery` with signal-with-start.
 *
 * 1. Waits until the invite's send time; a `reschedule` signal for the same invite moves it, a `cancel` ends it.
 * 2. Asks the plan activity what to do: the stored invite is the truth (it may say "wait longer", "held: the
 *    campaign is paused", "gone", or the steps to send).
 * 3. Sends the first step at once and each follow-up its delay later; follow-ups stop once the contact clicked
 *    the review link or left feedback, unsubscribed, or the campaign was paused (the step activity checks), or
 *    when a new invite of the pair arrives (it takes over).
 *
 * A signal for a new invite of the pair (a new request after the duplicate window) that arrives while this run is
 * busy is not lost: the run hands it to a fresh run of the same id (continue-as-new), which keeps each run's
 * history short too.
 */
export interface InviteDeliveryInput {
  campaignUuid: string;
  contactUuid: string;
  /** Carried over by continue-as-new: the invite the next run delivers. */
  pending?: InviteRescheduleSignal | null;
}

export type InviteDeliveryOutcome = 'sent' | 'failed' | 'canceled' | 'held' | 'skipped' | 'superseded' | 'idle';

export interface InviteDeliveryResult {
  inviteId: number | null;
  outcome: InviteDeliveryOutcome;
  steps: Array<{ index: number; outcome: StepResult['outcome']; reason: string | null }>;
}

export const rescheduleSignal = defineSignal<[InviteRescheduleSignal]>('reschedule');
export const cancelSignal = defineSignal<[{ inviteId: number }]>('cancel');

/** A run started without a signal (it should not happen: every start carries one) waits this long for one. */
const IDLE_MS = 60_000;

export async function inviteDelivery(input: InviteDeliveryInput): Promise<InviteDeliveryResult> {
  const { planInviteDelivery, failInviteStep } = proxyActivities<InviteActivities>({
    startToCloseTimeout: '1m',
    retry: { initialInterval: '1s', backoffCoefficient: 2, maximumInterval: '1m', maximumAttempts: 20 },
  });
  const { sendInviteStep } = proxyActivities<InviteActivities>({
    // SMTP / HTTP timeouts (at most about 40 s) plus the two short transactions around the send.
    startToCloseTimeout: '2m',
    // An unavailable provider (nothing accepted) is retried for about an hour, then the step is recorded failed.
    retry: { initialInterval: '2s', backoffCoefficient: 2, maximumInterval: '10m', maximumAttempts: 12 },
  });

  const inbox: { next: InviteRescheduleSignal | null } = { next: input.pending ?? null };
  const canceled = new Set<number>();
  setHandler(rescheduleSignal, (signal) => {
    inbox.next = signal;
  });
  setHandler(cancelSignal, ({ inviteId }) => {
    canceled.add(inviteId);
    if (inbox.next?.inviteId === inviteId) inbox.next = null;
  });

  // The start's own signal and a cancel can reach the first workflow task together (an unsubscribe right after the
  // invite was accepted, on a busy worker): the invite is then canceled before it was ever waited for, and the run
  // ends so, at once, instead of idling for a signal that already came.
  if (!inbox.next && !(canceled.size > 0 && patched('cancel-before-first-wait'))) await condition(() => inbox.next !== null, IDLE_MS);
  const first = inbox.next;
  if (!first) {
    const [gone] = [...canceled];
    return gone !== undefined ? { inviteId: gone, outcome: 'canceled', steps: [] } : { inviteId: null, outcome: 'idle', steps: [] };
  }
  inbox.next = null;

  const deliver = async (current: InviteRescheduleSignal): Promise<InviteDeliveryResult> => {
    const inviteId = current.inviteId;
    const steps: InviteDeliveryResult['steps'] = [];
    const done = (outcome: InviteDeliveryOutcome): InviteDeliveryResult => ({ inviteId, outcome, steps });
    const newInviteWaiting = () => inbox.next !== null && inbox.next.inviteId !== inviteId;
    let sendAt = Date.parse(current.sendAt);

    for (;;) {
      // 1. Until the send time; a reschedule of this invite moves it.
      for (;;) {
        const wait = sendAt - Date.now();
        const woken = wait > 0 ? await condition(() => inbox.next !== null || canceled.has(inviteId), wait) : inbox.next !== null;
        if (canceled.has(inviteId)) return done('canceled');
        if (!woken) break;
        if (newInviteWaiting()) return done('superseded');
        sendAt = Date.parse(inbox.next!.sendAt);
        inbox.next = null;
      }

      // 2. What the stored invite says now.
      const plan = await planInviteDelivery.executeWithOptions({ summary: `Read invite ${inviteId} as stored` }, [inviteId]);
      if (plan.action === 'wait') {
        sendAt = Date.parse(plan.sendAt);
        continue;
      }
      if (plan.action === 'done') {
        return done(plan.outcome === 'held' ? 'held' : plan.outcome === 'canceled' ? 'canceled' : plan.outcome === 'failed' ? 'failed' : 'skipped');
      }

      // 3. The steps: the first now, the others at their offsets from it.
      const start = Date.now();
      let notDue: string | null = null;
      for (const [position, step] of plan.steps.entries()) {
        const isFirst = position === 0;
        if (!isFirst) {
          const wait = start + step.offsetMs - Date.now();
          if (wait > 0) await condition(() => canceled.has(inviteId) || newInviteWaiting(), wait);
          if (canceled.has(inviteId)) return done('sent');
          if (newInviteWaiting()) return done('sent');
          // A reschedule of an invite already sent is stale.
          if (inbox.next?.inviteId === inviteId) inbox.next = null;
        }
        let result: StepResult;
        try {
          result = await sendInviteStep.executeWithOptions({ summary: `Send step ${step.index} of invite ${inviteId}` }, [{ inviteId, stepIndex: step.index, first: isFirst }]);
        } catch (err) {
          // The provider stayed unavailable through every retry: the step is recorded as failed.
          const cause = err instanceof ActivityFailure ? err.cause : err;
          const reason = cause instanceof Error ? cause.message : 'The provider stayed unavailable.';
          result = await failInviteStep.executeWithOptions({ summary: `Record step ${step.index} of invite ${inviteId} failed` }, [
            { inviteId, stepIndex: step.index, first: isFirst, reason: reason.slice(0, 400) },
          ]);
        }
        steps.push({ index: step.index, outcome: result.outcome, reason: result.reason });
        if (isFirst) {
          if (result.outcome === 'not_due') {
            notDue = result.sendAt;
            break;
          }
          if (result.outcome === 'failed') return done('failed');
          if (result.outcome === 'stopped') return done(result.reason === 'paused' ? 'held' : result.reason === 'unsubscribed' ? 'canceled' : 'skipped');
        } else if (result.outcome === 'stopped') {
          break;
        }
      }
      if (notDue === null) return done('sent');
      sendAt = Date.parse(notDue);
    }
  };

  const result = await deliver(first);
  // A signal still waiting: a new invite of the pair (or the re-dispatch of a held one) goes to a fresh run.
  const next = inbox.next as InviteRescheduleSignal | null;
  if (next && (next.inviteId !== result.inviteId || result.outcome === 'held')) {
    await continueAsNew<typeof inviteDelivery>({ campaignUuid: input.campaignUuid, contactUuid: input.contactUuid, pending: next });
  }
  return result;
}
