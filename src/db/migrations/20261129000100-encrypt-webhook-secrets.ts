import { decryptSecret, encryptSecret, isEncrypted } from '../../crypto/secrets';
import type { Migration } from '../umzug';

/**
 * Webhook signing secrets at rest: encrypted under the keyring like every other stored secret (the columns widen
 * to hold `v2.<key id>.<iv>.<tag>.<ciphertext>`), existing plain values encrypted in place. Run with the
 * installation's APP_KEY / APP_KEYS (the `migrate` job of docker-compose.yml has them).
 */
export const up: Migration = async ({ context: sql }) => {
  await sql('ALTER TABLE webhook_endpoints MODIFY secret VARCHAR(255) NOT NULL, MODIFY previous_secret VARCHAR(255) NULL');
  const [rows] = (await sql('SELECT id, secret, previous_secret FROM webhook_endpoints')) as [{ id: number; secret: string; previous_secret: string | null }[]];
  for (const row of rows) {
    const secret = isEncrypted(row.secret) ? row.secret : encryptSecret(row.secret);
    const previous = row.previous_secret === null || isEncrypted(row.previous_secret) ? row.previous_secret : encryptSecret(row.previous_secret);
    if (secret !== row.secret || previous !== row.previous_secret) {
      await sql('UPDATE webhook_endpoints SET secret = ?, previous_secret = ? WHERE id = ?', [secret, previous, row.id]);
    }
  }
};

export const down: Migration = async ({ context: sql }) => {
  const [rows] = (await sql('SELECT id, secret, previous_secret FROM webhook_endpoints')) as [{ id: number; secret: string; previous_secret: string | null }[]];
  for (const row of rows) {
    const plain = (v: string | null) => (v !== null && isEncrypted(v) ? decryptSecret(v) : v);
    await sql('UPDATE webhook_endpoints SET secret = ?, previous_secret = ? WHERE id = ?', [plain(row.secret), plain(row.previous_secret), row.id]);
  }
  await sql('ALTER TABLE webhook_endpoints MODIFY secret VARCHAR(128) NOT NULL, MODIFY previous_secret VARCHAR(128) NULL');
};
