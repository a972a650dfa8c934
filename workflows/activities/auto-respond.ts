import { ApplicationFailure } from '@temporalio/activity';
import { DomainError } from '../../src/domain/errors';

export type AutoResponsePlan = { action: 'reply'; message: string; usedAi: boolean } | { action: 'skip'; reason: string };

export interface AutoRespondOutcome {
  status: 'replied' | 'skipped' | 'failed';
  reason: string | null;
}

export interface PublishAutoResponseInput {
  reviewId: number;
  message: string;
  usedAi: boolean;
}

export interface AutoRespondActivityDeps {
  prepare(reviewId: number): Promise<AutoResponsePlan>;
  publish(input: PublishAutoResponseInput): Promise<AutoRespondOutcome>;
  fail(reviewId: number, reason: string): Promise<void>;
  /** Starts the workflows of runs left `pending` without one; how many. */
  resumePending(): Promise<number>;
}

/** Failure type the workflow does not retry: the platform (or a rule of the reply path) refused the reply. */
export const AUTO_RESPOND_REJECTED = 'AutoRespondRejected';

/**
 * Domain errors of the reply path as Temporal failures: an unavailable platform retries (502
 * `provider_unavailable`); everything else the reply path refuses (the platform's refusal, a source that cannot
 * be replied to or is not connected, a sign-in to renew) would refuse again, so it stops at once.
 */
function asFailure(e: unknown): unknown {
  if (e instanceof DomainError) {
    if (e.code === 'UPSTREAM' && e.reason === 'provider_unavailable') return ApplicationFailure.retryable(e.message, 'ProviderUnavailable');
    return ApplicationFailure.nonRetryable(e.message, AUTO_RESPOND_REJECTED);
  }
  return e;
}

export function createAutoRespondActivities(deps: AutoRespondActivityDeps) {
  return {
    /** Re-checks the run (rule, plan, review) and composes the reply text, or says why nothing is sent. */
    async prepareAutoResponse(reviewId: number): Promise<AutoResponsePlan> {
      return deps.prepare(reviewId);
    },

    /** Publishes the composed reply through the reply path and records the run as replied. */
    async publishAutoResponse(input: PublishAutoResponseInput): Promise<AutoRespondOutcome> {
      try {
        return await deps.publish(input);
      } catch (e) {
        throw asFailure(e);
      }
    },

    /** Records why the run ended without a reply (a refusal, or retries exhausted). */
    async failAutoResponse(reviewId: number, reason: string): Promise<void> {
      await deps.fail(reviewId, reason);
    },

    /** The sweep: starts the workflow of each run stored `pending` whose start after the commit never happened. */
    async resumePendingAutoResponses(): Promise<number> {
      return deps.resumePending();
    },
  };
}

export type AutoRespondActivities = ReturnType<typeof createAutoRespondActivities>;
