import { QueryTypes } from 'sequelize';
import { ApiToken } from '../../src/models';
import { findAccessToken, hashOAuthId, OAuthAdapter, PURGE_EVERY, purgeExpiredOAuthRows } from '../../src/oauth/adapter';
import { useDatabase } from '../support/db';

/** oidc-provider's store on MariaDB (src/oauth/adapter.ts): what it finds, consumes, revokes and purges. */
describe('OAuth adapter', () => {
  useDatabase();
  const count = async (model: string) =>
    Number(((await ApiToken.sequelize!.query('SELECT COUNT(*) AS n FROM oauth_models WHERE model = ?', { replacements: [model], type: QueryTypes.SELECT })) as { n: number }[])[0].n);

  it('finds live rows by id, uid and user code, marks consumption, and revokes by grant', async () => {
    const codes = new OAuthAdapter('AuthorizationCode');
    await codes.upsert('c1', { grantId: 'g1', uid: 'u1', userCode: 'UC1', accountId: '7' }, 60);
    expect(await codes.find('c1')).toMatchObject({ grantId: 'g1', accountId: '7' });
    expect(await codes.findByUid('u1')).toMatchObject({ grantId: 'g1' });
    expect(await codes.findByUserCode('UC1')).toMatchObject({ grantId: 'g1' });
    await codes.consume('c1');
    expect((await codes.find('c1'))?.consumed).toEqual(expect.any(Number));
    await new OAuthAdapter('AccessToken').upsert('a1', { grantId: 'g1' }, 60);
    await codes.revokeByGrantId('g1');
    expect(await codes.find('c1')).toBeUndefined();
    expect(await new OAuthAdapter('AccessToken').find('a1')).toBeUndefined();
  });

  // Rows of one model with a grant id or id of this test's: earlier test files of this Jest worker signed clients in
  // on the same database.
  const rowsOf = async (model: string, where: { grantId: string } | { id: string }) =>
    (await ApiToken.sequelize!.query(
      `SELECT id, payload, consumed_at AS consumedAt FROM oauth_models WHERE model = ? AND ${'grantId' in where ? 'grant_id' : 'id'} = ?`,
      { replacements: [model, 'grantId' in where ? where.grantId : where.id], type: QueryTypes.SELECT },
    )) as {
      id: string;
      payload: string;
      consumedAt: Date | null;
    }[];

  it('stores tokens and codes under the SHA-256 of their value, without the value, and finds, consumes and destroys them by it', async () => {
    for (const model of ['AccessToken', 'RefreshToken', 'AuthorizationCode', 'RegistrationAccessToken', 'PushedAuthorizationRequest']) {
      const value = `${model}-${'x'.repeat(43)}`;
      const store = new OAuthAdapter(model);
      await store.upsert(value, { jti: value, kind: model, grantId: `g-${model}`, accountId: '7' }, 60);
      const rows = await rowsOf(model, { grantId: `g-${model}` });
      expect(rows).toHaveLength(1);
      const [row] = rows;
      expect(row.id).toBe(hashOAuthId(value));
      expect(row.payload).not.toContain(value);
      expect(await store.find(value)).toMatchObject({ jti: value, kind: model, accountId: '7' });
      expect(await store.find(row.id)).toBeUndefined();
      await store.destroy(value);
      expect(await rowsOf(model, { grantId: `g-${model}` })).toEqual([]);
    }
    const tokens = new OAuthAdapter('RefreshToken');
    await tokens.upsert('r-1', { jti: 'r-1', grantId: 'g-r' }, 60);
    await tokens.consume('r-1');
    expect((await tokens.find('r-1'))?.consumed).toEqual(expect.any(Number));
    await new OAuthAdapter('AccessToken').upsert('a-1', { jti: 'a-1', grantId: 'g-r' }, 60);
    expect(await findAccessToken('a-1')).toMatchObject({ jti: 'a-1', grantId: 'g-r' });
    await tokens.revokeByGrantId('g-r');
    expect([await tokens.find('r-1'), await findAccessToken('a-1')]).toEqual([undefined, null]);
  });

  it('keeps sessions, interactions, grants and clients under their ids (their cookies are signed; the others are no credentials)', async () => {
    for (const model of ['Session', 'Interaction', 'Grant', 'Client']) {
      await new OAuthAdapter(model).upsert(`${model}-id`, { jti: `${model}-id` }, 60);
      expect((await rowsOf(model, { id: `${model}-id` })).map((r) => [r.id, JSON.parse(r.payload).jti])).toEqual([[`${model}-id`, `${model}-id`]]);
    }
  });

  it('answers a second consume of a refresh token or code as a replay: invalid_grant, and the grant revoked with its own row', async () => {
    for (const [model, message] of [
      ['RefreshToken', 'refresh token already used'],
      ['AuthorizationCode', 'authorization code already consumed'],
    ]) {
      const grantId = `replayed-${model}`;
      const store = new OAuthAdapter(model);
      await store.upsert('once', { jti: 'once', grantId }, 60);
      await new OAuthAdapter('AccessToken').upsert(`at-${model}`, { jti: `at-${model}`, grantId }, 60);
      await new OAuthAdapter('Grant').upsert(grantId, { jti: grantId }, 60);
      const results = await Promise.allSettled([store.consume('once'), store.consume('once')]);
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
      const [refused] = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
      expect(refused.reason).toMatchObject({ message: 'invalid_grant', error_detail: message, statusCode: 400 });
      expect(await store.find('once')).toBeUndefined();
      expect(await findAccessToken(`at-${model}`)).toBeNull();
      expect(await new OAuthAdapter('Grant').find(grantId)).toBeUndefined();
    }
  });

  it('treats expired rows as absent and purges them, leaving live and unexpiring ones', async () => {
    const tokens = new OAuthAdapter('PurgeProbe');
    await tokens.upsert('live', { grantId: 'g' }, 3600);
    await tokens.upsert('forever', { grantId: 'g' });
    await tokens.upsert('old', { grantId: 'g' }, 1);
    await ApiToken.sequelize!.query("UPDATE oauth_models SET expires_at = NOW(3) - INTERVAL 1 HOUR WHERE model = 'PurgeProbe' AND id = 'old'");
    expect(await tokens.find('old')).toBeUndefined();
    expect(await purgeExpiredOAuthRows()).toBeGreaterThanOrEqual(1);
    expect(await count('PurgeProbe')).toBe(2);
    expect(await tokens.find('live')).toBeDefined();
  });

  it('purges on its own every PURGE_EVERY writes', async () => {
    const probe = new OAuthAdapter('SelfPurge');
    await probe.upsert('old', {}, 1);
    await ApiToken.sequelize!.query("UPDATE oauth_models SET expires_at = NOW(3) - INTERVAL 1 HOUR WHERE model = 'SelfPurge' AND id = 'old'");
    for (let i = 0; i < PURGE_EVERY; i++) await probe.upsert(`w${i % 3}`, {}, 3600);
    expect(await count('SelfPurge')).toBe(3);
  });
});
