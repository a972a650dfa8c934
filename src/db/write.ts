import type { Transaction } from 'sequelize';
import type { Sequelize } from 'sequelize';

interface DriverConnection {
  query(sql: string, values: unknown[], callback: (err: Error | null, result: unknown) => void): void;
}

export interface InsertResult {
  /** The first row's AUTO_INCREMENT id; a multi-row insert's rows have consecutive ids (innodb_autoinc_lock_mode 1 or 0). */
  insertId: number;
  affectedRows: number;
}

/**
 * A multi-row INSERT on the transaction's connection, formatted by mysql2 (`?` placeholders, Dates in the connection's
 * UTC timezone), without Sequelize's model layer: building and formatting a thousand rows through `bulkCreate` cost
 * about half a second of CPU (a model instance per row and moment.js per date), the statement itself a few tens of
 * milliseconds. `onDuplicate` names the columns an `ON DUPLICATE KEY UPDATE` takes from the row sent. The `beforeQuery`
 * hooks still run, as for `readRows` (src/db/read.ts).
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
  if (sequelize.hasHook('beforeQuery')) {
    await (sequelize as unknown as { runHooks(name: string, ...args: unknown[]): Promise<void> }).runHooks('beforeQuery', { type: 'INSERT' }, { sql });
  }
  const connection = (transaction as unknown as { connection: DriverConnection }).connection;
  const values = rows.flat();
  const result = await new Promise<unknown>((resolve, reject) => connection.query(sql, values, (err, r) => (err ? reject(err) : resolve(r))));
  const { insertId, affectedRows } = result as InsertResult;
  return { insertId: Number(insertId), affectedRows };
}
