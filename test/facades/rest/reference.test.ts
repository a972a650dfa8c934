import countries from 'i18n-iso-countries';
import { ApiToken } from '../../../src/models';
import { useApp } from '../../support/app';
import { makeTenant, tokenFor } from '../../support/factories';

describe('reference data and identity', () => {
  const t = useApp();

  describe('GET /api/v1/me', () => {
    it('answers the token user as a bare object', async () => {
      const { owner } = await makeTenant();
      const res = await t.http().get('/api/v1/me').set('Authorization', `Bearer ${await tokenFor(owner, [])}`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ id: owner.id, name: owner.name, email: owner.email });
    });

    it.each([
      ['no header', undefined],
      ['an unknown token', 'Bearer rg_not-a-real-token'],
      ['a malformed header', 'Token abc'],
    ])('answers 401 JSON for %s', async (_label, header) => {
      const req = t.http().get('/api/v1/me');
      if (header) req.set('Authorization', header);
      const res = await req;
      expect(res.status).toBe(401);
      expect(res.headers['content-type']).toMatch(/application\/json/);
      expect(res.body).toEqual({ message: 'Unauthenticated.' });
    });

    it('answers 401 for a revoked token and for an expired one', async () => {
      const { owner } = await makeTenant();
      const revoked = await tokenFor(owner, []);
      await ApiToken.update({ revokedAt: new Date() }, { where: { userId: owner.id } });
      expect((await t.http().get('/api/v1/me').set('Authorization', `Bearer ${revoked}`)).status).toBe(401);

      const expiring = await tokenFor(owner, [], 'customer', new Date(Date.now() + 60_000));
      expect((await t.http().get('/api/v1/me').set('Authorization', `Bearer ${expiring}`)).status).toBe(200);
      await ApiToken.update({ expiresAt: new Date(Date.now() - 1000) }, { where: { userId: owner.id, revokedAt: null } });
      expect((await t.http().get('/api/v1/me').set('Authorization', `Bearer ${expiring}`)).status).toBe(401);
    });
  });

  describe('GET /api/v1/countries', () => {
    it('answers a bare array of every ISO 3166-1 alpha-2 country', async () => {
      const { owner } = await makeTenant();
      const res = await t.http().get('/api/v1/countries').set('Authorization', `Bearer ${await tokenFor(owner, [])}`);
      expect(res.status).toBe(200);
      expect(Array.isArray(res.body)).toBe(true);
      expect(res.body).toHaveLength(Object.keys(countries.getAlpha2Codes()).length);
      expect(res.body).toContainEqual({ id: 'DE', name: 'Germany' });
      for (const c of res.body) expect(Object.keys(c).sort()).toEqual(['id', 'name']);
    });
  });

  describe('GET /api/v1/sources', () => {
    it('answers the catalogue wrapped in data with absolute logo URLs', async () => {
      const { owner } = await makeTenant();
      const res = await t.http().get('/api/v1/sources').set('Authorization', `Bearer ${await tokenFor(owner, [])}`);
      expect(res.status).toBe(200);
      const google = res.body.data.find((s: { name: string }) => s.name === 'Google');
      expect(google).toEqual({
        id: expect.any(Number),
        name: 'Google',
        url: expect.stringMatching(/^https:\/\//),
        logo: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/assets\/sources\/google\.svg$/),
        available: true,
        can_collect_reviews: true,
        deep_linking_supported: true,
      });
      const logo = await t.http().get(new URL(google.logo).pathname);
      expect(logo.status).toBe(200);
      expect(logo.headers['content-type']).toMatch(/image\/svg\+xml/);
    });
  });
});
