import 'reflect-metadata';
import { QueryTypes } from 'sequelize';
import type { Sequelize } from 'sequelize-typescript';
import { createSequelize, dropDatabase, ensureDatabase } from '../../src/db/connection';
import { migrate } from '../../src/db/umzug';
import { setPrincipalCacheTtl } from '../../src/services/principal-cache';
import { databaseUrlFor, runId, TEST_SERVER_URL } from './env';

let sequelize: Sequelize | null = null;
let users = 0;

/**
 * Connects this test file to its worker's database (created and migrated by global setup). Models bind to
 * one Sequelize instance, so several callers in one file share it.
 */
export function useDatabase(): () => Sequelize {
  beforeAll(() => {
    users += 1;
    sequelize ??= createSequelize({ url: databaseUrlFor(process.env.JEST_WORKER_ID ?? '1'), poolMax: 5 });
  });
  afterAll(async () => {
    users -= 1;
    if (users === 0) {
      await sequelize?.close();
      sequelize = null;
    }
  });
  return () => {
    if (!sequelize) throw new Error('database not open');
    return sequelize;
  };
}

/**
 * A database of the test file's own (`<worker database>_<name>`), created and migrated before it and dropped after it,
 * for a test that changes installation-wide state (the recorded key id, every stored secret) which the other files of
 * the worker must not see. The models of this file bind to it; `url()` is for processes the test starts (the CLI).
 */
export function useOwnDatabase(name: string): { db: () => Sequelize; url: () => string } {
  const url = `${databaseUrlFor(process.env.JEST_WORKER_ID ?? '1')}_${name}`;
  beforeAll(async () => {
    if (sequelize) throw new Error('useOwnDatabase: this file already uses the worker database');
    await dropDatabase(url);
    await ensureDatabase(url);
    sequelize = createSequelize({ url, poolMax: 5 });
    await migrate(sequelize);
    users += 1;
  }, 120_000);
  afterAll(async () => {
    users -= 1;
    await sequelize?.close();
    sequelize = null;
    await dropDatabase(url);
  });
  return {
    db: () => {
      if (!sequelize) throw new Error('database not open');
      return sequelize;
    },
    url: () => url,
  };
}

/**
 * The SQL statements `run` sends (`n`) and what it answers: the N+1 guards compare `n` between page sizes.
 * The token's `last_used_at` bookkeeping is not counted: authentication fires it without awaiting it (at most
 * once a minute per token), so it can start after the request that caused it has answered and land in the
 * next measured request instead. Token lookups are not kept meanwhile (src/services/principal-cache.ts): every
 * request counts its own, however long `run` takes and whatever a request before it looked up.
 */
export async function countStatements<T>(db: Sequelize, run: () => Promise<T>): Promise<{ n: number; result: T }> {
  let n = 0;
  const ttl = setPrincipalCacheTtl(0);
  db.addHook('beforeQuery', 'statement-counter', ((options: { type?: string; model?: { tableName?: string } }) => {
    if (options.type === 'BULKUPDATE' && options.model?.tableName === 'api_tokens') return;
    n += 1;
  }) as never);
  try {
    const result = await run();
    return { n, result };
  } finally {
    db.removeHook('beforeQuery', 'statement-counter');
    setPrincipalCacheTtl(ttl);
  }
}

/**
 * A database of this test file's own, created empty before its tests and dropped after them (the migration tests
 * run migrations up and down in it): its URL and its connection.
 */
export function useScratchDatabase(name: string): { url: string; sequelize: Sequelize } {
  const url = `${TEST_SERVER_URL}/reviewgrid_test_${runId()}_${name}_${process.env.JEST_WORKER_ID ?? '1'}`;
  const scratch = createSequelize({ url, poolMax: 2 });
  beforeAll(async () => {
    await dropDatabase(url);
    await ensureDatabase(url);
  });
  afterAll(async () => {
    await scratch.close();
    await dropDatabase(url);
  });
  return { url, sequelize: scratch };
}

/**
 * A row inserter for a scratch database's tests of migrations: inserts the columns given, and every other NOT NULL
 * column without a default gets a placeholder of its type (unique per row), so a test names only the keys that tie its
 * rows together. Answers the new row's id.
 */
export function rowInserter(sequelize: Sequelize): (table: string, given: Record<string, unknown>) => Promise<number> {
  const select = <T extends object>(sql: string, replacements: unknown[] = []) => sequelize.query<T>(sql, { replacements, type: QueryTypes.SELECT });
  let serial = 0;
  return async (table, given) => {
    const columns = await select<{ name: string; type: string; len: number | null; extra: string }>(
      `SELECT column_name AS name, data_type AS type, character_maximum_length AS len, extra FROM information_schema.columns
        WHERE table_schema = DATABASE() AND table_name = ? AND is_nullable = 'NO' AND column_default IS NULL ORDER BY ordinal_position`,
      [table],
    );
    const row: Record<string, unknown> = {};
    for (const c of columns) {
      if (c.name in given || c.extra.includes('auto_increment')) continue;
      serial += 1;
      if (c.type.endsWith('int') || c.type === 'double' || c.type === 'decimal') row[c.name] = 1;
      else if (c.type.startsWith('date') || c.type === 'timestamp') row[c.name] = new Date();
      else if (c.type === 'enum') {
        const [{ t }] = await select<{ t: string }>('SELECT column_type AS t FROM information_schema.columns WHERE table_schema = DATABASE() AND table_name = ? AND column_name = ?', [table, c.name]);
        row[c.name] = /'([^']*)'/.exec(t)![1];
      } else row[c.name] = `${table}-${c.name}-${serial}`.slice(-(c.len ?? 64));
    }
    Object.assign(row, given);
    const names = Object.keys(row);
    const [id] = await sequelize.query(`INSERT INTO ${table} (${names.map((n) => `\`${n}\``).join(', ')}) VALUES (${names.map(() => '?').join(', ')})`, {
      replacements: Object.values(row),
      type: QueryTypes.INSERT,
    });
    return Number(id);
  };
}
