import { Organization, Review } from '../../../src/models';
import { useApp } from '../../support/app';
import { makeOrgOwner, makeOrganization, makeReview, makeTenant, makeWorld, testimonialsOf, tokenFor } from '../../support/factories';

/** Edge cases found in review: each must be a JSON 4xx (never a 500) and leave stored data alone. */
describe('customer REST API hardening', () => {
  const t = useApp();
  const json = (res: { headers: Record<string, string> }) => expect(res.headers['content-type']).toMatch(/application\/json/);

  it('answers 404 for path ids beyond the 32-bit range instead of failing', async () => {
    const w = await makeWorld();
    for (const path of ['/api/v1/reviews/2147483648', '/api/v1/organizations/4294967295', '/api/v1/locations/99999999999']) {
      const res = await t.http().get(path).set('Authorization', `Bearer ${w.tokens.owner}`);
      expect(res.status).toBe(404);
      json(res);
    }
  });

  it('takes only customer tokens: agency and AI tokens get 403 wrong_token_kind', async () => {
    const { owner } = await makeTenant();
    for (const kind of ['agency', 'ai'] as const) {
      const res = await t.http().get('/api/v1/me').set('Authorization', `Bearer ${await tokenFor(owner, kind === 'ai' ? ['mcp:access'] : [], kind)}`);
      expect(res.status).toBe(403);
      expect(res.body.code).toBe('wrong_token_kind');
    }
  });

  it('authenticates before reading the body: malformed JSON from an unknown caller is 401', async () => {
    const res = await t.http().post('/api/v1/locations').set('Content-Type', 'application/json').send('{"broken');
    expect(res.status).toBe(401);
    json(res);
  });

  it('answers unreadable requests with a JSON 4xx', async () => {
    const w = await makeWorld();
    const auth = { Authorization: `Bearer ${w.tokens.owner}` };
    const gzip = await t.http().post('/api/v1/locations').set(auth).set('Content-Type', 'application/json').set('Content-Encoding', 'gzip').send('{"name":"x"}');
    expect(gzip.status).toBeGreaterThanOrEqual(400);
    expect(gzip.status).toBeLessThan(500);
    json(gzip);

    const badPath = await t.http().get('/api/v1/reviews/%E0%A4%A').set(auth);
    expect(badPath.status).toBe(400);
    json(badPath);

    const many = Array.from({ length: 1100 }, (_, i) => `f${i}=1`).join('&');
    const tooMany = await t.http().post('/api/v1/locations').set(auth).set('Content-Type', 'application/x-www-form-urlencoded').send(many);
    expect(tooMany.status).toBe(413);
    json(tooMany);
  });

  it('stores a review message longer than 64 KB', async () => {
    const w = await makeWorld();
    const review = await makeReview(await testimonialsOf(w.home));
    const message = 'ü'.repeat(70_000);
    const res = await t.http().put(`/api/v1/reviews/${review.id}`).set('Authorization', `Bearer ${w.tokens.owner}`).send({ message });
    expect(res.status).toBe(200);
    expect((await Review.findByPk(review.id))!.message).toBe(message);
  });

  it('counts the 255-character limit in characters: 255 emoji pass, 256 do not', async () => {
    const w = await makeWorld();
    const auth = { Authorization: `Bearer ${w.tokens.orgOwner}` };
    const ok = await t.http().post('/api/v1/locations').set(auth).send({ organization_id: w.org.id, name: '😀'.repeat(255) });
    expect(ok.status).toBe(201);
    const tooLong = await t.http().post('/api/v1/locations').set(auth).send({ organization_id: w.org.id, name: '😀'.repeat(256) });
    expect(tooLong.status).toBe(422);
    expect(tooLong.body.errors.name).toEqual(['The name may not be greater than 255 characters.']);
  });

  it('keeps at least one organisation when two deletions race', async () => {
    const { tenant } = await makeTenant();
    const owner = await makeOrgOwner(tenant.id);
    const a = await makeOrganization(owner);
    const b = await makeOrganization(owner);
    const token = await tokenFor(owner);
    const [ra, rb] = await Promise.all([
      t.http().delete(`/api/v1/organizations/${a.id}`).set('Authorization', `Bearer ${token}`),
      t.http().delete(`/api/v1/organizations/${b.id}`).set('Authorization', `Bearer ${token}`),
    ]);
    expect([ra.status, rb.status].sort()).toEqual([200, 422]);
    expect(await Organization.count({ where: { customerId: owner.customerId! } })).toBe(1);
  });

  it('never passes the plan location limit under concurrent creation', async () => {
    const { tenant } = await makeTenant();
    const owner = await makeOrgOwner(tenant.id, { locationLimit: 2 });
    const org = await makeOrganization(owner); // its Default Location is the first of two
    const token = await tokenFor(owner);
    const results = await Promise.all(
      [1, 2, 3, 4].map((i) => t.http().post('/api/v1/locations').set('Authorization', `Bearer ${token}`).send({ organization_id: org.id, name: `L${i}` })),
    );
    expect(results.map((r) => r.status).sort()).toEqual([201, 402, 402, 402]);
  });

  it('leaves fields sent empty in multipart unchanged on PUT, and clears them with JSON null', async () => {
    const w = await makeWorld();
    const review = await makeReview(await testimonialsOf(w.home), { title: 'Keep me', message: 'Keep me too' });
    const auth = { Authorization: `Bearer ${w.tokens.owner}` };
    const multipart = await t.http().put(`/api/v1/reviews/${review.id}`).set(auth).field('title', '').field('message', '').field('rating', '3');
    expect(multipart.status).toBe(200);
    expect(multipart.body.data).toMatchObject({ title: 'Keep me', message: 'Keep me too', rating: 3 });
    const cleared = await t.http().put(`/api/v1/reviews/${review.id}`).set(auth).send({ title: null });
    expect(cleared.body.data).toMatchObject({ title: null, message: 'Keep me too' });
  });

  it('honours per_page on GET /reviews/sources', async () => {
    const w = await makeWorld();
    const res = await t.http().get('/api/v1/reviews/sources?per_page=1').set('Authorization', `Bearer ${w.tokens.owner}`);
    expect(res.body.meta.per_page).toBe(1);
    expect(res.body.data).toHaveLength(1);
    const bad = await t.http().get('/api/v1/reviews/sources?per_page=500').set('Authorization', `Bearer ${w.tokens.owner}`);
    expect(bad.status).toBe(422);
  });
});

describe('rate limits beyond the token budget', () => {
  const t = useApp({ rateLimit: 3 });

  it('limits /graphql with the same per-token budget', async () => {
    const { owner } = await makeTenant();
    const token = await tokenFor(owner, []);
    const statuses = [];
    for (let i = 0; i < 4; i++) {
      const res = await t.http().post('/graphql').set('Authorization', `Bearer ${token}`).send({ query: '{ me { id } }' });
      statuses.push(res.status);
    }
    expect(statuses).toEqual([200, 200, 200, 429]);
  });

  it('counts failed authentications per client address, whatever made-up token they carry', async () => {
    const statuses = [];
    for (let i = 0; i < 4; i++) {
      statuses.push((await t.http().get('/api/v1/me').set('Authorization', `Bearer rg_made-up-${i}-${Date.now()}`)).status);
    }
    expect(statuses).toEqual([401, 401, 401, 429]);
  });
});
