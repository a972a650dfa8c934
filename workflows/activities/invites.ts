import { ApplicationFailure } from '@temporalio/activity';
import type { DeliveryOptions, InvitePlan, RedispatchResult, StepInput, StepResult } from '../../src/messaging/delivery';
import { failInviteStep, planInvite, redispatchMissingInvites, sendInviteStep, StepInFlight } from '../../src/messaging/delivery';
import { MessagingUnavailable } from '../../src/messaging/types';
import { inviteWorkflowId, scheduleInviteDelivery } from '../invites/client';
import { isWorkflowRunning } from '../invites/schedule';

/**
 * Activities of invite delivery (`inviteDelivery`, `redispatchInvites`): all I/O, wired to src/messaging/delivery by
 * `buildActivities`. The workflow sees only their types.
 */
export interface InviteActivityDeps {
  plan(inviteId: number): Promise<InvitePlan>;
  sendStep(input: StepInput): Promise<StepResult>;
  failStep(input: StepInput & { reason: string }): Promise<StepResult>;
  redispatch(): Promise<RedispatchResult>;
}

/** The real wiring (buildActivities); tests pass `opts` to inject a fault or a sender. */
export function inviteActivityDeps(opts: DeliveryOptions = {}): InviteActivityDeps {
  return {
    plan: (inviteId) => planInvite(inviteId, opts),
    sendStep: (input) => sendInviteStep(input, opts),
    failStep: (input) => failInviteStep(input, opts),
    redispatch: () => redispatchMissingInvites({ isRunning: isWorkflowRunning, dispatch: scheduleInviteDelivery, workflowIdOf: inviteWorkflowId }),
  };
}

/** Failure types the workflow's retry policy knows: a provider that did not take the message, a claim in flight. */
export const MESSAGING_UNAVAILABLE = 'MessagingUnavailable';
export const STEP_IN_FLIGHT = 'StepInFlight';

export function createInviteActivities(deps: InviteActivityDeps) {
  return {
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
      return deps.failStep(input);
    },

    /** The 6-hourly sweep: stored `scheduled` invites whose workflow is missing or closed go to Temporal again. */
    async redispatchInvites(): Promise<RedispatchResult> {
      return deps.redispatch();
    },
  };
}

export type InviteActivities = ReturnType<typeof createInviteActivities>;
