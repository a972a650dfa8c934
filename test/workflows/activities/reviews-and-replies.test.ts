import { createAutoRespondActivities, type AutoRespondActivityDeps } from '../../../workflows/activities/auto-respond';
import { createReviewSyncActivities, type ReviewSyncActivityDeps } from '../../../workflows/activities/reviews';
import { Forbidden, NotFound, Upstream } from '../../../src/domain/errors';
import { ProviderRejected, ProviderUnavailable, type ReviewPlatformClient } from '../../../src/providers/types';
import { activityEnv, failureOf } from './support';

/**
 * The review-sync and auto-respond activities with their dependencies injected (no database, no platform): what they
 * pass on, and how each error becomes a Temporal failure the workflows' retry policies know (retry, or stop at once).
 */
describe('review-sync and auto-respond activities', () => {
  // Failed activities are logged by the environment: kept out of the test output.
  const env = activityEnv;

  describe('review sync', () => {
    const target = { integrationId: 5, provider: 'google' as const, externalId: 'locations/1' };
    const deps = (over: Partial<ReviewSyncActivityDeps>): ReviewSyncActivityDeps => ({
      loadTarget: async () => ({ target, skip: null }),
      accessToken: async () => 'token-1',
      client: () => ({ listReviews: async () => ({ reviews: [], nextPageToken: null }) }) as unknown as ReviewPlatformClient,
      upsert: async () => ({ created: 0, updated: 0, unchanged: 0 }),
      removeUnlisted: async () => ({ removed: 0, skipped: null }),
      record: async () => undefined,
      removeSchedule: async () => undefined,
      ...over,
    });

    it('removes the schedule of an integration that is gone or lost its sign-in, not of a paused one', async () => {
      const removed: number[] = [];
      for (const skip of ['gone', 'not_synced', 'no_connection', 'paused'] as const) {
        const a = createReviewSyncActivities(deps({ loadTarget: async () => ({ target: null, skip }), removeSchedule: async (id) => void removed.push(id) }));
        expect(await env().run(a.loadReviewSyncTarget, 5)).toEqual({ target: null, skip });
      }
      expect(removed).toEqual([5, 5, 5]);
    });

    it('fetches a page with a current token and stores it, answering the counts and the next token', async () => {
      const listed: unknown[] = [];
      const a = createReviewSyncActivities(
        deps({
          client: () => ({ listReviews: async (...args: unknown[]) => (listed.push(args), { reviews: [{ id: 'r1' }], nextPageToken: 'p2' }) }) as unknown as ReviewPlatformClient,
          upsert: async (id, provider, reviews) => ({ created: reviews.length, updated: 0, unchanged: id === 5 && provider === 'google' ? 0 : 99 }),
        }),
      );
      expect(await env().run(a.syncReviewPage, { integrationId: 5, pageToken: 'p1' })).toEqual({ created: 1, updated: 0, unchanged: 0, nextPageToken: 'p2', listed: 1 });
      expect(listed).toEqual([['token-1', 'locations/1', 'p1']]);
    });

    it('turns a refusal into a failure that stops, unavailability into one retried after Retry-After, a lost sign-in into SyncStopped', async () => {
      const withError = (e: Error) => createReviewSyncActivities(deps({ accessToken: async () => { throw e; } }));
      const refused = await failureOf(env().run(withError(new ProviderRejected('google', 403, 'access revoked')).syncReviewPage, { integrationId: 5, pageToken: null }));
      expect([refused.type, refused.nonRetryable]).toEqual(['ProviderRejected', true]);
      expect(refused.message).toBe('Google refused the request (403): access revoked');
      const away = await failureOf(env().run(withError(new ProviderUnavailable('google', 'HTTP 503', 30_000)).syncReviewPage, { integrationId: 5, pageToken: null }));
      expect([away.type, away.nonRetryable, away.nextRetryDelay]).toEqual(['ProviderUnavailable', false, 30_000]);
      const gone = await failureOf(env().run(withError(new NotFound('Connection')).syncReviewPage, { integrationId: 5, pageToken: null }));
      expect([gone.type, gone.nonRetryable]).toEqual(['SyncStopped', true]);
      const renew = await failureOf(env().run(withError(new Forbidden('Sign in again.', 'reconnect_required')).syncReviewPage, { integrationId: 5, pageToken: null }));
      expect([renew.type, renew.nonRetryable]).toEqual(['ProviderRejected', true]);
    });

    it('stops with SyncStopped when nothing is left to sync', async () => {
      const a = createReviewSyncActivities(deps({ loadTarget: async () => ({ target: null, skip: 'paused' }) }));
      const stopped = await failureOf(env().run(a.syncReviewPage, { integrationId: 5, pageToken: null }));
      expect([stopped.type, stopped.message]).toEqual(['SyncStopped', 'Nothing to sync (paused).']);
    });
  });

  describe('auto-respond', () => {
    const deps = (publish: AutoRespondActivityDeps['publish']): AutoRespondActivityDeps => ({
      prepare: async () => ({ action: 'skip', reason: 'x' }),
      publish,
      fail: async () => undefined,
      resumePending: async () => 0,
    });
    const input = { reviewId: 7, message: 'Thanks!', usedAi: false };

    it('passes the composed reply on and answers the outcome', async () => {
      const a = createAutoRespondActivities(deps(async (i) => ({ status: 'replied', reason: i.message })));
      expect(await env().run(a.publishAutoResponse, input)).toEqual({ status: 'replied', reason: 'Thanks!' });
    });

    it('retries an unavailable platform and stops at once on anything the reply path refuses', async () => {
      const away = await failureOf(env().run(createAutoRespondActivities(deps(async () => { throw new Upstream('Google is unavailable.', 'provider_unavailable'); })).publishAutoResponse, input));
      expect([away.type, away.nonRetryable]).toEqual(['ProviderUnavailable', false]);
      const refused = await failureOf(env().run(createAutoRespondActivities(deps(async () => { throw new Upstream('Google refused the reply.', 'provider_rejected'); })).publishAutoResponse, input));
      expect([refused.type, refused.nonRetryable]).toEqual(['AutoRespondRejected', true]);
    });
  });
});
