import { OutboxEvent, Review } from '../../src/models';
import { FacebookGraphClient } from '../../src/providers/facebook/graph.client';
import { attachSynced } from '../../src/services/integrations.service';
import { saveConnection } from '../../src/services/provider-connections.service';
import { buildActivities } from '../../workflows/activities';
import { useApp } from '../support/app';
import { makeWorld } from '../support/factories';
import { useProviderApis } from '../support/providers/review-platforms';
import { activityEnv } from '../workflows/activities/support';

/**
 * The page's reply on a story that many people commented on: the Graph API answers a comments edge 25 at a time,
 * oldest first, unless asked otherwise. The review sync reads the story's comments as the reply path does (the
 * newest 100), so a reply the reply path stored is not cleared by every sync.
 */
describe('Facebook story comments', () => {
  const t = useApp();
  const apis = useProviderApis();
  let seq = 0;

  /** A rating whose story has 30 comments of other people, then the page's own reply (the newest) when given. */
  function busyStory(pageId: string, reply: string | null): string {
    const story = apis().facebook.addRating(pageId, { text: 'Talked about.', createdTime: new Date('2026-10-01T09:00:00Z') });
    for (let i = 0; i < 30; i++) {
      apis().facebook.addComment(story, { message: `Customer comment ${i + 1}`, author: `Customer ${i + 1}`, createdTime: new Date(Date.UTC(2026, 9, 2, 9, i)) });
    }
    if (reply) apis().facebook.addComment(story, { message: reply, fromPage: true, createdTime: new Date('2026-10-03T09:00:00Z') });
    return story;
  }

  const ratings = async (pageId: string, fields: string) => {
    const url = `${apis().facebookUrl}/${pageId}/ratings?${new URLSearchParams({ fields, access_token: `sim-page-${pageId}:tok` })}`;
    const res = await fetch(url);
    return { status: res.status, body: (await res.json()) as { data: Array<{ open_graph_story: { comments: { data: Array<{ message: string }>; paging: { next?: string } } } }> } };
  };

  it("the test Graph server answers an expanded comments edge as Graph does: 25 oldest first by default, else the expansion's limit and order", async () => {
    const pageId = `77${++seq}`;
    apis().facebook.addPage(pageId, { name: 'Busy Page' });
    busyStory(pageId, 'Thanks from the page!');

    const plain = await ratings(pageId, 'open_graph_story{id,comments{id,from,message,created_time}}');
    const first = plain.body.data[0].open_graph_story.comments;
    expect(first.data.map((c) => c.message)).toEqual(Array.from({ length: 25 }, (_, i) => `Customer comment ${i + 1}`));
    expect(first.paging.next).toEqual(expect.stringContaining('/comments?'));

    const newest = await ratings(pageId, 'open_graph_story{id,comments.limit(3).order(reverse_chronological){id,from,message,created_time}}');
    const latest = newest.body.data[0].open_graph_story.comments;
    expect(latest.data.map((c) => c.message)).toEqual(['Thanks from the page!', 'Customer comment 30', 'Customer comment 29']);

    const wrong = await ratings(pageId, 'open_graph_story{id,comments.limit(0){id}}');
    expect(wrong.status).toBe(400);
  });

  it("the client reads the page's reply after 30 customer comments, as the reply path does", async () => {
    const pageId = `77${++seq}`;
    apis().facebook.addPage(pageId, { name: 'Busy Page' });
    const story = busyStory(pageId, 'Thanks from the page!');
    const page = await new FacebookGraphClient({ baseUrl: apis().facebookUrl }).listReviews('user-tok', pageId);
    expect(page.reviews.find((r) => r.externalId === story)).toMatchObject({ reply: 'Thanks from the page!', replyDate: new Date('2026-10-03T09:00:00Z') });
  });

  it('a reply published after 30 customer comments is kept by the sync that follows', async () => {
    const w = await makeWorld();
    const pageId = `78${++seq}`;
    apis().facebook.addPage(pageId, { name: 'Busy Page' });
    const integration = await attachSynced(w.home, 'facebook', pageId);
    await saveConnection({ integrationId: integration.id, provider: 'facebook', accessToken: 'fb-user', refreshToken: null, expiresAt: null, scope: null });
    const story = busyStory(pageId, null);
    const activities = buildActivities({ WEBHOOK_TIMEOUT_MS: 5_000, WEBHOOK_ALLOW_PRIVATE_URLS: 'true' });
    const syncPage = () => activityEnv().run(activities.syncReviewPage, { integrationId: integration.id, pageToken: null });

    expect(await syncPage()).toMatchObject({ created: 1 });
    const review = (await Review.findOne({ where: { integrationId: integration.id, identifier: story } }))!;
    const replied = await t.as(w.tokens.orgOwner).post(`/api/v1/reviews/${review.id}/reply`).send({ message: 'Thank you!' });
    expect(replied.status).toBe(200);
    expect(apis().facebook.replies()[story].map((c) => c.message)).toEqual(['Thank you!']);

    for (let run = 0; run < 2; run++) expect(await syncPage()).toMatchObject({ created: 0, updated: 0, unchanged: 1 });
    expect((await Review.findByPk(review.id))!.reply).toBe('Thank you!');
    const events = await OutboxEvent.findAll({ where: { aggregateType: 'review', aggregateId: String(review.id), event: 'review-updated' } });
    expect(events.map((e) => (e.payload as { replied: boolean }).replied)).toEqual([true]);
  });
});
