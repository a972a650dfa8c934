import type { Migration, Sql } from '../umzug';

/**
 * `tenant_id` on the tables that had their tenant only through a parent row (issue 18; docs/decisions/operations.md
 * "Data model"): each gets the column, filled from its parent, then NOT NULL and an index, so a
 * read can be scoped by tenant first without a join. Like most tenant-owned tables the column has no foreign key to
 * `tenants`: the row is already tied to its parent by one (ON DELETE CASCADE), and the parent to its tenant.
 * Idempotency keys whose token is gone (nothing ties them to one, and no request can use them again) are deleted.
 *
 * Re-runnable: it runs while the previous release still serves (rolling upgrade), and that release inserts child rows
 * without `tenant_id`. DDL commits on its own, so a run that stopped part-way (such a row made the NOT NULL fail, or the
 * process died) left some tables changed: each step is taken only when information_schema says it is still missing,
 * and the rows still NULL are filled again right before the NOT NULL (until none remain; the ALTER is retried if one
 * slipped in between).
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

/** Fill rounds before giving up on rows that stay NULL, and NOT NULL attempts a concurrent insert may spoil. */
const FILL_ROUNDS = 50;
const ALTER_ATTEMPTS = 5;
/** MariaDB's answers to NOT NULL over a NULL row: WARN_DATA_TRUNCATED (strict mode), ER_INVALID_USE_OF_NULL. */
const NULL_REJECTED = new Set([1265, 1138]);

async function rows<T>(sql: Sql, statement: string, replacements: unknown[]): Promise<T[]> {
  const [result] = (await sql(statement, replacements)) as [T[], unknown];
  return result;
}

/** The column as information_schema has it (none before the first step). */
async function column(sql: Sql, table: string): Promise<{ nullable: string } | undefined> {
  const [found] = await rows<{ nullable: string }>(
    sql,
    "SELECT is_nullable AS nullable FROM information_schema.columns WHERE table_schema = DATABASE() AND table_name = ? AND column_name = 'tenant_id'",
    [table],
  );
  return found;
}

async function hasIndex(sql: Sql, table: string): Promise<boolean> {
  const found = await rows(
    sql,
    'SELECT 1 FROM information_schema.statistics WHERE table_schema = DATABASE() AND table_name = ? AND index_name = ? LIMIT 1',
    [table, `${table}_tenant`],
  );
  return found.length > 0;
}

/** Sets tenant_id of the rows still without one from their parent, until none is left (the old release may insert more meanwhile). */
async function fill(sql: Sql, { table, fill: join }: (typeof CHILDREN)[number]): Promise<void> {
  for (let round = 1; ; round += 1) {
    await sql(`UPDATE ${table} c ${join} SET c.tenant_id = p.tenant_id WHERE c.tenant_id IS NULL`);
    if (table === 'idempotency_keys') {
      await sql('DELETE c FROM idempotency_keys c LEFT JOIN api_tokens p ON p.id = c.token_id WHERE c.tenant_id IS NULL AND p.id IS NULL');
    }
    const [{ n }] = await rows<{ n: number }>(sql, `SELECT COUNT(*) AS n FROM ${table} WHERE tenant_id IS NULL`, []);
    if (Number(n) === 0) return;
    if (round >= FILL_ROUNDS) throw new Error(`${table}: ${n} rows still have no tenant_id after ${round} fills (no parent row to take it from?)`);
  }
}

function nullRejected(error: unknown): boolean {
  const e = error as { original?: { errno?: number }; parent?: { errno?: number }; errno?: number };
  return NULL_REJECTED.has(e.original?.errno ?? e.parent?.errno ?? e.errno ?? -1);
}

export const up: Migration = async ({ context: sql }) => {
  for (const child of CHILDREN) {
    const { table, after } = child;
    if (!(await column(sql, table))) await sql(`ALTER TABLE ${table} ADD COLUMN tenant_id INT UNSIGNED NULL AFTER ${after}`);
    for (let attempt = 1; ; attempt += 1) {
      const nullable = (await column(sql, table))?.nullable === 'YES';
      const changes = [
        ...(nullable ? ['MODIFY tenant_id INT UNSIGNED NOT NULL'] : []),
        ...((await hasIndex(sql, table)) ? [] : [`ADD KEY ${table}_tenant (tenant_id)`]),
      ];
      if (changes.length === 0) break;
      if (nullable) await fill(sql, child);
      try {
        await sql(`ALTER TABLE ${table} ${changes.join(', ')}`);
        break;
      } catch (error) {
        // A row the old release inserted after the last fill: the ALTER changed nothing, fill again.
        if (!nullRejected(error) || attempt >= ALTER_ATTEMPTS) throw error;
      }
    }
  }
};

export const down: Migration = async ({ context: sql }) => {
  for (const { table } of [...CHILDREN].reverse()) {
    await sql(`ALTER TABLE ${table} DROP KEY ${table}_tenant, DROP COLUMN tenant_id`);
  }
};
