import { WebhookDelivery } from '../../src/models';
import { resumeUnstartedRedeliveries, UNSTARTED_REDELIVERY_MS, type DeliveryRunState } from '../../src/jobs/webhook-delivery';
import { deliveryWorkflowId } from '../../workflows/client';
import { useDatabase } from '../support/db';
import { useOwnDeliveries } from '../support/webhook-deliveries';

/**
 * The sweep of redeliveries whose run never started (`resumeUnstartedRedeliveries`), against the real database with
 * the run states scripted: which deliveries it starts, fails or leaves alone. The e2e test in
 * test/workflows/webhooks.e2e.test.ts runs it against Temporal and a receiver.
 */
describe('redeliveries whose run never started', () => {
  const { oneDelivery } = useOwnDeliveries();
  const db = useDatabase();

  /** A delivery as a redelivery commits it (pending under its own run), last changed `agoMs` ago. */
  async function left(agoMs: number, owner?: (id: string) => string | null) {
    const { id } = await oneDelivery();
    await db().query('UPDATE webhook_deliveries SET status = ?, retry_owner = ?, updated_at = NOW(3) - INTERVAL ? MICROSECOND WHERE id = ?', {
      replacements: ['pending', owner ? owner(id) : deliveryWorkflowId(id), agoMs * 1000, id],
    });
    return id;
  }

  it('starts the run of one whose run is missing or an earlier one, fails one whose own run ended without an outcome, and leaves the rest', async () => {
    const old = UNSTARTED_REDELIVERY_MS + 60_000;
    const missing = await left(old);
    const earlierRun = await left(old);
    const endedWithout = await left(old);
    const going = await left(old);
    const recent = await left(30_000);
    const retryRun = await left(old, () => 'webhook-retries:q:1:0');
    const now = Date.now();
    const states: Record<string, DeliveryRunState> = {
      [missing]: { kind: 'missing' },
      // An earlier run: started before the delivery's last change (whenever it closed).
      [earlierRun]: { kind: 'closed', startedAt: new Date(now - old - 60_000) },
      [endedWithout]: { kind: 'closed', startedAt: new Date(now - 60_000) },
      [going]: { kind: 'running' },
    };
    const mineIds = new Set<string>([missing, earlierRun, endedWithout, going, recent, retryRun]);
    const asked: string[] = [];
    const started: string[] = [];
    const result = await resumeUnstartedRedeliveries(
      {
        state: async (id) => {
          asked.push(id);
          return states[id] ?? { kind: 'running' }; // other files' deliveries: left alone
        },
        start: async (id) => void started.push(id),
      },
      { limit: 1000 },
    );
    const own = (ids: string[]) => ids.filter((id) => mineIds.has(id)).sort();
    expect(own(started)).toEqual([missing, earlierRun].sort());
    expect(own(result.started)).toEqual([missing, earlierRun].sort());
    expect(own(result.failed)).toEqual([endedWithout]);
    // Neither the recent one nor one a receiver's retry run holds is looked at.
    expect(own(asked).sort()).toEqual([missing, earlierRun, endedWithout, going].sort());
    expect(await WebhookDelivery.findByPk(endedWithout)).toMatchObject({ status: 'failed', lastError: expect.stringContaining('ended without an outcome') });
    for (const id of [missing, earlierRun, going, recent, retryRun]) expect((await WebhookDelivery.findByPk(id))!.status).toBe('pending');
  });

  it('leaves a delivery changed meanwhile (a redelivery just now) as it is', async () => {
    const id = await left(UNSTARTED_REDELIVERY_MS + 60_000);
    const result = await resumeUnstartedRedeliveries(
      {
        state: async (asked) => {
          if (asked !== id) return { kind: 'running' }; // other files' deliveries: left alone
          await WebhookDelivery.update({ attempts: 1 }, { where: { id } }); // changed meanwhile (a new run records an attempt)
          return { kind: 'closed', startedAt: new Date() };
        },
        start: async () => undefined,
      },
      { limit: 1000 },
    );
    expect(result.failed).not.toContain(id);
    expect((await WebhookDelivery.findByPk(id))!.status).toBe('pending');
  });
});
