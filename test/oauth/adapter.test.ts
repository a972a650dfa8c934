import { QueryTypes } from 'sequelize';
import { ApiToken } from '../../src/models';
import { OAuthAdapter, PURGE_EVERY, purgeExpiredOAuthRows } from '../../src/oauth/adapter';
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
