import { QueryTypes } from 'sequelize';
import { migrations } from '../../src/db/migrations';
import { createMigrator } from '../../src/db/umzug';
import { useScratchDatabase } from '../support/db';

const MIGRATION = '20261213000100-normalize-user-emails';

describe(`migration ${MIGRATION}`, () => {
  const { sequelize } = useScratchDatabase('nfc_emails');
  const select = <T extends object>(sql: string, replacements: unknown[] = []) => sequelize.query<T>(sql, { replacements, type: QueryTypes.SELECT });
  const insert = async (sql: string, replacements: unknown[]) => Number((await sequelize.query(sql, { replacements, type: QueryTypes.INSERT }))[0]);

  it('rewrites users\' and customers\' emails stored in decomposed form to NFC and leaves the others as they are', async () => {
    const migrator = createMigrator(sequelize);
    await migrator.up({ to: migrations[migrations.findIndex((m) => m.name === MIGRATION) - 1].name });
    const composed = 'ren\u00e9@example.test';
    const decomposed = composed.normalize('NFD');
    const tenant = await insert("INSERT INTO tenants (name, brand_name, created_at, updated_at) VALUES ('T', 'T', NOW(), NOW())", []);
    const customer = await insert("INSERT INTO customers (tenant_id, name, email, created_at, updated_at) VALUES (?, 'C', ?, NOW(), NOW())", [tenant, decomposed]);
    const user = await insert(
      "INSERT INTO users (tenant_id, customer_id, email, name, role, created_at, updated_at) VALUES (?, ?, ?, 'U', 'organization_owner', NOW(), NOW())",
      [tenant, customer, decomposed],
    );
    const ascii = await insert(
      "INSERT INTO users (tenant_id, customer_id, email, name, role, created_at, updated_at) VALUES (?, ?, 'plain@example.test', 'P', 'team_member', NOW(), NOW())",
      [tenant, customer],
    );

    expect((await migrator.up()).map((m) => m.name)).toContain(MIGRATION);

    const emails = async (table: string, id: number) => (await select<{ email: string }>(`SELECT email FROM ${table} WHERE id = ?`, [id]))[0].email;
    expect(await emails('users', user)).toBe(composed);
    expect(await emails('customers', customer)).toBe(composed);
    expect(await emails('users', ascii)).toBe('plain@example.test');
  });
});
