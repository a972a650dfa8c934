import { ApplicationFailure } from '@temporalio/common';
import { failAutoResponse, prepareAutoResponse, publishAutoResponse } from '../../src/jobs/auto-respond-runs';
import { AutoRespondRun, OutboxEvent, Review } from '../../src/models';
import { GoogleBusinessClient } from '../../src/providers/google/business.client';
import { ProviderReplyExists } from '../../src/providers/types';
import { attachSynced } from '../../src/services/integrations.service';
import { saveConnection } from '../../src/services/provider-connections.service';
import { createAutoRespondActivities } from '../../workflows/activities/auto-respond';
import { useApp } from '../support/app';
import { makeReview, makeWorld } from '../support/factories';
import { useProviderApis } from '../support/providers/review-platforms';
import { graphql, pendingRun as pendingRunOf, setAutoRespondFeature } from './support';

/**
 * At most one public reply per Google review: Google's `PUT .../reply` replaces whatever reply the review has, so a
 * reply the owner wrote on Google after our last sync must not be overwritten by ours, whether a person replies
 * here (REST, GraphQL, a draft) or auto-respond does. The client reads the review (`GET /v4/{review}`, its
 * `reviewReply`) before it puts, as the Facebook client reads the story's comments.
 */
describe('Google replies never replace the reply the owner wrote on Google', () => {
  const t = useApp();
  const apis = useProviderApis();
  const gql = graphql(t);
  let seq = 0;

  const activities = () =>
    createAutoRespondActivities({
      prepare: (reviewId) => prepareAutoResponse(reviewId),
      publish: (input) => publishAutoResponse(input),
      fail: (reviewId, reason) => failAutoResponse(reviewId, reason),
      resumePending: async () => 0,
    });

  async function googleReview() {
    const w = await makeWorld();
    await setAutoRespondFeature(w.orgOwner.customerId!, true);
    const location = apis().google.addLocation(`accounts/61${++seq}/locations/62${seq}`, { title: 'Owner Dental' });
    const integration = await attachSynced(w.home, 'google', location);
    await saveConnection({ integrationId: integration.id, provider: 'google', accessToken: 'owner-token', refreshToken: null, expiresAt: null, scope: null });
    const name = apis().google.addReview(location, { rating: 5, comment: 'Great people.', displayName: 'Ada Lovelace' });
    // Stored by the last sync, when the review had no reply yet.
    const review = await makeReview(integration, { identifier: name, author: 'Ada Lovelace', rating: 5 });
    return { w, integration, location, name, review };
  }

  const pendingRun = (w: Awaited<ReturnType<typeof makeWorld>>, reviewId: number) => pendingRunOf(gql, w, reviewId);

  const puts = (name: string) => apis().google.requests.filter((r) => r.method === 'PUT' && r.path === `/v4/${name}/reply`).length;
  const ownerReply = 'Thank you Ada, see you next week! - Maria (owner)';

  it('manual reply (REST): the owner replied on Google after the last sync: 409 already_replied, their reply stays, nothing stored', async () => {
    const { w, name, review } = await googleReview();
    apis().google.replyAsOwner(name, ownerReply);

    const res = await t.as(w.tokens.orgOwner).post(`/api/v1/reviews/${review.id}/reply`).send({ message: 'Thanks, Ada!' });
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('already_replied');
    expect(apis().google.replies()[name].comment).toBe(ownerReply);
    expect(puts(name)).toBe(0);
    expect((await Review.findByPk(review.id))!.reply).toBeNull(); // the next sync stores the owner's reply
    expect(await OutboxEvent.count({ where: { aggregateType: 'review', aggregateId: String(review.id), event: 'review-updated' } })).toBe(0);
    // The review was read before anything else was sent.
    expect(apis().google.requests.filter((r) => r.path === `/v4/${name}`).map((r) => [r.method, r.authorization])).toEqual([['GET', 'Bearer owner-token']]);
  });

  it('auto-respond: the owner replied on Google after the last sync: the run is skipped as already_replied and nothing is put', async () => {
    const { w, name, review } = await googleReview();
    await pendingRun(w, review.id);
    const act = activities();
    const plan = await act.prepareAutoResponse(review.id);
    expect(plan).toEqual({ action: 'reply', message: 'Thank you, Ada!', usedAi: false });
    apis().google.replyAsOwner(name, ownerReply); // between the sync and the publish

    expect(await act.publishAutoResponse({ reviewId: review.id, message: 'Thank you, Ada!', usedAi: false })).toEqual({ status: 'skipped', reason: 'already_replied' });
    expect(apis().google.replies()[name].comment).toBe(ownerReply);
    expect(puts(name)).toBe(0);
    expect(await AutoRespondRun.findOne({ where: { reviewId: review.id } })).toMatchObject({ status: 'skipped', reason: 'already_replied' });
    expect((await Review.findByPk(review.id))!.reply).toBeNull();
  });

  it('a retry after a lost answer records the reply Google took (same text) instead of putting it again', async () => {
    const { w, name, review } = await googleReview();
    await pendingRun(w, review.id);
    const act = activities();
    const input = { reviewId: review.id, message: 'Thank you, Ada!', usedAi: false };
    // Google stored the reply, but the answer never arrived (here: a 503 in its place).
    apis().google.replyAsOwner(name, 'Thank you, Ada!\r\n', new Date('2026-11-02T10:00:00.000Z'));
    apis().google.failNext({ status: 503 });
    const first = await act.publishAutoResponse(input).catch((e: unknown) => e);
    expect(first).toBeInstanceOf(ApplicationFailure);
    expect(first).toMatchObject({ type: 'ProviderUnavailable', nonRetryable: false });

    expect(await act.publishAutoResponse(input)).toEqual({ status: 'replied', reason: null });
    expect(puts(name)).toBe(0);
    const stored = (await Review.findByPk(review.id))!;
    expect(stored.reply).toBe('Thank you, Ada!');
    expect(stored.replyDate).toEqual(new Date('2026-11-02T10:00:00.000Z')); // the reply's time on Google
  });

  it('the client: reads the review first; no reply: PUT; same text: no PUT; another text: ProviderReplyExists', async () => {
    const { location, name } = await googleReview();
    const client = new GoogleBusinessClient({ baseUrl: apis().googleUrl });
    const published = await client.publishReply('tok', location, name, 'Thanks!');
    expect(published).toEqual({ replyDate: apis().google.replies()[name].updateTime });
    expect(puts(name)).toBe(1);
    expect(await client.publishReply('tok', location, name, '  Thanks!  ')).toEqual(published);
    expect(puts(name)).toBe(1);
    const other = await client.publishReply('tok', location, name, 'Another text.').catch((e: unknown) => e);
    expect(other).toBeInstanceOf(ProviderReplyExists);
    expect(other).toMatchObject({ provider: 'google', reply: 'Thanks!' });
    expect(puts(name)).toBe(1);
    expect(apis().google.replies()[name].comment).toBe('Thanks!');
  });
});
