import { WorkflowExecutionAlreadyStartedError } from '@temporalio/client';
import { QueryTypes } from 'sequelize';
import { Conflict, Upstream } from '../../src/domain/errors';
import * as webhooks from '../../src/services/webhooks.service';
import * as delivery from '../../src/jobs/webhook-delivery';
import { useDatabase } from '../support/db';
import { useOwnDeliveries } from '../support/webhook-deliveries';

/**
 * A redelivery whose workflow cannot be started (the engine unreachable) answers 502 `delivery_not_queued` and puts
 * the delivery back exactly as it was: a failed or delivered one does not stay `pending` with `delivered_at` wiped
 * and no run to finish it. Only if the delivery is still as the redelivery left it.
 */
describe('redeliver: a start that fails leaves the delivery as it was', () => {
  const { as, oneDelivery } = useOwnDeliveries();
  const db = useDatabase();
  const unreachable = { deps: { startDelivery: async () => { throw new Error('connect ECONNREFUSED 127.0.0.1:7233'); } } };

  /** The stored row, every column. */
  const row = async (id: string) =>
    (await db().query<Record<string, unknown>>('SELECT * FROM webhook_deliveries WHERE id = ?', { replacements: [id], type: QueryTypes.SELECT }))[0];

  it('a failed delivery stays failed, every column as before, and the caller gets 502 delivery_not_queued', async () => {
    const { w, id } = await oneDelivery();
    await delivery.recordAttempt(id, { attempt: 1, statusCode: 503, latencyMs: 12, error: 'HTTP 503', responseExcerpt: 'down', succeeded: false });
    await delivery.markDeliveryFailed(id, 'receiver down');
    await new Promise((r) => setTimeout(r, 20)); // so a rewritten updated_at would differ
    const before = await row(id);
    expect(before).toMatchObject({ status: 'failed', attempts: 1, retry_owner: null });

    const err = await webhooks.redeliver(await as(w.orgOwner), id, unreachable).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Upstream);
    expect((err as Upstream).reason).toBe('delivery_not_queued');
    expect(await row(id)).toEqual(before);
  });

  it('a delivered one keeps its succeeded status and delivered_at', async () => {
    const { w, id } = await oneDelivery();
    await delivery.recordAttempt(id, { attempt: 1, statusCode: 200, latencyMs: 9, error: null, responseExcerpt: 'ok', succeeded: true });
    await new Promise((r) => setTimeout(r, 20));
    const before = await row(id);
    expect(before.status).toBe('succeeded');
    expect(before.delivered_at).toBeInstanceOf(Date);

    const err = await webhooks.redeliver(await as(w.orgOwner), id, unreachable).catch((e: unknown) => e);
    expect((err as Upstream).reason).toBe('delivery_not_queued');
    expect(await row(id)).toEqual(before);
  });

  it('a pending one held by a retry run is given back to that run, as before', async () => {
    const { w, id } = await oneDelivery();
    const run = 'webhook-retries:q:1:3000';
    await delivery.claimDeliveriesForRetries([id], run);
    await new Promise((r) => setTimeout(r, 20));
    const before = await row(id);
    expect(before).toMatchObject({ status: 'pending', retry_owner: run });
    const err = await webhooks.redeliver(await as(w.orgOwner), id, unreachable).catch((e: unknown) => e);
    expect((err as Upstream).reason).toBe('delivery_not_queued');
    expect(await row(id)).toEqual(before);
  });

  it('is put back only if still as the redelivery left it: an attempt recorded meanwhile keeps its outcome', async () => {
    const { w, id } = await oneDelivery();
    await delivery.markDeliveryFailed(id, 'receiver down');
    // The start reaches the engine, a run delivers, then the answer is lost: the client sees a failure.
    const lost = {
      deps: {
        startDelivery: async (deliveryId: string) => {
          await delivery.recordAttempt(deliveryId, { attempt: 1, statusCode: 200, latencyMs: 5, error: null, responseExcerpt: 'ok', succeeded: true });
          throw new Error('deadline exceeded');
        },
      },
    };
    const err = await webhooks.redeliver(await as(w.orgOwner), id, lost).catch((e: unknown) => e);
    expect((err as Upstream).reason).toBe('delivery_not_queued');
    expect(await row(id)).toMatchObject({ status: 'succeeded', attempts: 1, retry_owner: `webhook:${id}` });
    expect((await row(id)).delivered_at).toBeInstanceOf(Date);
  });

  it('a run of the delivery still going (409 delivery_in_progress) also leaves it as it was', async () => {
    const { w, id } = await oneDelivery();
    await new Promise((r) => setTimeout(r, 20));
    const before = await row(id);
    const running = { deps: { startDelivery: async (deliveryId: string) => { throw new WorkflowExecutionAlreadyStartedError('already started', `webhook:${deliveryId}`, 'deliverWebhook'); } } };
    const err = await webhooks.redeliver(await as(w.orgOwner), id, running).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Conflict);
    expect((err as Conflict).reason).toBe('delivery_in_progress');
    expect(await row(id)).toEqual(before);
  });
});
