import { ApplicationFailure, WorkflowFailedError } from '@temporalio/client';
import type { ReviewSyncActivities, SyncPageResult } from '../../../workflows/activities/reviews';
import type { syncReviews } from '../../../workflows/reviews/sync.workflow';
import type { SyncSkip } from '../../../src/jobs/review-sync';
import { retryFailure, useWorkflowTestEnv, workflowId } from './support';

/**
 * `syncReviews` with mocked activities: a skipped integration, paging through the platform's page tokens with a page
 * retried while the platform is unavailable, a refusal recorded and failing the run, nothing left to sync ending it.
 * The e2e tests (test/workflows/review-sync.e2e.test.ts) have the platforms' wire formats and the database.
 */
jest.setTimeout(60_000);

describe('syncReviews (mocked activities)', () => {
  const temporal = useWorkflowTestEnv();
  const retry = { maximumAttempts: 3, initialIntervalMs: 20, maximumIntervalMs: 100 };

  function platform(skip: SyncSkip | null, page: (token: string | null, fetches: number) => SyncPageResult) {
    const tokens: Array<string | null> = [];
    const recorded: Array<string | null> = [];
    const removals: Array<{ integrationId: number; listed: number; listedAtIsTheRunsOwn: boolean }> = [];
    const listingTimes = new Set<string | null | undefined>();
    const activities: Pick<ReviewSyncActivities, 'loadReviewSyncTarget' | 'syncReviewPage' | 'removeUnlistedReviews' | 'recordReviewSync'> = {
      async loadReviewSyncTarget() {
        return { target: null, skip };
      },
      async syncReviewPage({ pageToken, listedAt }) {
        tokens.push(pageToken);
        listingTimes.add(listedAt);
        return page(pageToken, tokens.length);
      },
      async removeUnlistedReviews({ integrationId, listedAt, listed }) {
        removals.push({ integrationId, listed, listedAtIsTheRunsOwn: listingTimes.size === 1 && listingTimes.has(listedAt) });
        return { removed: 1, skipped: null };
      },
      async recordReviewSync(_id, error) {
        recorded.push(error);
      },
    };
    return { tokens, recorded, removals, activities };
  }

  const run = (activities: object) =>
    temporal.withWorker(activities, (taskQueue) =>
      temporal.client().workflow.execute<typeof syncReviews>('syncReviews', { taskQueue, workflowId: workflowId('review-sync'), args: [{ integrationId: 5, retry }] }),
    );

  it('skips an integration that cannot sync, fetching nothing', async () => {
    const p = platform('paused', () => ({ created: 0, updated: 0, unchanged: 0, nextPageToken: null }));
    expect(await run(p.activities)).toEqual({ status: 'skipped', reason: 'paused', pages: 0, created: 0, updated: 0 });
    expect(p.tokens).toEqual([]);
  });

  it('follows the page tokens to the end, retries a page while the platform is unavailable, and records the sync', async () => {
    const pages: Record<string, SyncPageResult> = {
      first: { created: 3, updated: 1, unchanged: 0, nextPageToken: 'p2', listed: 4 },
      p2: { created: 2, updated: 0, unchanged: 5, nextPageToken: null, listed: 7 },
    };
    const p = platform(null, (token, fetches) => {
      if (token === 'p2' && fetches === 2) throw retryFailure('HTTP 503 from the platform');
      return pages[token ?? 'first'];
    });
    expect(await run(p.activities)).toEqual({ status: 'synced', reason: null, pages: 2, created: 5, updated: 1, removed: 1, removalSkipped: null });
    expect(p.tokens).toEqual([null, 'p2', 'p2']);
    // A complete listing: every page carried the run's one listing time, and the removal step got the reviews listed.
    expect(p.removals).toEqual([{ integrationId: 5, listed: 11, listedAtIsTheRunsOwn: true }]);
    expect(p.recorded).toEqual([null]);
  });

  it('fails the run and records the refusal when the platform refuses (no retry)', async () => {
    const p = platform(null, () => {
      throw ApplicationFailure.nonRetryable('Google refused: access revoked', 'ProviderRejected');
    });
    await expect(run(p.activities)).rejects.toBeInstanceOf(WorkflowFailedError);
    expect(p.tokens).toEqual([null]);
    expect(p.removals).toEqual([]);
    expect(p.recorded).toEqual(['Google refused: access revoked']);
  });

  it('ends quietly when the integration went away between pages', async () => {
    const p = platform(null, (token) => {
      if (token) throw ApplicationFailure.nonRetryable('Nothing to sync (gone).', 'SyncStopped');
      return { created: 1, updated: 0, unchanged: 0, nextPageToken: 'p2' };
    });
    expect(await run(p.activities)).toEqual({ status: 'skipped', reason: 'Nothing to sync (gone).', pages: 1, created: 1, updated: 0 });
    expect(p.removals).toEqual([]);
    expect(p.recorded).toEqual([]);
  });
});
