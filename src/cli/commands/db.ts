import mysql from 'mysql2/promise';
import type { Config } from '../../config';
import { createSequelize, ensureDatabase, parseDatabaseUrl } from '../../db/connection';
import { migrations } from '../../db/migrations';
import { withMigrationLock } from '../../db/umzug';
import { databaseUnreachable, redactUrl } from '../../observability/boot';
import type { CliResult } from '../run';

/** `db:migrate`: creates the database when missing and applies the pending migrations, in name order. */
export async function dbMigrate(config: Config): Promise<CliResult> {
  await ensureDatabase(config.DATABASE_URL).catch((e: unknown) => {
    throw databaseUnreachable(config.DATABASE_URL, e);
  });
  const sequelize = createSequelize({ url: config.DATABASE_URL, poolMax: 1 });
  try {
    const { applied, executed } = await withMigrationLock(sequelize, async (migrator) => ({
      applied: (await migrator.up()).map((m) => m.name),
      executed: (await migrator.executed()).map((m) => m.name),
    }));
    const at = executed[executed.length - 1] ?? '(empty)';
    return {
      text: `${applied.length ? `Applied ${applied.length} migration(s): ${applied.join(', ')}.\n` : ''}Database is at ${at} (${executed.length} migrations).`,
      data: { applied, migrations: executed },
    };
  } finally {
    await sequelize.close();
  }
}

interface AppliedRow {
  name: string;
  run_at: Date;
}

/**
 * `db:status`: what is applied (with when) and what is pending, read without changing anything: no database or
 * migrations table is created (umzug's `executed()` would), so it is safe against any installation.
 */
export async function dbStatus(config: Config): Promise<CliResult> {
  const { serverUrl, database } = parseDatabaseUrl(config.DATABASE_URL);
  let exists = true;
  let rows: AppliedRow[] = [];
  const conn = await mysql.createConnection({ uri: serverUrl, timezone: 'Z' }).catch((e: unknown) => {
    throw databaseUnreachable(config.DATABASE_URL, e);
  });
  try {
    const [schemas] = await conn.query<mysql.RowDataPacket[]>('SELECT 1 FROM information_schema.schemata WHERE schema_name = ?', [database]);
    exists = schemas.length > 0;
    if (exists) {
      const [tables] = await conn.query<mysql.RowDataPacket[]>(
        "SELECT 1 FROM information_schema.tables WHERE table_schema = ? AND table_name = 'schema_migrations'",
        [database],
      );
      if (tables.length) {
        const [found] = await conn.query<mysql.RowDataPacket[]>(`SELECT name, run_at FROM \`${database}\`.schema_migrations ORDER BY name`);
        rows = found as AppliedRow[];
      }
    }
  } finally {
    await conn.end();
  }
  const known = new Set(migrations.map((m) => m.name));
  const ranAt = new Map(rows.map((r) => [r.name, r.run_at]));
  const applied = migrations.filter((m) => ranAt.has(m.name)).map((m) => ({ name: m.name, run_at: ranAt.get(m.name)!.toISOString() }));
  const pending = migrations.filter((m) => !ranAt.has(m.name)).map((m) => m.name);
  // Applied by a newer release than this one (a rollback of the code): worth knowing before anything else runs.
  const unknown = rows.filter((r) => !known.has(r.name)).map((r) => r.name);
  const lines = [
    `Database ${redactUrl(config.DATABASE_URL)}${exists ? '' : ' does not exist yet'}: ${applied.length} applied, ${pending.length} pending` +
      (unknown.length ? `, ${unknown.length} unknown to this release` : '') +
      '.',
    ...applied.map((m) => `  applied  ${m.name}  ${m.run_at}`),
    ...pending.map((name) => `  pending  ${name}`),
    ...unknown.map((name) => `  unknown  ${name}`),
  ];
  if (pending.length) lines.push('Run `reviewgrid db:migrate` to apply the pending migrations.');
  return { text: lines.join('\n'), data: { database, exists, applied, pending, unknown } };
}
