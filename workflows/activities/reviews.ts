import type { ProviderReview, ReviewPlatformClient, SignInProvider } from '../../src/providers/types';
import { platformFailure, syncStopped } from './platform-failures';
import type { SyncSkip, SyncTarget, UpsertCounts } from '../../src/jobs/review-sync';

export interface ReviewSyncActivityDeps {
  loadTarget(integrationId: number): Promise<{ target: SyncTarget | null; skip: SyncSkip | null }>;
  accessToken(integrationId: number): Promise<string>;
  client(provider: SignInProvider): ReviewPlatformClient;
  /** `fetchedFrom`: when the page's fetch started (a reply stored since is newer than the page and is kept). */
  upsert(integrationId: number, provider: SignInProvider, reviews: ProviderReview[], fetchedFrom: Date): Promise<UpsertCounts>;
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
      if (!target) throw syncStopped(skip);
      let page;
      // Taken before the token and the fetch, so any reply stored while they run counts as newer than the page.
      const fetchedFrom = new Date();
      try {
        const token = await deps.accessToken(input.integrationId);
        page = await deps.client(target.provider).listReviews(token, target.externalId, input.pageToken);
      } catch (e) {
        throw platformFailure(e);
      }
      const counts = await deps.upsert(input.integrationId, target.provider, page.reviews, fetchedFrom);
      return { ...counts, nextPageToken: page.nextPageToken };
    },

    /** The run's outcome on the integration (`last_synced_at`, `last_sync_error`). */
    async recordReviewSync(integrationId: number, error: string | null): Promise<void> {
      await deps.record(integrationId, error);
    },
  };
}

export type ReviewSyncActivities = ReturnType<typeof createReviewSyncActivities>;
