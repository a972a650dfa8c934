import { ApplicationFailure } from '@temporalio/common';
import { publishAutoResponse, failAutoResponse, prepareAutoResponse } from '../../src/jobs/auto-respond-runs';
import { AutoRespondRun, OutboxEvent, Review } from '../../src/models';
import { FacebookGraphClient } from '../../src/providers/facebook/graph.client';
import { platformClient } from '../../src/providers';
import { attachSynced } from '../../src/services/integrations.service';
import { saveConnection } from '../../src/services/provider-connections.service';
import { createAutoRespondActivities } from '../../workflows/activities/auto-respond';
import { useApp } from '../support/app';
import { makeReview, makeWorld } from '../support/factories';
import { useProviderApis } from '../support/providers/review-platforms';
import { graphql, pendingRun as pendingRunOf, setAutoRespondFeature } from './support';

/**
 * At most one public reply per Facebook review: a comment (`POST /{story}/comments`) is not idempotent, so an
 * attempt whose comment Facebook accepted but whose answer was lost (timeout, dropped connection, 5xx), or a worker
 * killed before the commit, must not make the retry comment again. The loopback Graph server stores the comment and
 * loses its answer; the retry finds the page's comment and records it.
 */
describe('Facebook replies are published once', () => {
  const t = useApp();
  const apis = useProviderApis();
  const gql = graphql(t);
  let seq = 0;

  /** The client the activity uses, with a short timeout (production: 30 s). */
  const shortTimeout = () => new FacebookGraphClient({ baseUrl: apis().facebookUrl, timeoutMs: 300 });
  const activities = () =>
    createAutoRespondActivities({
      prepare: (reviewId) => prepareAutoResponse(reviewId),
      publish: (input) => publishAutoResponse(input, { platformClient: shortTimeout }),
      fail: (reviewId, reason) => failAutoResponse(reviewId, reason),
      resumePending: async () => 0,
    });

  async function facebookReview() {
    const w = await makeWorld();
    await setAutoRespondFeature(w.orgOwner.customerId!, true);
    const pageId = `77${Date.now() % 100000}${++seq}`;
    const integration = await attachSynced(w.home, 'facebook', pageId);
    await saveConnection({ integrationId: integration.id, provider: 'facebook', accessToken: 'fb-user', refreshToken: null, expiresAt: null, scope: null });
    const story = apis().facebook.addRating(pageId, { text: 'Great people.', reviewer: 'Ada Lovelace' });
    const review = await makeReview(integration, { identifier: story, author: 'Ada Lovelace' });
    return { w, integration, story, review, pageId };
  }

  const pendingRun = (w: Awaited<ReturnType<typeof makeWorld>>, reviewId: number) => pendingRunOf(gql, w, reviewId);

  const pageComments = (story: string) => (apis().facebook.replies()[story] ?? []).map((c) => c.message);
  const commentPosts = (story: string) => apis().facebook.requests.filter((r) => r.method === 'POST' && r.path === `/${story}/comments`).length;

  it.each([
    ['the answer is held past the client timeout', { holdMs: 2_000 }],
    ['the connection drops after the comment', { drop: true as const }],
    ['Facebook answers 500 after storing the comment', { status: 500 }],
  ])('auto-respond: %s; the retry records the comment made instead of commenting again', async (_name, lost) => {
    const { w, story, review } = await facebookReview();
    await pendingRun(w, review.id);
    const act = activities();
    const plan = await act.prepareAutoResponse(review.id);
    expect(plan).toEqual({ action: 'reply', message: 'Thank you, Ada!', usedAi: false });
    const input = { reviewId: review.id, message: 'Thank you, Ada!', usedAi: false };

    apis().facebook.loseReplyAnswers(lost);
    const started = Date.now();
    const first = await act.publishAutoResponse(input).catch((e: unknown) => e);
    expect(Date.now() - started).toBeLessThan(1_500); // the client gave up (a held answer comes after 2 s)
    // Retryable, as before: the attempt cannot tell whether Facebook took the comment.
    expect(first).toBeInstanceOf(ApplicationFailure);
    expect(first).toMatchObject({ type: 'ProviderUnavailable', nonRetryable: false });
    expect(pageComments(story)).toEqual(['Thank you, Ada!']); // Facebook did take it
    expect((await Review.findByPk(review.id))!.reply).toBeNull();
    expect((await AutoRespondRun.findOne({ where: { reviewId: review.id } }))!.status).toBe('pending');

    // The activity's retry (Temporal would run it 10 s later; a worker killed before the commit leaves the same state).
    expect(await act.publishAutoResponse(input)).toEqual({ status: 'replied', reason: null });
    expect(pageComments(story)).toEqual(['Thank you, Ada!']);
    expect(commentPosts(story)).toBe(1);
    const stored = (await Review.findByPk(review.id))!;
    const comment = apis().facebook.replies()[story][0];
    expect(stored.reply).toBe('Thank you, Ada!');
    expect(stored.replyDate!.getTime()).toBe(Math.floor(comment.createdTime.getTime() / 1000) * 1000); // the comment's time
    expect(await AutoRespondRun.findOne({ where: { reviewId: review.id } })).toMatchObject({ status: 'replied', reply: 'Thank you, Ada!' });
    const events = await OutboxEvent.findAll({ where: { aggregateType: 'review', aggregateId: String(review.id), event: 'review-updated' } });
    expect(events).toHaveLength(1);

    // A later attempt of anything (a duplicate start) publishes nothing either.
    expect(await act.publishAutoResponse(input)).toEqual({ status: 'replied', reason: null });
    expect(commentPosts(story)).toBe(1);
  });

  it('auto-respond: a page comment with another text already on the story skips the run as already_replied, posting nothing', async () => {
    const { w, story, review } = await facebookReview();
    await pendingRun(w, review.id);
    const rating = apis().facebook.rating(story)!;
    const pageId = story.replace(/_.*$/, '');
    rating.comments.push({ id: `${story}_cx`, from: { id: pageId, name: 'Page' }, message: 'Answered by hand on Facebook.', createdTime: new Date() });
    const out = await activities().publishAutoResponse({ reviewId: review.id, message: 'Thank you, Ada!', usedAi: false });
    expect(out).toEqual({ status: 'skipped', reason: 'already_replied' });
    expect(pageComments(story)).toEqual(['Answered by hand on Facebook.']);
    expect(commentPosts(story)).toBe(0);
    expect(await AutoRespondRun.findOne({ where: { reviewId: review.id } })).toMatchObject({ status: 'skipped', reason: 'already_replied' });
  });

  it('a reply without a page comment yet is posted once, with the default client', async () => {
    const { w, story, review } = await facebookReview();
    await pendingRun(w, review.id);
    const out = await publishAutoResponse({ reviewId: review.id, message: 'Thank you, Ada!', usedAi: false }, { platformClient: (p) => platformClient(p) });
    expect(out).toEqual({ status: 'replied', reason: null });
    expect(pageComments(story)).toEqual(['Thank you, Ada!']);
  });

  it('manual reply (REST): a client retry after a lost answer (502 provider_unavailable) stores the comment made, without a second one', async () => {
    const { w, story, review } = await facebookReview();
    apis().facebook.loseReplyAnswers({ status: 503 });
    const first = await t.as(w.tokens.orgOwner).post(`/api/v1/reviews/${review.id}/reply`).send({ message: 'Thanks, Ada!' });
    expect(first.status).toBe(502);
    expect(first.body.code).toBe('provider_unavailable');
    expect(pageComments(story)).toEqual(['Thanks, Ada!']);
    expect((await Review.findByPk(review.id))!.reply).toBeNull();

    const retry = await t.as(w.tokens.orgOwner).post(`/api/v1/reviews/${review.id}/reply`).send({ message: 'Thanks, Ada!' });
    expect(retry.status).toBe(200);
    expect(retry.body.data.reply).toBe('Thanks, Ada!');
    expect(pageComments(story)).toEqual(['Thanks, Ada!']);
    expect(commentPosts(story)).toBe(1);

    // Another text after the page has replied: 409, nothing posted (the sync stores the page's reply).
    const other = await facebookReview();
    const pageId = other.story.replace(/_.*$/, '');
    apis().facebook.rating(other.story)!.comments.push({ id: `${other.story}_cx`, from: { id: pageId, name: 'Page' }, message: 'Hello from the page.', createdTime: new Date() });
    const refused = await t.as(other.w.tokens.orgOwner).post(`/api/v1/reviews/${other.review.id}/reply`).send({ message: 'Thanks!' });
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('already_replied');
    expect(pageComments(other.story)).toEqual(['Hello from the page.']);
  });
});
