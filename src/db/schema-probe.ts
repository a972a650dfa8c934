import type { Sql } from './umzug';

/**
 * What information_schema says of the current database, for migrations that are re-runnable both ways (each step
 * taken only when it is still to do). Keep these two answers as they are: migrations already applied call them.
 */
export async function hasColumn(sql: Sql, table: string, column: string): Promise<boolean> {
  const [found] = (await sql('SELECT 1 FROM information_schema.columns WHERE table_schema = DATABASE() AND table_name = ? AND column_name = ?', [
    table,
    column,
  ])) as [unknown[], unknown];
  return found.length > 0;
}

export async function hasIndex(sql: Sql, table: string, index: string): Promise<boolean> {
  const [found] = (await sql('SELECT 1 FROM information_schema.statistics WHERE table_schema = DATABASE() AND table_name = ? AND index_name = ?', [
    table,
    index,
  ])) as [unknown[], unknown];
  return found.length > 0;
}
