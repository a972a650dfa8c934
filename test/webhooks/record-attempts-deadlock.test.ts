import { QueryTypes, Transaction } from 'sequelize';
import * as delivery from '../../src/jobs/webhook-delivery';
import { useDatabase } from '../support/db';
import { waitUntil } from '../support/wait';
import { useOwnDeliveries } from '../support/webhook-deliveries';

/**
 * Recording attempts comes after their POSTs. When InnoDB picks the recording transaction as a deadlock's victim, it is
 * run again rather than failing the activity (whose retry by Temporal would POST the same attempts once more): each
 * attempt ends up logged once and counted once.
 */
describe('recordAttempts: a deadlock victim runs its transaction again', () => {
  const { oneDelivery } = useOwnDeliveries();
  const db = useDatabase();

  /** Whether a transaction of this worker's database waits for a lock on a webhook delivery. */
  const waitsOnDeliveries = async (): Promise<boolean> => {
    const rows = await db().query<{ q: string | null }>(
      `SELECT x.trx_query AS q FROM information_schema.INNODB_TRX x JOIN information_schema.PROCESSLIST p ON p.ID = x.trx_mysql_thread_id
        WHERE x.trx_state = 'LOCK WAIT' AND p.DB = DATABASE()`,
      { type: QueryTypes.SELECT },
    );
    return rows.some((r) => r.q !== null && r.q.includes('`webhook_deliveries`'));
  };

  const count = async (sql: string, id: string) =>
    (await db().query<{ n: number }>(sql, { replacements: [id], type: QueryTypes.SELECT }))[0].n;

  it('logs each attempt once and counts it once after losing a deadlock', async () => {
    const made = await Promise.all([oneDelivery(), oneDelivery(), oneDelivery(), oneDelivery(), oneDelivery()]);
    // The recording locks its deliveries in key order: `first`, then `second`.
    const [first, second, ...others] = made.map((m) => m.id).sort();

    // The other transaction holds `second` and has written more rows than the recording will have when they meet, so
    // InnoDB rolls the recording back (the lighter transaction) when the two wait for each other.
    // READ COMMITTED: it locks the rows it updates and no others (no next-key locks on their neighbours).
    const other = await db().transaction({ isolationLevel: Transaction.ISOLATION_LEVELS.READ_COMMITTED });
    try {
      await db().query(`UPDATE webhook_deliveries SET last_error = 'held by another transaction' WHERE id IN (?)`, {
        replacements: [[second, ...others]],
        transaction: other,
      });
      const attempt = (n: number) => ({ attempt: 1, statusCode: 200, latencyMs: 5 + n, error: null, responseExcerpt: 'ok', succeeded: true });
      const recording = delivery.recordAttempts([
        { deliveryId: first, attempt: attempt(1) },
        { deliveryId: second, attempt: attempt(2) },
      ]);
      const settled = recording.then(
        () => null,
        (e: unknown) => e,
      );
      // The recording has locked `first` and waits for `second`.
      await waitUntil(waitsOnDeliveries, 10_000, 150);
      // Now the other transaction asks for `first`: a deadlock.
      await db().query(`SELECT id FROM webhook_deliveries WHERE id = ? FOR UPDATE`, { replacements: [first], transaction: other });
      await other.commit();
      expect(await settled).toBeNull();
    } catch (e) {
      await other.rollback().catch(() => undefined);
      throw e;
    }

    for (const id of [first, second]) {
      expect(await count('SELECT COUNT(*) AS n FROM webhook_attempts WHERE delivery_id = ?', id)).toBe(1);
      const [row] = await db().query<{ attempts: number; status: string }>('SELECT attempts, status FROM webhook_deliveries WHERE id = ?', {
        replacements: [id],
        type: QueryTypes.SELECT,
      });
      expect(row).toEqual({ attempts: 1, status: 'succeeded' });
    }
  });
});
