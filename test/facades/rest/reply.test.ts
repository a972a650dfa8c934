import { Integration, OutboxEvent, Review } from '../../../src/models';
import { attachSynced } from '../../../src/services/integrations.service';
import { saveConnection } from '../../../src/services/provider-connections.service';
import { useApp } from '../../support/app';
import { makeReview, makeWorld, testimonialsOf, tokenFor, without } from '../../support/factories';
import { useProviderApis } from '../../support/providers/review-platforms';

/**
 * "Reply to Review" (decided: POST /api/v1/reviews/{id}/reply {message}): written reviews store the reply;
 * synced reviews publish it on their platform (the loopback Google/Facebook servers) before storing it.
 */
describe('POST /api/v1/reviews/{id}/reply', () => {
  const t = useApp();
  const apis = useProviderApis();

  const updatedEvents = (reviewId: number) =>
    OutboxEvent.findAll({ where: { aggregateType: 'review', aggregateId: String(reviewId), event: 'review-updated' } });

  let seq = 0;
  async function syncedGoogle(w: Awaited<ReturnType<typeof makeWorld>>, opts: { connected?: boolean } = {}) {
    const locationName = `accounts/7${++seq}/locations/8${seq}`;
    const integration = await attachSynced(w.home, 'google', locationName);
    if (opts.connected ?? true) {
      await saveConnection({ integrationId: integration.id, provider: 'google', accessToken: 'google-token', refreshToken: null, expiresAt: null, scope: null });
    }
    const reviewName = apis().google.addReview(locationName, { rating: 2, comment: 'Slow service.' });
    const review = await makeReview(integration, { rating: 2, originalRating: 2, message: 'Slow service.', identifier: reviewName });
    return { integration, review, reviewName };
  }

  it('stores the reply of a written review, answers 200 {data: Review} and emits review-updated', async () => {
    const w = await makeWorld();
    const review = await makeReview(await testimonialsOf(w.home));
    const res = await t.as(w.tokens.orgOwner).post(`/api/v1/reviews/${review.id}/reply`).send({ message: '  Thank you, Jane!  ' });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ id: review.id, reply: 'Thank you, Jane!' });
    expect(Date.parse(res.body.data.reply_date)).not.toBeNaN();
    const [event, ...more] = await updatedEvents(review.id);
    expect(more).toHaveLength(0);
    expect(event.payload).toMatchObject({ webhook_event: 'review-updated', id: review.id, replied: true, reply_message: 'Thank you, Jane!' });
    expect((await t.as(w.tokens.orgOwner).get(`/api/v1/reviews/${review.id}`)).body.data.reply).toBe('Thank you, Jane!');
  });

  it('publishes the reply of a synced Google review on the platform with the stored token, then stores it', async () => {
    const w = await makeWorld();
    const { review, reviewName } = await syncedGoogle(w);
    const res = await t.as(w.tokens.owner).post(`/api/v1/reviews/${review.id}/reply`).send({ message: 'Sorry, we are on it.' });
    expect(res.status).toBe(200);
    const published = apis().google.replies()[reviewName];
    expect(published.comment).toBe('Sorry, we are on it.');
    const put = apis().google.requests.filter((r) => r.method === 'PUT' && r.path === `/v4/${reviewName}/reply`);
    expect(put.map((r) => r.authorization)).toEqual(['Bearer google-token']);
    // The reply time is the platform's.
    expect(res.body.data).toMatchObject({ reply: 'Sorry, we are on it.', reply_date: published.updateTime.toISOString() });
    expect(await updatedEvents(review.id)).toHaveLength(1);
  });

  it('publishes the reply of a synced Facebook review as the page comment on its story', async () => {
    const w = await makeWorld();
    const pageId = `66${Date.now() % 100000}`;
    const integration = await attachSynced(w.home, 'facebook', pageId);
    await saveConnection({ integrationId: integration.id, provider: 'facebook', accessToken: 'fb-user', refreshToken: null, expiresAt: null, scope: null });
    const story = apis().facebook.addRating(pageId, { text: 'Great.' });
    const review = await makeReview(integration, { identifier: story });
    const res = await t.as(w.tokens.orgOwner).post(`/api/v1/reviews/${review.id}/reply`).send({ message: 'Thanks!' });
    expect(res.status).toBe(200);
    expect(apis().facebook.replies()[story].map((c) => c.message)).toEqual(['Thanks!']);
    expect(res.body.data.reply).toBe('Thanks!');
  });

  it('answers 409 already_replied when the review has a reply, and changes nothing', async () => {
    const w = await makeWorld();
    const review = await makeReview(await testimonialsOf(w.home), { reply: 'Earlier reply', replyDate: new Date('2026-01-02T00:00:00Z') });
    const res = await t.as(w.tokens.orgOwner).post(`/api/v1/reviews/${review.id}/reply`).send({ message: 'Again' });
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ code: 'already_replied', message: expect.any(String) });
    expect((await Review.findByPk(review.id))!.reply).toBe('Earlier reply');
    expect(await updatedEvents(review.id)).toHaveLength(0);
  });

  it("answers 502 with the platform's reason when it rejects the reply; nothing is stored or emitted", async () => {
    const w = await makeWorld();
    const { review } = await syncedGoogle(w);
    apis().google.rejectReplies('Reply contains prohibited content.', 400);
    try {
      const res = await t.as(w.tokens.orgOwner).post(`/api/v1/reviews/${review.id}/reply`).send({ message: 'Hmm' });
      expect(res.status).toBe(502);
      expect(res.body.code).toBe('provider_rejected');
      expect(res.body.message).toContain('Reply contains prohibited content.');
    } finally {
      apis().google.rejectReplies(null);
    }
    const stored = (await Review.findByPk(review.id))!;
    expect(stored.reply).toBeNull();
    expect(stored.replyDate).toBeNull();
    expect(await updatedEvents(review.id)).toHaveLength(0);
  });

  it('answers 502 provider_unavailable when the platform cannot take it (5xx); nothing is stored', async () => {
    const w = await makeWorld();
    const { review } = await syncedGoogle(w);
    apis().google.failNext({ status: 503 });
    const res = await t.as(w.tokens.orgOwner).post(`/api/v1/reviews/${review.id}/reply`).send({ message: 'Hello' });
    expect(res.status).toBe(502);
    expect(res.body.code).toBe('provider_unavailable');
    expect((await Review.findByPk(review.id))!.reply).toBeNull();
  });

  it('answers 422 source_not_connected for a synced review whose source has no sign-in', async () => {
    const w = await makeWorld();
    const { review } = await syncedGoogle(w, { connected: false });
    const res = await t.as(w.tokens.orgOwner).post(`/api/v1/reviews/${review.id}/reply`).send({ message: 'Hello' });
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('source_not_connected');
  });

  it('answers 422 for a missing, blank or too long message', async () => {
    const w = await makeWorld();
    const review = await makeReview(await testimonialsOf(w.home));
    const as = t.as(w.tokens.orgOwner);
    const missing = await as.post(`/api/v1/reviews/${review.id}/reply`).send({});
    expect(missing.status).toBe(422);
    expect(missing.body.errors.message).toEqual(['The message field is required.']);
    const blank = await as.post(`/api/v1/reviews/${review.id}/reply`).send({ message: '   ' });
    expect(blank.status).toBe(422);
    expect(blank.body.errors).toHaveProperty('message');
    const long = await as.post(`/api/v1/reviews/${review.id}/reply`).send({ message: 'x'.repeat(4097) });
    expect(long.status).toBe(422);
    expect(long.body.errors.message[0]).toMatch(/4096/);
    const notText = await as.post(`/api/v1/reviews/${review.id}/reply`).send({ message: 12 });
    expect(notText.status).toBe(422);
    const longest = await as.post(`/api/v1/reviews/${review.id}/reply`).send({ message: 'y'.repeat(4096) });
    expect(longest.status).toBe(200);
  });

  it('answers 403 without reviews:update or reviews:read', async () => {
    const w = await makeWorld();
    const review = await makeReview(await testimonialsOf(w.home));
    for (const missing of ['reviews:update', 'reviews:read']) {
      const token = await tokenFor(w.orgOwner, without(missing));
      const res = await t.as(token).post(`/api/v1/reviews/${review.id}/reply`).send({ message: 'Hi' });
      expect(res.status).toBe(403);
      expect(res.body.code).toBe('missing_permission');
    }
    expect((await Review.findByPk(review.id))!.reply).toBeNull();
  });

  it('answers 404 for reviews outside the caller scope and unknown ids', async () => {
    const w = await makeWorld();
    const other = await makeWorld();
    const foreign = await makeReview(await testimonialsOf(other.home));
    const atHome = await makeReview(await testimonialsOf(w.home)); // the team member is assigned the branch only
    for (const [token, id] of [
      [w.tokens.orgOwner, foreign.id],
      [w.tokens.owner, foreign.id],
      [w.tokens.member, atHome.id],
      [w.tokens.orgOwner, 999999999],
      [w.tokens.orgOwner, 'abc'],
    ] as const) {
      const res = await t.as(token).post(`/api/v1/reviews/${id}/reply`).send({ message: 'Hi' });
      expect(res.status).toBe(404);
    }
    expect((await Review.findByPk(foreign.id))!.reply).toBeNull();
    // A synced source with a platform this API cannot publish to.
    const yelp = await attachSynced(w.home, 'yelp', 'yelp-biz');
    const review = await makeReview(yelp, { identifier: 'y1' });
    const res = await t.as(w.tokens.orgOwner).post(`/api/v1/reviews/${review.id}/reply`).send({ message: 'Hi' });
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('reply_not_supported');
    expect(await Integration.count({ where: { id: yelp.id } })).toBe(1);
  });
});
