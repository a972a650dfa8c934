import { publicBaseUrl } from '../../../src/config';
import { fixedClock } from '../../../src/domain/clock';
import { ConnectLink } from '../../../src/models';
import { useApp } from '../../support/app';
import { makeLocation, makeWorld, tokenFor } from '../../support/factories';

/** Connect links of the agency API (spec: Connect link, States > Connect link, Endpoints > Connect links). */
describe('connect links at /api/agency/v1/connect-links', () => {
  const clock = fixedClock(new Date('2026-11-23T10:00:00.000Z'));
  const t = useApp({ clock });
  const DAY = 24 * 60 * 60 * 1000;
  const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
  const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

  const api = (token: string) => ({
    get: (path: string) => t.http().get(`/api/agency/v1${path}`).set('Authorization', `Bearer ${token}`),
    post: (path: string, body?: object) => t.http().post(`/api/agency/v1${path}`).set('Authorization', `Bearer ${token}`).send(body ?? {}),
    delete: (path: string) => t.http().delete(`/api/agency/v1${path}`).set('Authorization', `Bearer ${token}`),
  });

  async function agency() {
    const w = await makeWorld();
    return { ...w, agency: api(await tokenFor(w.owner, [], 'agency')) };
  }

  beforeEach(() => clock.set(new Date('2026-11-23T10:00:00.000Z')));

  describe('POST /connect-links', () => {
    it('answers 201 {data} with an active link to {base_url}/connect/{token}, valid 7 days by default', async () => {
      const w = await agency();
      const res = await w.agency.post('/connect-links', { provider: 'google', location_id: w.home.id });
      expect(res.status).toBe(201);
      expect(res.body).toEqual({
        data: {
          token: expect.stringMatching(UUID),
          provider: 'google',
          location_id: w.home.id,
          connect_url: expect.any(String),
          status: 'active',
          expires_at: '2026-11-30T10:00:00.000Z',
          last_started_at: null,
          completed_oauth_at: null,
          used_at: null,
          revoked_at: null,
          created_at: '2026-11-23T10:00:00.000Z',
        },
      });
      expect(res.body.data.connect_url).toBe(`${publicBaseUrl()}/connect/${res.body.data.token}`);
      expect(res.body.data.expires_at).toMatch(ISO);
    });

    it('takes ttl_days from 1 to 30', async () => {
      const w = await agency();
      for (const days of [1, 30]) {
        const res = await w.agency.post('/connect-links', { provider: 'facebook', location_id: w.home.id, ttl_days: days });
        expect(res.status).toBe(201);
        expect(new Date(res.body.data.expires_at).getTime() - clock.now().getTime()).toBe(days * DAY);
      }
    });

    it.each([
      [{ provider: 'google', ttl_days: 0 }, 'ttl_days'],
      [{ provider: 'google', ttl_days: 31 }, 'ttl_days'],
      [{ provider: 'google', ttl_days: 'week' }, 'ttl_days'],
      [{ provider: 'google', ttl_days: 1.5 }, 'ttl_days'],
      [{ provider: 'twitter' }, 'provider'],
      [{}, 'provider'],
      [{ provider: 'google', location_id: null }, 'location_id'],
      [{ provider: 'google', location_id: 'one' }, 'location_id'],
    ])('answers 422 with field errors for %j', async (body, field) => {
      const w = await agency();
      const res = await w.agency.post('/connect-links', { location_id: w.home.id, ...body });
      expect(res.status).toBe(422);
      expect(res.body.message).toEqual(expect.any(String));
      expect(res.body.errors[field]).toEqual([expect.any(String)]);
      expect(await ConnectLink.count({ where: { tenantId: w.tenant.id } })).toBe(0);
    });

    it('answers 404 when the location does not exist in the tenant', async () => {
      const w = await agency();
      const other = await makeWorld();
      expect((await w.agency.post('/connect-links', { provider: 'google', location_id: other.home.id })).status).toBe(404);
      expect((await w.agency.post('/connect-links', { provider: 'google', location_id: 999999999 })).status).toBe(404);
    });

    it('answers 403 when the token is not a tenant owner agency token, 401 without a valid token', async () => {
      const w = await agency();
      const body = { provider: 'google', location_id: w.home.id };
      for (const token of [w.tokens.owner, w.tokens.orgOwner, w.tokens.member]) {
        expect((await api(token).post('/connect-links', body)).status).toBe(403);
        expect((await api(token).get('/connect-links')).status).toBe(403);
      }
      expect((await t.http().post('/api/agency/v1/connect-links').send(body)).status).toBe(401);
      expect((await api('rg_not-a-token').get('/connect-links')).status).toBe(401);
    });

    it('revokes the prior active link of the same location and provider, and no other', async () => {
      const w = await agency();
      const branchGoogle = (await w.agency.post('/connect-links', { provider: 'google', location_id: w.branch.id })).body.data;
      const first = (await w.agency.post('/connect-links', { provider: 'google', location_id: w.home.id })).body.data;
      const facebook = (await w.agency.post('/connect-links', { provider: 'facebook', location_id: w.home.id })).body.data;
      clock.advance(1000);
      const second = (await w.agency.post('/connect-links', { provider: 'google', location_id: w.home.id })).body.data;
      expect(second.status).toBe('active');
      const prior = (await w.agency.get(`/connect-links/${first.token}`)).body.data;
      expect(prior).toMatchObject({ status: 'revoked', revoked_at: '2026-11-23T10:00:01.000Z' });
      expect((await w.agency.get(`/connect-links/${facebook.token}`)).body.data.status).toBe('active');
      expect((await w.agency.get(`/connect-links/${branchGoogle.token}`)).body.data.status).toBe('active');
    });

    it('leaves used and expired prior links as they are', async () => {
      const w = await agency();
      const used = (await w.agency.post('/connect-links', { provider: 'google', location_id: w.home.id, ttl_days: 1 })).body.data;
      await ConnectLink.update({ usedAt: clock.now() }, { where: { token: used.token } });
      const expiring = (await w.agency.post('/connect-links', { provider: 'google', location_id: w.home.id, ttl_days: 1 })).body.data;
      clock.advance(2 * DAY);
      await w.agency.post('/connect-links', { provider: 'google', location_id: w.home.id });
      expect((await w.agency.get(`/connect-links/${used.token}`)).body.data).toMatchObject({ status: 'used', revoked_at: null });
      expect((await w.agency.get(`/connect-links/${expiring.token}`)).body.data).toMatchObject({ status: 'expired', revoked_at: null });
    });
  });

  describe('GET /connect-links', () => {
    it('lists the tenant\'s links newest first in the pagination envelope, 20 per page by default', async () => {
      const w = await agency();
      const made: string[] = [];
      for (let i = 0; i < 3; i++) {
        const loc = await makeLocation(w.org);
        made.push((await w.agency.post('/connect-links', { provider: 'google', location_id: loc.id })).body.data.token);
        clock.advance(1000);
      }
      await (await agency()).agency.post('/connect-links', { provider: 'google', location_id: (await makeWorld()).home.id }); // another tenant: 404, nothing made
      const res = await w.agency.get('/connect-links');
      expect(res.status).toBe(200);
      expect(res.body.data.map((l: { token: string }) => l.token)).toEqual([...made].reverse());
      expect(res.body.meta).toEqual({ current_page: 1, from: 1, last_page: 1, per_page: 20, to: 3, total: 3 });
      expect(res.body.links).toEqual({
        first: expect.stringMatching(/\/api\/agency\/v1\/connect-links\?page=1$/),
        last: expect.stringMatching(/page=1$/),
        prev: null,
        next: null,
      });
      const page2 = await w.agency.get('/connect-links?per_page=2&page=2');
      expect(page2.body.data.map((l: { token: string }) => l.token)).toEqual([made[0]]);
      expect(page2.body.meta).toMatchObject({ current_page: 2, last_page: 2, per_page: 2, total: 3, from: 3, to: 3 });
    });

    it('filters by location_id, provider and active (true, false, 1, 0)', async () => {
      const w = await agency();
      const home = (await w.agency.post('/connect-links', { provider: 'google', location_id: w.home.id })).body.data;
      const fb = (await w.agency.post('/connect-links', { provider: 'facebook', location_id: w.home.id, ttl_days: 1 })).body.data;
      const branch = (await w.agency.post('/connect-links', { provider: 'google', location_id: w.branch.id })).body.data;
      await w.agency.delete(`/connect-links/${branch.token}`);
      clock.advance(DAY); // the facebook link expires
      const tokens = async (q: string) => (await w.agency.get(`/connect-links?${q}`)).body.data.map((l: { token: string }) => l.token).sort();
      expect(await tokens(`location_id=${w.home.id}`)).toEqual([home.token, fb.token].sort());
      expect(await tokens('provider=facebook')).toEqual([fb.token]);
      expect(await tokens('active=true')).toEqual([home.token]);
      expect(await tokens('active=1')).toEqual([home.token]);
      expect(await tokens('active=false')).toEqual([fb.token, branch.token].sort());
      expect(await tokens('active=0')).toEqual([fb.token, branch.token].sort());
      expect(await tokens(`active=true&location_id=${w.branch.id}`)).toEqual([]);
    });

    it.each([
      ['active=yes', 'active'],
      ['per_page=0', 'per_page'],
      ['per_page=101', 'per_page'],
      ['page=0', 'page'],
      ['location_id=abc', 'location_id'],
      ['provider=twitter', 'provider'],
    ])('answers 422 for %s', async (q, field) => {
      const w = await agency();
      const res = await w.agency.get(`/connect-links?${q}`);
      expect(res.status).toBe(422);
      expect(Object.keys(res.body.errors)).toEqual([field]);
    });
  });

  describe('GET /connect-links/{token}', () => {
    it('answers 200 {data}; 404 for an unknown token, a malformed one, or another tenant\'s', async () => {
      const w = await agency();
      const link = (await w.agency.post('/connect-links', { provider: 'google', location_id: w.home.id })).body.data;
      const res = await w.agency.get(`/connect-links/${link.token}`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ data: link });
      expect((await w.agency.get('/connect-links/00000000-0000-4000-8000-000000000000')).status).toBe(404);
      expect((await w.agency.get('/connect-links/not-a-token')).status).toBe(404);
      const other = await agency();
      const res404 = await other.agency.get(`/connect-links/${link.token}`);
      expect(res404.status).toBe(404);
      expect(res404.body).toEqual({ message: expect.any(String) });
      expect((await other.agency.delete(`/connect-links/${link.token}`)).status).toBe(404);
    });

    it('shows the lifecycle: completed_oauth_at keeps it active, used_at makes it used, expires_at passing makes it expired', async () => {
      const w = await agency();
      const link = (await w.agency.post('/connect-links', { provider: 'google', location_id: w.home.id, ttl_days: 2 })).body.data;
      const get = async () => (await w.agency.get(`/connect-links/${link.token}`)).body.data;
      await ConnectLink.update({ lastStartedAt: clock.now(), completedOauthAt: clock.now() }, { where: { token: link.token } });
      expect(await get()).toMatchObject({ status: 'active', last_started_at: '2026-11-23T10:00:00.000Z', completed_oauth_at: '2026-11-23T10:00:00.000Z' });
      clock.advance(2 * DAY - 1);
      expect((await get()).status).toBe('active');
      clock.advance(1);
      expect((await get()).status).toBe('expired');
      await ConnectLink.update({ usedAt: new Date('2026-11-24T00:00:00.000Z') }, { where: { token: link.token } });
      expect(await get()).toMatchObject({ status: 'used', used_at: '2026-11-24T00:00:00.000Z' });
    });
  });

  describe('DELETE /connect-links/{token}', () => {
    it('revokes an active link: 200 {data} with status revoked and revoked_at; again is a no-op', async () => {
      const w = await agency();
      const link = (await w.agency.post('/connect-links', { provider: 'google', location_id: w.home.id })).body.data;
      clock.advance(5000);
      const res = await w.agency.delete(`/connect-links/${link.token}`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ data: { ...link, status: 'revoked', revoked_at: '2026-11-23T10:00:05.000Z' } });
      clock.advance(5000);
      const again = await w.agency.delete(`/connect-links/${link.token}`);
      expect(again.status).toBe(200);
      expect(again.body).toEqual(res.body);
    });

    it('leaves a used link unchanged (200, current state)', async () => {
      const w = await agency();
      const link = (await w.agency.post('/connect-links', { provider: 'facebook', location_id: w.home.id })).body.data;
      await ConnectLink.update({ usedAt: clock.now() }, { where: { token: link.token } });
      const res = await w.agency.delete(`/connect-links/${link.token}`);
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({ status: 'used', used_at: '2026-11-23T10:00:00.000Z', revoked_at: null });
    });

    it('leaves an expired link expired (200, revoked_at stays null)', async () => {
      const w = await agency();
      const link = (await w.agency.post('/connect-links', { provider: 'google', location_id: w.home.id, ttl_days: 1 })).body.data;
      clock.advance(DAY);
      const res = await w.agency.delete(`/connect-links/${link.token}`);
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({ status: 'expired', revoked_at: null });
    });

    it('answers 404 for an unknown token', async () => {
      const w = await agency();
      expect((await w.agency.delete('/connect-links/00000000-0000-4000-8000-000000000000')).status).toBe(404);
    });
  });
});
