import type { Migration } from '../umzug';

/**
 * Data backfill: users' and customers' emails in Unicode NFC, the spelling `signInEmail` (src/domain/email.ts) gives
 * and new rows are stored in. Before, an email was stored trimmed and lower-cased only, so an address typed in
 * decomposed form (e + U+0301) was stored so, and the MCP sign-in's exact look-up (which compares NFC) never found
 * it. Only rows with a non-ASCII character can change. A user whose NFC spelling another user of the tenant already
 * has (possible only if the collation told the two apart) keeps its spelling, so no row is lost to the unique key.
 * Safe to re-run.
 */
export const up: Migration = async ({ context: sql }) => {
  for (const table of ['users', 'customers'] as const) {
    const [rows] = (await sql(`SELECT id, email FROM ${table} WHERE CHAR_LENGTH(email) <> LENGTH(email)`)) as [
      { id: number; email: string }[],
      unknown,
    ];
    for (const row of rows) {
      const nfc = row.email.normalize('NFC');
      if (nfc === row.email) continue;
      try {
        await sql(`UPDATE ${table} SET email = ? WHERE id = ?`, [nfc, row.id]);
      } catch (e) {
        if ((e as { original?: { code?: string } }).original?.code !== 'ER_DUP_ENTRY') throw e;
      }
    }
  }
};

/** Nothing to undo: the NFC spelling is the same address. */
export const down: Migration = async () => {};
