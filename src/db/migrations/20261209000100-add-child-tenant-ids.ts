import type { Migration } from '../umzug';

/**
 * `tenant_id` on the tables that had their tenant only through a parent row (issue 18; docs/decisions/operations.md
 * "Data model"): each gets the column, filled from its parent, then NOT NULL and an index, so a
 * read can be scoped by tenant first without a join. Like most tenant-owned tables the column has no foreign key to
 * `tenants`: the row is already tied to its parent by one (ON DELETE CASCADE), and the parent to its tenant.
 * Idempotency keys whose token is gone (nothing ties them to one, and no request can use them again) are deleted.
 */
const CHILDREN: ReadonlyArray<{ table: string; after: string; fill: string }> = [
  { table: 'organization_members', after: 'user_id', fill: 'JOIN organizations p ON p.id = c.organization_id' },
  { table: 'location_user', after: 'user_id', fill: 'JOIN locations p ON p.id = c.location_id' },
  { table: 'webhook_attempts', after: 'id', fill: 'JOIN webhook_deliveries p ON p.id = c.delivery_id' },
  { table: 'nfc_order_items', after: 'id', fill: 'JOIN nfc_orders p ON p.id = c.order_id' },
  { table: 'scan_pins', after: 'id', fill: 'JOIN scans p ON p.id = c.scan_id' },
  { table: 'scan_snapshots', after: 'id', fill: 'JOIN scans p ON p.id = c.scan_id' },
  { table: 'scan_results', after: 'id', fill: 'JOIN scan_snapshots s ON s.id = c.snapshot_id JOIN scans p ON p.id = s.scan_id' },
  { table: 'invite_messages', after: 'id', fill: 'JOIN invites p ON p.id = c.invite_id' },
  { table: 'inbound_submissions', after: 'id', fill: 'JOIN inbound_connections p ON p.id = c.connection_id' },
  { table: 'idempotency_keys', after: 'id', fill: 'JOIN api_tokens p ON p.id = c.token_id' },
];

export const up: Migration = async ({ context: sql }) => {
  for (const { table, after, fill } of CHILDREN) {
    await sql(`ALTER TABLE ${table} ADD COLUMN tenant_id INT UNSIGNED NULL AFTER ${after}`);
    await sql(`UPDATE ${table} c ${fill} SET c.tenant_id = p.tenant_id`);
    if (table === 'idempotency_keys') await sql('DELETE FROM idempotency_keys WHERE tenant_id IS NULL');
    await sql(`ALTER TABLE ${table} MODIFY tenant_id INT UNSIGNED NOT NULL, ADD KEY ${table}_tenant (tenant_id)`);
  }
};

export const down: Migration = async ({ context: sql }) => {
  for (const { table } of [...CHILDREN].reverse()) {
    await sql(`ALTER TABLE ${table} DROP KEY ${table}_tenant, DROP COLUMN tenant_id`);
  }
};
