import { ActivityFailure, ApplicationFailure, patched, proxyActivities } from '@temporalio/workflow';
import type { ReviewSyncActivities, SyncPageResult } from '../activities/reviews';
import { backoffPolicy, QUERY_RETRY } from '../retry';

/** Retries of a page fetch while the platform is unavailable (5xx, 429, network). */
export interface ReviewSyncRetry {
  maximumAttempts: number;
  initialIntervalMs: number;
  maximumIntervalMs: number;
}

export interface SyncReviewsInput {
  integrationId: number;
  retry?: ReviewSyncRetry;
}

export interface SyncReviewsResult {
  status: 'synced' | 'skipped';
  reason: string | null;
  pages: number;
  created: number;
  updated: number;
  /**
   * Reviews marked removed after this run's complete listing (absent: runs from before removals existed);
   * `removalSkipped` says why a complete listing removed nothing on principle (an empty listing).
   */
  removed?: number;
  removalSkipped?: string | null;
}

/** A platform that keeps handing out page tokens cannot keep a run going forever. */
const MAX_PAGES = 500;
const DEFAULT_RETRY: ReviewSyncRetry = { maximumAttempts: 6, initialIntervalMs: 10_000, maximumIntervalMs: 300_000 };

/**
 * One review sync of one synced integration, started by its schedule (`review-sync:<integration id>`): pages
 * through the platform's reviews and stores them (new ones emit review-created, changed ones review-updated).
 * Paused accounts, integrations without a sign-in and deleted ones are skipped. A platform refusal (revoked
 * access, a location that is gone) fails the run at once and is recorded on the integration; the schedule's next
 * run tries again.
 *
 * A run that read every page to the last (none failed, not cut at MAX_PAGES) is a complete listing: its end marks
 * removed the reviews neither it nor the previous complete listing saw (src/jobs/review-sync.ts,
 * removeUnlistedReviews). Each page stamps the reviews it lists with the run's listing time, the workflow's start.
 */
export async function syncReviews(input: SyncReviewsInput): Promise<SyncReviewsResult> {
  const retry = input.retry ?? DEFAULT_RETRY;
  const { loadReviewSyncTarget, recordReviewSync, removeUnlistedReviews } = proxyActivities<ReviewSyncActivities>({
    startToCloseTimeout: '1m',
    retry: QUERY_RETRY,
  });
  const { syncReviewPage } = proxyActivities<ReviewSyncActivities>({
    // Two platform calls of at most 30 s each, and the upsert.
    startToCloseTimeout: '2m',
    retry: backoffPolicy(retry, ['ProviderRejected', 'SyncStopped']),
  });

  // Runs started before removals existed replay without the marker: no listing time, no removal step.
  const removals = patched('review-removal');
  const listedAt = removals ? new Date(Date.now()).toISOString() : null;
  let listed = 0;

  const { skip } = await loadReviewSyncTarget.executeWithOptions({ summary: `Check integration ${input.integrationId} can sync` }, [input.integrationId]);
  const result: SyncReviewsResult = { status: 'skipped', reason: skip, pages: 0, created: 0, updated: 0 };
  if (skip) return result;

  let pageToken: string | null = null;
  try {
    do {
      const page: SyncPageResult = await syncReviewPage.executeWithOptions({ summary: `Fetch page ${result.pages + 1} of integration ${input.integrationId}'s reviews` }, [
        { integrationId: input.integrationId, pageToken, ...(listedAt ? { listedAt } : {}) },
      ]);
      result.pages++;
      result.created += page.created;
      result.updated += page.updated;
      listed += page.listed ?? 0;
      pageToken = page.nextPageToken;
    } while (pageToken && result.pages < MAX_PAGES);
    // Cut at the page limit, the listing is not complete: nothing is removed.
    if (listedAt && !pageToken) {
      const removal = await removeUnlistedReviews.executeWithOptions({ summary: `Mark removed what integration ${input.integrationId}'s platform no longer lists` }, [
        { integrationId: input.integrationId, listedAt, listed },
      ]);
      result.removed = removal.removed;
      result.removalSkipped = removal.skipped;
    }
  } catch (err) {
    const cause = err instanceof ActivityFailure ? err.cause : err;
    if (cause instanceof ApplicationFailure && cause.type === 'SyncStopped') {
      return { ...result, reason: cause.message };
    }
    const message = cause instanceof Error ? cause.message : 'The review sync failed.';
    await recordReviewSync.executeWithOptions({ summary: `Record the failed sync of integration ${input.integrationId}` }, [input.integrationId, message]);
    throw ApplicationFailure.nonRetryable(message, 'ReviewSyncFailed');
  }
  await recordReviewSync.executeWithOptions({ summary: `Record the sync of integration ${input.integrationId}` }, [input.integrationId, null]);
  return { ...result, status: 'synced', reason: null };
}
