import { GoogleBusinessClient, googleHosts, GOOGLE_HOSTS } from '../../src/providers/google/business.client';
import { platformBaseUrl, platformClient } from '../../src/providers';
import { ProviderRejected, ProviderUnavailable } from '../../src/providers/types';
import { startProviderApis, type ProviderApis } from '../support/providers/review-platforms';

/** The real Google Business Profile client over HTTP against the loopback server speaking Google's wire format. */
describe('GoogleBusinessClient', () => {
  let apis: ProviderApis;
  let client: GoogleBusinessClient;
  const LOCATION = 'accounts/111/locations/222';

  beforeAll(async () => {
    apis = await startProviderApis({ google: { maxPageSize: 2 } });
    client = new GoogleBusinessClient({ baseUrl: apis.googleUrl });
    apis.google.addAccount('111', 'Main Street Dental Group');
    apis.google.addLocation(LOCATION, {
      title: 'Main Street Dental',
      address: { addressLines: ['1 Main Street'], locality: 'Springfield', postalCode: '12345', regionCode: 'US' },
    });
    apis.google.addLocation('accounts/111/locations/333', { title: 'Branch', address: null });
    apis.google.addAccount('444');
  });
  afterAll(() => apis.close());

  it('lists the locations of every account as businesses named accounts/*/locations/*, sending the bearer token', async () => {
    const businesses = await client.listBusinesses('tok-1');
    expect(businesses).toEqual([
      { externalId: LOCATION, name: 'Main Street Dental', address: '1 Main Street, Springfield, 12345, US' },
      { externalId: 'accounts/111/locations/333', name: 'Branch', address: null },
    ]);
    const calls = apis.google.requests.filter((r) => r.path.startsWith('/v1/'));
    expect(calls.map((c) => c.path)).toEqual(['/v1/accounts', '/v1/accounts/111/locations', '/v1/accounts/444/locations']);
    expect(calls.every((c) => c.authorization === 'Bearer tok-1')).toBe(true);
  });

  it('maps reviews (starRating, reviewer, comment, times, reply) and pages with nextPageToken', async () => {
    const created = new Date('2026-10-01T09:00:00.000Z');
    const first = apis.google.addReview(LOCATION, {
      rating: 4,
      comment: 'Very good.',
      displayName: 'Ada Lovelace',
      profilePhotoUrl: 'https://lh3.example.test/ada.jpg',
      createTime: created,
      updateTime: new Date('2026-10-02T09:00:00.000Z'),
      reply: { comment: 'Thank you!', updateTime: new Date('2026-10-03T09:00:00.000Z') },
    });
    apis.google.addReview(LOCATION, { rating: 1, comment: null, displayName: 'Bob', createTime: new Date('2026-09-01T00:00:00.000Z') });
    apis.google.addReview(LOCATION, { rating: 5, comment: 'Top.', createTime: new Date('2026-08-01T00:00:00.000Z') });

    const page1 = await client.listReviews('tok', LOCATION);
    expect(page1.reviews).toHaveLength(2);
    expect(page1.nextPageToken).toEqual(expect.any(String));
    expect(page1.reviews[0]).toEqual({
      externalId: first,
      author: 'Ada Lovelace',
      avatarUrl: 'https://lh3.example.test/ada.jpg',
      rating: 4,
      title: null,
      message: 'Very good.',
      publishedAt: created,
      updatedAt: new Date('2026-10-02T09:00:00.000Z'),
      reply: 'Thank you!',
      replyDate: new Date('2026-10-03T09:00:00.000Z'),
      url: null,
    });
    expect(page1.reviews[1]).toMatchObject({ author: 'Bob', rating: 1, message: '', reply: null, replyDate: null, avatarUrl: null });
    const page2 = await client.listReviews('tok', LOCATION, page1.nextPageToken);
    expect(page2.reviews.map((r) => r.rating)).toEqual([5]);
    expect(page2.nextPageToken).toBeNull();
    const listCall = apis.google.requests.find((r) => r.path === `/v4/${LOCATION}/reviews`);
    expect(listCall?.authorization).toBe('Bearer tok');
  });

  it('publishes a reply with PUT .../reply {comment} and returns the reply time the platform gives', async () => {
    const name = apis.google.addReview(LOCATION, { rating: 3, comment: 'Meh.' });
    const result = await client.publishReply('tok', LOCATION, name, 'Sorry to hear that.');
    const stored = apis.google.replies()[name];
    expect(stored.comment).toBe('Sorry to hear that.');
    expect(result).toEqual({ replyDate: stored.updateTime });
  });

  it("turns a 4xx into ProviderRejected carrying Google's error.message", async () => {
    apis.google.rejectReplies('The review reply is not allowed for this location.', 403);
    const name = apis.google.addReview(LOCATION, { rating: 2 });
    try {
      const err = await client.publishReply('tok', LOCATION, name, 'Hello').catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ProviderRejected);
      expect(err).toMatchObject({ provider: 'google', status: 403, reason: 'The review reply is not allowed for this location.' });
    } finally {
      apis.google.rejectReplies(null);
    }
    const missing = await client.listReviews('tok', 'accounts/111/locations/999').catch((e: unknown) => e);
    expect(missing).toMatchObject({ name: 'ProviderRejected', status: 404, reason: 'Requested entity was not found.' });
    apis.google.revokeToken('revoked');
    const revoked = await client.listReviews('revoked', LOCATION).catch((e: unknown) => e);
    expect(revoked).toMatchObject({ name: 'ProviderRejected', status: 401 });
    expect((revoked as ProviderRejected).reason).toMatch(/invalid authentication credentials/);
  });

  it('turns 5xx and 429 into ProviderUnavailable, honouring Retry-After', async () => {
    apis.google.failNext({ status: 503 });
    const unavailable = await client.listReviews('tok', LOCATION).catch((e: unknown) => e);
    expect(unavailable).toBeInstanceOf(ProviderUnavailable);
    expect((unavailable as ProviderUnavailable).retryAfterMs).toBeNull();
    apis.google.failNext({ status: 429, retryAfter: '7' });
    const limited = await client.listReviews('tok', LOCATION).catch((e: unknown) => e);
    expect(limited).toBeInstanceOf(ProviderUnavailable);
    expect((limited as ProviderUnavailable).retryAfterMs).toBe(7000);
    expect((limited as Error).message).toMatch(/Quota exceeded/);
  });

  it('turns a connection failure into ProviderUnavailable', async () => {
    const dead = new GoogleBusinessClient({ baseUrl: 'http://127.0.0.1:1' });
    await expect(dead.listReviews('tok', LOCATION)).rejects.toBeInstanceOf(ProviderUnavailable);
  });

  it('refuses names that are not a location or a review of it, without calling the platform', async () => {
    const before = apis.google.requests.length;
    await expect(client.listReviews('tok', '../../v1/accounts')).rejects.toBeInstanceOf(ProviderRejected);
    await expect(client.publishReply('tok', LOCATION, 'accounts/9/locations/9/reviews/1', 'x')).rejects.toBeInstanceOf(ProviderRejected);
    expect(apis.google.requests.length).toBe(before);
  });
});

