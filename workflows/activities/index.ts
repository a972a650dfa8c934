import type { Config } from '../../src/config';
import { claimPendingEvents, loadDeliveryForAttempt, markDeliveryFailed, markEventDispatched, recordAttempt } from '../../src/services/webhooks.service';
import { signatureHeaders } from '../../src/webhooks/signing';
import { assertDeliverableUrl } from '../../src/webhooks/url';
import { startDeliveryWorkflow } from '../client';
import { createOutboxActivities } from './outbox';
import { createWebhookActivities } from './webhooks';

/** The fixed product identifier of outbound webhooks; the `/V1` suffix is the interface's version. */
export const WEBHOOK_USER_AGENT = 'Reviewgrid-Webhooks/V1';

/** Every activity of the worker, wired to the services (the workflows only ever see their types). */
export function buildActivities(config: Pick<Config, 'WEBHOOK_TIMEOUT_MS' | 'WEBHOOK_ALLOW_PRIVATE_URLS'>) {
  const allowPrivate = config.WEBHOOK_ALLOW_PRIVATE_URLS === 'true';
  return {
    ...createWebhookActivities({
      async load(deliveryId) {
        const d = await loadDeliveryForAttempt(deliveryId);
        return d && { id: d.id, status: d.status, body: d.body, url: d.url, secrets: d.secrets };
      },
      record: (deliveryId, attempt) => recordAttempt(deliveryId, attempt),
      fail: (deliveryId, reason) => markDeliveryFailed(deliveryId, reason),
      sign: (input) => ({ ...signatureHeaders(input) }),
      async checkUrl(url) {
        await assertDeliverableUrl(url, { allowPrivate });
      },
      timeoutMs: config.WEBHOOK_TIMEOUT_MS,
      userAgent: WEBHOOK_USER_AGENT,
      now: () => new Date(),
    }),
    ...createOutboxActivities({
      claim: (limit) => claimPendingEvents(limit),
      markDispatched: (eventId) => markEventDispatched(eventId),
      startDelivery: (deliveryId) => startDeliveryWorkflow(deliveryId),
    }),
  };
}
