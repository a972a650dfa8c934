import { QueryTypes } from 'sequelize';
import { migrations } from '../../src/db/migrations';
import { createMigrator } from '../../src/db/umzug';
import { rowInserter, useScratchDatabase } from '../support/db';

const MIGRATION = '20261217000100-create-contact-opt-outs';

/**
 * Contacts unsubscribed before opt-outs existed keep their promise: the migration records their email and phone for
 * the organisation of their list, else each organisation whose campaigns use the list, else the whole account.
 */
describe(`migration ${MIGRATION}`, () => {
  const { sequelize } = useScratchDatabase('contact_opt_outs');
  const select = <T extends object>(sql: string, replacements: unknown[] = []) => sequelize.query<T>(sql, { replacements, type: QueryTypes.SELECT });

  const insert = rowInserter(sequelize);

  it('records the unsubscribed contacts of before for the organisations their unsubscribe page named', async () => {
    const migrator = createMigrator(sequelize);
    await migrator.up({ to: migrations[migrations.findIndex((m) => m.name === MIGRATION) - 1].name });
    const tenant = await insert('tenants', {});
    const customer = await insert('customers', { tenant_id: tenant, plan_id: null });
    const owner = { tenant_id: tenant, customer_id: customer };
    const [one, two] = [await insert('organizations', owner), await insert('organizations', owner)];
    const location = await insert('locations', { ...owner, organization_id: one });
    const contact = async (list: number, email: string, unsubscribed: boolean) =>
      insert('contacts', { ...owner, contact_list_id: list, email, phone: null, unsubscribed_at: unsubscribed ? new Date('2026-01-05T10:00:00Z') : null });
    const campaign = (organization: number, list: number) => insert('campaigns', { ...owner, organization_id: organization, location_id: location, contact_list_id: list, steps: '[]' });

    const own = await insert('contact_lists', { ...owner, organization_id: one });
    const shared = await insert('contact_lists', { ...owner, organization_id: null });
    await campaign(one, shared);
    await campaign(two, shared);
    const unused = await insert('contact_lists', { ...owner, organization_id: null });
    const a = await contact(own, 'a@example.test', true);
    const b = await contact(shared, 'b@example.test', true);
    const c = await contact(unused, 'c@example.test', true);
    await contact(own, 'still@example.test', false);

    expect((await migrator.up()).map((m) => m.name)).toContain(MIGRATION);
    const rows = await select<{ organization_id: number | null; email: string; contact_id: number; created_at: Date }>(
      'SELECT organization_id, email, contact_id, created_at FROM contact_opt_outs ORDER BY email, organization_id',
    );
    const at = new Date('2026-01-05T10:00:00Z');
    expect(rows).toEqual([
      { organization_id: one, email: 'a@example.test', contact_id: a, created_at: at },
      { organization_id: one, email: 'b@example.test', contact_id: b, created_at: at },
      { organization_id: two, email: 'b@example.test', contact_id: b, created_at: at },
      { organization_id: null, email: 'c@example.test', contact_id: c, created_at: at },
    ]);

    await migrator.down({ to: migrations[migrations.findIndex((m) => m.name === MIGRATION) - 1].name });
    expect(await select("SELECT 1 FROM information_schema.tables WHERE table_schema = DATABASE() AND table_name = 'contact_opt_outs'")).toEqual([]);
  });
});
