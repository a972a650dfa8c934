import { QueryTypes, type Sequelize } from 'sequelize';
import { migrations } from '../../src/db/migrations';

/**
 * What the tests of migration 20261209000100-add-child-tenant-ids share (test/db/child-tenant-ids*.test.ts): the child
 * tables it gives a `tenant_id`, one tenant's rows in each of them, and the check of the column it leaves.
 */
export const CHILD_TENANT_MIGRATION = '20261209000100-add-child-tenant-ids';
/** The migration applied just before it. */
export const BEFORE_CHILD_TENANT_MIGRATION = migrations[migrations.findIndex((m) => m.name === CHILD_TENANT_MIGRATION) - 1].name;

/** Each child table with the join that gives its parent's tenant (`p.tenant_id`), as the migration fills it. */
export const CHILDREN: ReadonlyArray<{ table: string; after: string; parent: string }> = [
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

type Insert = (table: string, given: Record<string, unknown>) => Promise<number>;

/** One tenant's parent rows and one child row in each table that had no tenant_id; answers the parents' ids. */
export async function tenantWithChildren(insert: Insert) {
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

/** `table`'s tenant_id is NOT NULL and has its one index (`{table}_tenant`). */
export async function expectTenantColumnRequired(sequelize: Sequelize, table: string): Promise<void> {
  const select = <T extends object>(sql: string, replacements: unknown[]) => sequelize.query<T>(sql, { replacements, type: QueryTypes.SELECT });
  const [column] = await select<{ nullable: string }>(
    "SELECT is_nullable AS nullable FROM information_schema.columns WHERE table_schema = DATABASE() AND table_name = ? AND column_name = 'tenant_id'",
    [table],
  );
  expect([table, column.nullable]).toEqual([table, 'NO']);
  const index = await select(`SHOW INDEX FROM ${table} WHERE Key_name = ?`, [`${table}_tenant`]);
  expect([table, index.length]).toEqual([table, 1]);
}
