import { QueryTypes } from 'sequelize';
import type { Sequelize } from 'sequelize-typescript';
import { readRows } from '../db/read';
import { ApiToken } from '../models';

/**
 * oidc-provider's storage on MariaDB (`oauth_models`): one row per model and id, the payload as JSON, with the columns
 * the provider looks up by (grant, user code, interaction uid) and the expiry. Shared by every API process, so a code
 * issued by one is redeemed at another; expired rows are treated as absent and purged by `purgeExpiredOAuthRows`.
 */
type Payload = Record<string, unknown> & { grantId?: string; userCode?: string; uid?: string; consumed?: number };

const db = (): Sequelize => {
  const s = ApiToken.sequelize;
  if (!s) throw new Error('Database not initialised');
  return s as Sequelize;
};

interface Row {
  payload: string;
  expiresAt: Date | null;
  consumedAt: Date | null;
}

const SELECT = 'SELECT payload, expires_at AS expiresAt, consumed_at AS consumedAt FROM oauth_models';

function live(row: Row | undefined): Payload | undefined {
  if (!row) return undefined;
  if (row.expiresAt && row.expiresAt.getTime() <= Date.now()) return undefined;
  const payload = JSON.parse(row.payload) as Payload;
  if (row.consumedAt) payload.consumed = Math.floor(row.consumedAt.getTime() / 1000);
  return payload;
}

/** Every this many writes, one write also deletes up to 500 expired rows (as the idempotency keys are kept tidy). */
export const PURGE_EVERY = 100;
let writes = 0;

export class OAuthAdapter {
  constructor(private readonly model: string) {}

  async upsert(id: string, payload: Payload, expiresIn?: number): Promise<void> {
    const expiresAt = expiresIn ? new Date(Date.now() + expiresIn * 1000) : null;
    await db().query(
      `INSERT INTO oauth_models (model, id, payload, grant_id, user_code, uid, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?)
       ON DUPLICATE KEY UPDATE payload = VALUES(payload), grant_id = VALUES(grant_id), user_code = VALUES(user_code),
         uid = VALUES(uid), expires_at = VALUES(expires_at)`,
      {
        replacements: [this.model, id, JSON.stringify(payload), payload.grantId ?? null, payload.userCode ?? null, payload.uid ?? null, expiresAt],
        type: QueryTypes.INSERT,
      },
    );
    if (++writes % PURGE_EVERY === 0) await purgeExpiredOAuthRows(500);
  }

  /** Writes the row unless one exists (a value made once and shared, such as the signing key). */
  async upsertIfAbsent(id: string, payload: Payload): Promise<void> {
    await db().query('INSERT IGNORE INTO oauth_models (model, id, payload) VALUES (?, ?, ?)', { replacements: [this.model, id, JSON.stringify(payload)], type: QueryTypes.INSERT });
  }

  async find(id: string): Promise<Payload | undefined> {
    const [row] = await readRows<Row>(db(), `${SELECT} WHERE model = ? AND id = ? LIMIT 1`, [this.model, id]);
    return live(row);
  }

  async findByUserCode(userCode: string): Promise<Payload | undefined> {
    const [row] = await readRows<Row>(db(), `${SELECT} WHERE model = ? AND user_code = ? LIMIT 1`, [this.model, userCode]);
    return live(row);
  }

  async findByUid(uid: string): Promise<Payload | undefined> {
    const [row] = await readRows<Row>(db(), `${SELECT} WHERE model = ? AND uid = ? LIMIT 1`, [this.model, uid]);
    return live(row);
  }

  async consume(id: string): Promise<void> {
    await db().query('UPDATE oauth_models SET consumed_at = ? WHERE model = ? AND id = ?', { replacements: [new Date(), this.model, id], type: QueryTypes.UPDATE });
  }

  async destroy(id: string): Promise<void> {
    await db().query('DELETE FROM oauth_models WHERE model = ? AND id = ?', { replacements: [this.model, id], type: QueryTypes.DELETE });
  }

  /**
   * The provider revokes a whole grant on its own (a rotated refresh token used again, RFC 9700 4.14.2) as well as when
   * the authorization is revoked here: the grant's rows go, and the authorization and its AI token are marked revoked,
   * so what the user and the tenant owner list matches what still works.
   */
  async revokeByGrantId(grantId: string): Promise<void> {
    await db().transaction(async (transaction) => {
      await db().query('DELETE FROM oauth_models WHERE grant_id = ?', { replacements: [grantId], type: QueryTypes.DELETE, transaction });
      const now = new Date();
      await db().query(
        `UPDATE mcp_authorizations a JOIN api_tokens t ON t.id = a.api_token_id
           SET a.revoked_at = COALESCE(a.revoked_at, ?), t.revoked_at = COALESCE(t.revoked_at, ?)
         WHERE a.grant_id = ?`,
        { replacements: [now, now, grantId], type: QueryTypes.UPDATE, transaction },
      );
    });
  }
}

/** The stored access token of an opaque bearer (oidc-provider's `AccessToken` row), or null when absent or expired. */
export async function findAccessToken(value: string): Promise<Payload | null> {
  return (await new OAuthAdapter('AccessToken').find(value)) ?? null;
}

/** Deletes up to `limit` rows expired more than a minute ago (codes, tokens, sessions, interactions). */
export async function purgeExpiredOAuthRows(limit = 1000): Promise<number> {
  const gone = await db().query('DELETE FROM oauth_models WHERE expires_at IS NOT NULL AND expires_at < ? LIMIT ?', {
    replacements: [new Date(Date.now() - 60_000), limit],
    type: QueryTypes.BULKDELETE,
  });
  return Number(gone);
}
