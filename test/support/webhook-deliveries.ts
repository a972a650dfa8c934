import { randomUUID } from 'node:crypto';
import { OutboxEvent, WebhookDelivery, WebhookEndpoint, type User } from '../../src/models';
import { principalFor } from '../../src/services/auth.service';
import * as webhooks from '../../src/services/webhooks.service';
import { ALL, makeWorld } from './factories';

/**
 * Webhook deliveries a test file makes directly (no outbox claim, which would touch other files' events), each of its
 * own account with a receiver of its own. After the file its receivers are removed and its undispatched events marked
 * dispatched, so no dispatcher in a later file of the worker meets them. Call inside the `describe`, before
 * useDatabase (its cleanup runs while the database is still open).
 */
export function useOwnDeliveries() {
  const mine: { endpoints: number[]; tenants: number[] } = { endpoints: [], tenants: [] };
  afterAll(async () => {
    if (mine.endpoints.length) await WebhookEndpoint.destroy({ where: { id: mine.endpoints } });
    if (mine.tenants.length) await OutboxEvent.update({ dispatchedAt: new Date() }, { where: { tenantId: mine.tenants, dispatchedAt: null } });
  });
  const as = (user: User) => principalFor(user, { id: 0, kind: 'customer', permissions: ALL });

  /** A new account with a receiver and one pending location-updated delivery to it. */
  async function oneDelivery() {
    const w = await makeWorld();
    const endpoint = (await webhooks.createEndpoint(await as(w.orgOwner), { url: 'https://93.184.215.14/hooks' }, { allowPrivateUrls: false })).endpoint;
    mine.endpoints.push(endpoint.id);
    mine.tenants.push(w.tenant.id);
    const made = await WebhookDelivery.create({
      id: randomUUID(),
      tenantId: w.tenant.id,
      customerId: w.orgOwner.customerId!,
      endpointId: endpoint.id,
      outboxEventId: 0,
      event: 'location-updated',
      payload: JSON.stringify({ webhook_event: 'location-updated', id: 1 }),
    });
    return { w, id: made.id };
  }

  return { as, oneDelivery };
}
