import { createHash } from 'node:crypto';
import { QueryTypes } from 'sequelize';
import type { Sequelize } from 'sequelize-typescript';
import { readRows } from '../db/read';
import { ApiToken } from '../models';

/**
 * oidc-provider's storage on MariaDB (`oauth_models`): one row per model and id, the payload as JSON, with the columns
 * the provider looks up by (grant, user code, interaction uid) and the expiry. Shared by every API process, so a code
 * issued by one is redeemed at another; expired rows are treated as absent and purged by `purgeExpiredOAuthRows`.
 */
type Payload = Record<string, unknown> & { jti?: string; grantId?: string; userCode?: string; uid?: string; consumed?: number };

/**
 * The models whose id is a credential a client presents (a bearer token, a code, the registration access token, a
 * pushed request's `request_uri`): the row is keyed by the id's SHA-256, as API tokens are, and the payload is stored
 * without the id (oidc-provider puts it in as `jti`; `find` puts it back from the value it was asked for). A dump or
 * backup of `oauth_models` then holds no token that works; refresh tokens of public clients need no client secret.
 * Sessions and interactions keep their ids: the browser presents them only in cookies signed with keys derived from the
 * application key (provider.ts `cookieKeys`), which a dump does not hold. Clients and grants are no credentials (a
 * client id is public; a grant id is honoured only from a token or a session). Rows written before this change are
 * hashed by the migration 20261215000100-hash-oauth-token-ids.
 */
export const HASHED_MODELS: ReadonlySet<string> = new Set(['AccessToken', 'AuthorizationCode', 'RefreshToken', 'RegistrationAccessToken', 'PushedAuthorizationRequest']);

/** The stored id of a credential: lower-case hex SHA-256 of the value (what MariaDB's `SHA2(value, 256)` gives). */
export const hashOAuthId = (value: string): string => createHash('sha256').update(value).digest('hex');

/**
 * Consuming these twice is a replay (two requests racing with one refresh token or code). oidc-provider checks
 * `consumed` on the row it read, then consumes: both racers read it unconsumed. The consume that finds the row already
 * consumed is the second use, and is answered as oidc-provider answers a consumed token it reads: the grant revoked,
 * `invalid_grant`.
 */
const REPLAY_ERRORS: Record<string, string> = { RefreshToken: 'refresh token already used', AuthorizationCode: 'authorization code already consumed' };

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

/**
 * A Grant whose authorization is revoked is absent, as a destroyed one is. `revokeByGrantId` deletes the Grant, but
 * revocations before it did not: their Grants are still stored, and the browser's session would find them again.
 */
const NOT_REVOKED = ' AND NOT EXISTS (SELECT 1 FROM mcp_authorizations a WHERE a.grant_id = oauth_models.id AND a.revoked_at IS NOT NULL)';

function live(row: Row | undefined): Payload | undefined {
  if (!row) return undefined;
  if (row.expiresAt && row.expiresAt.getTime() <= Date.now()) return undefined;
  const payload = JSON.parse(row.payload) as Payload;
  if (row.consumedAt) payload.consumed = Math.floor(row.consumedAt.getTime() / 1000);
  return payload;
}

/**
 * How long a registered client lasts without a grant. Registration is open (MCP clients register themselves) and
 * clients never expired: one that never gets a user's consent now goes with the other expired rows. A grant extends
 * its client to the grant's own expiry (`upsert` of a Grant), so a client lasts as long as something it was granted.
 * Clients registered before this existed got the same expiry by migration 20261218000100.
 */
export const UNUSED_CLIENT_TTL_S = 7 * 24 * 3600;

/** Every this many writes, one write also deletes up to 500 expired rows (as the idempotency keys are kept tidy). */
export const PURGE_EVERY = 100;
let writes = 0;

export class OAuthAdapter {
  private readonly hashed: boolean;

  constructor(private readonly model: string) {
    this.hashed = HASHED_MODELS.has(model);
  }

  /** The row's id: the value itself, or its hash for a credential. */
  private key(id: string): string {
    return this.hashed ? hashOAuthId(id) : id;
  }

