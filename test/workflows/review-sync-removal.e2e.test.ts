import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { Op, QueryTypes } from 'sequelize';
import { Integration, OutboxEvent, ReplyDraft, Review } from '../../src/models';
import { FacebookGraphSimulator } from '../../src/providers/facebook/graph.simulator';
import { GoogleBusinessSimulator } from '../../src/providers/google/business.simulator';
import { attachSynced } from '../../src/services/integrations.service';
import { saveConnection } from '../../src/services/provider-connections.service';
import { temporal } from '../../workflows/client';
import type { SyncReviewsResult } from '../../workflows/reviews/sync.workflow';
import { useApp } from '../support/app';
import { makeReview, makeWorld, testimonialsOf } from '../support/factories';
import { useTemporalWorker } from '../support/temporal';

/**
 * Reviews removed on their platform (docs/decisions/review-platforms.md, "Reviews removed on the platform"): the
 * real `syncReviews` workflow on the Temporal dev server, its activities reading a loopback server that speaks the
 * Google / Facebook wire formats (the simulators' routers, two reviews a page so every listing has several pages).
 * A review missing from two complete listings in a row is marked removed and leaves every list, detail, count and
 * figure; one listed again is back with its id; a failed or empty listing removes nothing.
 */
jest.setTimeout(120_000);

