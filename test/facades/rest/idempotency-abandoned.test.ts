import type { Request } from 'express';
import { QueryTypes } from 'sequelize';
import { requestFingerprint } from '../../../src/http/idempotency';
import { issueToken } from '../../../src/services/auth.service';
import { IDEMPOTENCY_ABANDONED_MS } from '../../../src/services/idempotency.service';
import { useApp } from '../../support/app';
import { ALL, makeWorld, testimonialsOf } from '../../support/factories';

/**
 * An Idempotency-Key left `running` by an API process that died mid-request (process.exit on an unhandled rejection,
 * OOM, SIGKILL after the stop grace: neither the answer nor the connection's close ran to free it) is abandoned after
 * `IDEMPOTENCY_ABANDONED_MS` (docs/decisions/api-conventions.md "Idempotent writes"): the client's retry with the key
 * runs instead of getting 409 `idempotency_key_in_use` for 24 hours. A younger running key is still 409.
 */
describe('Idempotency-Key left running by a crashed process', () => {
  const t = useApp();
  const PATH = '/api/v1/reviews';

  it('is abandoned after 5 minutes, a named constant', () => {
    expect(IDEMPOTENCY_ABANDONED_MS).toBe(5 * 60 * 1000);
  });

  /** A world, a token of its own (so the key row can be written for it) and a review to POST. */
  async function world() {
    const w = await makeWorld();
    const { token, plainText } = await issueToken(w.orgOwner, { name: 'crash test', permissions: ALL, kind: 'customer' });
    const source = await testimonialsOf(w.home);
    const body = { author: 'Ada', rating: 5, published_on: '2026-01-02', organization_id: w.org.id, location_id: w.home.id, source: source.id, message: 'Lovely.' };
    const post = (key: string) => t.http().post(PATH).set('Authorization', `Bearer ${plainText}`).set('Idempotency-Key', key).send(body);
    // The row the crashed process's claim wrote for this very request (same fingerprint), never finished nor freed.
    const fingerprint = requestFingerprint({ method: 'POST', originalUrl: PATH, body, get: (h: string) => (h.toLowerCase() === 'content-type' ? 'application/json' : undefined) } as unknown as Request);
    const crashedClaim = (key: string, ageMs: number) =>
      t.db().query("INSERT INTO idempotency_keys (tenant_id, token_id, idem_key, fingerprint, state, created_at) VALUES (?, ?, ?, ?, 'running', ?)", {
        replacements: [token.tenantId, token.id, key, fingerprint, new Date(Date.now() - ageMs)],
      });
    const keyRows = async (key: string) =>
      t.db().query<{ id: number; state: string; response_status: number | null }>('SELECT id, state, response_status FROM idempotency_keys WHERE token_id = ? AND idem_key = ?', {
        replacements: [token.id, key],
        type: QueryTypes.SELECT,
      });
    const reviews = async () =>
      Number((await t.db().query<{ n: number }>('SELECT COUNT(*) AS n FROM reviews WHERE location_id = ?', { replacements: [w.home.id], type: QueryTypes.SELECT }))[0].n);
    return { post, crashedClaim, keyRows, reviews };
  }

  it('a running key 6 minutes old: the retry with the key is executed (not 409), and the key then replays its answer', async () => {
    const { post, crashedClaim, keyRows, reviews } = await world();
    await crashedClaim('crashed-1', 6 * 60 * 1000);
    const [stale] = await keyRows('crashed-1');

    const retry = await post('crashed-1');
    expect(retry.status).toBe(201);
    expect(retry.headers['idempotent-replayed']).toBeUndefined();
    expect(await reviews()).toBe(1);
    // The abandoned row is gone; the retry's own claim holds the key, with its answer.
    const rows = await keyRows('crashed-1');
    expect(rows).toEqual([{ id: expect.anything(), state: 'done', response_status: 201 }]);
    expect(Number(rows[0].id)).not.toBe(Number(stale.id));

    const again = await post('crashed-1');
    expect([again.status, again.headers['idempotent-replayed'], again.body]).toEqual([201, 'true', retry.body]);
    expect(await reviews()).toBe(1);
  });

  it('a running key 1 minute old is still in use: 409 idempotency_key_in_use, nothing runs, the row stays', async () => {
    const { post, crashedClaim, keyRows, reviews } = await world();
    await crashedClaim('running-1', 60 * 1000);
    const [before] = await keyRows('running-1');

    const retry = await post('running-1');
    expect(retry.status).toBe(409);
    expect(retry.body).toMatchObject({ code: 'idempotency_key_in_use' });
    expect(await reviews()).toBe(0);
    expect(await keyRows('running-1')).toEqual([before]);
  });
});
