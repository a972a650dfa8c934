import { QueryTypes } from 'sequelize';
import { migrations } from '../../src/db/migrations';
import { createMigrator } from '../../src/db/umzug';
import { rowInserter, useScratchDatabase } from '../support/db';

const MIGRATION = '20261209000100-add-child-tenant-ids';
const CHILDREN = [
  'organization_members', 'location_user', 'webhook_attempts', 'nfc_order_items', 'scan_pins', 'scan_snapshots', 'scan_results',
  'invite_messages', 'inbound_submissions', 'idempotency_keys',
];

describe(`migration ${MIGRATION}`, () => {
  const { sequelize } = useScratchDatabase('child_tenants');
  const select = <T extends object>(sql: string, replacements: unknown[] = []) => sequelize.query<T>(sql, { replacements, type: QueryTypes.SELECT });

  const insert = rowInserter(sequelize);

  /** One tenant's parent rows and one child row in each table that had no tenant_id. */
  async function tenantWithChildren(): Promise<number> {
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
    return tenant;
  }

  it('fills tenant_id of existing child rows from their parent, then makes it NOT NULL and indexed', async () => {
    const migrator = createMigrator(sequelize);
    const before = migrations[migrations.findIndex((m) => m.name === MIGRATION) - 1].name;
    await migrator.up({ to: before });
    const [a, b] = [await tenantWithChildren(), await tenantWithChildren()];
    // A key whose token was deleted has no tenant to take: it is dropped (no request can use it again).
    await insert('idempotency_keys', { token_id: 999_999 });

    expect((await migrator.up()).map((m) => m.name)).toContain(MIGRATION);

    for (const table of CHILDREN) {
      const rows = await select<{ tenant_id: number }>(`SELECT tenant_id FROM ${table} ORDER BY tenant_id`);
      expect([table, rows.map((r) => r.tenant_id)]).toEqual([table, [a, b]]);
      const [column] = await select<{ nullable: string }>(
        "SELECT is_nullable AS nullable FROM information_schema.columns WHERE table_schema = DATABASE() AND table_name = ? AND column_name = 'tenant_id'",
        [table],
      );
      expect([table, column.nullable]).toEqual([table, 'NO']);
      const index = await select(`SHOW INDEX FROM ${table} WHERE Key_name = ?`, [`${table}_tenant`]);
      expect([table, index.length]).toEqual([table, 1]);
    }

    await migrator.down({ to: MIGRATION });
    for (const table of CHILDREN) {
      const columns = await select("SELECT 1 FROM information_schema.columns WHERE table_schema = DATABASE() AND table_name = ? AND column_name = 'tenant_id'", [table]);
      expect([table, columns.length]).toEqual([table, 0]);
    }
  });
});
