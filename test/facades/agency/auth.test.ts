import { ApiToken } from '../../../src/models';
import { hashToken, issueToken } from '../../../src/services/auth.service';
import { useApp } from '../../support/app';
import { agencyTokenFor, makeOrgOwner, makeTenant, tokenFor } from '../../support/factories';

describe('agency API: authentication and routing', () => {
  const t = useApp();

  it('answers 401 JSON without a token or with an unknown one', async () => {
    const none = await t.http().get('/api/agency/v1/customers');
    expect(none.status).toBe(401);
    expect(none.body).toEqual({ message: 'Unauthenticated.' });
    const unknown = await t.as('rg_not-a-real-token').get('/api/agency/v1/custom-plans');
    expect(unknown.status).toBe(401);
    expect(unknown.body.message).toEqual(expect.any(String));
  });

  it('answers 403 JSON to a customer token, even the tenant owner’s, and to an AI token', async () => {
    const { owner } = await makeTenant();
    for (const token of [await tokenFor(owner), await tokenFor(owner, ['mcp:access'], 'ai')]) {
      const res = await t.as(token).get('/api/agency/v1/customers');
      expect(res.status).toBe(403);
      expect(res.body).toMatchObject({ message: expect.any(String), code: 'wrong_token_kind' });
      expect((await t.as(token).post('/api/agency/v1/customers').send({})).status).toBe(403);
    }
  });

  it('lets only tenant owners hold agency tokens', async () => {
    const { tenant } = await makeTenant();
    const orgOwner = await makeOrgOwner(tenant.id);
    await expect(issueToken(orgOwner, { name: 'x', kind: 'agency', permissions: [] })).rejects.toMatchObject({
      code: 'VALIDATION',
      fields: { kind: ['Agency tokens can only be issued to a tenant owner.'] },
    });
    // Even a token row forged outside the issuing rules gets nowhere: the schema checks the role too.
    const secret = `rg_forged${Date.now()}`;
    await ApiToken.create({ tenantId: tenant.id, userId: orgOwner.id, name: 'forged', kind: 'agency', tokenHash: hashToken(secret), tokenPrefix: secret.slice(0, 10), permissions: [] });
    const res = await t.as(secret).get('/api/agency/v1/customers');
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('agency_token_required');
  });

  it('carries the REST rate-limit headers and answers unknown paths with a JSON 404', async () => {
    const { owner } = await makeTenant();
    const token = await agencyTokenFor(owner);
    const ok = await t.as(token).get('/api/agency/v1/custom-plans');
    expect(ok.status).toBe(200);
    expect(ok.headers['x-ratelimit-limit']).toEqual(expect.any(String));
    expect(ok.headers['x-ratelimit-remaining']).toEqual(expect.any(String));
    const missing = await t.as(token).get('/api/agency/v1/nothing-here');
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ message: 'Not found.' });
    // An agency token has no business on the customer API either.
    expect((await t.as(token).get('/api/v1/reviews')).status).toBe(403);
  });

  it('answers malformed JSON with a 422 JSON body, not HTML', async () => {
    const { owner } = await makeTenant();
    const res = await t
      .as(await agencyTokenFor(owner))
      .post('/api/agency/v1/customers')
      .set('Content-Type', 'application/json')
      .send('{"name": ');
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual({ body: ['The request body is not valid JSON.'] });
  });
});
