import { ApplicationFailure } from '@temporalio/activity';
import { DomainError } from '../../src/domain/errors';
import { ProviderRejected, ProviderUnavailable, type ProviderReview, type ReviewPlatformClient, type SignInProvider } from '../../src/providers/types';
import type { SyncSkip, SyncTarget, UpsertCounts } from '../../src/jobs/review-sync';

export interface ReviewSyncActivityDeps {
  loadTarget(integrationId: number): Promise<{ target: SyncTarget | null; skip: SyncSkip | null }>;
  accessToken(integrationId: number): Promise<string>;
  client(provider: SignInProvider): ReviewPlatformClient;
  upsert(integrationId: number, provider: SignInProvider, reviews: ProviderReview[]): Promise<UpsertCounts>;
  record(integrationId: number, error: string | null): Promise<void>;
  removeSchedule(integrationId: number): Promise<void>;
}

export interface SyncPageInput {
  integrationId: number;
  pageToken: string | null;
}

export interface SyncPageResult extends UpsertCounts {
  nextPageToken: string | null;
}

/** Failure types the sync workflow does not retry: the platform refused, or there is nothing left to sync. */
export const PROVIDER_REJECTED = 'ProviderRejected';
export const SYNC_STOPPED = 'SyncStopped';

const PROVIDER_NAMES: Record<SignInProvider, string> = { google: 'Google', facebook: 'Facebook' };

/** Platform errors as Temporal failures: a refusal stops the run, unavailability retries (after Retry-After). */
function asFailure(e: unknown): unknown {
  if (e instanceof ProviderRejected) {
    return ApplicationFailure.nonRetryable(`${PROVIDER_NAMES[e.provider]} refused the request (${e.status}): ${e.reason}`, PROVIDER_REJECTED);
  }
  if (e instanceof ProviderUnavailable) {
    return ApplicationFailure.create({ message: e.message, type: 'ProviderUnavailable', nextRetryDelay: e.retryAfterMs ?? undefined });
  }
  // From the token store: no sign-in left, or one the customer must renew; an unreachable token endpoint retries.
  if (e instanceof DomainError) {
    if (e.code === 'NOT_FOUND') return ApplicationFailure.nonRetryable(e.message, SYNC_STOPPED);
    if (e.reason === 'reconnect_required') return ApplicationFailure.nonRetryable(e.message, PROVIDER_REJECTED);
    return ApplicationFailure.retryable(e.message, 'ProviderUnavailable');
  }
  return e;
}

export function createReviewSyncActivities(deps: ReviewSyncActivityDeps) {
  return {
    /** What the run syncs, or why it does nothing. An integration that is gone or lost its sign-in loses its schedule. */
    async loadReviewSyncTarget(integrationId: number): Promise<{ target: SyncTarget | null; skip: SyncSkip | null }> {
      const result = await deps.loadTarget(integrationId);
      if (result.skip === 'gone' || result.skip === 'not_synced' || result.skip === 'no_connection') await deps.removeSchedule(integrationId);
      return result;
    },

    /** One page of the platform's reviews, fetched with a current token and stored. */
    async syncReviewPage(input: SyncPageInput): Promise<SyncPageResult> {
      const { target, skip } = await deps.loadTarget(input.integrationId);
      if (!target) throw ApplicationFailure.nonRetryable(`Nothing to sync (${skip}).`, SYNC_STOPPED);
      let page;
      try {
        const token = await deps.accessToken(input.integrationId);
        page = await deps.client(target.provider).listReviews(token, target.externalId, input.pageToken);
      } catch (e) {
        throw asFailure(e);
      }
      const counts = await deps.upsert(input.integrationId, target.provider, page.reviews);
      return { ...counts, nextPageToken: page.nextPageToken };
    },

    /** The run's outcome on the integration (`last_synced_at`, `last_sync_error`). */
    async recordReviewSync(integrationId: number, error: string | null): Promise<void> {
      await deps.record(integrationId, error);
    },
  };
}

export type ReviewSyncActivities = ReturnType<typeof createReviewSyncActivities>;
