import type { ProviderReview, ReviewPlatformClient, SignInProvider } from '../../src/providers/types';
import { platformFailure, syncStopped } from './platform-failures';
import type { RemovalOutcome, SyncSkip, SyncTarget, UpsertCounts } from '../../src/jobs/review-sync';

export interface ReviewSyncActivityDeps {
  loadTarget(integrationId: number): Promise<{ target: SyncTarget | null; skip: SyncSkip | null }>;
  accessToken(integrationId: number): Promise<string>;
  client(provider: SignInProvider): ReviewPlatformClient;
  /**
   * `fetchedFrom`: when the page's fetch started (a reply stored since is newer than the page and is kept); `listedAt`:
   * the run's listing time, stamped on every review the page lists.
   */
  upsert(integrationId: number, provider: SignInProvider, reviews: ProviderReview[], fetchedFrom: Date, listedAt: Date | null): Promise<UpsertCounts>;
  /** After a complete listing: reviews missing from it and the one before are marked removed (src/jobs/review-sync.ts). */
  removeUnlisted(integrationId: number, listedAt: Date, listed: number): Promise<RemovalOutcome>;
  record(integrationId: number, error: string | null): Promise<void>;
  removeSchedule(integrationId: number): Promise<void>;
}

export interface SyncPageInput {
  integrationId: number;
  pageToken: string | null;
  /** The run's listing time (ISO 8601), the same for every page of a run; absent in runs from before it existed. */
  listedAt?: string | null;
}

export interface SyncPageResult extends UpsertCounts {
  nextPageToken: string | null;
  /** Reviews the page listed (those we store: Google reviews without stars, Facebook ratings without a story are not). */
  listed?: number;
}

export interface RemoveUnlistedInput {
  integrationId: number;
  listedAt: string;
  listed: number;
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
      const counts = await deps.upsert(input.integrationId, target.provider, page.reviews, fetchedFrom, input.listedAt ? new Date(input.listedAt) : null);
      return { ...counts, nextPageToken: page.nextPageToken, listed: page.reviews.length };
    },

    /** The run read every page of the platform's list: what neither it nor the complete listing before saw is removed. */
    async removeUnlistedReviews(input: RemoveUnlistedInput): Promise<RemovalOutcome> {
      return deps.removeUnlisted(input.integrationId, new Date(input.listedAt), input.listed);
    },

    /** The run's outcome on the integration (`last_synced_at`, `last_sync_error`). */
    async recordReviewSync(integrationId: number, error: string | null): Promise<void> {
      await deps.record(integrationId, error);
    },
  };
}

export type ReviewSyncActivities = ReturnType<typeof createReviewSyncActivities>;
