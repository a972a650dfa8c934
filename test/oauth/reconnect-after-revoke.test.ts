import { QueryTypes } from 'sequelize';
import { ApiToken } from '../../src/models';
import { useServedApp } from '../support/app';
import { tokenFor } from '../support/factories';
import { connect, mcpStatus, register } from './connect-support';
import { Browser, oauthWorld } from './mcp-support';

const db = () => ApiToken.sequelize!;

/**
 * Connecting an MCP client again, in the same browser, after its authorization was revoked (by the user's revoke
 * button, `DELETE /api/v1/ai-authorizations/{id}`, or by the client at `/oauth/token/revocation`). The browser's
 * session still names the old grant; a grant that outlived its revoked authorization was found through it, so no
 * consent page came, a code was issued at once, and its tokens got 401 from the MCP endpoint for ever. Now the user
 * consents again, and the new tokens work.
 */
describe('MCP OAuth: connecting again after a revocation', () => {
  const app = useServedApp();

  async function authorizations(userId: number) {
    return db().query<{ id: number; grantId: string; revokedAt: Date | null }>(
      'SELECT id, grant_id AS grantId, revoked_at AS revokedAt FROM mcp_authorizations WHERE user_id = ? ORDER BY id',
      { replacements: [userId], type: QueryTypes.SELECT },
    );
  }

  const grantRows = (grantId: string) =>
    db().query<{ id: string }>("SELECT id FROM oauth_models WHERE model = 'Grant' AND id = ?", { replacements: [grantId], type: QueryTypes.SELECT });

  /** Connects once in a new browser (sign-in and consent), the token working; returns the browser for the second time. */
  async function firstConnection() {
    const w = await oauthWorld();
    const client = await register(app.origin);
    const browser = new Browser();
    const first = await connect(app.origin, browser, { clientId: client.client_id, email: w.owner.email, password: w.password });
    expect(first.pages).toEqual(['sign-in', 'consent']);
    expect(first.issued.status).toBe(200);
    expect(await mcpStatus(app.origin, first.issued.json.access_token)).toBe(200);
    const [authorization] = await authorizations(w.owner.id);
    return { w, client, browser, first, authorization };
  }

  /** The second connection in the same browser: the consent page again (no sign-in: the session is still there), and a token that works. */
  async function expectFreshConsent(ctx: Awaited<ReturnType<typeof firstConnection>>) {
    expect(await mcpStatus(app.origin, ctx.first.issued.json.access_token)).toBe(401);
    const second = await connect(app.origin, ctx.browser, { clientId: ctx.client.client_id, email: ctx.w.owner.email, password: ctx.w.password });
    expect(second.pages).toEqual(['consent']);
    expect(second.issued.status).toBe(200);
    expect(await mcpStatus(app.origin, second.issued.json.access_token)).toBe(200);
    // A new authorization (a new grant and AI token) next to the revoked one.
    const rows = await authorizations(ctx.w.owner.id);
    expect(rows).toEqual([
      { id: ctx.authorization.id, grantId: ctx.authorization.grantId, revokedAt: expect.any(Date) },
      { id: expect.any(Number), grantId: expect.not.stringMatching(`^${ctx.authorization.grantId}$`), revokedAt: null },
    ]);
    // The refresh token of the new grant works too; the old one does not.
    const refresh = async (refreshToken: string) =>
      (await fetch(`${app.origin}/oauth/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: refreshToken, client_id: ctx.client.client_id }).toString(),
      })).status;
    expect(await refresh(ctx.first.issued.json.refresh_token)).toBe(400);
    expect(await refresh(second.issued.json.refresh_token)).toBe(200);
  }

  it('asks for consent again after the revoke button (DELETE /api/v1/ai-authorizations/{id}), and the new token works', async () => {
    const ctx = await firstConnection();
    const manager = await tokenFor(ctx.w.owner, ['organizations:read', 'organizations:update']);
    const revoked = await fetch(`${app.origin}/api/v1/ai-authorizations/${ctx.authorization.id}`, { method: 'DELETE', headers: { authorization: `Bearer ${manager}` } });
    expect(revoked.status).toBe(200);
    await expectFreshConsent(ctx);
    // The grant went with the authorization.
    expect(await grantRows(ctx.authorization.grantId)).toEqual([]);
  });

  it.each(['access_token', 'refresh_token'])('asks for consent again after the client revokes its %s at /oauth/token/revocation, and the new token works', async (kind) => {
    const ctx = await firstConnection();
    const res = await fetch(`${app.origin}/oauth/token/revocation`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token: ctx.first.issued.json[kind], token_type_hint: kind, client_id: ctx.client.client_id }).toString(),
    });
    expect(res.status).toBe(200);
    expect((await authorizations(ctx.w.owner.id))[0].revokedAt).toEqual(expect.any(Date));
    await expectFreshConsent(ctx);
    expect(await grantRows(ctx.authorization.grantId)).toEqual([]);
  });

  it('asks for consent again when a revocation from before left the grant stored (its authorization revoked, its tokens gone)', async () => {
    const ctx = await firstConnection();
    // What a revocation did before: the grant's tokens deleted and the authorization and its AI token revoked, the
    // Grant's own row kept.
    await db().query('DELETE FROM oauth_models WHERE grant_id = ?', { replacements: [ctx.authorization.grantId], type: QueryTypes.DELETE });
    await db().query(
      'UPDATE mcp_authorizations a JOIN api_tokens t ON t.id = a.api_token_id SET a.revoked_at = NOW(3), t.revoked_at = NOW(3) WHERE a.grant_id = ?',
      { replacements: [ctx.authorization.grantId], type: QueryTypes.UPDATE },
    );
    expect(await grantRows(ctx.authorization.grantId)).toEqual([{ id: ctx.authorization.grantId }]);
    await expectFreshConsent(ctx);
  });

  it('asks for consent again while the authorization stands (the session remembers the grant), and keeps the grant', async () => {
    const ctx = await firstConnection();
    const again = await connect(app.origin, ctx.browser, { clientId: ctx.client.client_id, email: ctx.w.owner.email, password: ctx.w.password });
    expect(again.pages).toEqual(['consent']);
    expect(again.issued.status).toBe(200);
    expect(await mcpStatus(app.origin, again.issued.json.access_token)).toBe(200);
    expect(await authorizations(ctx.w.owner.id)).toEqual([{ id: ctx.authorization.id, grantId: ctx.authorization.grantId, revokedAt: null }]);
  });
});
