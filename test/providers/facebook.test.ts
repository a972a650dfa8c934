import { FacebookGraphClient, FacebookReplyExists, FACEBOOK_GRAPH_URL, graphDate } from '../../src/providers/facebook/graph.client';
import { ProviderRejected, ProviderUnavailable } from '../../src/providers/types';
import { startProviderApis, type ProviderApis } from '../support/providers/review-platforms';

/** The real Graph API client over HTTP against the loopback server speaking the Graph wire format. */
describe('FacebookGraphClient', () => {
  let apis: ProviderApis;
  let client: FacebookGraphClient;
  const PAGE = '5550001';

  beforeAll(async () => {
    apis = await startProviderApis({ facebook: { maxPageSize: 2 } });
    client = new FacebookGraphClient({ baseUrl: apis.facebookUrl });
    apis.facebook.addPage(PAGE, { name: 'Main Street Dental', address: '1 Main Street, Springfield' });
    apis.facebook.addPage('5550002', { name: 'Branch' });
  });
  afterAll(() => apis.close());

  it('lists the pages the user manages (GET /me/accounts with the user token)', async () => {
    expect(await client.listBusinesses('user-tok')).toEqual([
      { externalId: PAGE, name: 'Main Street Dental', address: '1 Main Street, Springfield' },
      { externalId: '5550002', name: 'Branch', address: null },
    ]);
    const call = apis.facebook.requests.find((r) => r.path === '/me/accounts');
    expect(call?.token).toBe('user-tok');
  });

  it('maps ratings (recommendation to 5/1, text, reviewer, story id, page reply) and pages with cursors.after using the page token', async () => {
    const positive = apis.facebook.addRating(PAGE, {
      recommendation: 'positive',
      text: 'Lovely people.',
      reviewer: 'Ada Lovelace',
      createdTime: new Date('2026-10-01T09:00:00.000Z'),
      reply: 'Thanks Ada!',
    });
    apis.facebook.addRating(PAGE, { recommendation: 'negative', text: null, reviewer: 'Bob', createdTime: new Date('2026-09-01T09:00:00.000Z') });
    apis.facebook.addRating(PAGE, { rating: 4, text: 'Old style.', createdTime: new Date('2026-08-01T09:00:00.000Z') });

    const page1 = await client.listReviews('user-tok', PAGE);
    expect(page1.reviews).toHaveLength(2);
    expect(page1.reviews[0]).toEqual({
      externalId: positive,
      author: 'Ada Lovelace',
      avatarUrl: null,
      rating: 5,
      title: null,
      message: 'Lovely people.',
      publishedAt: new Date('2026-10-01T09:00:00.000Z'),
      updatedAt: null,
      reply: 'Thanks Ada!',
      replyDate: new Date('2026-10-01T09:00:00.000Z'),
      url: `https://www.facebook.com/${positive}`,
    });
    expect(page1.reviews[1]).toMatchObject({ author: 'Bob', rating: 1, message: '', reply: null });
    expect(page1.nextPageToken).toEqual(expect.any(String));
    const page2 = await client.listReviews('user-tok', PAGE, page1.nextPageToken);
    expect(page2.reviews.map((r) => [r.rating, r.message])).toEqual([[4, 'Old style.']]);
    expect(page2.nextPageToken).toBeNull();
    const ratingCalls = apis.facebook.requests.filter((r) => r.path === `/${PAGE}/ratings`);
    expect(ratingCalls.every((c) => c.token?.startsWith(`sim-page-${PAGE}:`))).toBe(true);
  });

  it('publishes a reply as a comment on the story (POST /{story}/comments {message}) with the page token', async () => {
    const story = apis.facebook.addRating(PAGE, { text: 'Good.' });
    await client.publishReply('user-tok', PAGE, story, 'Thank you!');
    expect(apis.facebook.replies()[story].map((c) => c.message)).toEqual(['Thank you!']);
    const call = apis.facebook.requests.find((r) => r.method === 'POST' && r.path === `/${story}/comments`);
    expect(call?.token).toBe(`sim-page-${PAGE}:user-tok`);
    const listed = await client.listReviews('user-tok', PAGE);
    expect(listed.reviews.find((r) => r.externalId === story)?.reply).toBe('Thank you!');
  });

  it('comments at most once: reads the story first; its page comment with this text is the reply, another text FacebookReplyExists', async () => {
    const story = apis.facebook.addRating(PAGE, { text: 'Fine.' });
    const short = new FacebookGraphClient({ baseUrl: apis.facebookUrl, timeoutMs: 200 });
    apis.facebook.loseReplyAnswers({ holdMs: 1_000 });
    await expect(short.publishReply('user-tok', PAGE, story, 'Thanks!')).rejects.toBeInstanceOf(ProviderUnavailable);
    const [comment] = apis.facebook.replies()[story];
    const again = await short.publishReply('user-tok', PAGE, story, ' Thanks!\n');
    expect(again).toEqual({ replyDate: new Date(Math.floor(comment.createdTime.getTime() / 1000) * 1000) });
    expect(apis.facebook.replies()[story].map((c) => c.message)).toEqual(['Thanks!']);
    const reads = apis.facebook.requests.filter((r) => r.method === 'GET' && r.path === `/${story}/comments`);
    expect(reads.map((r) => r.token)).toEqual([`sim-page-${PAGE}:user-tok`, `sim-page-${PAGE}:user-tok`]);
    const other = await client.publishReply('user-tok', PAGE, story, 'Something else').catch((e: unknown) => e);
    expect(other).toBeInstanceOf(FacebookReplyExists);
    expect(other).toMatchObject({ reply: 'Thanks!' });
    expect(apis.facebook.replies()[story]).toHaveLength(1);
    expect(apis.facebook.requests.filter((r) => r.method === 'POST' && r.path === `/${story}/comments`)).toHaveLength(1);
  });

  it("turns a Graph error into ProviderRejected with the platform's error.message", async () => {
    apis.facebook.rejectReplies('(#200) The user has not granted the pages_manage_engagement permission', { status: 403, code: 200 });
    const story = apis.facebook.addRating(PAGE, {});
    try {
      const err = await client.publishReply('user-tok', PAGE, story, 'Hi').catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ProviderRejected);
      expect(err).toMatchObject({ provider: 'facebook', status: 403, reason: '(#200) The user has not granted the pages_manage_engagement permission' });
    } finally {
      apis.facebook.rejectReplies(null);
    }
    apis.facebook.revokeToken('gone');
    const revoked = await client.listReviews('gone', PAGE).catch((e: unknown) => e);
    expect(revoked).toBeInstanceOf(ProviderRejected);
    expect((revoked as ProviderRejected).reason).toMatch(/^Error validating access token/);
    const unknown = await client.listReviews('user-tok', '999').catch((e: unknown) => e);
    expect(unknown).toMatchObject({ name: 'ProviderRejected', status: 400 });
    expect((unknown as ProviderRejected).reason).toMatch(/Object with ID '999' does not exist/);
  });

  it('turns 5xx, 429 and throttling codes into ProviderUnavailable, honouring Retry-After', async () => {
    apis.facebook.failNext({ status: 500 });
    await expect(client.listBusinesses('user-tok')).rejects.toBeInstanceOf(ProviderUnavailable);
    apis.facebook.failNext({ status: 429, retryAfter: '3' });
    const limited = await client.listBusinesses('user-tok').catch((e: unknown) => e);
    expect(limited).toBeInstanceOf(ProviderUnavailable);
    expect((limited as ProviderUnavailable).retryAfterMs).toBe(3000);
    // Graph throttling is a 4xx with code 4/17/32/613: retried, not refused.
    apis.facebook.rejectReplies('(#4) Application request limit reached', { status: 400, code: 4 });
    try {
      const story = apis.facebook.addRating(PAGE, {});
      await expect(client.publishReply('user-tok', PAGE, story, 'Hi')).rejects.toBeInstanceOf(ProviderUnavailable);
    } finally {
      apis.facebook.rejectReplies(null);
    }
    await expect(new FacebookGraphClient({ baseUrl: 'http://127.0.0.1:1' }).listBusinesses('t')).rejects.toBeInstanceOf(ProviderUnavailable);
  });

  it('defaults to the v19.0 Graph host and reads Graph timestamps', () => {
    expect(FACEBOOK_GRAPH_URL).toBe('https://graph.facebook.com/v19.0');
    expect(graphDate('2026-11-01T10:00:00+0000')).toEqual(new Date('2026-11-01T10:00:00.000Z'));
    expect(graphDate('not a date')).toBeNull();
  });
});
