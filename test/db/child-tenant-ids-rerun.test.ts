import { QueryTypes } from 'sequelize';
import { migrations } from '../../src/db/migrations';
import { createMigrator } from '../../src/db/umzug';
import { rowInserter, useScratchDatabase } from '../support/db';

const MIGRATION = '20261209000100-add-child-tenant-ids';
const BEFORE = migrations[migrations.findIndex((m) => m.name === MIGRATION) - 1].name;
/** Each child table with the join that gives its parent's tenant (`p.tenant_id`), as the migration fills it. */
const CHILDREN: ReadonlyArray<{ table: string; after: string; parent: string }> = [
  { table: 'organization_members', after: 'user_id', parent: 'JOIN organizations p ON p.id = c.organization_id' },
  { table: 'location_user', after: 'user_id', parent: 'JOIN locations p ON p.id = c.location_id' },
  { table: 'webhook_attempts', after: 'id', parent: 'JOIN webhook_deliveries p ON p.id = c.delivery_id' },
  { table: 'nfc_order_items', after: 'id', parent: 'JOIN nfc_orders p ON p.id = c.order_id' },
  { table: 'scan_pins', after: 'id', parent: 'JOIN scans p ON p.id = c.scan_id' },
  { table: 'scan_snapshots', after: 'id', parent: 'JOIN scans p ON p.id = c.scan_id' },
  { table: 'scan_results', after: 'id', parent: 'JOIN scan_snapshots s ON s.id = c.snapshot_id JOIN scans p ON p.id = s.scan_id' },
  { table: 'invite_messages', after: 'id', parent: 'JOIN invites p ON p.id = c.invite_id' },
  { table: 'inbound_submissions', after: 'id', parent: 'JOIN inbound_connections p ON p.id = c.connection_id' },
  { table: 'idempotency_keys', after: 'id', parent: 'JOIN api_tokens p ON p.id = c.token_id' },
];

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

  /** One tenant's parent rows and one child row in each table that had no tenant_id; answers the parents' ids. */
  async function tenantWithChildren() {
    const tenant = await insert('tenants', {});
    const customer = await insert('customers', { tenant_id: tenant, plan_id: null });
    const user = await insert('users', { tenant_id: tenant, customer_id: customer, role: 'team_member' });
    const token = await insert('api_tokens', { tenant_id: tenant, user_id: user });
    const org = await insert('organizations', { tenant_id: tenant, customer_id: customer });
    const location = await insert('locations', { tenant_id: tenant, customer_id: customer, organization_id: org });
    await insert('organization_members', { organization_id: org, user_id: user, permissions: '[]' });
    await insert('location_user', { location_id: location, user_id: user });

    const endpoint = await insert('webhook_endpoints', { tenant_id: tenant, customer_id: customer });
    const event = await insert('outbox_events', { tenant_id: tenant, customer_id: customer });
    const delivery = `00000000-0000-4000-8000-${String(tenant).padStart(12, '0')}`;
    await insert('webhook_deliveries', { id: delivery, tenant_id: tenant, customer_id: customer, endpoint_id: endpoint, outbox_event_id: event });
    await insert('webhook_attempts', { delivery_id: delivery });

    const order = `00000000-0000-4000-9000-${String(tenant).padStart(12, '0')}`;
    await insert('nfc_orders', { id: order, tenant_id: tenant, customer_id: customer });
    await insert('nfc_order_items', { order_id: order, nfc_urls: '[]' });

    const scan = await insert('scans', { tenant_id: tenant, customer_id: customer, location_id: location, keywords: '["dentist"]' });
    const pin = await insert('scan_pins', { scan_id: scan });
    const snapshot = await insert('scan_snapshots', { scan_id: scan });
    await insert('scan_results', { snapshot_id: snapshot, pin_id: pin, top_results: '[]' });

    const list = await insert('contact_lists', { tenant_id: tenant, customer_id: customer, organization_id: org });
    const campaign = await insert('campaigns', { tenant_id: tenant, customer_id: customer, organization_id: org, location_id: location, contact_list_id: list, steps: '[]' });
    const contact = await insert('contacts', { tenant_id: tenant, customer_id: customer, contact_list_id: list });
    const invite = await insert('invites', { tenant_id: tenant, customer_id: customer, campaign_id: campaign, contact_id: contact });
    await insert('invite_messages', { invite_id: invite });
    const connection = await insert('inbound_connections', { tenant_id: tenant, customer_id: customer, campaign_id: campaign, mapping: '{}', timing: '{}' });
    await insert('inbound_submissions', { connection_id: connection, customer_id: customer });

    await insert('idempotency_keys', { token_id: token });
    return { tenant, customer, location, scan, invite };
  }

  /** Every child row has its parent's tenant, the column is NOT NULL and has its one index. */
  async function expectFilledAndRequired(): Promise<void> {
    for (const { table, parent } of CHILDREN) {
      const [{ total }] = await select<{ total: number }>(`SELECT COUNT(*) AS total FROM ${table}`);
      const rows = await select<{ got: number | null; want: number }>(`SELECT c.tenant_id AS got, p.tenant_id AS want FROM ${table} c ${parent}`);
      expect([table, rows.length]).toEqual([table, Number(total)]);
      expect([table, rows.filter((r) => r.got !== r.want)]).toEqual([table, []]);
      const [column] = await select<{ nullable: string }>(
        "SELECT is_nullable AS nullable FROM information_schema.columns WHERE table_schema = DATABASE() AND table_name = ? AND column_name = 'tenant_id'",
        [table],
      );
      expect([table, column.nullable]).toEqual([table, 'NO']);
      const index = await select(`SHOW INDEX FROM ${table} WHERE Key_name = ?`, [`${table}_tenant`]);
      expect([table, index.length]).toEqual([table, 1]);
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
    const [a, b] = [await tenantWithChildren(), await tenantWithChildren()];
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
    const parents = await tenantWithChildren();

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
