/** The webhook receiver and delivery resources: GraphQL selections, wire schemas and presenters. */
import { timestamp, url, uuid, z } from '../../shared/presenters/zod';
import { graphql } from '../../shared/graphql';
import type { WebhookDeliveryFieldsFragment, WebhookFieldsFragment } from '../../shared/graphql/graphql';

graphql(`fragment WebhookFields on WebhookEndpoint { id url description enabled events previousSecretExpiresAt createdAt updatedAt }`);

export const Webhook = z
  .object({
    id: z.number().int(),
    url: url(),
    description: z.string().nullable(),
    enabled: z.boolean(),
    events: z.array(z.string()).nullable().openapi({ description: 'The events this receiver gets; null = every event.' }),
    previous_secret_expires_at: timestamp().nullable().openapi({ description: 'While set, deliveries are signed with the previous secret too.' }),
    created_at: timestamp(),
    updated_at: timestamp(),
  })
  .openapi('Webhook');

export const webhook = (w: WebhookFieldsFragment): z.infer<typeof Webhook> => ({
  id: w.id,
  url: w.url,
  description: w.description,
  enabled: w.enabled,
  events: w.events,
  previous_secret_expires_at: w.previousSecretExpiresAt,
  created_at: w.createdAt,
  updated_at: w.updatedAt,
});

graphql(`fragment WebhookDeliveryFields on WebhookDelivery { id endpointId event status attemptCount lastStatusCode lastError deliveredAt payload createdAt updatedAt
  attempts { attempt statusCode latencyMs error responseExcerpt requestHeaders { name value } responseHeaders { name value } createdAt } }`);

/** A logged attempt's headers: GraphQL's name/value list, served as one object (names are lower case and unique). */
type HeaderList = WebhookDeliveryFieldsFragment['attempts'][number]['requestHeaders'];
const headerObject = (headers: HeaderList): Record<string, string> | null => headers && Object.fromEntries(headers.map((h) => [h.name, h.value]));

export const WebhookDeliveryAttempt = z.object({
  attempt: z.number().int(),
  status_code: z.number().int().nullable(),
  latency_ms: z.number().int(),
  error: z.string().nullable(),
  response_excerpt: z.string().nullable().openapi({ description: 'The first KB of the answer: 1024 bytes of UTF-8, cut back to a whole character.' }),
  request_headers: z
    .record(z.string())
    .nullable()
    .openapi({ description: 'The headers sent (content-type, user-agent, webhook-id, webhook-timestamp, webhook-signature); null when no POST was made.' }),
  response_headers: z
    .record(z.string())
    .nullable()
    .openapi({ description: "The receiver's answer headers, names in lower case: at most 50, names cut to 100 and values to 500 characters; null when no answer came." }),
  created_at: timestamp(),
});

export const WebhookDelivery = z
  .object({
    id: uuid(),
    webhook_id: z.number().int(),
    event: z.string(),
    status: z.string().openapi({ example: 'delivered' }),
    attempt_count: z.number().int(),
    last_status_code: z.number().int().nullable(),
    last_error: z.string().nullable(),
    delivered_at: timestamp().nullable(),
    payload: z.record(z.unknown()).openapi({ description: 'The body as sent.' }),
    attempts: z.array(WebhookDeliveryAttempt),
    created_at: timestamp(),
    updated_at: timestamp(),
  })
  .openapi('WebhookDelivery');

export const webhookDelivery = (d: WebhookDeliveryFieldsFragment): z.infer<typeof WebhookDelivery> => ({
  id: d.id,
  webhook_id: d.endpointId,
  event: d.event,
  status: d.status,
  attempt_count: d.attemptCount,
  last_status_code: d.lastStatusCode,
  last_error: d.lastError,
  delivered_at: d.deliveredAt,
  payload: JSON.parse(d.payload) as Record<string, unknown>,
  attempts: d.attempts.map((a) => ({
    attempt: a.attempt,
    status_code: a.statusCode,
    latency_ms: a.latencyMs,
    error: a.error,
    response_excerpt: a.responseExcerpt,
    request_headers: headerObject(a.requestHeaders),
    response_headers: headerObject(a.responseHeaders),
    created_at: a.createdAt,
  })),
  created_at: d.createdAt,
  updated_at: d.updatedAt,
});