describe('Google base URLs', () => {
  it('uses the three googleapis hosts when GOOGLE_API_URL is unset, one base when set', () => {
    expect(googleHosts(null)).toEqual(GOOGLE_HOSTS);
    expect(GOOGLE_HOSTS).toEqual({
      accountManagement: 'https://mybusinessaccountmanagement.googleapis.com',
      businessInformation: 'https://mybusinessbusinessinformation.googleapis.com',
      reviews: 'https://mybusiness.googleapis.com',
    });
    expect(googleHosts('http://proxy.test/g')).toEqual({ accountManagement: 'http://proxy.test/g', businessInformation: 'http://proxy.test/g', reviews: 'http://proxy.test/g' });
  });

  it('platformClient: configured URL, else the simulator without a client id, else the real hosts', () => {
    expect(platformBaseUrl('google', { GOOGLE_API_URL: 'http://x.test/api/' })).toBe('http://x.test/api');
    expect(platformBaseUrl('google', { PUBLIC_URL: 'http://app.test' })).toBe('http://app.test/simulators/google/api');
    expect(platformBaseUrl('google', { GOOGLE_CLIENT_ID: 'id' })).toBeNull();
    expect(platformBaseUrl('facebook', { PUBLIC_URL: 'http://app.test' })).toBe('http://app.test/simulators/facebook/graph');
    expect(platformBaseUrl('facebook', { FACEBOOK_CLIENT_ID: 'id' })).toBeNull();
    expect(platformClient('google', {}).provider).toBe('google');
    expect(platformClient('facebook', {}).provider).toBe('facebook');
  });
});
