import { Umzug, type MigrationFn } from 'umzug';
import type { Sequelize } from 'sequelize';
import { QueryTypes } from 'sequelize';
import { migrations } from './migrations';

/** Migrations get a plain SQL runner: explicit DDL, one change per file, reviewed as written. */
export type Sql = (statement: string, replacements?: unknown[]) => Promise<unknown>;
export type Migration = MigrationFn<Sql>;

export function createMigrator(sequelize: Sequelize, logger?: (msg: string) => void): Umzug<Sql> {
  const sql: Sql = (statement, replacements) =>
    sequelize.query(statement, { replacements, type: QueryTypes.RAW, logging: false });
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
        });
        return rows.map((r) => r.name);
      },
    },
    logger: logger ? { info: (m) => logger(String((m as { event?: string; name?: string }).name ?? '')), warn: () => {}, error: () => {}, debug: () => {} } : undefined,
  });
}

export async function migrate(sequelize: Sequelize): Promise<string[]> {
  const done = await createMigrator(sequelize).up();
  return done.map((m) => m.name);
}
