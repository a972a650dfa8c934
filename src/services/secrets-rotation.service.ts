import { QueryTypes, type Sequelize } from 'sequelize';
import { decryptSecret, encryptSecret, isEncrypted, keyIdOf, keyring, recordKeyId, type Keyring } from '../crypto/secrets';

/** Every stored secret: table, key column and the encrypted columns (all `v1`/`v2` values of `src/crypto/secrets.ts`). */
export const SECRET_COLUMNS: ReadonlyArray<{ table: string; key: string; columns: readonly string[] }> = [
  { table: 'webhook_endpoints', key: 'id', columns: ['secret', 'previous_secret'] },
  { table: 'provider_connections', key: 'integration_id', columns: ['access_token_enc', 'refresh_token_enc'] },
  { table: 'messaging_settings', key: 'id', columns: ['secret_encrypted'] },
  { table: 'inbound_connections', key: 'id', columns: ['signing_secret_encrypted'] },
  { table: 'grid_provider_settings', key: 'tenant_id', columns: ['dataforseo_password', 'google_maps_key'] },
];

export interface RotationReport {
  keyId: string;
  tables: Record<string, { checked: number; reencrypted: number }>;
  /** Values no key of the ring opens (written under a key since lost): left as they are, named here by row. */
  unreadable: Array<{ table: string; column: string; id: number; reason: string }>;
}

/**
 * Re-encrypts every stored secret that is not under the newest key of the ring (v1 values, older key ids, webhook
 * secrets still in plain text), in batches of `batch` rows by key order, each row written only if it still holds
 * the value read (a concurrent change wins), then records the newest key as the one every process must hold.
 * A value no key opens is reported and left alone (the rest still moves).
 * Idempotent: a second run re-encrypts nothing. Safe while the app runs (readers accept every key of the ring).
 */
export async function rotateSecrets(sequelize: Sequelize, opts: { ring?: Keyring; batch?: number } = {}): Promise<RotationReport> {
  const ring = opts.ring ?? keyring();
  const batch = opts.batch ?? 500;
  const newest = ring.newest;
  const current = (v: string) => isEncrypted(v) && (keyIdOf(v) === newest.id || keyIdOf(v) === newest.fingerprint);
  const report: RotationReport = { keyId: newest.id, tables: {}, unreadable: [] };
  for (const { table, key, columns } of SECRET_COLUMNS) {
    const counts = { checked: 0, reencrypted: 0 };
    let after = 0;
    for (;;) {
      const rows = await sequelize.query<Record<string, string | number | null>>(
        `SELECT ${key}, ${columns.join(', ')} FROM ${table} WHERE ${key} > ? ORDER BY ${key} LIMIT ${batch}`,
        { replacements: [after], type: QueryTypes.SELECT, logging: false },
      );
      if (rows.length === 0) break;
      for (const row of rows) {
        after = Number(row[key]);
        for (const column of columns) {
          const value = row[column];
          if (typeof value !== 'string' || value === '') continue;
          counts.checked++;
          if (current(value)) continue;
          let plain: string;
          try {
            plain = isEncrypted(value) ? decryptSecret(value, ring) : value;
          } catch (e) {
            report.unreadable.push({ table, column, id: after, reason: (e as Error).message });
            continue;
          }
          await sequelize.query(`UPDATE ${table} SET ${column} = ? WHERE ${key} = ? AND ${column} = ?`, {
            replacements: [encryptSecret(plain, ring), after, value],
            logging: false,
          });
          counts.reencrypted++;
        }
      }
    }
    report.tables[table] = counts;
  }
  await recordKeyId(sequelize, ring);
  return report;
}
