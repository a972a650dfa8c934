import { QueryTypes } from 'sequelize';
import { createMigrator } from '../../src/db/umzug';
import {
  BEFORE_CHILD_TENANT_MIGRATION as BEFORE,
  CHILD_TENANT_MIGRATION as MIGRATION,
  CHILDREN,
  expectTenantColumnRequired,
  tenantWithChildren,
} from '../support/child-tenant-ids';
import { rowInserter, useScratchDatabase } from '../support/db';

/**
 * The migration runs while the previous release still serves (docker compose's migrate job during a rolling upgrade),
 * and that release inserts child rows without `tenant_id`. A run that stopped part-way (DDL commits on its own) must
 * succeed when run again, and rows inserted between the fill and the NOT NULL must not fail it.
 */
describe(`migration ${MIGRATION}: re-runnable during a rolling upgrade`, () => {
  const { sequelize } = useScratchDatabase('child_tenants_rerun');
  const select = <T extends object>(sql: string, replacements: unknown[] = []) => sequelize.query<T>(sql, { replacements, type: QueryTypes.SELECT });
  const run = (sql: string) => sequelize.query(sql, { type: QueryTypes.RAW });
  const insert = rowInserter(sequelize);
  const showCreate = async (table: string) => (await select<{ 'Create Table': string }>(`SHOW CREATE TABLE ${table}`))[0]['Create Table'];

  /** The migrator, with every migration before this one applied (a test before left the database there, or none ran yet). */
  async function migratedToBefore() {
    const migrator = createMigrator(sequelize);
    if ((await migrator.pending()).some((m) => m.name === BEFORE)) await migrator.up({ to: BEFORE });
    expect((await migrator.executed()).map((m) => m.name).pop()).toBe(BEFORE);
    return migrator;
  }

  /** Every child row has its parent's tenant, the column is NOT NULL and has its one index. */
  async function expectFilledAndRequired(): Promise<void> {
    for (const { table, parent } of CHILDREN) {
      const [{ total }] = await select<{ total: number }>(`SELECT COUNT(*) AS total FROM ${table}`);
      const rows = await select<{ got: number | null; want: number }>(`SELECT c.tenant_id AS got, p.tenant_id AS want FROM ${table} c ${parent}`);
      expect([table, rows.length]).toEqual([table, Number(total)]);
      expect([table, rows.filter((r) => r.got !== r.want)]).toEqual([table, []]);
      await expectTenantColumnRequired(sequelize, table);
    }
  }

  it('gives a fresh database the same tables as the statements it ran before it was made re-runnable', async () => {
    const migrator = await migratedToBefore();
    // The migration as it was: ADD COLUMN, fill, NOT NULL with the index, per table.
    for (const { table, after, parent } of CHILDREN) {
      await run(`ALTER TABLE ${table} ADD COLUMN tenant_id INT UNSIGNED NULL AFTER ${after}`);
      await run(`UPDATE ${table} c ${parent} SET c.tenant_id = p.tenant_id`);
      await run(`ALTER TABLE ${table} MODIFY tenant_id INT UNSIGNED NOT NULL, ADD KEY ${table}_tenant (tenant_id)`);
    }
    const expected = new Map<string, string>();
    for (const { table } of CHILDREN) expected.set(table, await showCreate(table));
    for (const { table } of CHILDREN) await run(`ALTER TABLE ${table} DROP KEY ${table}_tenant, DROP COLUMN tenant_id`);

    expect((await migrator.up({ to: MIGRATION })).map((m) => m.name)).toEqual([MIGRATION]);
    for (const { table } of CHILDREN) expect([table, await showCreate(table)]).toEqual([table, expected.get(table)]);

    await migrator.down({ to: MIGRATION });
  });

  it('completes a run that stopped part-way: a table done, one with its column added and rows still NULL', async () => {
    const migrator = await migratedToBefore();
    const [a, b] = [await tenantWithChildren(insert), await tenantWithChildren(insert)];
    await insert('idempotency_keys', { token_id: 999_999 }); // its token is gone: dropped, as before

    // What a first run left that stopped in location_user (its NOT NULL failed, or the process died): organization_members
    // done, location_user with the column, filled in part (one tenant's rows), and a row of the old release without it.
    await run('ALTER TABLE organization_members ADD COLUMN tenant_id INT UNSIGNED NULL AFTER user_id');
    await run('UPDATE organization_members c JOIN organizations p ON p.id = c.organization_id SET c.tenant_id = p.tenant_id');
    await run('ALTER TABLE organization_members MODIFY tenant_id INT UNSIGNED NOT NULL, ADD KEY organization_members_tenant (tenant_id)');
    await run('ALTER TABLE location_user ADD COLUMN tenant_id INT UNSIGNED NULL AFTER user_id');
    await run('UPDATE location_user c JOIN locations p ON p.id = c.location_id SET c.tenant_id = p.tenant_id WHERE p.tenant_id = ' + a.tenant);
    const user = await insert('users', { tenant_id: b.tenant, customer_id: b.customer, role: 'team_member' });
    await insert('location_user', { location_id: b.location, user_id: user });
    expect(await select('SELECT 1 FROM location_user WHERE tenant_id IS NULL')).toHaveLength(2);

    expect((await migrator.up()).map((m) => m.name)).toContain(MIGRATION);
    await expectFilledAndRequired();
    expect((await select<{ tenant_id: number }>('SELECT tenant_id FROM location_user WHERE user_id = ?', [user]))[0].tenant_id).toBe(b.tenant);
    expect(await select('SELECT 1 FROM idempotency_keys WHERE token_id = 999999')).toEqual([]);

    await migrator.down({ to: MIGRATION });
  });

  it('fills the rows the old release inserts after the fill, right up to the NOT NULL', async () => {
    const migrator = await migratedToBefore();
    const parents = await tenantWithChildren(insert);

    // The old release inserts a child row without tenant_id right after a table's fill, and another right before
    // its NOT NULL (another connection, as the API's would be).
    const inserted: string[] = [];
    const oldRelease: Record<string, () => Promise<number>> = {
      scan_pins: () => insert('scan_pins', { scan_id: parents.scan, row: 10 + inserted.length }), // a position of its own
      invite_messages: () => insert('invite_messages', { invite_id: parents.invite, step_index: 10 + inserted.length }),
    };
    let busy = false;
    const race = async (sql: string, pattern: RegExp) => {
      const table = pattern.exec(sql)?.[1];
      if (busy || !table || !oldRelease[table] || inserted.includes(`${pattern.source}:${table}`)) return;
      busy = true;
      try {
        inserted.push(`${pattern.source}:${table}`);
        await oldRelease[table]();
      } finally {
        busy = false;
      }
    };
    const query = sequelize.query.bind(sequelize) as (sql: string, options?: object) => Promise<unknown>;
    const spy = jest.spyOn(sequelize, 'query').mockImplementation((async (sql: string, options?: object) => {
      await race(sql, /^ALTER TABLE (\w+) MODIFY/);
      const result = await query(sql, options);
      await race(sql, /^UPDATE (\w+) c JOIN/);
      return result;
    }) as never);
    try {
      expect((await migrator.up({ to: MIGRATION })).map((m) => m.name)).toEqual([MIGRATION]);
    } finally {
      spy.mockRestore();
    }
    expect(inserted.sort()).toEqual(['^ALTER TABLE (\\w+) MODIFY:invite_messages', '^ALTER TABLE (\\w+) MODIFY:scan_pins', '^UPDATE (\\w+) c JOIN:invite_messages', '^UPDATE (\\w+) c JOIN:scan_pins']);
    await expectFilledAndRequired();
    // Its own row and the old release's two, each with the parent's tenant (expectFilledAndRequired).
    expect(await select('SELECT 1 FROM scan_pins WHERE scan_id = ?', [parents.scan])).toHaveLength(3);
    expect(await select('SELECT 1 FROM invite_messages WHERE invite_id = ?', [parents.invite])).toHaveLength(3);

    await migrator.down({ to: MIGRATION });
  });
});
