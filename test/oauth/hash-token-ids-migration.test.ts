import { QueryTypes } from 'sequelize';
import { migrations } from '../../src/db/migrations';
import { createMigrator } from '../../src/db/umzug';
import { hashOAuthId } from '../../src/oauth/adapter';
import { useScratchDatabase } from '../support/db';

const MIGRATION = '20261215000100-hash-oauth-token-ids';

describe(`migration ${MIGRATION}`, () => {
  const { sequelize } = useScratchDatabase('oauth_hash');
  const rows = () =>
    sequelize.query<{ model: string; id: string; payload: string; grantId: string | null }>('SELECT model, id, payload, grant_id AS grantId FROM oauth_models ORDER BY model', {
      type: QueryTypes.SELECT,
    });

  it("rekeys the rows of tokens and codes by the hash the adapter looks them up by, drops the value from their payload, and leaves the other models' rows as they are", async () => {
    const migrator = createMigrator(sequelize);
    await migrator.up({ to: migrations[migrations.findIndex((m) => m.name === MIGRATION) - 1].name });
    const plain = ['AccessToken', 'AuthorizationCode', 'RefreshToken', 'RegistrationAccessToken', 'PushedAuthorizationRequest', 'Session', 'Interaction', 'Grant', 'Client'];
    for (const model of plain) {
      const id = `${model}-Value_${'aB'.repeat(20)}`;
      await sequelize.query('INSERT INTO oauth_models (model, id, payload, grant_id) VALUES (?, ?, ?, ?)', {
        replacements: [model, id, JSON.stringify({ iat: 1, jti: id, kind: model, grantId: 'g1' }), 'g1'],
        type: QueryTypes.INSERT,
      });
    }

    expect((await migrator.up()).map((m) => m.name)).toContain(MIGRATION);

    const after = new Map((await rows()).map((r) => [r.model, r]));
    for (const model of plain) {
      const id = `${model}-Value_${'aB'.repeat(20)}`;
      const row = after.get(model)!;
      const hashed = !['Session', 'Interaction', 'Grant', 'Client'].includes(model);
      expect([model, row.id]).toEqual([model, hashed ? hashOAuthId(id) : id]);
      expect(JSON.parse(row.payload)).toEqual(hashed ? { iat: 1, kind: model, grantId: 'g1' } : { iat: 1, jti: id, kind: model, grantId: 'g1' });
      expect(row.grantId).toBe('g1');
    }

    // Down: the older code could find none of the hashed rows; they go, the rest stay.
    await migrator.down({ to: MIGRATION });
    expect((await rows()).map((r) => r.model).sort()).toEqual(['Client', 'Grant', 'Interaction', 'Session']);
  });
});
