import { QueryTypes, UniqueConstraintError } from 'sequelize';
import { db } from './common';

/**
 * `Idempotency-Key` on REST POSTs (issue 15; docs/decisions/api-conventions.md "Idempotent writes"): per token, a key names one request
 * for 24 hours. The first request claims the key (a unique row); the same key again with the same request gets the
 * first answer back, with another request 422 `idempotency_key_reused`, and while the first is still running 409
 * `idempotency_key_in_use`. Expired keys are purged a batch at a time as new ones are claimed. A key still `running`
 * after `IDEMPOTENCY_ABANDONED_MS` was left by a process that died mid-request (crash, OOM, SIGKILL): it is freed and
 * the request claims it again.
 */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
/**
 * A `running` key older than this is abandoned: the request that claimed it died with its process (a live one frees
 * or finishes its key when it answers or its connection closes). Well above any request's time, so a request still
 * running is not run a second time.
 */
export const IDEMPOTENCY_ABANDONED_MS = 5 * 60 * 1000;

export type Claim =
  | { kind: 'claimed'; id: number }
  | { kind: 'replay'; status: number; body: string }
  | { kind: 'reused' }
  | { kind: 'running' };

interface Row {
  id: number;
  fingerprint: string;
  state: string;
  response_status: number | null;
  response_body: string | null;
  created_at: Date;
}

/** `caller`: the principal whose token the key belongs to (the row carries its tenant, the lookup is scoped by it). */
export async function claimIdempotencyKey(caller: { tenantId: number; tokenId: number }, key: string, fingerprint: string, now: Date): Promise<Claim> {
  const sequelize = db();
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const [id] = await sequelize.query(
        "INSERT INTO idempotency_keys (tenant_id, token_id, idem_key, fingerprint, state, created_at) VALUES (?, ?, ?, ?, 'running', ?)",
        { replacements: [caller.tenantId, caller.tokenId, key, fingerprint, now], type: QueryTypes.INSERT },
      );
      return { kind: 'claimed', id: Number(id) };
    } catch (e) {
      if (!(e instanceof UniqueConstraintError)) throw e;
    }
    const [row] = await sequelize.query<Row>('SELECT id, fingerprint, state, response_status, response_body, created_at FROM idempotency_keys WHERE tenant_id = ? AND token_id = ? AND idem_key = ?', {
      replacements: [caller.tenantId, caller.tokenId, key],
      type: QueryTypes.SELECT,
    });
    if (!row) continue; // released between the two statements: claim it again
    const createdAt = new Date(row.created_at).getTime();
    if (createdAt <= now.getTime() - IDEMPOTENCY_TTL_MS) {
      await sequelize.query('DELETE FROM idempotency_keys WHERE id = ? AND created_at = ?', { replacements: [row.id, row.created_at] });
      continue;
    }
    // Abandoned by a process that died mid-request: free it (only that row, only if still running) and claim again.
    if (row.state === 'running' && createdAt <= now.getTime() - IDEMPOTENCY_ABANDONED_MS) {
      await sequelize.query("DELETE FROM idempotency_keys WHERE id = ? AND created_at = ? AND state = 'running'", { replacements: [row.id, row.created_at] });
      continue;
    }
    if (row.fingerprint !== fingerprint) return { kind: 'reused' };
    if (row.state !== 'done' || row.response_status === null) return { kind: 'running' };
    return { kind: 'replay', status: row.response_status, body: row.response_body ?? '' };
  }
  return { kind: 'running' };
}

/** The first request's answer, kept for the key's remaining life. */
export async function finishIdempotencyKey(id: number, status: number, body: string, now: Date): Promise<void> {
  await db().query("UPDATE idempotency_keys SET state = 'done', response_status = ?, response_body = ?, finished_at = ? WHERE id = ?", {
    replacements: [status, body, now, id],
  });
}

/** A first request that failed in a way worth retrying (5xx, 429, a dropped connection) frees its key. */
export async function releaseIdempotencyKey(id: number): Promise<void> {
  await db().query('DELETE FROM idempotency_keys WHERE id = ?', { replacements: [id] });
}

/** Deletes up to `limit` keys older than 24 hours; answers how many went. */
export async function purgeExpiredIdempotencyKeys(now: Date, limit = 500): Promise<number> {
  const [, meta] = (await db().query(`DELETE FROM idempotency_keys WHERE created_at <= ? ORDER BY created_at LIMIT ${Math.max(1, Math.floor(limit))}`, {
    replacements: [new Date(now.getTime() - IDEMPOTENCY_TTL_MS)],
  })) as [unknown, { affectedRows?: number }];
  return meta?.affectedRows ?? 0;
}
