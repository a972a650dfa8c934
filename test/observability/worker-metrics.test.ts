import { Op } from 'sequelize';
import { OutboxEvent, WebhookAttempt, WebhookDelivery } from '../../src/models';
import { useApp } from '../support/app';
import { makeWorld } from '../support/factories';
import { startReceiver } from '../support/receiver';
import { useTemporalWorker } from '../support/temporal';
import { waitUntil } from '../support/wait';
import { parseMetrics, valueOf } from './prometheus';

/**
 * Issue 13 "Metrics": a worker's activities count webhook delivery attempts by outcome and attempt bucket. The worker
 * runs in this process (as in `npm start`), so the app's /metrics shows its series.
 */
jest.setTimeout(90_000);

describe('webhook_deliveries_total', () => {
  const t = useApp();
  // The counters are the process's: events an earlier file of this Jest worker left undispatched (for endpoints of
  // its own) would be delivered by this file's dispatcher and counted too. They are settled before the worker starts.
  beforeAll(async () => {
    await OutboxEvent.update({ dispatchedAt: new Date() }, { where: { dispatchedAt: null } });
  });
  useTemporalWorker();

  it('counts a failed first attempt and the successful retry by outcome and attempt bucket', async () => {
    const scrape = async () => parseMetrics((await t.http().get('/metrics').expect(200)).text);
    const before = await scrape();
    const w = await makeWorld();
    // The receiver fails the first POST and takes the retry.
    const receiver = await startReceiver((n) => ({ status: n === 1 ? 500 : 204 }));
    try {
      const hook = await t.as(w.tokens.orgOwner).post('/api/v1/webhooks').send({ url: receiver.url });
      expect(hook.status).toBe(201);
      const endpointId: number = hook.body.data.id;
      expect((await t.as(w.tokens.orgOwner).post('/api/v1/organizations').send({ name: 'Metered Org' })).status).toBe(201);
      const delta = (samples: ReturnType<typeof parseMetrics>, outcome: string, attempt: string) =>
        valueOf(samples, 'webhook_deliveries_total', { outcome, attempt }) - valueOf(before, 'webhook_deliveries_total', { outcome, attempt });
      // Every delivery to this receiver settled (the world's own events of the same second may be delivered too).
      await waitUntil(async () => (await WebhookDelivery.count({ where: { endpointId } })) > 0 && (await WebhookDelivery.count({ where: { endpointId, status: 'pending' } })) === 0);
      const mine = (await WebhookDelivery.findAll({ where: { endpointId }, attributes: ['id'] })).map((d) => d.id);
      const after = await scrape();
      expect(delta(after, 'failed', '1')).toBeGreaterThanOrEqual(1);
      expect(delta(after, 'succeeded', '2-3')).toBeGreaterThanOrEqual(1);
      // The counters say exactly what the delivery log says (a loaded machine may time out an attempt or two more).
      const logged = async (attempt: number[], succeeded: boolean) =>
        WebhookAttempt.count({ where: { deliveryId: mine, attempt, ...(succeeded ? { error: null } : { error: { [Op.ne]: null } }) } });
      expect(delta(after, 'failed', '1')).toBe(await logged([1], false));
      expect(delta(after, 'succeeded', '1')).toBe(await logged([1], true));
      expect(delta(after, 'succeeded', '2-3')).toBe(await logged([2, 3], true));
    } finally {
      await receiver.close();
    }
  });
});
