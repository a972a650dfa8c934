import { createHash, randomBytes } from 'node:crypto';
import { QueryTypes } from 'sequelize';
import { ApiToken } from '../../src/models';
import { purgeExpiredOAuthRows, UNUSED_CLIENT_TTL_S } from '../../src/oauth/adapter';
import { MAX_CLIENT_METADATA } from '../../src/oauth/provider';
import { useServedApp } from '../support/app';
import { oauthWorld, walkConsent } from './mcp-support';

/**
 * Dynamic client registration (RFC 7591, `/oauth/reg`): open, so bounded. Public clients only (no secret, no keys to
 * fetch), metadata of a bounded size, and a client nobody granted anything goes after UNUSED_CLIENT_TTL_S.
 */
describe('POST /oauth/reg', () => {
  const app = useServedApp();
  const redirectUri = 'http://127.0.0.1:7777/callback';

  const register = async (metadata: Record<string, unknown>) => {
    const res = await fetch(`${app.origin}/oauth/reg`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ client_name: 'Test Assistant', redirect_uris: [redirectUri], ...metadata }) });
    return { status: res.status, json: (await res.json()) as Record<string, string> };
  };
  const expiryOf = async (clientId: string) =>
    (
      await ApiToken.sequelize!.query<{ expiresAt: Date | null }>("SELECT expires_at AS expiresAt FROM oauth_models WHERE model = 'Client' AND id = ?", {
        replacements: [clientId],
        type: QueryTypes.SELECT,
      })
    )[0]?.expiresAt;

  it('registers public clients only: a client secret, client keys or a jwks_uri to fetch are refused', async () => {
    expect((await register({ token_endpoint_auth_method: 'none' })).status).toBe(201);
    expect((await register({})).json.token_endpoint_auth_method).toBe('none');
    for (const metadata of [
      { token_endpoint_auth_method: 'private_key_jwt', jwks_uri: 'https://keys.example/jwks.json' },
      { token_endpoint_auth_method: 'client_secret_basic' },
      { token_endpoint_auth_method: 'client_secret_post' },
      { token_endpoint_auth_method: 'none', jwks_uri: 'https://keys.example/jwks.json' },
      { token_endpoint_auth_method: 'none', jwks: { keys: [] } },
    ]) {
      const refused = await register(metadata);
      expect([metadata, refused.status, refused.json.error]).toEqual([metadata, 400, 'invalid_client_metadata']);
    }
    const meta = (await (await fetch(`${app.origin}/oauth/.well-known/openid-configuration`)).json()) as { token_endpoint_auth_methods_supported: string[] };
    expect(meta.token_endpoint_auth_methods_supported).toEqual(['none']);
  });

  it(`refuses metadata over ${MAX_CLIENT_METADATA} characters`, async () => {
    expect((await register({ client_name: 'x'.repeat(MAX_CLIENT_METADATA - 1024) })).status).toBe(201);
    const tooLarge = await register({ client_name: 'x'.repeat(MAX_CLIENT_METADATA) });
    expect([tooLarge.status, tooLarge.json.error]).toEqual([400, 'invalid_client_metadata']);
    const manyUris = await register({ redirect_uris: Array.from({ length: 400 }, (_, i) => `http://127.0.0.1:7777/callback/${i}`) });
    expect([manyUris.status, manyUris.json.error]).toEqual([400, 'invalid_client_metadata']);
  });

  it('lets a client nobody granted anything expire and purges it; a grant keeps its client as long as the grant lasts', async () => {
    const unused = (await register({})).json.client_id;
    const expiry = (await expiryOf(unused))!.getTime();
    expect(Math.abs(expiry - (Date.now() + UNUSED_CLIENT_TTL_S * 1000))).toBeLessThan(60_000);

    const w = await oauthWorld();
    const used = (await register({})).json.client_id;
    const challenge = createHash('sha256').update(randomBytes(32).toString('base64url')).digest('base64url');
    const q = new URLSearchParams({ client_id: used, response_type: 'code', redirect_uri: redirectUri, scope: 'mcp:access', code_challenge: challenge, code_challenge_method: 'S256' });
    const { redirect } = await walkConsent(app.origin, `${app.origin}/oauth/auth?${q}`, { email: w.owner.email, password: w.password, redirectUri });
    expect(redirect?.searchParams.get('code')).toEqual(expect.any(String));
    // The grant lasts a year: so does its client.
    expect((await expiryOf(used))!.getTime()).toBeGreaterThan(Date.now() + 360 * 24 * 3600 * 1000);

    // Past its expiry the unused client is unknown, and the purge deletes it.
    await ApiToken.sequelize!.query("UPDATE oauth_models SET expires_at = NOW(3) - INTERVAL 1 HOUR WHERE model = 'Client' AND id = ?", { replacements: [unused] });
    const auth = await fetch(`${app.origin}/oauth/auth?${new URLSearchParams({ client_id: unused, response_type: 'code', redirect_uri: redirectUri, code_challenge: challenge, code_challenge_method: 'S256' })}`, {
      headers: { accept: 'application/json' },
      redirect: 'manual',
    });
    expect([auth.status, ((await auth.json()) as { error: string }).error]).toEqual([400, 'invalid_client']);
    await purgeExpiredOAuthRows();
    expect(await expiryOf(unused)).toBeUndefined();
    expect(await expiryOf(used)).toEqual(expect.any(Date));
  });
});