describe('reviews removed on the platform', () => {
  const t = useApp();
  const worker = useTemporalWorker();
  const google = new GoogleBusinessSimulator({ seed: false, growEveryMs: null, maxPageSize: 2 });
  const facebook = new FacebookGraphSimulator({ seed: false, growEveryMs: null, maxPageSize: 2 });
  /** While set, every page after the first answers 503 (the platform fails half-way through a listing). */
  let failLaterPages = false;
  let server: Server;
  const saved = { google: process.env.GOOGLE_API_URL, facebook: process.env.FACEBOOK_GRAPH_URL };
  let seq = 0;

  beforeAll(async () => {
    const app = express();
    app.use((req, res, next) => {
      if (failLaterPages && req.method === 'GET' && (req.query.pageToken || req.query.after)) {
        return void res.status(503).json({ error: { code: 503, message: 'The service is currently unavailable.', status: 'UNAVAILABLE' } });
      }
      next();
    });
    app.use('/google', google.router);
    app.use('/facebook', facebook.router);
    server = await new Promise<Server>((resolve) => {
      const s = app.listen(0, '127.0.0.1', () => resolve(s));
    });
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    process.env.GOOGLE_API_URL = `${base}/google`;
    process.env.FACEBOOK_GRAPH_URL = `${base}/facebook`;
  });
  afterAll(async () => {
    for (const [k, v] of [['GOOGLE_API_URL', saved.google], ['FACEBOOK_GRAPH_URL', saved.facebook]] as const) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  /** One run of the workflow, as the schedule starts it (short retries: a failing page gives up quickly). */
  const sync = (integrationId: number) =>
    temporal().client.workflow.execute('syncReviews', {
      taskQueue: worker.settings().taskQueue,
      workflowId: `review-sync-removal:${integrationId}:${randomUUID()}`,
      args: [{ integrationId, retry: { maximumAttempts: 2, initialIntervalMs: 50, maximumIntervalMs: 50 } }],
    }) as Promise<SyncReviewsResult>;

  async function connectedGoogle() {
    const w = await makeWorld();
    const location = google.addLocation(`accounts/77${++seq}/locations/${Date.now()}${seq}`, { title: 'Synced Dental' });
    const integration = await attachSynced(w.home, 'google', location);
    await saveConnection({ integrationId: integration.id, provider: 'google', accessToken: 'sync-token', refreshToken: null, expiresAt: null, scope: null });
    const at = (day: number) => new Date(Date.UTC(2026, 9, day, 9));
    const names = {
      five: google.addReview(location, { rating: 5, comment: 'Perfect.', displayName: 'Grace', createTime: at(1) }),
      four: google.addReview(location, { rating: 4, comment: 'Very good.', displayName: 'Ada', createTime: at(2) }),
      one: google.addReview(location, { rating: 1, comment: 'Fake review of a competitor.', displayName: 'Mallory', createTime: at(3) }),
      three: google.addReview(location, { rating: 3, comment: 'Fine.', displayName: 'Alan', createTime: at(4) }),
      two: google.addReview(location, { rating: 2, comment: 'Slow.', displayName: 'Barbara', createTime: at(5) }),
    };
    return { w, location, integration, names };
  }

  const idOf = async (integrationId: number, identifier: string) => (await Review.findOne({ where: { integrationId, identifier } }))!.id;
  const listIds = async (token: string, organizationId: number) => {
    const res = await t.as(token).get(`/api/v1/reviews?organization_id=${organizationId}&per_page=100`);
    expect(res.status).toBe(200);
    return { ids: (res.body.data as Array<{ id: number }>).map((r) => r.id).sort((a, b) => a - b), total: res.body.meta.total as number };
  };
  const gql = async (token: string, query: string, variables: Record<string, unknown>) => {
    const res = await t.as(token).post('/graphql').send({ query, variables });
    expect(res.body.errors).toBeUndefined();
    return res.body.data;
  };
  const figures = async (token: string, organizationId: number) =>
    gql(
      token,
      `query ($o: Int!) {
        organization(id: $o) { stats { reviewCount averageRating } }
        reviewMetrics(organizationId: $o, dateFrom: "2026-10-01", dateTo: "2026-10-31") { totals { totalReviews avgRating } }
        organizationReport(organizationId: $o, month: "2026-10") { totals { totalReviews avgRating } }
        reviews(organizationId: $o, page: 1, perPage: 50) { total }
      }`,
      { o: organizationId },
    );
  /** review_counts (kept by triggers) against the rows it stands for. */
  const countsAgree = async (integrationId: number) => {
    const [{ counted }] = await Review.sequelize!.query<{ counted: string | null }>('SELECT SUM(n) AS counted FROM review_counts WHERE integration_id = ?', {
      replacements: [integrationId],
      type: QueryTypes.SELECT,
    });
    const shown = await Review.count({ where: { integrationId, removedAt: null } });
    expect(Number(counted ?? 0)).toBe(shown);
    return shown;
  };

  it('marks a review missing from two complete listings removed: lists, detail, counts, averages and reports drop it, nothing else changes, no event', async () => {
    const { w, integration, names } = await connectedGoogle();
    const testimonial = await makeReview(await testimonialsOf(w.home), { rating: 5, publishedAt: new Date(Date.UTC(2026, 9, 6)) });
    expect(await sync(integration.id)).toMatchObject({ status: 'synced', pages: 3, created: 5, removed: 0 });
    const fake = await idOf(integration.id, names.one);
    const before = await figures(w.tokens.orgOwner, w.org.id);
    expect(before.organization.stats).toEqual({ reviewCount: 6, averageRating: 3.33 });
    expect(before.reviewMetrics.totals).toEqual({ totalReviews: 6, avgRating: 3.33 });
    // A reply drafted for the review, waiting in the approvals queue.
    const { draftReviewResponse: draft } = await gql(w.tokens.orgOwner, 'mutation ($r: Int!) { draftReviewResponse(reviewId: $r, message: "Sorry to hear that.") { id status } }', { r: fake });
    expect(draft.status).toBe('pending');
    const events = await OutboxEvent.count({ where: { customerId: w.orgOwner.customerId! } });

    google.removeReview(names.one);
    // The first complete listing without it: pages may shift under a listing, so one miss removes nothing yet.
    expect(await sync(integration.id)).toMatchObject({ status: 'synced', pages: 2, removed: 0 });
    expect((await Review.findByPk(fake))!.removedAt).toBeNull();
    // The second one in a row: removed.
    expect(await sync(integration.id)).toMatchObject({ status: 'synced', pages: 2, removed: 1, removalSkipped: null });
    const row = (await Review.findByPk(fake))!;
    expect(row.removedAt).toBeInstanceOf(Date);
    expect(row.rating).toBe(1); // kept, not deleted
    // Its pending draft can never be approved: rejected, with the reason.
    expect(await ReplyDraft.findByPk(draft.id, { attributes: ['status', 'rejectionReason'], raw: true })).toEqual({
      status: 'rejected',
      rejectionReason: `Superseded: the review was removed on ${integration.name}.`,
    });

    const list = await listIds(w.tokens.orgOwner, w.org.id);
    expect(list.total).toBe(5);
    expect(list.ids).not.toContain(fake);
    expect(list.ids).toContain(testimonial.id);
    const detail = await t.as(w.tokens.orgOwner).get(`/api/v1/reviews/${fake}`);
    expect(detail.status).toBe(404);
    const unknown = await t.as(w.tokens.orgOwner).get('/api/v1/reviews/999999999');
    expect(detail.body).toEqual(unknown.body);
    expect((await t.as(w.tokens.orgOwner).get(`/api/v1/reviews?organization_id=${w.org.id}&rating=1`)).body.meta.total).toBe(0);
    const reply = await t.as(w.tokens.orgOwner).post(`/api/v1/reviews/${fake}/reply`).send({ message: 'Thank you!' });
    expect(reply.status).toBe(404);

    const after = await figures(w.tokens.orgOwner, w.org.id);
    expect(after.organization.stats).toEqual({ reviewCount: 5, averageRating: 3.8 });
    expect(after.reviewMetrics.totals).toEqual({ totalReviews: 5, avgRating: 3.8 });
    expect(after.organizationReport.totals).toEqual({ totalReviews: 5, avgRating: 3.8 });
    expect(after.reviews.total).toBe(5);
    expect(await countsAgree(integration.id)).toBe(4);
    // The interface has no review-deleted event, and review-updated would announce a review the API answers 404 for.
    expect(await OutboxEvent.count({ where: { customerId: w.orgOwner.customerId! } })).toBe(events);
  });

  it('brings a review the platform restores back with the same id, counted again', async () => {
    const { w, integration, names } = await connectedGoogle();
    await sync(integration.id);
    const fake = await idOf(integration.id, names.one);
    google.removeReview(names.one);
    await sync(integration.id);
    expect(await sync(integration.id)).toMatchObject({ removed: 1 });
    expect(await countsAgree(integration.id)).toBe(4);

    google.restoreReview(names.one);
    expect(await sync(integration.id)).toMatchObject({ status: 'synced', created: 0, removed: 0 });
    expect(await Review.count({ where: { integrationId: integration.id } })).toBe(5);
    expect((await Review.findByPk(fake))!.removedAt).toBeNull();
    expect(await countsAgree(integration.id)).toBe(5);
    const detail = await t.as(w.tokens.orgOwner).get(`/api/v1/reviews/${fake}`);
    expect(detail.status).toBe(200);
    expect(detail.body.data).toMatchObject({ id: fake, rating: 1 });
    expect((await listIds(w.tokens.orgOwner, w.org.id)).ids).toContain(fake);
    expect((await figures(w.tokens.orgOwner, w.org.id)).organization.stats).toEqual({ reviewCount: 5, averageRating: 3 });
  });

  it('removes nothing after a listing whose later page failed; complete listings afterwards do', async () => {
    const { integration, names } = await connectedGoogle();
    await sync(integration.id);
    google.removeReview(names.two); // newest: on the first page until it goes
    await sync(integration.id); // first complete miss
    failLaterPages = true;
    try {
      await expect(sync(integration.id)).rejects.toThrow();
    } finally {
      failLaterPages = false;
    }
    // The failed run read the first page only: a review on a later page is not "missing" from it.
    expect(await Review.count({ where: { integrationId: integration.id, removedAt: { [Op.ne]: null } } })).toBe(0);
    expect(await countsAgree(integration.id)).toBe(5);
    expect((await Integration.findByPk(integration.id))!.lastSyncError).toMatch(/503|unavailable/i);
    // The next complete listing is the second one in a row without the review.
    expect(await sync(integration.id)).toMatchObject({ status: 'synced', removed: 1 });
    expect((await Review.findOne({ where: { integrationId: integration.id, identifier: names.two } }))!.removedAt).toBeInstanceOf(Date);
    expect(await countsAgree(integration.id)).toBe(4);
  });

  it('removes nothing when the platform lists no reviews at all while we hold some; a listing with reviews removes what it lacks', async () => {
    const { w, integration, names } = await connectedGoogle();
    await sync(integration.id);
    for (const name of Object.values(names)) google.removeReview(name);
    for (let i = 0; i < 3; i++) {
      expect(await sync(integration.id)).toMatchObject({ status: 'synced', pages: 1, removed: 0, removalSkipped: 'empty_listing' });
    }
    expect(await countsAgree(integration.id)).toBe(5);
    expect((await listIds(w.tokens.orgOwner, w.org.id)).total).toBe(5);

    // The platform answers with reviews again, but only two of the five.
    google.restoreReview(names.five);
    google.restoreReview(names.four);
    await sync(integration.id);
    expect(await sync(integration.id)).toMatchObject({ status: 'synced', removed: 3, removalSkipped: null });
    expect(await countsAgree(integration.id)).toBe(2);
    expect((await listIds(w.tokens.orgOwner, w.org.id)).total).toBe(2);
  });

  it('removes Facebook ratings the page no longer lists, the same way', async () => {
    const w = await makeWorld();
    const pageId = `55${Date.now()}`;
    facebook.addPage(pageId, { name: 'Synced Cafe' });
    const integration = await attachSynced(w.home, 'facebook', pageId);
    await saveConnection({ integrationId: integration.id, provider: 'facebook', accessToken: 'fb-token', refreshToken: null, expiresAt: null, scope: null });
    const stories = [1, 2, 3].map((d) =>
      facebook.addRating(pageId, { recommendation: d === 2 ? 'negative' : 'positive', text: `Visit ${d}`, createdTime: new Date(Date.UTC(2026, 9, d)) }),
    );
    expect(await sync(integration.id)).toMatchObject({ status: 'synced', created: 3, removed: 0 });
    facebook.removeReview(stories[1]);
    await sync(integration.id);
    expect(await sync(integration.id)).toMatchObject({ status: 'synced', removed: 1 });
    expect(await countsAgree(integration.id)).toBe(2);
    expect((await figures(w.tokens.orgOwner, w.org.id)).organization.stats).toEqual({ reviewCount: 2, averageRating: 5 });
  });
});
