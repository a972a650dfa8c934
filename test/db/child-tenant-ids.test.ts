import { QueryTypes } from 'sequelize';
import { createMigrator } from '../../src/db/umzug';
import { BEFORE_CHILD_TENANT_MIGRATION, CHILD_TENANT_MIGRATION as MIGRATION, CHILDREN, expectTenantColumnRequired, tenantWithChildren } from '../support/child-tenant-ids';
import { rowInserter, useScratchDatabase } from '../support/db';

describe(`migration ${MIGRATION}`, () => {
  const { sequelize } = useScratchDatabase('child_tenants');
  const select = <T extends object>(sql: string, replacements: unknown[] = []) => sequelize.query<T>(sql, { replacements, type: QueryTypes.SELECT });

  const insert = rowInserter(sequelize);

  it('fills tenant_id of existing child rows from their parent, then makes it NOT NULL and indexed', async () => {
    const migrator = createMigrator(sequelize);
    await migrator.up({ to: BEFORE_CHILD_TENANT_MIGRATION });
    const [a, b] = [(await tenantWithChildren(insert)).tenant, (await tenantWithChildren(insert)).tenant];
    // A key whose token was deleted has no tenant to take: it is dropped (no request can use it again).
    await insert('idempotency_keys', { token_id: 999_999 });

    expect((await migrator.up()).map((m) => m.name)).toContain(MIGRATION);

    for (const { table } of CHILDREN) {
      const rows = await select<{ tenant_id: number }>(`SELECT tenant_id FROM ${table} ORDER BY tenant_id`);
      expect([table, rows.map((r) => r.tenant_id)]).toEqual([table, [a, b]]);
      await expectTenantColumnRequired(sequelize, table);
    }

    await migrator.down({ to: MIGRATION });
    for (const { table } of CHILDREN) {
      const columns = await select("SELECT 1 FROM information_schema.columns WHERE table_schema = DATABASE() AND table_name = ? AND column_name = 'tenant_id'", [table]);
      expect([table, columns.length]).toEqual([table, 0]);
    }
  });
});
