import { ApplicationFailure } from '@temporalio/activity';
import { DomainError } from '../../src/domain/errors';
import { MAX_PROVIDER_RETRY_AFTER_MS } from '../../src/providers/http';
import { ProviderRejected, ProviderUnavailable, type SignInProvider } from '../../src/providers/types';

export { MAX_PROVIDER_RETRY_AFTER_MS };

/** Failure types the syncs (reviews, business-profile performance) do not retry: refused, or nothing left to sync. */
export const PROVIDER_REJECTED = 'ProviderRejected';
export const SYNC_STOPPED = 'SyncStopped';

const PROVIDER_NAMES: Record<SignInProvider, string> = { google: 'Google', facebook: 'Facebook' };

/** A provider's Retry-After as an activity's next retry delay: at most MAX_PROVIDER_RETRY_AFTER_MS; none: the policy's backoff. */
export function providerRetryDelay(retryAfterMs: number | null): number | undefined {
  return retryAfterMs === null ? undefined : Math.min(retryAfterMs, MAX_PROVIDER_RETRY_AFTER_MS);
}

/**
 * A review platform's errors as Temporal failures, for the syncs' activities: a refusal stops the run, unavailability
 * retries (after Retry-After, capped). From the token store: no sign-in left stops it, one the customer must renew is a
 * refusal, an unreachable token endpoint retries.
 */
export function platformFailure(e: unknown): unknown {
  if (e instanceof ProviderRejected) {
    return ApplicationFailure.nonRetryable(`${PROVIDER_NAMES[e.provider]} refused the request (${e.status}): ${e.reason}`, PROVIDER_REJECTED);
  }
  if (e instanceof ProviderUnavailable) {
    return ApplicationFailure.create({ message: e.message, type: 'ProviderUnavailable', nextRetryDelay: providerRetryDelay(e.retryAfterMs) });
  }
  if (e instanceof DomainError) {
    if (e.code === 'NOT_FOUND') return ApplicationFailure.nonRetryable(e.message, SYNC_STOPPED);
    if (e.reason === 'reconnect_required') return ApplicationFailure.nonRetryable(e.message, PROVIDER_REJECTED);
    return ApplicationFailure.retryable(e.message, 'ProviderUnavailable');
  }
  return e;
}

/** A run whose integration has nothing left to sync (gone, paused, signed out) ends without a retry. */
export function syncStopped(skip: string | null): ApplicationFailure {
  return ApplicationFailure.nonRetryable(`Nothing to sync (${skip}).`, SYNC_STOPPED);
}