  async upsert(id: string, input: Payload, expiresIn?: number): Promise<void> {
    const ttl = expiresIn ?? (this.model === 'Client' ? UNUSED_CLIENT_TTL_S : undefined);
    const expiresAt = ttl ? new Date(Date.now() + ttl * 1000) : null;
    const payload = { ...input };
    if (this.hashed) delete payload.jti;
    await db().query(
      `INSERT INTO oauth_models (model, id, payload, grant_id, user_code, uid, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?)
       ON DUPLICATE KEY UPDATE payload = VALUES(payload), grant_id = VALUES(grant_id), user_code = VALUES(user_code),
         uid = VALUES(uid), expires_at = VALUES(expires_at)`,
      {
        replacements: [this.model, this.key(id), JSON.stringify(payload), payload.grantId ?? null, payload.userCode ?? null, payload.uid ?? null, expiresAt],
        type: QueryTypes.INSERT,
      },
    );
    if (this.model === 'Grant' && typeof payload.clientId === 'string' && expiresAt) {
      await db().query("UPDATE oauth_models SET expires_at = ? WHERE model = 'Client' AND id = ? AND expires_at < ?", {
        replacements: [expiresAt, payload.clientId, expiresAt],
        type: QueryTypes.UPDATE,
      });
    }
    if (++writes % PURGE_EVERY === 0) await purgeExpiredOAuthRows(500);
  }

  /** Writes the row unless one exists (a value made once and shared, such as the signing key). */
  async upsertIfAbsent(id: string, payload: Payload): Promise<void> {
    await db().query('INSERT IGNORE INTO oauth_models (model, id, payload) VALUES (?, ?, ?)', { replacements: [this.model, this.key(id), JSON.stringify(payload)], type: QueryTypes.INSERT });
  }

  async find(id: string): Promise<Payload | undefined> {
    const [row] = await readRows<Row>(db(), `${SELECT} WHERE model = ? AND id = ?${this.model === 'Grant' ? NOT_REVOKED : ''} LIMIT 1`, [this.model, this.key(id)]);
    const payload = live(row);
    return payload && this.hashed ? { ...payload, jti: id } : payload;
  }

  async findByUserCode(userCode: string): Promise<Payload | undefined> {
    const [row] = await readRows<Row>(db(), `${SELECT} WHERE model = ? AND user_code = ? LIMIT 1`, [this.model, userCode]);
    return live(row);
  }

  async findByUid(uid: string): Promise<Payload | undefined> {
    const [row] = await readRows<Row>(db(), `${SELECT} WHERE model = ? AND uid = ? LIMIT 1`, [this.model, uid]);
    return live(row);
  }

  /** Marks the row consumed, once: see REPLAY_ERRORS for what a second consume of a refresh token or code does. */
  async consume(id: string): Promise<void> {
    const [, changed] = (await db().query('UPDATE oauth_models SET consumed_at = ? WHERE model = ? AND id = ? AND consumed_at IS NULL', {
      replacements: [new Date(), this.model, this.key(id)],
      type: QueryTypes.UPDATE,
    })) as [unknown, number];
    const replay = REPLAY_ERRORS[this.model];
    if (changed > 0 || !replay) return;
    const [row] = await readRows<{ grantId: string | null }>(db(), 'SELECT grant_id AS grantId FROM oauth_models WHERE model = ? AND id = ?', [this.model, this.key(id)]);
    if (row?.grantId) await this.revokeByGrantId(row.grantId);
    const { errors } = await import('oidc-provider');
    throw new errors.InvalidGrant(replay);
  }

  async destroy(id: string): Promise<void> {
    await db().query('DELETE FROM oauth_models WHERE model = ? AND id = ?', { replacements: [this.model, this.key(id)], type: QueryTypes.DELETE });
  }

  /**
   * The provider revokes a whole grant on its own (a rotated refresh token used again, RFC 9700 4.14.2; a token revoked
   * at `/oauth/token/revocation`) as well as when the authorization is revoked here: the grant's rows go, and the
   * authorization and its AI token are marked revoked, so what the user and the tenant owner list matches what still
   * works. The Grant's own row goes too (its `grant_id` column is empty, so the first DELETE leaves it): a revoked
   * authorization is never authorized again, and a Grant left behind was found again through the browser's session
   * (oidc-provider's `loadExistingGrant`), so connecting again skipped the consent page and got tokens of the revoked
   * authorization, which the MCP endpoint refuses. Without it the next authorization asks for consent, and the consent
   * makes a new Grant with a new authorization.
   */
  async revokeByGrantId(grantId: string): Promise<void> {
    await db().transaction(async (transaction) => {
      await db().query('DELETE FROM oauth_models WHERE grant_id = ?', { replacements: [grantId], type: QueryTypes.DELETE, transaction });
      await db().query("DELETE FROM oauth_models WHERE model = 'Grant' AND id = ?", { replacements: [grantId], type: QueryTypes.DELETE, transaction });
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

/** Deletes up to `limit` rows expired more than a minute ago (codes, tokens, sessions, interactions, clients nobody granted anything). */
export async function purgeExpiredOAuthRows(limit = 1000): Promise<number> {
  const gone = await db().query('DELETE FROM oauth_models WHERE expires_at IS NOT NULL AND expires_at < ? LIMIT ?', {
    replacements: [new Date(Date.now() - 60_000), limit],
    type: QueryTypes.BULKDELETE,
  });
  return Number(gone);
}
