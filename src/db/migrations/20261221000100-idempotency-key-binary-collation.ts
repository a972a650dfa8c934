import type { Migration, Sql } from '../umzug';

/**
 * `idempotency_keys.idem_key` compares byte-wise (utf8mb4_bin): an `Idempotency-Key` is an opaque string, so
 * `CaseKey-1` and `casekey-1` are two keys (docs/decisions/api-conventions.md "Idempotent writes"). The column took the
 * table's collation (utf8mb4_unicode_ci), which ignores letter case: the second spelling found the first's row, was
 * answered 422 `idempotency_key_reused` with another body and the first's answer with the same one. The column keeps
 * its length and NOT NULL and stays in the unique key `idempotency_keys_token_key (token_id, idem_key)`, whose
 * entries now compare byte-wise too.
 *
 * Up cannot meet a collision: utf8mb4_bin tells apart everything the old collation did. Down goes back to the table's
 * collation (what the column had), under which keys of one token that differ only in letter case (or in anything else
 * that collation ignores) collide in the unique key. Of each such group the first claimed row (the lowest id) is kept
 * and the others are deleted: that is the row the old code would have found for every spelling, so after the down a
 * retry of a deleted key's request is answered as that code answered it (a replay of the first answer, or 422
 * `idempotency_key_reused`); only keys, which live 24 hours, are lost, never data of the requests. A row written by a
 * still-running release between that delete and the ALTER makes the ALTER fail with a duplicate: the delete is made
 * again and the ALTER retried, a few times, and the down stays safe to run again.
 *
 * Re-runnable both ways: each direction changes the column only if it does not have its target collation yet.
 */
const TABLE = 'idempotency_keys';
const BINARY = 'utf8mb4_bin';
/** ER_DUP_ENTRY: the unique key met a collision while the ALTER rebuilt it. */
const DUPLICATE = 1062;
const ALTER_ATTEMPTS = 5;

async function rows<T>(sql: Sql, statement: string, replacements: unknown[] = []): Promise<T[]> {
  const [result] = (await sql(statement, replacements)) as [T[], unknown];
  return result;
}

/** The column's collation now. */
async function keyCollation(sql: Sql): Promise<string> {
  const [row] = await rows<{ c: string }>(
    sql,
    "SELECT collation_name AS c FROM information_schema.columns WHERE table_schema = DATABASE() AND table_name = ? AND column_name = 'idem_key'",
    [TABLE],
  );
  return row.c;
}

/** The table's default collation: what the column had before this migration (it was created without one). */
async function tableCollation(sql: Sql): Promise<string> {
  const [row] = await rows<{ c: string }>(sql, 'SELECT table_collation AS c FROM information_schema.tables WHERE table_schema = DATABASE() AND table_name = ?', [TABLE]);
  // Written into the DDL below: a collation's name, nothing else.
  if (!/^utf8mb4_\w+$/.test(row.c)) throw new Error(`${TABLE}: unexpected table collation ${row.c}`);
  return row.c;
}

const modify = (sql: Sql, collation: string) => sql(`ALTER TABLE ${TABLE} MODIFY idem_key VARCHAR(255) CHARACTER SET utf8mb4 COLLATE ${collation} NOT NULL`);

/** Deletes the rows that would collide under `collation`, keeping the first claimed (lowest id) of each group. */
async function dropCollisions(sql: Sql, collation: string): Promise<void> {
  await sql(`DELETE k FROM ${TABLE} k JOIN (
      SELECT token_id, idem_key COLLATE ${collation} AS folded, MIN(id) AS keep
      FROM ${TABLE} GROUP BY token_id, folded HAVING COUNT(*) > 1
    ) g ON g.token_id = k.token_id AND k.idem_key COLLATE ${collation} = g.folded AND k.id <> g.keep`);
}

function errno(e: unknown): number | undefined {
  const original = (e as { original?: { errno?: number } }).original ?? (e as { parent?: { errno?: number } }).parent;
  return original?.errno;
}

export const up: Migration = async ({ context: sql }) => {
  if ((await keyCollation(sql)) !== BINARY) await modify(sql, BINARY);
};

export const down: Migration = async ({ context: sql }) => {
  const previous = await tableCollation(sql);
  for (let attempt = 1; (await keyCollation(sql)) !== previous; attempt++) {
    await dropCollisions(sql, previous);
    try {
      await modify(sql, previous);
    } catch (e) {
      if (errno(e) !== DUPLICATE || attempt >= ALTER_ATTEMPTS) throw e;
    }
  }
};
