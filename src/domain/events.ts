/** Outbound webhook events of the interface (spec: Events > Outbound webhooks); `webhook_event` carries the name. */
export const WEBHOOK_EVENTS = [
  'review-created',
  'review-updated',
  'private-feedback-created',
  'private-feedback-updated',
  'organization-created',
  'organization-updated',
  'organization-deleted',
  'location-created',
  'location-updated',
  'location-deleted',
  'scan-completed',
  'scan-failed',
] as const;

export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

export const isWebhookEvent = (name: string): name is WebhookEvent => (WEBHOOK_EVENTS as readonly string[]).includes(name);
