import type { Transaction } from 'sequelize';
import type { Sequelize } from 'sequelize';
import { beforeQuery } from './read';

interface DriverConnection {
  query(sql: string, values: unknown[], callback: (err: Error | null, result: unknown) => void): void;
}

export interface InsertResult {
  /**
   * The first row's AUTO_INCREMENT id. The others' are not derived from it: they are consecutive only with
   * innodb_autoinc_lock_mode 0 or 1 and an auto_increment_increment of 1 (not on Galera, say); `idsByUuid` reads them.
   */
  insertId: number;
  affectedRows: number;
}

/**
 * A multi-row INSERT on the transaction's connection, formatted by mysql2 (`?` placeholders, Dates in the connection's
 * UTC timezone), without Sequelize's model layer: building and formatting a thousand rows through `bulkCreate` cost
 * about half a second of CPU (a model instance per row and moment.js per date), the statement itself a few tens of
 * milliseconds. `onDuplicate` names the columns an `ON DUPLICATE KEY UPDATE` takes from the row sent. The `beforeQuery`
 * hooks still run (`beforeQuery`, src/db/read.ts).
 */
export async function insertRows(
  sequelize: Sequelize,
  table: string,
  columns: readonly string[],
  rows: readonly unknown[][],
  transaction: Transaction,
  opts: { onDuplicate?: readonly string[] } = {},
): Promise<InsertResult> {
  if (rows.length === 0) return { insertId: 0, affectedRows: 0 };
  const one = `(${columns.map(() => '?').join(',')})`;
  let sql = `INSERT INTO \`${table}\` (${columns.map((c) => `\`${c}\``).join(',')}) VALUES ${rows.map(() => one).join(',')}`;
  if (opts.onDuplicate?.length) sql += ` ON DUPLICATE KEY UPDATE ${opts.onDuplicate.map((c) => `\`${c}\` = VALUES(\`${c}\`)`).join(', ')}`;
  await beforeQuery(sequelize, 'INSERT', sql);
  const { insertId, affectedRows } = (await run(transaction, sql, rows.flat())) as InsertResult;
  return { insertId: Number(insertId), affectedRows };
}

/** The ids of the table's rows with these uuids (rows just inserted by `insertRows`, say), by uuid. */
export async function idsByUuid(sequelize: Sequelize, table: string, uuids: readonly string[], transaction: Transaction): Promise<Map<string, number>> {
  if (uuids.length === 0) return new Map();
  const sql = `SELECT id, uuid FROM \`${table}\` WHERE uuid IN (${uuids.map(() => '?').join(',')})`;
  await beforeQuery(sequelize, 'SELECT', sql);
  const rows = (await run(transaction, sql, [...uuids])) as { id: number; uuid: string }[];
  return new Map(rows.map((r) => [r.uuid, Number(r.id)]));
}

/** A statement on the transaction's connection, text protocol (no prepared statement per row count). */
function run(transaction: Transaction, sql: string, values: unknown[]): Promise<unknown> {
  const connection = (transaction as unknown as { connection: DriverConnection }).connection;
  return new Promise<unknown>((resolve, reject) => connection.query(sql, values, (err, r) => (err ? reject(err) : resolve(r))));
}
