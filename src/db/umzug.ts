import { Umzug, type MigrationFn } from 'umzug';
import type { Sequelize, Transaction } from 'sequelize';
import { QueryTypes } from 'sequelize';
import { migrations } from './migrations';

/** Migrations get a plain SQL runner: explicit DDL, one change per file, reviewed as written. */
export type Sql = (statement: string, replacements?: unknown[]) => Promise<unknown>;
export type Migration = MigrationFn<Sql>;

/**
 * `transaction`: every statement on that transaction's connection (`withMigrationLock` holds its lock there). It
 * pins the connection only: a migration's DDL commits implicitly, as it does without one.
 */
export function createMigrator(sequelize: Sequelize, logger?: (msg: string) => void, transaction?: Transaction): Umzug<Sql> {
  const sql: Sql = (statement, replacements) =>
    sequelize.query(statement, { replacements, type: QueryTypes.RAW, logging: false, transaction });
  return new Umzug<Sql>({
    migrations: migrations.map((m) => ({ name: m.name, up: m.up, down: m.down })),
    context: () => sql,
    storage: {
      async logMigration({ name }) {
        await sql('INSERT INTO schema_migrations (name, run_at) VALUES (?, NOW(3))', [name]);
      },
      async unlogMigration({ name }) {
        await sql('DELETE FROM schema_migrations WHERE name = ?', [name]);
      },
      async executed() {
        await sql(
          'CREATE TABLE IF NOT EXISTS schema_migrations (name VARCHAR(255) NOT NULL PRIMARY KEY, run_at DATETIME(3) NOT NULL)',
        );
        const rows = await sequelize.query<{ name: string }>('SELECT name FROM schema_migrations ORDER BY name', {
          type: QueryTypes.SELECT,
          logging: false,
          transaction,
        });
        return rows.map((r) => r.name);
      },
    },
    logger: logger ? { info: (m) => logger(String((m as { event?: string; name?: string }).name ?? '')), warn: () => {}, error: () => {}, debug: () => {} } : undefined,
  });
}

/** How long a process waits for another one's migrations before it gives up (a long backfill included). */
export const MIGRATION_LOCK_WAIT_S = 600;

/**
 * Runs `work` with a migrator while holding the database's migration lock (MariaDB `GET_LOCK`, named after the
 * database, held by the connection the migrations run on), so that processes starting together (two API replicas,
 * an API and `db:migrate`) migrate one after the other: the second finds the first's migrations applied and runs
 * none. Without it both ran the same migration and one failed ("Table already exists"), or a data migration ran
 * twice. The lock goes with the connection if the process dies.
 */
export async function withMigrationLock<T>(sequelize: Sequelize, work: (migrator: Umzug<Sql>) => Promise<T>): Promise<T> {
  return sequelize.transaction(async (transaction) => {
    const name = "CONCAT('reviewgrid-migrate:', LEFT(SHA1(DATABASE()), 40))";
    const [row] = await sequelize.query<{ locked: number | null }>(`SELECT GET_LOCK(${name}, ?) AS locked`, {
      replacements: [MIGRATION_LOCK_WAIT_S],
      type: QueryTypes.SELECT,
      logging: false,
      transaction,
    });
    if (row?.locked !== 1) {
      throw new Error(`Another process has held this database's migration lock for ${MIGRATION_LOCK_WAIT_S} s: it is still migrating, or stuck.`);
    }
    try {
      return await work(createMigrator(sequelize, undefined, transaction));
    } finally {
      await sequelize.query(`SELECT RELEASE_LOCK(${name})`, { type: QueryTypes.SELECT, logging: false, transaction });
    }
  });
}

export async function migrate(sequelize: Sequelize): Promise<string[]> {
  const done = await withMigrationLock(sequelize, (migrator) => migrator.up());
  return done.map((m) => m.name);
}
