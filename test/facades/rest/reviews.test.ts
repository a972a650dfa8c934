import { Integration, Review, StoredFile } from '../../../src/models';
import { useApp } from '../../support/app';
import {
  ALL,
  customSourceOf,
  defaultLocationOf,
  makeLocation,
  makeOrganization,
  makeOrgOwner,
  makeReview,
  makeTenant,
  makeWorld,
  syncedSourceOf,
  testimonialsOf,
  tokenFor,
} from '../../support/factories';

/** The Review fields of the interface, and nothing else. */
const REVIEW_KEYS = [
  'author',
  'avatar',
  'date',
  'hidden',
  'id',
  'integration_id',
  'location_id',
  'message',
  'organization_id',
  'rating',
  'reply',
  'reply_date',
  'source',
  'source_logo',
  'title',
  'verified',
].sort();
const SOURCE_KEYS = ['id', 'location_id', 'logo', 'name', 'organization_id', 'type'].sort();
const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;
const ABSOLUTE = /^https?:\/\/127\.0\.0\.1:\d+\//;
const bearer = (token: string) => `Bearer ${token}`;
const relative = (url: string) => {
  const u = new URL(url);
  return u.pathname + u.search;
};
/** Each supertest call listens on its own port: absolute URLs are compared without their origin. */
const originless = (value: unknown): unknown => JSON.parse(JSON.stringify(value).replace(/http:\/\/127\.0\.0\.1:\d+/g, '{origin}'));
const without = (...perms: string[]) => ALL.filter((p) => !perms.includes(p));

/** What the API must answer for a stored review on `integration` with no upload. */
function expectedReview(r: Review, integration: Integration) {
  return {
    id: r.id,
    organization_id: integration.organizationId,
    location_id: integration.locationId,
    integration_id: integration.id,
    author: r.author,
    date: r.publishedAt.toISOString(),
    rating: r.rating,
    title: r.title,
    message: r.message,
    source: integration.name,
    source_logo: expect.stringMatching(ABSOLUTE),
    avatar: expect.stringMatching(ABSOLUTE),
    reply: r.reply ?? null,
    reply_date: r.replyDate ? r.replyDate.toISOString() : null,
    hidden: r.hidden,
    verified: r.verified,
  };
}

function expectValidation(res: { status: number; body: { message?: unknown; errors?: Record<string, unknown> } }, fields: string[]) {
  expect(res.status).toBe(422);
  expect(typeof res.body.message).toBe('string');
  expect((res.body.message as string).length).toBeGreaterThan(0);
  expect(Object.keys(res.body.errors ?? {}).sort()).toEqual([...fields].sort());
  for (const f of fields) {
    const messages = res.body.errors![f] as unknown[];
    expect(Array.isArray(messages)).toBe(true);
    expect(messages.length).toBeGreaterThan(0);
    for (const m of messages) expect(typeof m).toBe('string');
  }
}

const day = (n: number) => new Date(Date.UTC(2026, 0, 1 + n));

