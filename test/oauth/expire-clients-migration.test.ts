import { QueryTypes } from 'sequelize';
import { migrations } from '../../src/db/migrations';
import { createMigrator } from '../../src/db/umzug';
import { useScratchDatabase } from '../support/db';

const MIGRATION = '20261218000100-expire-unused-oauth-clients';
const DAY = 24 * 3600 * 1000;

describe(`migration ${MIGRATION}`, () => {
  const { sequelize } = useScratchDatabase('oauth_expire_clients');
  const insert = (model: string, id: string, payload: object, expiresAt: Date | null) =>
    sequelize.query('INSERT INTO oauth_models (model, id, payload, expires_at) VALUES (?, ?, ?, ?)', {
      replacements: [model, id, JSON.stringify(payload), expiresAt],
      type: QueryTypes.INSERT,
    });
  const expiryOf = async (id: string) =>
    (await sequelize.query<{ expiresAt: Date | null }>("SELECT expires_at AS expiresAt FROM oauth_models WHERE model = 'Client' AND id = ?", { replacements: [id], type: QueryTypes.SELECT }))[0].expiresAt;

  it('gives clients registered before unused clients expired the expiry of a client registered now, or of their latest grant', async () => {
    const migrator = createMigrator(sequelize);
    await migrator.up({ to: migrations[migrations.findIndex((m) => m.name === MIGRATION) - 1].name });
    const inAMonth = new Date(Date.now() + 30 * DAY);
    const dated = new Date(Date.now() + 2 * DAY);
    await insert('Client', 'unused', { client_id: 'unused' }, null);
    await insert('Client', 'granted', { client_id: 'granted' }, null);
    await insert('Grant', 'g-granted', { clientId: 'granted' }, inAMonth);
    await insert('Client', 'soon-granted', { client_id: 'soon-granted' }, null);
    await insert('Grant', 'g-soon', { clientId: 'soon-granted' }, new Date(Date.now() + DAY));
    await insert('Client', 'endless', { client_id: 'endless' }, null);
    await insert('Grant', 'g-endless', { clientId: 'endless' }, null);
    await insert('Client', 'new', { client_id: 'new' }, dated);

    expect((await migrator.up()).map((m) => m.name)).toContain(MIGRATION);

    const week = Date.now() + 7 * DAY;
    // Unused, or granted for less than a week: a week from now, as a new registration.
    for (const id of ['unused', 'soon-granted']) expect(Math.abs((await expiryOf(id))!.getTime() - week)).toBeLessThan(60_000);
    // As long as its latest grant; never, with a grant that never expires; a client that had an expiry keeps it.
    expect(Math.abs((await expiryOf('granted'))!.getTime() - inAMonth.getTime())).toBeLessThan(1_000);
    expect(await expiryOf('endless')).toBeNull();
    expect(Math.abs((await expiryOf('new'))!.getTime() - dated.getTime())).toBeLessThan(1_000);
  });
});
