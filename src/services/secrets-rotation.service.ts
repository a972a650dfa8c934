import { QueryTypes, type Sequelize } from 'sequelize';
import { decryptSecret, encryptSecret, isEncrypted, keyIdOf, keyring, recordKeyId, type Keyring } from '../crypto/secrets';

/**
 * Every stored secret column: table, key column and the encrypted columns (all `v1`/`v2` values of
 * `src/crypto/secrets.ts`). `redactKey`: the key is itself a credential (a connect link's token, the capability of its
 * page), so a report names the row by its first 6 characters only, as the request log does.
 */
export const SECRET_COLUMNS: ReadonlyArray<{ table: string; key: string; columns: readonly string[]; redactKey?: true }> = [
  { table: 'webhook_endpoints', key: 'id', columns: ['secret', 'previous_secret'] },
  { table: 'provider_connections', key: 'integration_id', columns: ['access_token_enc', 'refresh_token_enc'] },
  { table: 'messaging_settings', key: 'id', columns: ['secret_encrypted'] },
  { table: 'inbound_connections', key: 'id', columns: ['signing_secret_encrypted'] },
  { table: 'grid_provider_settings', key: 'tenant_id', columns: ['dataforseo_password', 'google_maps_key'] },
  // A connect flow between the provider's callback and the business selection (`sealTokens`).
  { table: 'connect_links', key: 'token', columns: ['pending_credentials'], redactKey: true },
];

/**
 * Secrets sealed inside a JSON payload: the rows of `table` whose `model` is `model`, keyed by `id`, with the
 * encrypted value in the payload's `field`. The MCP OAuth server's ES256 signing key (src/oauth/provider.ts
 * `signingKey`): every /oauth request opens it.
 */
export const SEALED_PAYLOADS: ReadonlyArray<{ table: string; model: string; field: string }> = [{ table: 'oauth_models', model: 'SigningKey', field: 'sealed' }];

export interface RotationReport {
  keyId: string;
  tables: Record<string, { checked: number; reencrypted: number }>;
  /** Values no key of the ring opens (written under a key since lost): left as they are, named here by row. */
  unreadable: Array<{ table: string; column: string; id: number | string; reason: string }>;
}

type Key = string | number;

/**
 * Re-encrypts every stored secret that is not under the newest key of the ring (v1 values, older key ids, webhook
 * secrets still in plain text), in batches of `batch` rows by key order, each row written only if it still holds
 * the value read (a concurrent change wins), then records the newest key as the one every process must hold.
 * The secret columns (SECRET_COLUMNS) and the secrets sealed in JSON payloads (SEALED_PAYLOADS) alike.
 * A value no key opens is reported and left alone (the rest still moves).
 * Idempotent: a second run re-encrypts nothing. Safe while the app runs (readers accept every key of the ring).
 */
export async function rotateSecrets(sequelize: Sequelize, opts: { ring?: Keyring; batch?: number } = {}): Promise<RotationReport> {
  const ring = opts.ring ?? keyring();
  const batch = opts.batch ?? 500;
  const newest = ring.newest;
  const current = (v: string) => isEncrypted(v) && (keyIdOf(v) === newest.id || keyIdOf(v) === newest.fingerprint);
  const report: RotationReport = { keyId: newest.id, tables: {}, unreadable: [] };
  /** The value under the newest key, or null when it is already there (or, reported, when no key opens it). */
  const reencrypt = (value: string, where: { table: string; column: string; id: Key }): string | null => {
    if (current(value)) return null;
    try {
      return encryptSecret(isEncrypted(value) ? decryptSecret(value, ring) : value, ring);
    } catch (e) {
      report.unreadable.push({ ...where, reason: (e as Error).message });
      return null;
    }
  };
  /** The rows of a table in key order, `batch` at a time (keyset pagination: numeric and text keys alike). */
  async function* batches(select: string, filter: string, filterReplacements: unknown[], key: string): AsyncGenerator<Array<Record<string, string | number | null>>> {
    let after: Key | null = null;
    for (;;) {
      const conditions = [filter, after === null ? '' : `${key} > ?`].filter(Boolean);
      const rows = await sequelize.query<Record<string, string | number | null>>(
        `SELECT ${select} ${conditions.length ? `WHERE ${conditions.join(' AND ')}` : ''} ORDER BY ${key} LIMIT ${batch}`,
        { replacements: [...filterReplacements, ...(after === null ? [] : [after])], type: QueryTypes.SELECT, logging: false },
      );
      if (rows.length === 0) return;
      yield rows;
      after = rows[rows.length - 1][key] as Key;
    }
  }

  for (const { table, key, columns, redactKey } of SECRET_COLUMNS) {
    const counts = { checked: 0, reencrypted: 0 };
    for await (const rows of batches(`${key}, ${columns.join(', ')} FROM ${table}`, '', [], key)) {
      for (const row of rows) {
        const id = row[key] as Key;
        const named = redactKey ? `${String(id).slice(0, 6)}…` : id;
        for (const column of columns) {
          const value = row[column];
          if (typeof value !== 'string' || value === '') continue;
          counts.checked++;
          const fresh = reencrypt(value, { table, column, id: named });
          if (fresh === null) continue;
          await sequelize.query(`UPDATE ${table} SET ${column} = ? WHERE ${key} = ? AND ${column} = ?`, {
            replacements: [fresh, id, value],
            logging: false,
          });
          counts.reencrypted++;
        }
      }
    }
    report.tables[table] = counts;
  }

  for (const { table, model, field } of SEALED_PAYLOADS) {
    const counts = report.tables[table] ?? { checked: 0, reencrypted: 0 };
    const column = `payload.${field}`;
    for await (const rows of batches(`id, payload FROM ${table}`, 'model = ?', [model], 'id')) {
      for (const row of rows) {
        const id = row.id as string;
        const payload = row.payload as string;
        let parsed: Record<string, unknown>;
        try {
          parsed = JSON.parse(payload) as Record<string, unknown>;
        } catch (e) {
          counts.checked++;
          report.unreadable.push({ table, column, id, reason: `The payload is not JSON: ${(e as Error).message}` });
          continue;
        }
        const value = parsed[field];
        if (typeof value !== 'string' || value === '') continue;
        counts.checked++;
        const fresh = reencrypt(value, { table, column, id });
        if (fresh === null) continue;
        // Written only over the payload read: a concurrent change (a new key, a rotation running alongside) wins.
        await sequelize.query(`UPDATE ${table} SET payload = ? WHERE model = ? AND id = ? AND payload = ?`, {
          replacements: [JSON.stringify({ ...parsed, [field]: fresh }), model, id, payload],
          logging: false,
        });
        counts.reencrypted++;
      }
    }
    report.tables[table] = counts;
  }
  await recordKeyId(sequelize, ring);
  return report;
}
