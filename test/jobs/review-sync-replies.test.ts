import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express, { type Response } from 'express';
import { OutboxEvent, Review } from '../../src/models';
import { upsertProviderReviews } from '../../src/jobs/review-sync';
import { GoogleBusinessSimulator } from '../../src/providers/google/business.simulator';
import type { ProviderReview } from '../../src/providers/types';
import { attachSynced } from '../../src/services/integrations.service';
import { saveConnection } from '../../src/services/provider-connections.service';
import { buildActivities } from '../../workflows/activities';
import { useApp } from '../support/app';
import { makeReview, makeWorld, syncedSourceOf } from '../support/factories';
import { activityEnv } from '../workflows/activities/support';

/**
 * A review sync and a reply to the same review at once: a page of reviews read from the platform before the reply
 * was stored must not clear or replace that reply (else the 409 `already_replied` check passes again and a second
 * reply overwrites the first on Google). A reply really removed on the platform is still cleared by a later sync.
 */
describe('review sync against a reply stored while the page was fetched', () => {
  const t = useApp();

  const updatedEvents = async (reviewId: number) =>
    (await OutboxEvent.findAll({ where: { aggregateType: 'review', aggregateId: String(reviewId), event: 'review-updated' }, order: [['id', 'ASC']] })).map(
      (e) => e.payload as Record<string, unknown>,
    );

  describe('the sync activity, with the Google server holding its answer while the reply is published', () => {
    const google = new GoogleBusinessSimulator({ seed: false, growEveryMs: null });
    let server: Server;
    let savedUrl: string | undefined;
    // The next reviews listing is answered with what the platform had when it was asked, sent only once released.
    let hold: { arrived: () => void; released: Promise<void> } | null = null;

    beforeAll(async () => {
      const app = express();
      app.use('/google', (req, res, next) => {
        const held = hold;
        if (held && req.method === 'GET' && req.path.endsWith('/reviews')) {
          hold = null;
          const send = res.json.bind(res);
          res.json = ((body: unknown) => {
            held.arrived();
            void held.released.then(() => send(body));
            return res;
          }) as Response['json'];
        }
        next();
      });
      app.use('/google', google.router);
      server = await new Promise<Server>((resolve) => {
        const s = app.listen(0, '127.0.0.1', () => resolve(s));
      });
      savedUrl = process.env.GOOGLE_API_URL;
      process.env.GOOGLE_API_URL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/google`;
    });
    afterAll(async () => {
      if (savedUrl === undefined) delete process.env.GOOGLE_API_URL;
      else process.env.GOOGLE_API_URL = savedUrl;
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    });

    it('keeps the reply published while the page was in flight, refuses a second reply, and clears the reply once the platform no longer has it', async () => {
      const w = await makeWorld();
      const location = google.addLocation(`accounts/91/locations/${Date.now()}`, { title: 'Synced Dental' });
      const integration = await attachSynced(w.home, 'google', location);
      await saveConnection({ integrationId: integration.id, provider: 'google', accessToken: 'sync-token', refreshToken: null, expiresAt: null, scope: null });
      const name = google.addReview(location, { rating: 2, comment: 'Slow service.', displayName: 'Ada', createTime: new Date('2026-10-01T09:00:00Z') });
      const activities = buildActivities({ WEBHOOK_TIMEOUT_MS: 5_000, WEBHOOK_ALLOW_PRIVATE_URLS: 'true' });
      const syncPage = () => activityEnv().run(activities.syncReviewPage, { integrationId: integration.id, pageToken: null });

      expect(await syncPage()).toMatchObject({ created: 1 });
      const review = (await Review.findOne({ where: { integrationId: integration.id, identifier: name } }))!;
      expect(review.reply).toBeNull();

      // The sync asks for the page; Google answers without a reply, and the answer is held on the way.
      let arrived!: () => void;
      let release!: () => void;
      const answered = new Promise<void>((resolve) => (arrived = resolve));
      hold = { arrived, released: new Promise<void>((resolve) => (release = resolve)) };
      const racing = syncPage();
      await answered;
      // Meanwhile the owner replies: published on Google and stored.
      const first = await t.as(w.tokens.orgOwner).post(`/api/v1/reviews/${review.id}/reply`).send({ message: 'Sorry, we are on it.' });
      expect(first.status).toBe(200);
      release();
      expect(await racing).toMatchObject({ created: 0, updated: 0, unchanged: 1 });

      expect((await Review.findByPk(review.id))!.reply).toBe('Sorry, we are on it.');
      expect((await updatedEvents(review.id)).map((p) => p.replied)).toEqual([true]);
      const second = await t.as(w.tokens.orgOwner).post(`/api/v1/reviews/${review.id}/reply`).send({ message: 'A second reply.' });
      expect([second.status, second.body.code]).toEqual([409, 'already_replied']);
      expect(google.replies()[name].comment).toBe('Sorry, we are on it.');

      // The reply is deleted on Google: the next sync, fetched after the reply was stored, clears it.
      google.review(name)!.reply = null;
      expect(await syncPage()).toMatchObject({ updated: 1 });
      expect((await Review.findByPk(review.id))!).toMatchObject({ reply: null, replyDate: null });
      expect((await updatedEvents(review.id)).map((p) => p.replied)).toEqual([true, false]);
    });
  });

  describe('upsertProviderReviews with the fetch start', () => {
    const fetched = (identifier: string, over: Partial<ProviderReview> = {}): ProviderReview => ({
      externalId: identifier,
      author: 'Jane Reviewer',
      avatarUrl: null,
      rating: 5,
      title: null,
      message: 'Lovely.',
      publishedAt: new Date(Date.UTC(2026, 0, 15)),
      updatedAt: null,
      reply: null,
      replyDate: null,
      url: null,
      ...over,
    });

    it('neither clears nor replaces a reply stored at or after the fetch started, and still applies the other changes', async () => {
      const w = await makeWorld();
      const source = await syncedSourceOf(w.home);
      const fetchedFrom = new Date(Date.now() - 1_000);
      const replyDate = new Date('2026-11-02T10:00:00.000Z');
      const cleared = await makeReview(source, { identifier: 'g-1', reply: 'Thank you!', replyDate, meta: { provider: 'google', provider_updated_at: null } });
      const replaced = await makeReview(source, { identifier: 'g-2', reply: 'Ours.', replyDate, meta: { provider: 'google', provider_updated_at: null } });

      const counts = await upsertProviderReviews(
        source.id,
        'google',
        [fetched('g-1'), fetched('g-2', { rating: 1, reply: 'Someone else on the platform.', replyDate: new Date('2026-11-01T00:00:00Z') })],
        { fetchedFrom },
      );
      expect(counts).toEqual({ created: 0, updated: 1, unchanged: 1 });
      expect((await Review.findByPk(cleared.id))!).toMatchObject({ reply: 'Thank you!', replyDate });
      expect((await Review.findByPk(replaced.id))!).toMatchObject({ rating: 1, reply: 'Ours.', replyDate });
      expect(await updatedEvents(cleared.id)).toEqual([]);
      expect((await updatedEvents(replaced.id)).map((p) => [p.rating, p.replied, p.reply_message])).toEqual([[1, true, 'Ours.']]);
    });

    it('clears a reply stored before the fetch started, and takes a reply onto a review without one', async () => {
      const w = await makeWorld();
      const source = await syncedSourceOf(w.home);
      const gone = await makeReview(source, { identifier: 'g-3', reply: 'Thank you!', replyDate: new Date('2026-11-02T10:00:00Z'), meta: { provider: 'google', provider_updated_at: null } });
      const fresh = await makeReview(source, { identifier: 'g-4', meta: { provider: 'google', provider_updated_at: null } });
      const fetchedFrom = new Date(Date.now() + 1);
      const counts = await upsertProviderReviews(
        source.id,
        'google',
        [fetched('g-3'), fetched('g-4', { reply: 'From the platform.', replyDate: new Date('2026-11-03T00:00:00Z') })],
        { fetchedFrom },
      );
      expect(counts).toEqual({ created: 0, updated: 2, unchanged: 0 });
      expect((await Review.findByPk(gone.id))!).toMatchObject({ reply: null, replyDate: null });
      expect((await Review.findByPk(fresh.id))!.reply).toBe('From the platform.');
    });
  });
});