describe('customer REST reviews', () => {
  const t = useApp();

  /** GETs `url` (absolute, as returned by the API) on the test server. */
  const follow = (url: string) => {
    const u = new URL(url);
    return t.http().get(u.pathname + u.search);
  };

  async function countReviews(tenantId: number) {
    return Review.count({ where: { tenantId } });
  }

  describe('GET /api/v1/reviews', () => {
    it('answers the pagination envelope with 10 reviews per page by default and absolute links', async () => {
      const w = await makeWorld();
      const src = await testimonialsOf(w.home);
      for (let i = 0; i < 12; i++) await makeReview(src, { author: `Author ${i}`, publishedAt: day(i) });

      const first = await t.http().get('/api/v1/reviews').set('Authorization', bearer(w.tokens.orgOwner));
      expect(first.status).toBe(200);
      expect(first.headers['content-type']).toMatch(/application\/json/);
      expect(Object.keys(first.body).sort()).toEqual(['data', 'links', 'meta']);
      expect(first.body.data).toHaveLength(10);
      expect(first.body.meta).toEqual({ current_page: 1, from: 1, last_page: 2, per_page: 10, to: 10, total: 12 });
      expect(first.body.links).toEqual({
        first: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/api\/v1\/reviews\?page=1$/),
        last: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/api\/v1\/reviews\?page=2$/),
        prev: null,
        next: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/api\/v1\/reviews\?page=2$/),
      });

      const second = await follow(first.body.links.next).set('Authorization', bearer(w.tokens.orgOwner));
      expect(second.status).toBe(200);
      expect(second.body.data).toHaveLength(2);
      expect(second.body.meta).toEqual({ current_page: 2, from: 11, last_page: 2, per_page: 10, to: 12, total: 12 });
      expect(second.body.links.prev).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api\/v1\/reviews\?page=1$/);
      expect(second.body.links.next).toBeNull();
      // Each supertest call listens on a new port: compare the links without their origin.
      expect(relative(second.body.links.first)).toBe(relative(first.body.links.first));
      expect(relative(second.body.links.last)).toBe(relative(first.body.links.last));

      // The two pages together are every review exactly once.
      const ids = [...first.body.data, ...second.body.data].map((r: { id: number }) => r.id);
      expect(new Set(ids).size).toBe(12);
    });

    it('answers an empty envelope with one page when nothing is visible', async () => {
      const { tenant } = await makeTenant();
      const owner = await makeOrgOwner(tenant.id);
      await makeOrganization(owner);
      const res = await t.http().get('/api/v1/reviews').set('Authorization', bearer(await tokenFor(owner)));
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual([]);
      expect(res.body.meta).toEqual({ current_page: 1, from: null, last_page: 1, per_page: 10, to: null, total: 0 });
      expect(res.body.links.prev).toBeNull();
      expect(res.body.links.next).toBeNull();
      expect(res.body.links.first).toMatch(/\/api\/v1\/reviews\?page=1$/);
      expect(res.body.links.last).toMatch(/\/api\/v1\/reviews\?page=1$/);
    });

    it('honours per_page and keeps it (and the filters) in the links', async () => {
      const w = await makeWorld();
      const src = await testimonialsOf(w.home);
      for (let i = 0; i < 7; i++) await makeReview(src, { rating: 4, publishedAt: day(i) });
      await makeReview(src, { rating: 2 });

      const res = await t
        .http()
        .get('/api/v1/reviews')
        .query({ per_page: 3, page: 2, rating: 4 })
        .set('Authorization', bearer(w.tokens.orgOwner));
      expect(res.status).toBe(200);
      expect(res.body.data).toHaveLength(3);
      expect(res.body.meta).toEqual({ current_page: 2, from: 4, last_page: 3, per_page: 3, to: 6, total: 7 });
      for (const [name, page] of [
        ['first', '1'],
        ['last', '3'],
        ['prev', '1'],
        ['next', '3'],
      ] as const) {
        const u = new URL(res.body.links[name]);
        expect(u.pathname).toBe('/api/v1/reviews');
        expect(u.searchParams.get('page')).toBe(page);
        expect(u.searchParams.get('per_page')).toBe('3');
        expect(u.searchParams.get('rating')).toBe('4');
      }
      const next = await follow(res.body.links.next).set('Authorization', bearer(w.tokens.orgOwner));
      expect(next.body.meta).toEqual({ current_page: 3, from: 7, last_page: 3, per_page: 3, to: 7, total: 7 });
    });

    it.each(['1', '100'])('accepts per_page=%s', async (perPage) => {
      const w = await makeWorld();
      const src = await testimonialsOf(w.home);
      await makeReview(src);
      await makeReview(src);
      const res = await t.http().get(`/api/v1/reviews?per_page=${perPage}`).set('Authorization', bearer(w.tokens.orgOwner));
      expect(res.status).toBe(200);
      expect(res.body.meta.per_page).toBe(Number(perPage));
      expect(res.body.data).toHaveLength(Math.min(2, Number(perPage)));
    });

    it.each(['0', '101', '-1', 'abc', '1.5', '10abc'])('answers 422 naming per_page for per_page=%s', async (perPage) => {
      const w = await makeWorld();
      const res = await t.http().get(`/api/v1/reviews?per_page=${perPage}`).set('Authorization', bearer(w.tokens.orgOwner));
      expectValidation(res, ['per_page']);
    });

    it.each(['0', '-1', 'abc'])('answers 422 naming page for page=%s', async (page) => {
      const w = await makeWorld();
      const res = await t.http().get(`/api/v1/reviews?page=${page}`).set('Authorization', bearer(w.tokens.orgOwner));
      expectValidation(res, ['page']);
    });

    it('lists reviews newest first (by publication date, not by creation order)', async () => {
      const w = await makeWorld();
      const src = await testimonialsOf(w.home);
      const middle = await makeReview(src, { publishedAt: new Date('2026-02-10T12:00:00Z') });
      const oldest = await makeReview(src, { publishedAt: new Date('2025-12-31T23:59:59Z') });
      const newest = await makeReview(src, { publishedAt: new Date('2026-03-01T08:30:00Z') });
      const res = await t.http().get('/api/v1/reviews').set('Authorization', bearer(w.tokens.orgOwner));
      expect(res.body.data.map((r: { id: number }) => r.id)).toEqual([newest.id, middle.id, oldest.id]);
    });

    it('answers every Review field exactly, with dates in ISO 8601 UTC', async () => {
      const w = await makeWorld();
      const src = await testimonialsOf(w.home);
      const r = await makeReview(src, {
        author: 'Ada Lovelace',
        rating: 4,
        title: 'Great',
        message: 'Would come again.',
        publishedAt: new Date('2026-01-20T10:11:12.345Z'),
        reply: 'Thank you!',
        replyDate: new Date('2026-01-21T09:00:00Z'),
        hidden: true,
        verified: true,
      });
      const res = await t.http().get('/api/v1/reviews').set('Authorization', bearer(w.tokens.orgOwner));
      expect(res.status).toBe(200);
      const [item] = res.body.data;
      expect(Object.keys(item).sort()).toEqual(REVIEW_KEYS);
      expect(item).toEqual({
        id: r.id,
        organization_id: w.org.id,
        location_id: w.home.id,
        integration_id: src.id,
        author: 'Ada Lovelace',
        date: expect.stringMatching(ISO_UTC),
        rating: 4,
        title: 'Great',
        message: 'Would come again.',
        source: 'Testimonials',
        source_logo: expect.stringMatching(ABSOLUTE),
        avatar: expect.stringMatching(ABSOLUTE),
        reply: 'Thank you!',
        reply_date: expect.stringMatching(ISO_UTC),
        hidden: true,
        verified: true,
      });
      expect(new Date(item.date).toISOString()).toBe('2026-01-20T10:11:12.345Z');
      expect(new Date(item.reply_date).toISOString()).toBe('2026-01-21T09:00:00.000Z');
    });

    it('answers a placeholder avatar URL that serves an image when none was uploaded, and a logo URL that serves one', async () => {
      const w = await makeWorld();
      await makeReview(await testimonialsOf(w.home), { author: 'Zoe Quinn', avatarFileId: null, avatarUrl: null });
      const res = await t.http().get('/api/v1/reviews').set('Authorization', bearer(w.tokens.orgOwner));
      const [item] = res.body.data;
      for (const url of [item.avatar, item.source_logo]) {
        expect(url).toMatch(ABSOLUTE);
        const img = await follow(url);
        expect(img.status).toBe(200);
        expect(img.headers['content-type']).toMatch(/^image\//);
      }
    });

    it('answers the platform avatar of a synced review', async () => {
      const w = await makeWorld();
      const google = await syncedSourceOf(w.home);
      await makeReview(google, { avatarUrl: 'https://lh3.example.test/a/photo.jpg' });
      const res = await t.http().get('/api/v1/reviews').set('Authorization', bearer(w.tokens.orgOwner));
      expect(res.body.data[0]).toMatchObject({ source: 'Google', integration_id: google.id, avatar: 'https://lh3.example.test/a/photo.jpg' });
      expect(res.body.data[0].source_logo).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/.+/);
    });

    it('filters by rating', async () => {
      const w = await makeWorld();
      const src = await testimonialsOf(w.home);
      const byRating: Record<number, number> = {};
      for (const rating of [1, 2, 3, 4, 5, 3]) byRating[(await makeReview(src, { rating, originalRating: rating })).id] = rating;
      for (const rating of [1, 3, 5]) {
        const res = await t.http().get(`/api/v1/reviews?rating=${rating}`).set('Authorization', bearer(w.tokens.orgOwner));
        expect(res.status).toBe(200);
        const expected = Object.entries(byRating).filter(([, r]) => r === rating).length;
        expect(res.body.meta.total).toBe(expected);
        expect(res.body.data).toHaveLength(expected);
        for (const item of res.body.data) expect(item.rating).toBe(rating);
      }
    });

    it.each(['0', '6', 'abc', '4.5'])('answers 422 naming rating for rating=%s', async (rating) => {
      const w = await makeWorld();
      const res = await t.http().get(`/api/v1/reviews?rating=${rating}`).set('Authorization', bearer(w.tokens.orgOwner));
      expectValidation(res, ['rating']);
    });

    it.each(['organization_id', 'location_id'])('answers 422 naming %s when it is not an integer', async (field) => {
      const w = await makeWorld();
      const res = await t.http().get(`/api/v1/reviews?${field}=x`).set('Authorization', bearer(w.tokens.orgOwner));
      expectValidation(res, [field]);
    });

    it('filters by organization_id and by location_id', async () => {
      const w = await makeWorld();
      const otherOrg = await makeOrganization(w.orgOwner);
      const otherLoc = await defaultLocationOf(otherOrg);
      const atHome = await makeReview(await testimonialsOf(w.home));
      const atBranch = await makeReview(await testimonialsOf(w.branch));
      const elsewhere = await makeReview(await testimonialsOf(otherLoc));
      const ids = async (query: string) => {
        const res = await t.http().get(`/api/v1/reviews?${query}`).set('Authorization', bearer(w.tokens.orgOwner));
        expect(res.status).toBe(200);
        return res.body.data.map((r: { id: number }) => r.id).sort((a: number, b: number) => a - b);
      };
      expect(await ids('')).toEqual([atHome.id, atBranch.id, elsewhere.id].sort((a, b) => a - b));
      expect(await ids(`organization_id=${w.org.id}`)).toEqual([atHome.id, atBranch.id].sort((a, b) => a - b));
      expect(await ids(`organization_id=${otherOrg.id}`)).toEqual([elsewhere.id]);
      expect(await ids(`location_id=${w.branch.id}`)).toEqual([atBranch.id]);
      expect(await ids(`organization_id=${w.org.id}&location_id=${otherLoc.id}`)).toEqual([]);
    });

    it('filters by source_names[] (one or several) and by a single source_names', async () => {
      const w = await makeWorld();
      const testimonial = await makeReview(await testimonialsOf(w.home));
      const google = await makeReview(await syncedSourceOf(w.home, 'google'));
      const kiosk = await makeReview(await customSourceOf(w.branch, 'Kiosk'));
      const ids = async (query: string) => {
        const res = await t.http().get(`/api/v1/reviews?${query}`).set('Authorization', bearer(w.tokens.orgOwner));
        expect(res.status).toBe(200);
        expect(res.body.meta.total).toBe(res.body.data.length);
        return res.body.data.map((r: { id: number }) => r.id).sort((a: number, b: number) => a - b);
      };
      expect(await ids('source_names[]=Google')).toEqual([google.id]);
      expect(await ids('source_names[]=Google&source_names[]=Kiosk')).toEqual([google.id, kiosk.id].sort((a, b) => a - b));
      expect(await ids('source_names[]=Testimonials')).toEqual([testimonial.id]);
      expect(await ids('source_names=Kiosk')).toEqual([kiosk.id]);
      expect(await ids('source_names[]=Nowhere')).toEqual([]);
      expect(await ids(`source_names[]=${encodeURIComponent("Google') OR 1=1 -- ")}`)).toEqual([]);
    });

    it('shows a team member only the reviews of their assigned locations', async () => {
      const w = await makeWorld();
      await makeReview(await testimonialsOf(w.home));
      const atBranch = await makeReview(await testimonialsOf(w.branch));
      const res = await t.http().get('/api/v1/reviews').set('Authorization', bearer(w.tokens.member));
      expect(res.body.data.map((r: { id: number }) => r.id)).toEqual([atBranch.id]);
      expect(res.body.meta.total).toBe(1);
      const filtered = await t.http().get(`/api/v1/reviews?location_id=${w.home.id}`).set('Authorization', bearer(w.tokens.member));
      expect(filtered.body.data).toEqual([]);
    });

    it('never shows reviews of another account of the tenant or of another tenant', async () => {
      const w = await makeWorld();
      const mine = await makeReview(await testimonialsOf(w.home));
      const neighbour = await makeOrgOwner(w.tenant.id);
      const theirs = await makeReview(await testimonialsOf(await defaultLocationOf(await makeOrganization(neighbour))));
      const other = await makeWorld();
      await makeReview(await testimonialsOf(other.home));

      const asOrgOwner = await t.http().get('/api/v1/reviews').set('Authorization', bearer(w.tokens.orgOwner));
      expect(asOrgOwner.body.data.map((r: { id: number }) => r.id)).toEqual([mine.id]);
      const asNeighbour = await t.http().get('/api/v1/reviews').set('Authorization', bearer(await tokenFor(neighbour)));
      expect(asNeighbour.body.data.map((r: { id: number }) => r.id)).toEqual([theirs.id]);
      // The tenant owner sees every account of their tenant, and nothing of another tenant.
      const asOwner = await t.http().get('/api/v1/reviews').set('Authorization', bearer(w.tokens.owner));
      expect(asOwner.body.data.map((r: { id: number }) => r.id).sort()).toEqual([mine.id, theirs.id].sort());
      // Filtering on another tenant's organisation reveals nothing.
      const probe = await t.http().get(`/api/v1/reviews?organization_id=${other.org.id}`).set('Authorization', bearer(w.tokens.owner));
      expect(probe.status).toBe(200);
      expect(probe.body.data).toEqual([]);
    });

    it('answers 403 without reviews:read', async () => {
      const w = await makeWorld();
      const res = await t.http().get('/api/v1/reviews').set('Authorization', bearer(await tokenFor(w.orgOwner, without('reviews:read'))));
      expect(res.status).toBe(403);
      expect(typeof res.body.message).toBe('string');
    });

    it('answers 401 without a token and with an unknown one', async () => {
      const none = await t.http().get('/api/v1/reviews');
      expect(none.status).toBe(401);
      expect(none.body).toEqual({ message: 'Unauthenticated.' });
      const unknown = await t.http().get('/api/v1/reviews').set('Authorization', 'Bearer rg_nope');
      expect(unknown.status).toBe(401);
    });
  });

  describe('GET /api/v1/reviews/{id}', () => {
    it('answers {data: Review}', async () => {
      const w = await makeWorld();
      const src = await testimonialsOf(w.branch);
      const r = await makeReview(src, { title: 'Hello', message: 'World', rating: 3 });
      const res = await t.http().get(`/api/v1/reviews/${r.id}`).set('Authorization', bearer(w.tokens.orgOwner));
      expect(res.status).toBe(200);
      expect(Object.keys(res.body)).toEqual(['data']);
      expect(Object.keys(res.body.data).sort()).toEqual(REVIEW_KEYS);
      expect(res.body.data).toEqual(expectedReview(r, src));
      // A team member assigned to the location sees it too.
      const asMember = await t.http().get(`/api/v1/reviews/${r.id}`).set('Authorization', bearer(w.tokens.member));
      expect(asMember.status).toBe(200);
      expect(asMember.body.data.id).toBe(r.id);
    });

    it.each(['999999999', 'abc', '0', '-1', '1.5', '99999999999999999999'])('answers 404 for the id %s', async (id) => {
      const w = await makeWorld();
      const res = await t.http().get(`/api/v1/reviews/${id}`).set('Authorization', bearer(w.tokens.orgOwner));
      expect(res.status).toBe(404);
      expect(typeof res.body.message).toBe('string');
    });

    it('answers 404 for a review of another tenant', async () => {
      const w = await makeWorld();
      const other = await makeWorld();
      const theirs = await makeReview(await testimonialsOf(other.home));
      for (const token of [w.tokens.owner, w.tokens.orgOwner]) {
        const res = await t.http().get(`/api/v1/reviews/${theirs.id}`).set('Authorization', bearer(token));
        expect(res.status).toBe(404);
        expect(res.body).toEqual({ message: expect.any(String) });
      }
    });

    it('answers 404 for a review of another account in the same tenant', async () => {
      const w = await makeWorld();
      const neighbour = await makeOrgOwner(w.tenant.id);
      const org = await makeOrganization(neighbour);
      const loc = await makeLocation(org);
      const theirs = await makeReview(await testimonialsOf(loc));
      const res = await t.http().get(`/api/v1/reviews/${theirs.id}`).set('Authorization', bearer(w.tokens.orgOwner));
      expect(res.status).toBe(404);
      // The tenant owner does see it.
      const asOwner = await t.http().get(`/api/v1/reviews/${theirs.id}`).set('Authorization', bearer(w.tokens.owner));
      expect(asOwner.status).toBe(200);
    });

    it('answers 404 to a team member for a review outside their assigned locations', async () => {
      const w = await makeWorld();
      const atHome = await makeReview(await testimonialsOf(w.home));
      const res = await t.http().get(`/api/v1/reviews/${atHome.id}`).set('Authorization', bearer(w.tokens.member));
      expect(res.status).toBe(404);
    });

    it('answers 403 without reviews:read and 401 without a token', async () => {
      const w = await makeWorld();
      const r = await makeReview(await testimonialsOf(w.home));
      const forbidden = await t
        .http()
        .get(`/api/v1/reviews/${r.id}`)
        .set('Authorization', bearer(await tokenFor(w.orgOwner, without('reviews:read'))));
      expect(forbidden.status).toBe(403);
      expect((await t.http().get(`/api/v1/reviews/${r.id}`)).status).toBe(401);
    });
  });

  describe('POST /api/v1/reviews', () => {
    async function setup() {
      const w = await makeWorld();
      const src = await testimonialsOf(w.home);
      const body = {
        author: 'Grace Hopper',
        rating: 5,
        published_on: '2026-03-07',
        organization_id: w.org.id,
        location_id: w.home.id,
        source: src.id,
        message: 'Found the bug.',
        title: 'Moth',
      };
      return { w, src, body };
    }

    const multipart = (token: string, fields: Record<string, string | number>) => {
      const req = t.http().post('/api/v1/reviews').set('Authorization', bearer(token)).set('Accept', 'application/json');
      for (const [k, v] of Object.entries(fields)) req.field(k, String(v));
      return req;
    };

    it('creates a review from a multipart form and answers 201 {data: Review}', async () => {
      const { w, src, body } = await setup();
      const res = await multipart(w.tokens.orgOwner, body);
      expect(res.status).toBe(201);
      expect(Object.keys(res.body)).toEqual(['data']);
      expect(Object.keys(res.body.data).sort()).toEqual(REVIEW_KEYS);
      expect(res.body.data).toEqual({
        id: expect.any(Number),
        organization_id: w.org.id,
        location_id: w.home.id,
        integration_id: src.id,
        author: 'Grace Hopper',
        date: expect.stringMatching(ISO_UTC),
        rating: 5,
        title: 'Moth',
        message: 'Found the bug.',
        source: 'Testimonials',
        source_logo: expect.stringMatching(ABSOLUTE),
        avatar: expect.stringMatching(ABSOLUTE),
        reply: null,
        reply_date: null,
        hidden: false,
        verified: false,
      });
      const stored = await Review.findByPk(res.body.data.id);
      expect(stored).not.toBeNull();
      expect(stored!.integrationId).toBe(src.id);
      const again = await t.http().get(`/api/v1/reviews/${res.body.data.id}`).set('Authorization', bearer(w.tokens.orgOwner));
      expect(originless(again.body)).toEqual(originless(res.body));
    });

    it('creates a review from a JSON body', async () => {
      const { w, src, body } = await setup();
      const res = await t.http().post('/api/v1/reviews').set('Authorization', bearer(w.tokens.orgOwner)).send(body);
      expect(res.status).toBe(201);
      expect(res.body.data).toMatchObject({
        author: 'Grace Hopper',
        rating: 5,
        title: 'Moth',
        message: 'Found the bug.',
        integration_id: src.id,
        location_id: w.home.id,
        organization_id: w.org.id,
        date: '2026-03-07T00:00:00.000Z',
      });
    });

    it('dates the review at midnight UTC of published_on', async () => {
      const { w, body } = await setup();
      const res = await t.http().post('/api/v1/reviews').set('Authorization', bearer(w.tokens.orgOwner)).send({ ...body, published_on: '2024-02-29' });
      expect(res.status).toBe(201);
      expect(res.body.data.date).toMatch(ISO_UTC);
      expect(new Date(res.body.data.date).toISOString()).toBe('2024-02-29T00:00:00.000Z');
      const stored = await Review.findByPk(res.body.data.id);
      expect(stored!.publishedAt.toISOString()).toBe('2024-02-29T00:00:00.000Z');
    });

    it('accepts a review without message and title (title null) and answers a placeholder avatar', async () => {
      const { w, body } = await setup();
      const { message: _m, title: _t, ...required } = body;
      const res = await multipart(w.tokens.orgOwner, required);
      expect(res.status).toBe(201);
      expect(res.body.data.title).toBeNull();
      expect(typeof res.body.data.message).toBe('string');
      const avatar = await follow(res.body.data.avatar);
      expect(avatar.status).toBe(200);
      expect(avatar.headers['content-type']).toMatch(/^image\//);
    });

    it('creates on a custom source of the location', async () => {
      const { w, body } = await setup();
      const kiosk = await customSourceOf(w.home, 'Kiosk');
      const res = await t.http().post('/api/v1/reviews').set('Authorization', bearer(w.tokens.orgOwner)).send({ ...body, source: kiosk.id });
      expect(res.status).toBe(201);
      expect(res.body.data).toMatchObject({ integration_id: kiosk.id, source: 'Kiosk' });
    });

    it('lets a team member create on an assigned location', async () => {
      const { w, body } = await setup();
      const branchSrc = await testimonialsOf(w.branch);
      const res = await t
        .http()
        .post('/api/v1/reviews')
        .set('Authorization', bearer(w.tokens.member))
        .send({ ...body, location_id: w.branch.id, source: branchSrc.id });
      expect(res.status).toBe(201);
      expect(res.body.data.location_id).toBe(w.branch.id);
    });

    it('answers 422 naming every required field when the JSON body is empty, and stores nothing', async () => {
      const { w } = await setup();
      const before = await countReviews(w.tenant.id);
      const res = await t.http().post('/api/v1/reviews').set('Authorization', bearer(w.tokens.orgOwner)).send({});
      expectValidation(res, ['author', 'rating', 'published_on', 'organization_id', 'location_id', 'source']);
      expect(await countReviews(w.tenant.id)).toBe(before);
    });

    it('answers 422 naming every required field when the multipart form is empty', async () => {
      const { w } = await setup();
      const res = await multipart(w.tokens.orgOwner, { message: 'only this' });
      expectValidation(res, ['author', 'rating', 'published_on', 'organization_id', 'location_id', 'source']);
    });

    it.each(['author', 'rating', 'published_on', 'organization_id', 'location_id', 'source'])(
      'answers 422 naming %s when only it is missing, and stores nothing',
      async (field) => {
        const { w, body } = await setup();
        const before = await countReviews(w.tenant.id);
        const partial: Record<string, unknown> = { ...body };
        delete partial[field];
        const json = await t.http().post('/api/v1/reviews').set('Authorization', bearer(w.tokens.orgOwner)).send(partial);
        expectValidation(json, [field]);
        const form = await multipart(w.tokens.orgOwner, partial as Record<string, string>);
        expectValidation(form, [field]);
        const blank = await multipart(w.tokens.orgOwner, { ...(partial as Record<string, string>), [field]: '' });
        expectValidation(blank, [field]);
        expect(await countReviews(w.tenant.id)).toBe(before);
      },
    );

    it.each([
      ['author', 'a'.repeat(256)],
      ['title', 't'.repeat(256)],
      ['author', ''],
      ['author', ' \t '],
      // One line of text: no NUL, escape sequence, line break or lone surrogate (stored as U+FFFD, echoed as sent).
      ['author', 'x\u0000y'],
      ['author', 'Ada\u001b[31m'],
      ['author', 'Ada\nLovelace'],
      ['title', 'a\ud800b'],
      ['title', 'Two\r\nlines'],
      ['message', 'Fine\u0000'],
      ['message', 'half \udc00 a pair'],
      ['rating', 0],
      ['rating', 6],
      ['rating', -3],
      ['rating', 4.5],
      ['rating', 'five'],
      ['published_on', '2026-02-30'],
      ['published_on', '2025-02-29'],
      ['published_on', '2026-13-01'],
      ['published_on', '07/03/2026'],
      ['published_on', '2026-3-7'],
      ['published_on', '2026-03-07T10:00:00Z'],
      ['organization_id', 'abc'],
      ['location_id', 'abc'],
      ['source', 'abc'],
    ])('answers 422 naming %s for %p, and stores nothing', async (field, value) => {
      const { w, body } = await setup();
      const before = await countReviews(w.tenant.id);
      const res = await t
        .http()
        .post('/api/v1/reviews')
        .set('Authorization', bearer(w.tokens.orgOwner))
        .send({ ...body, [field]: value });
      expectValidation(res, [field]);
      expect(await countReviews(w.tenant.id)).toBe(before);
    });

    it('keeps line breaks and tabs in a message, and a character beyond the BMP in author and title', async () => {
      const { w, body } = await setup();
      const res = await t
        .http()
        .post('/api/v1/reviews')
        .set('Authorization', bearer(w.tokens.orgOwner))
        .send({ ...body, author: 'Ada 🦉', title: 'Owls 🦉', message: 'Line one\r\nLine two\n\tindented' });
      expect(res.status).toBe(201);
      const stored = (await Review.findByPk(res.body.data.id))!;
      expect([stored.author, stored.title, stored.message]).toEqual(['Ada 🦉', 'Owls 🦉', 'Line one\r\nLine two\n\tindented']);
    });

    it('accepts author and title of exactly 255 characters', async () => {
      const { w, body } = await setup();
      const res = await t
        .http()
        .post('/api/v1/reviews')
        .set('Authorization', bearer(w.tokens.orgOwner))
        .send({ ...body, author: 'a'.repeat(255), title: 't'.repeat(255) });
      expect(res.status).toBe(201);
      expect(res.body.data.author).toBe('a'.repeat(255));
      expect(res.body.data.title).toBe('t'.repeat(255));
    });

    it.each([1, 5])('accepts rating %d', async (rating) => {
      const { w, body } = await setup();
      const res = await t.http().post('/api/v1/reviews').set('Authorization', bearer(w.tokens.orgOwner)).send({ ...body, rating });
      expect(res.status).toBe(201);
      expect(res.body.data.rating).toBe(rating);
    });

    it('answers 422 naming source when the source is a synced integration, and stores nothing', async () => {
      const { w, body } = await setup();
      const google = await syncedSourceOf(w.home);
      const before = await countReviews(w.tenant.id);
      const res = await t.http().post('/api/v1/reviews').set('Authorization', bearer(w.tokens.orgOwner)).send({ ...body, source: google.id });
      expectValidation(res, ['source']);
      expect(await countReviews(w.tenant.id)).toBe(before);
    });

    it('answers 422 naming source when the source belongs to another location, another tenant, or does not exist', async () => {
      const { w, body } = await setup();
      const other = await makeWorld();
      const before = await countReviews(w.tenant.id);
      for (const source of [(await testimonialsOf(w.branch)).id, (await testimonialsOf(other.home)).id, 999999999]) {
        const res = await t.http().post('/api/v1/reviews').set('Authorization', bearer(w.tokens.orgOwner)).send({ ...body, source });
        expectValidation(res, ['source']);
      }
      expect(await countReviews(w.tenant.id)).toBe(before);
      expect(await countReviews(other.tenant.id)).toBe(0);
    });

    it('answers 422 naming location_id when the location is not in the organisation, and stores nothing', async () => {
      const { w, body } = await setup();
      const otherOrg = await makeOrganization(w.orgOwner);
      const foreignLoc = await defaultLocationOf(otherOrg);
      const before = await countReviews(w.tenant.id);
      const res = await t
        .http()
        .post('/api/v1/reviews')
        .set('Authorization', bearer(w.tokens.orgOwner))
        .send({ ...body, location_id: foreignLoc.id, source: (await testimonialsOf(foreignLoc)).id });
      expectValidation(res, ['location_id']);
      expect(await countReviews(w.tenant.id)).toBe(before);
    });

    it('answers 404 when the organisation belongs to another tenant, and stores nothing', async () => {
      const { w, body } = await setup();
      const other = await makeWorld();
      const res = await t
        .http()
        .post('/api/v1/reviews')
        .set('Authorization', bearer(w.tokens.orgOwner))
        .send({ ...body, organization_id: other.org.id, location_id: other.home.id, source: (await testimonialsOf(other.home)).id });
      expect(res.status).toBe(404);
      expect(typeof res.body.message).toBe('string');
      expect(await countReviews(other.tenant.id)).toBe(0);
      expect(await countReviews(w.tenant.id)).toBe(0);
    });

    it('answers 404 when the organisation belongs to another account of the same tenant', async () => {
      const { w, body } = await setup();
      const neighbour = await makeOrgOwner(w.tenant.id);
      const org = await makeOrganization(neighbour);
      const loc = await defaultLocationOf(org);
      const res = await t
        .http()
        .post('/api/v1/reviews')
        .set('Authorization', bearer(w.tokens.orgOwner))
        .send({ ...body, organization_id: org.id, location_id: loc.id, source: (await testimonialsOf(loc)).id });
      expect(res.status).toBe(404);
      expect(await countReviews(w.tenant.id)).toBe(0);
    });

    it('answers 403 location_access_denied to a team member writing to a location outside their scope', async () => {
      const { w, body } = await setup();
      const res = await t.http().post('/api/v1/reviews').set('Authorization', bearer(w.tokens.member)).send(body);
      expect(res.status).toBe(403);
      expect(res.body.code).toBe('location_access_denied');
      expect(await countReviews(w.tenant.id)).toBe(0);
    });

    it.each([
      ['reviews:read alone', ['reviews:read']],
      ['reviews:create alone', ['reviews:create']],
      ['every permission but reviews:create', without('reviews:create')],
      ['every permission but reviews:read', without('reviews:read')],
    ])('answers 403 with %s, and stores nothing', async (_label, permissions) => {
      const { w, body } = await setup();
      const res = await t
        .http()
        .post('/api/v1/reviews')
        .set('Authorization', bearer(await tokenFor(w.orgOwner, permissions)))
        .send(body);
      expect(res.status).toBe(403);
      expect(typeof res.body.message).toBe('string');
      expect(await countReviews(w.tenant.id)).toBe(0);
    });

    it('answers 201 with exactly reviews:read and reviews:create', async () => {
      const { w, body } = await setup();
      const res = await t
        .http()
        .post('/api/v1/reviews')
        .set('Authorization', bearer(await tokenFor(w.orgOwner, ['reviews:read', 'reviews:create'])))
        .send(body);
      expect(res.status).toBe(201);
    });

    it('answers 401 without a token, and stores nothing', async () => {
      const { w, body } = await setup();
      const res = await t.http().post('/api/v1/reviews').send(body);
      expect(res.status).toBe(401);
      expect(await countReviews(w.tenant.id)).toBe(0);
    });
  });

  describe('PUT /api/v1/reviews/{id}', () => {
    async function setup(overrides: Partial<Review> = {}) {
      const w = await makeWorld();
      const src = await testimonialsOf(w.home);
      const r = await makeReview(src, { author: 'Original Author', title: 'Original title', message: 'Original message', rating: 5, ...overrides });
      return { w, src, r };
    }

    it('changes only the sent field (JSON) and answers 200 {data: Review}', async () => {
      const { w, src, r } = await setup();
      const res = await t.http().put(`/api/v1/reviews/${r.id}`).set('Authorization', bearer(w.tokens.orgOwner)).send({ rating: 2 });
      expect(res.status).toBe(200);
      expect(Object.keys(res.body)).toEqual(['data']);
      expect(Object.keys(res.body.data).sort()).toEqual(REVIEW_KEYS);
      expect(res.body.data).toEqual({ ...expectedReview(r, src), rating: 2 });
      const stored = (await Review.findByPk(r.id))!;
      expect(stored.rating).toBe(2);
      expect(stored.author).toBe('Original Author');
      expect(stored.title).toBe('Original title');
      expect(stored.message).toBe('Original message');
      expect(stored.publishedAt.toISOString()).toBe(r.publishedAt.toISOString());
      expect(stored.integrationId).toBe(src.id);
    });

    it('changes only the sent field (multipart)', async () => {
      const { w, r } = await setup();
      const res = await t.http().put(`/api/v1/reviews/${r.id}`).set('Authorization', bearer(w.tokens.orgOwner)).field('rating', '3');
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({ rating: 3, author: 'Original Author', title: 'Original title', message: 'Original message' });
      const stored = (await Review.findByPk(r.id))!;
      expect([stored.rating, stored.author, stored.title, stored.message]).toEqual([3, 'Original Author', 'Original title', 'Original message']);
    });

    it.each([
      ['author', 'New\u0000Author'],
      ['title', 'a\ud800'],
      ['message', 'Bell\u0007'],
    ])('answers 422 naming %s for control characters, and changes nothing', async (field, value) => {
      const { w, r } = await setup();
      const res = await t.http().put(`/api/v1/reviews/${r.id}`).set('Authorization', bearer(w.tokens.orgOwner)).send({ rating: 1, [field]: value });
      expectValidation(res, [field]);
      const stored = (await Review.findByPk(r.id))!;
      expect([stored.rating, stored.author, stored.title, stored.message]).toEqual([5, 'Original Author', 'Original title', 'Original message']);
    });

    it('changes every field that is sent, with published_on at midnight UTC', async () => {
      const { w, r } = await setup();
      const res = await t.http().put(`/api/v1/reviews/${r.id}`).set('Authorization', bearer(w.tokens.orgOwner)).send({
        author: 'New Author',
        rating: 1,
        message: 'New message',
        title: 'New title',
        published_on: '2025-11-30',
      });
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({ author: 'New Author', rating: 1, message: 'New message', title: 'New title' });
      expect(new Date(res.body.data.date).toISOString()).toBe('2025-11-30T00:00:00.000Z');
      expect(res.body.data.date).toMatch(ISO_UTC);
      const stored = (await Review.findByPk(r.id))!;
      expect(stored.publishedAt.toISOString()).toBe('2025-11-30T00:00:00.000Z');
    });

    it('answers 200 with the review unchanged when nothing is sent', async () => {
      const { w, src, r } = await setup();
      const res = await t.http().put(`/api/v1/reviews/${r.id}`).set('Authorization', bearer(w.tokens.orgOwner)).send({});
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual(expectedReview(r, src));
    });

    it('never changes the source', async () => {
      const { w, src, r } = await setup();
      const kiosk = await customSourceOf(w.home, 'Kiosk');
      const res = await t
        .http()
        .put(`/api/v1/reviews/${r.id}`)
        .set('Authorization', bearer(w.tokens.orgOwner))
        .send({ source: kiosk.id, integration_id: kiosk.id });
      expect([200, 422]).toContain(res.status);
      expect((await Review.findByPk(r.id))!.integrationId).toBe(src.id);
    });

    it.each([
      ['author', 'a'.repeat(256)],
      ['author', '   '],
      ['title', 't'.repeat(256)],
      ['rating', 0],
      ['rating', 6],
      ['rating', 'abc'],
      ['published_on', '2026-02-30'],
      ['published_on', 'yesterday'],
    ])('answers 422 naming %s for %p and changes nothing', async (field, value) => {
      const { w, r } = await setup();
      const res = await t
        .http()
        .put(`/api/v1/reviews/${r.id}`)
        .set('Authorization', bearer(w.tokens.orgOwner))
        .send({ rating: 3, [field]: value });
      expectValidation(res, [field]);
      const stored = (await Review.findByPk(r.id))!;
      expect([stored.rating, stored.author, stored.title]).toEqual([5, 'Original Author', 'Original title']);
    });

    it('answers 403 when the review is from a synced source, and changes nothing', async () => {
      const w = await makeWorld();
      const google = await syncedSourceOf(w.home);
      const r = await makeReview(google, { rating: 2, author: 'Synced Author' });
      const res = await t.http().put(`/api/v1/reviews/${r.id}`).set('Authorization', bearer(w.tokens.orgOwner)).send({ rating: 5, author: 'Hacked' });
      expect(res.status).toBe(403);
      expect(typeof res.body.message).toBe('string');
      const stored = (await Review.findByPk(r.id))!;
      expect([stored.rating, stored.author]).toEqual([2, 'Synced Author']);
    });

    it('answers 404 for an unknown id, a non-numeric id, and a review of another tenant or account', async () => {
      const { w } = await setup();
      const other = await makeWorld();
      const theirs = await makeReview(await testimonialsOf(other.home), { rating: 4 });
      const neighbour = await makeOrgOwner(w.tenant.id);
      const neighbours = await makeReview(await testimonialsOf(await defaultLocationOf(await makeOrganization(neighbour))), { rating: 4 });
      for (const id of ['999999999', 'abc', String(theirs.id), String(neighbours.id)]) {
        const res = await t.http().put(`/api/v1/reviews/${id}`).set('Authorization', bearer(w.tokens.orgOwner)).send({ rating: 1 });
        expect(res.status).toBe(404);
      }
      expect((await Review.findByPk(theirs.id))!.rating).toBe(4);
      expect((await Review.findByPk(neighbours.id))!.rating).toBe(4);
    });

    it.each([
      ['reviews:update alone', ['reviews:update']],
      ['reviews:read alone', ['reviews:read']],
      ['every permission but reviews:update', without('reviews:update')],
    ])('answers 403 with %s and changes nothing', async (_label, permissions) => {
      const { w, r } = await setup();
      const res = await t
        .http()
        .put(`/api/v1/reviews/${r.id}`)
        .set('Authorization', bearer(await tokenFor(w.orgOwner, permissions)))
        .send({ rating: 1 });
      expect(res.status).toBe(403);
      expect((await Review.findByPk(r.id))!.rating).toBe(5);
    });

    it('answers 200 with exactly reviews:read and reviews:update, and 401 without a token', async () => {
      const { w, r } = await setup();
      const ok = await t
        .http()
        .put(`/api/v1/reviews/${r.id}`)
        .set('Authorization', bearer(await tokenFor(w.orgOwner, ['reviews:read', 'reviews:update'])))
        .send({ rating: 4 });
      expect(ok.status).toBe(200);
      const anonymous = await t.http().put(`/api/v1/reviews/${r.id}`).send({ rating: 1 });
      expect(anonymous.status).toBe(401);
      expect((await Review.findByPk(r.id))!.rating).toBe(4);
    });
  });

  describe('DELETE /api/v1/reviews/{id}', () => {
    it("answers 200 {message: 'Review deleted successfully.'} and the review is gone", async () => {
      const w = await makeWorld();
      const r = await makeReview(await testimonialsOf(w.home));
      const res = await t.http().delete(`/api/v1/reviews/${r.id}`).set('Authorization', bearer(w.tokens.orgOwner));
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ message: 'Review deleted successfully.' });
      expect(await Review.findByPk(r.id)).toBeNull();
      const after = await t.http().get(`/api/v1/reviews/${r.id}`).set('Authorization', bearer(w.tokens.orgOwner));
      expect(after.status).toBe(404);
      const again = await t.http().delete(`/api/v1/reviews/${r.id}`).set('Authorization', bearer(w.tokens.orgOwner));
      expect(again.status).toBe(404);
    });

    it('deletes a review of a custom source', async () => {
      const w = await makeWorld();
      const r = await makeReview(await customSourceOf(w.branch));
      const res = await t.http().delete(`/api/v1/reviews/${r.id}`).set('Authorization', bearer(w.tokens.member));
      expect(res.status).toBe(200);
      expect(await Review.findByPk(r.id)).toBeNull();
    });

    it('answers 403 when the review is from a synced source, and it is still there', async () => {
      const w = await makeWorld();
      const r = await makeReview(await syncedSourceOf(w.home, 'facebook'));
      const res = await t.http().delete(`/api/v1/reviews/${r.id}`).set('Authorization', bearer(w.tokens.owner));
      expect(res.status).toBe(403);
      expect(typeof res.body.message).toBe('string');
      expect(await Review.findByPk(r.id)).not.toBeNull();
    });

    it('answers 404 for an unknown id, a non-numeric id, and reviews of another tenant or account, which stay', async () => {
      const w = await makeWorld();
      const other = await makeWorld();
      const theirs = await makeReview(await testimonialsOf(other.home));
      const neighbour = await makeOrgOwner(w.tenant.id);
      const neighbours = await makeReview(await testimonialsOf(await defaultLocationOf(await makeOrganization(neighbour))));
      const atHome = await makeReview(await testimonialsOf(w.home));
      for (const [token, id] of [
        [w.tokens.orgOwner, '999999999'],
        [w.tokens.orgOwner, 'abc'],
        [w.tokens.owner, String(theirs.id)],
        [w.tokens.orgOwner, String(neighbours.id)],
        [w.tokens.member, String(atHome.id)],
      ]) {
        const res = await t.http().delete(`/api/v1/reviews/${id}`).set('Authorization', bearer(token));
        expect(res.status).toBe(404);
      }
      for (const r of [theirs, neighbours, atHome]) expect(await Review.findByPk(r.id)).not.toBeNull();
    });

    it.each([
      ['reviews:delete alone', ['reviews:delete']],
      ['reviews:read alone', ['reviews:read']],
      ['every permission but reviews:delete', without('reviews:delete')],
    ])('answers 403 with %s, and the review stays', async (_label, permissions) => {
      const w = await makeWorld();
      const r = await makeReview(await testimonialsOf(w.home));
      const res = await t.http().delete(`/api/v1/reviews/${r.id}`).set('Authorization', bearer(await tokenFor(w.orgOwner, permissions)));
      expect(res.status).toBe(403);
      expect(await Review.findByPk(r.id)).not.toBeNull();
    });

    it('answers 200 with exactly reviews:read and reviews:delete, and 401 without a token', async () => {
      const w = await makeWorld();
      const kept = await makeReview(await testimonialsOf(w.home));
      expect((await t.http().delete(`/api/v1/reviews/${kept.id}`)).status).toBe(401);
      expect(await Review.findByPk(kept.id)).not.toBeNull();
      const res = await t
        .http()
        .delete(`/api/v1/reviews/${kept.id}`)
        .set('Authorization', bearer(await tokenFor(w.orgOwner, ['reviews:read', 'reviews:delete'])));
      expect(res.status).toBe(200);
      expect(await Review.findByPk(kept.id)).toBeNull();
    });
  });

  describe('GET /api/v1/reviews/sources', () => {
    it('answers the envelope of writable sources (testimonials and custom only)', async () => {
      const w = await makeWorld();
      const homeTestimonials = await testimonialsOf(w.home);
      const branchTestimonials = await testimonialsOf(w.branch);
      const kiosk = await customSourceOf(w.home, 'Kiosk');
      await syncedSourceOf(w.home, 'google');
      await syncedSourceOf(w.branch, 'yelp');

      const res = await t.http().get('/api/v1/reviews/sources').set('Authorization', bearer(w.tokens.orgOwner));
      expect(res.status).toBe(200);
      expect(Object.keys(res.body).sort()).toEqual(['data', 'links', 'meta']);
      expect(res.body.meta).toEqual({ current_page: 1, from: 1, last_page: 1, per_page: 10, to: 3, total: 3 });
      expect(res.body.links).toEqual({
        first: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/api\/v1\/reviews\/sources\?page=1$/),
        last: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/api\/v1\/reviews\/sources\?page=1$/),
        prev: null,
        next: null,
      });
      for (const s of res.body.data) {
        expect(Object.keys(s).sort()).toEqual(SOURCE_KEYS);
        expect(['testimonials', 'custom']).toContain(s.type);
      }
      const byId = (id: number) => res.body.data.find((s: { id: number }) => s.id === id);
      expect(byId(homeTestimonials.id)).toEqual({
        id: homeTestimonials.id,
        name: 'Testimonials',
        logo: expect.stringMatching(ABSOLUTE),
        type: 'testimonials',
        organization_id: w.org.id,
        location_id: w.home.id,
      });
      expect(byId(branchTestimonials.id)).toMatchObject({ type: 'testimonials', location_id: w.branch.id, organization_id: w.org.id });
      expect(byId(kiosk.id)).toEqual({
        id: kiosk.id,
        name: 'Kiosk',
        logo: expect.stringMatching(ABSOLUTE),
        type: 'custom',
        organization_id: w.org.id,
        location_id: w.home.id,
      });
      const logo = await follow(byId(kiosk.id).logo);
      expect(logo.status).toBe(200);
      expect(logo.headers['content-type']).toMatch(/^image\//);
    });

    it('filters by organization_id and location_id', async () => {
      const w = await makeWorld();
      const otherOrg = await makeOrganization(w.orgOwner);
      const kiosk = await customSourceOf(w.branch, 'Kiosk');
      const ids = async (query: string) => {
        const res = await t.http().get(`/api/v1/reviews/sources?${query}`).set('Authorization', bearer(w.tokens.orgOwner));
        expect(res.status).toBe(200);
        expect(res.body.meta.total).toBe(res.body.data.length);
        return res.body.data.map((s: { id: number }) => s.id).sort((a: number, b: number) => a - b);
      };
      const home = (await testimonialsOf(w.home)).id;
      const branch = (await testimonialsOf(w.branch)).id;
      const otherHome = (await testimonialsOf(await defaultLocationOf(otherOrg))).id;
      const sorted = (xs: number[]) => xs.sort((a, b) => a - b);
      expect(await ids('')).toEqual(sorted([home, branch, kiosk.id, otherHome]));
      expect(await ids(`organization_id=${w.org.id}`)).toEqual(sorted([home, branch, kiosk.id]));
      expect(await ids(`organization_id=${otherOrg.id}`)).toEqual([otherHome]);
      expect(await ids(`location_id=${w.branch.id}`)).toEqual(sorted([branch, kiosk.id]));
      expect(await ids(`location_id=${w.home.id}&organization_id=${otherOrg.id}`)).toEqual([]);
    });

    it('paginates 10 per page', async () => {
      const w = await makeWorld();
      for (let i = 0; i < 10; i++) await customSourceOf(w.home);
      const res = await t.http().get('/api/v1/reviews/sources').set('Authorization', bearer(w.tokens.orgOwner));
      expect(res.body.data).toHaveLength(10);
      expect(res.body.meta).toEqual({ current_page: 1, from: 1, last_page: 2, per_page: 10, to: 10, total: 12 });
      const next = await follow(res.body.links.next).set('Authorization', bearer(w.tokens.orgOwner));
      expect(next.body.data).toHaveLength(2);
      expect(next.body.meta).toMatchObject({ current_page: 2, from: 11, to: 12 });
    });

    it('shows only the caller’s scope: a team member their locations, nobody another tenant’s', async () => {
      const w = await makeWorld();
      const other = await makeWorld();
      const asMember = await t.http().get('/api/v1/reviews/sources').set('Authorization', bearer(w.tokens.member));
      expect(asMember.body.data.map((s: { location_id: number }) => s.location_id)).toEqual([w.branch.id]);
      // Filtering on a location outside the member's scope narrows the scope, it does not widen it.
      const outside = await t.http().get(`/api/v1/reviews/sources?location_id=${w.home.id}`).set('Authorization', bearer(w.tokens.member));
      expect(outside.status).toBe(200);
      expect(outside.body.data).toEqual([]);
      expect(outside.body.meta.total).toBe(0);
      const probe = await t.http().get(`/api/v1/reviews/sources?organization_id=${other.org.id}`).set('Authorization', bearer(w.tokens.owner));
      expect(probe.status).toBe(200);
      expect(probe.body.data).toEqual([]);
    });

    it.each(['organization_id', 'location_id', 'page'])('answers 422 naming %s when it is not an integer', async (field) => {
      const w = await makeWorld();
      const res = await t.http().get(`/api/v1/reviews/sources?${field}=x`).set('Authorization', bearer(w.tokens.orgOwner));
      expectValidation(res, [field]);
    });

    it('answers 403 without reviews:read and 401 without a token', async () => {
      const w = await makeWorld();
      const forbidden = await t
        .http()
        .get('/api/v1/reviews/sources')
        .set('Authorization', bearer(await tokenFor(w.orgOwner, without('reviews:read'))));
      expect(forbidden.status).toBe(403);
      const anonymous = await t.http().get('/api/v1/reviews/sources');
      expect(anonymous.status).toBe(401);
    });
  });

  describe('bad input', () => {
    it('answers 422 JSON for a malformed JSON body, and stores nothing', async () => {
      const w = await makeWorld();
      for (const [method, path] of [
        ['post', '/api/v1/reviews'],
        ['put', `/api/v1/reviews/${(await makeReview(await testimonialsOf(w.home))).id}`],
      ] as const) {
        const before = await countReviews(w.tenant.id);
        const agent = t.http();
        const res = await agent[method](path)
          .set('Authorization', bearer(w.tokens.orgOwner))
          .set('Content-Type', 'application/json')
          .send('{"author": "Broken", "rating": 5,');
        expect(res.status).toBe(422);
        expect(res.headers['content-type']).toMatch(/application\/json/);
        expect(typeof res.body.message).toBe('string');
        expect(typeof res.body.errors).toBe('object');
        expect(await countReviews(w.tenant.id)).toBe(before);
      }
    });

    it('answers 422 for a JSON array body', async () => {
      const w = await makeWorld();
      const before = await countReviews(w.tenant.id);
      const res = await t
        .http()
        .post('/api/v1/reviews')
        .set('Authorization', bearer(w.tokens.orgOwner))
        .send([{ author: 'A', rating: 5 }]);
      expect(res.status).toBe(422);
      expect(typeof res.body.message).toBe('string');
      expect(typeof res.body.errors).toBe('object');
      expect(await countReviews(w.tenant.id)).toBe(before);
    });

    it('answers 422 when a field has the wrong JSON type', async () => {
      const w = await makeWorld();
      const src = await testimonialsOf(w.home);
      const res = await t.http().post('/api/v1/reviews').set('Authorization', bearer(w.tokens.orgOwner)).send({
        author: ['Array', 'Author'],
        rating: { $gt: 0 },
        published_on: 20260101,
        organization_id: w.org.id,
        location_id: w.home.id,
        source: src.id,
      });
      expectValidation(res, ['author', 'rating', 'published_on']);
    });

    it.each([
      ['SQL injection', "Robert'); DROP TABLE reviews;-- ", "' OR '1'='1'; DELETE FROM reviews WHERE '1'='1"],
      ['script tags', '<script>alert("author")</script>', '<img src=x onerror="alert(1)"><script>document.cookie</script>'],
    ])('stores %s in author, title and message verbatim and returns it verbatim', async (_label, author, message) => {
      const w = await makeWorld();
      const src = await testimonialsOf(w.home);
      const bystander = await makeReview(src);
      const res = await t.http().post('/api/v1/reviews').set('Authorization', bearer(w.tokens.orgOwner)).send({
        author,
        title: author,
        message,
        rating: 4,
        published_on: '2026-01-02',
        organization_id: w.org.id,
        location_id: w.home.id,
        source: src.id,
      });
      expect(res.status).toBe(201);
      expect(res.headers['content-type']).toMatch(/application\/json/);
      expect(res.body.data).toMatchObject({ author, title: author, message });
      const stored = (await Review.findByPk(res.body.data.id))!;
      expect([stored.author, stored.title, stored.message]).toEqual([author, author, message]);
      const read = await t.http().get(`/api/v1/reviews/${res.body.data.id}`).set('Authorization', bearer(w.tokens.orgOwner));
      expect(read.body.data).toMatchObject({ author, title: author, message });
      // Nothing was executed: the other review and the table are still there.
      expect(await Review.findByPk(bystander.id)).not.toBeNull();
      expect(await countReviews(w.tenant.id)).toBe(2);

      const updated = await t
        .http()
        .put(`/api/v1/reviews/${bystander.id}`)
        .set('Authorization', bearer(w.tokens.orgOwner))
        .field('author', author)
        .field('message', message);
      expect(updated.status).toBe(200);
      expect(updated.body.data).toMatchObject({ author, message });
      const list = await t
        .http()
        .get('/api/v1/reviews')
        .query({ 'source_names[]': author })
        .set('Authorization', bearer(w.tokens.orgOwner));
      expect(list.status).toBe(200);
      expect(list.body.data).toEqual([]);
    });

    it('answers 404 JSON for an unknown path under /api/v1', async () => {
      const w = await makeWorld();
      const res = await t.http().get('/api/v1/reviewz').set('Authorization', bearer(w.tokens.orgOwner));
      expect(res.status).toBe(404);
      expect(res.headers['content-type']).toMatch(/application\/json/);
    });

    it('stores neither review nor file when a review with an avatar is refused', async () => {
      const w = await makeWorld();
      const google = await syncedSourceOf(w.home);
      const files = await StoredFile.count({ where: { tenantId: w.tenant.id } });
      const res = await t
        .http()
        .post('/api/v1/reviews')
        .set('Authorization', bearer(w.tokens.orgOwner))
        .field('author', 'x')
        .field('rating', '4')
        .field('published_on', '2026-01-01')
        .field('organization_id', String(w.org.id))
        .field('location_id', String(w.home.id))
        .field('source', String(google.id))
        .attach('avatar', Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><rect width="1" height="1"/></svg>'), 'a.svg');
      expectValidation(res, ['source']);
      expect(await StoredFile.count({ where: { tenantId: w.tenant.id } })).toBe(files);
      expect(await countReviews(w.tenant.id)).toBe(0);
    });
  });
});
