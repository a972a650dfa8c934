import { bool, integer, text } from '../../shared/input';
import { envelope } from '../../shared/pagination';
import { dataOf, MessageBody, pageOf } from '../../shared/presenters/common';
import { timestamp, z } from '../../shared/presenters/zod';
import { pathId, pathUuid, route } from '../route';
import { webhook, Webhook, webhookDelivery, WebhookDelivery } from './mappers';
import { graphql } from '../../shared/graphql';
import type { WebhookFieldsFragment } from '../../shared/graphql/graphql';

/**
 * Outbound webhooks of the caller's account: receivers (`/webhooks`) and their delivery log
 * (`/webhook-deliveries`). Additive to the interface; see docs/decisions/webhooks.md, "Outbound webhooks". Managing
 * receivers is for account owners: reads need `organizations:read`, writes `organizations:update` (team members 403);
 * both also `reviews:read`, since receivers get (and the log shows) reviews and private feedback (the GraphQL rule,
 * WEBHOOK_READ and WEBHOOK_WRITE in src/graphql/webhooks/webhook.resolver.ts).
 */
const TAG = 'Webhooks';
const READ = ['organizations:read', 'reviews:read'];
const WRITE = ['organizations:update', 'reviews:read'];
const id = { id: pathId('Webhook', 'The receiver id.') };
const deliveryId = { id: pathUuid('Webhook delivery', 'The delivery id (the `webhook-id` header it was sent with).') };

const WebhookWithSecret = Webhook.extend({ secret: z.string().openapi({ description: 'The signing secret (`whsec_...`): shown on create and rotate.' }) }).openapi(
  'WebhookWithSecret',
);
const withSecret = (d: { endpoint: WebhookFieldsFragment; secret: string }) => ({ data: { ...webhook(d.endpoint), secret: d.secret } });

const pageQuery = { page: integer('page').optional(), per_page: integer('per_page').optional() };

/** `events`: an array of event names (their check is the service's); not an array is 422 on `events`. */
const eventList = z
  .array(z.string({ invalid_type_error: 'The events must be strings.' }), { invalid_type_error: 'The events must be an array of event names.' })
  .openapi({ description: 'Subscribe to these events only; null or absent = every event.', example: ['review-created', 'review-updated'] });

const TestResult = z
  .object({
    webhook_id: z.string().openapi({ description: 'The `webhook-id` the ping was sent with (`ping_<uuid>`).' }),
    delivered: z.boolean(),
    status_code: z.number().int().nullable(),
    latency_ms: z.number().int(),
    error: z.string().nullable(),
    response_excerpt: z.string().nullable(),
    sent_at: timestamp(),
  })
  .openapi('WebhookTestResult');

const common = { tag: TAG } as const;

export const webhookRoutes = [
  route({
    ...common,
    method: 'get',
    path: '/webhooks',
    operationId: 'listWebhooks',
    summary: 'List webhook receivers',
    permissions: READ,
    query: z.object(pageQuery),
    responses: { 200: { description: 'A page of receivers.', schema: pageOf(Webhook) } },
    document: graphql(`query ListWebhooks($page: Int!, $perPage: Int!) {
      webhookEndpoints(page: $page, perPage: $perPage) { total page perPage items { ...WebhookFields } }
    }`),
    variables: ({ query: q }) => ({ page: q.page ?? 1, perPage: q.per_page ?? 10 }),
    respond: (d, req) => ({ body: envelope(req, d.webhookEndpoints, webhook) }),
  }),
  route({
    ...common,
    method: 'post',
    path: '/webhooks',
    operationId: 'createWebhook',
    summary: 'Add a webhook receiver',
    description: 'Public http(s) URLs only; at most 20 receivers per account (422 `webhook_limit`). The answer carries the signing secret.',
    permissions: WRITE,
    body: z.object({
      url: text('url').openapi({ format: 'uri', maxLength: 2048 }),
      description: text('description').nullish(),
      enabled: bool('enabled').optional(),
      events: eventList.nullish(),
    }),
    responses: { 201: { description: 'The receiver with its secret.', schema: dataOf(WebhookWithSecret) } },
    document: graphql(`mutation CreateWebhook($input: CreateWebhookEndpointInput!) {
      createWebhookEndpoint(input: $input) { secret endpoint { ...WebhookFields } }
    }`),
    variables: ({ body: b }) => ({ input: { url: b.url, description: b.description ?? null, enabled: b.enabled ?? null, events: b.events ?? null } }),
    respond: (d) => ({ status: 201, body: withSecret(d.createWebhookEndpoint) }),
  }),
  route({
    ...common,
    method: 'get',
    path: '/webhooks/:id',
    operationId: 'getWebhook',
    summary: 'Get a webhook receiver',
    permissions: READ,
    params: id,
    responses: { 200: { description: 'The receiver.', schema: dataOf(Webhook) } },
    document: graphql(`query GetWebhook($id: Int!) { webhookEndpoint(id: $id) { ...WebhookFields } }`),
    variables: ({ params }) => ({ id: params.id }),
    respond: (d) => ({ body: { data: webhook(d.webhookEndpoint) } }),
  }),
  route({
    ...common,
    method: 'put',
    path: '/webhooks/:id',
    operationId: 'updateWebhook',
    summary: 'Change a webhook receiver',
    description: 'Only sent fields change; `"description": null` clears the description, `"events": null` subscribes to every event.',
    permissions: WRITE,
    params: id,
    body: z.object({
      url: text('url').optional().openapi({ format: 'uri' }),
      description: text('description').nullish(),
      enabled: bool('enabled').optional(),
      events: eventList.nullish(),
    }),
    responses: { 200: { description: 'The receiver after the change.', schema: dataOf(Webhook) } },
    document: graphql(`mutation UpdateWebhook($id: Int!, $input: UpdateWebhookEndpointInput!) {
      updateWebhookEndpoint(id: $id, input: $input) { ...WebhookFields }
    }`),
    variables: ({ params, body: b }) => {
      const input: Record<string, unknown> = {};
      if (b.url !== undefined) input.url = b.url;
      if (b.description !== undefined) input.description = b.description;
      if (b.enabled !== undefined) input.enabled = b.enabled;
      if (b.events !== undefined) input.events = b.events;
      return { id: params.id, input };
    },
    respond: (d) => ({ body: { data: webhook(d.updateWebhookEndpoint) } }),
  }),
  route({
    ...common,
    method: 'delete',
    path: '/webhooks/:id',
    operationId: 'deleteWebhook',
    summary: 'Remove a webhook receiver',
    permissions: WRITE,
    params: id,
    responses: { 200: { description: 'Done.', schema: MessageBody } },
    document: graphql(`mutation DeleteWebhook($id: Int!) { deleteWebhookEndpoint(id: $id) { id message } }`),
    variables: ({ params }) => ({ id: params.id }),
    respond: (d) => ({ body: { message: d.deleteWebhookEndpoint.message } }),
  }),
  route({
    ...common,
    method: 'post',
    path: '/webhooks/:id/rotate-secret',
    operationId: 'rotateWebhookSecret',
    summary: 'Rotate a receiver\'s signing secret',
    description: 'The previous secret keeps signing (a second signature) until `previous_secret_expires_at`.',
    permissions: WRITE,
    params: id,
    responses: { 200: { description: 'The receiver with its new secret.', schema: dataOf(WebhookWithSecret) } },
    document: graphql(`mutation RotateWebhookSecret($id: Int!) { rotateWebhookSecret(id: $id) { secret endpoint { ...WebhookFields } } }`),
    variables: ({ params }) => ({ id: params.id }),
    respond: (d) => ({ body: withSecret(d.rotateWebhookSecret) }),
  }),
  route({
    ...common,
    method: 'post',
    path: '/webhooks/:id/test',
    operationId: 'testWebhook',
    summary: 'Send a signed ping to a receiver',
    description: 'Answers 200 whatever the receiver did (`delivered: false` with the reason); not retried, not in the delivery log.',
    permissions: WRITE,
    params: id,
    responses: { 200: { description: 'What the receiver answered.', schema: dataOf(TestResult) } },
    document: graphql(`mutation TestWebhook($id: Int!) { testWebhookEndpoint(id: $id) { webhookId delivered statusCode latencyMs error responseExcerpt sentAt } }`),
    variables: ({ params }) => ({ id: params.id }),
    respond: ({
      testWebhookEndpoint: r,
    }: {
      testWebhookEndpoint: { webhookId: string; delivered: boolean; statusCode: number | null; latencyMs: number; error: string | null; responseExcerpt: string | null; sentAt: string };
    }) => ({
      body: {
        data: {
          webhook_id: r.webhookId,
          delivered: r.delivered,
          status_code: r.statusCode,
          latency_ms: r.latencyMs,
          error: r.error,
          response_excerpt: r.responseExcerpt,
          sent_at: r.sentAt,
        },
      },
    }),
  }),
  route({
    ...common,
    method: 'get',
    path: '/webhooks/:id/secret',
    operationId: 'getWebhookSecret',
    summary: 'Reveal a receiver\'s current signing secret',
    permissions: WRITE,
    params: id,
    responses: { 200: { description: 'The secret.', schema: dataOf(z.object({ secret: z.string() })) } },
    document: graphql(`query GetWebhookSecret($id: Int!) { webhookEndpointSecret(id: $id) }`),
    variables: ({ params }) => ({ id: params.id }),
    respond: (d) => ({ body: { data: { secret: d.webhookEndpointSecret } } }),
  }),
  route({
    ...common,
    method: 'get',
    path: '/webhooks/:id/deliveries',
    operationId: 'listWebhookDeliveries',
    summary: 'A receiver\'s delivery log',
    permissions: READ,
    params: id,
    query: z.object({
      status: text('status').optional().openapi({ enum: ['pending', 'delivered', 'failed'] }),
      event: text('event').optional(),
      ...pageQuery,
    }),
    responses: { 200: { description: 'A page of deliveries, newest first.', schema: pageOf(WebhookDelivery) } },
    document: graphql(`query ListWebhookDeliveries($endpointId: Int, $status: String, $event: String, $page: Int!, $perPage: Int!) {
      webhookDeliveries(endpointId: $endpointId, status: $status, event: $event, page: $page, perPage: $perPage) {
        total page perPage items { ...WebhookDeliveryFields }
      }
    }`),
    variables: ({ params, query: q }) => ({ endpointId: params.id, status: q.status || null, event: q.event || null, page: q.page ?? 1, perPage: q.per_page ?? 10 }),
    respond: (d, req) => ({ body: envelope(req, d.webhookDeliveries, webhookDelivery) }),
  }),
  route({
    ...common,
    method: 'get',
    path: '/webhook-deliveries/:id',
    operationId: 'getWebhookDelivery',
    summary: 'A delivery with its attempts',
    permissions: READ,
    params: deliveryId,
    responses: { 200: { description: 'The delivery.', schema: dataOf(WebhookDelivery) } },
    document: graphql(`query GetWebhookDelivery($id: String!) { webhookDelivery(id: $id) { ...WebhookDeliveryFields } }`),
    variables: ({ params }) => ({ id: params.id }),
    respond: (d) => ({ body: { data: webhookDelivery(d.webhookDelivery) } }),
  }),
  route({
    ...common,
    method: 'post',
    path: '/webhook-deliveries/:id/redeliver',
    operationId: 'redeliverWebhook',
    summary: 'Send a delivery again',
    description: 'Same `webhook-id` and body; a fresh retry schedule.',
    permissions: WRITE,
    params: deliveryId,
    responses: { 202: { description: 'Accepted: the delivery as queued.', schema: dataOf(WebhookDelivery) } },
    document: graphql(`mutation RedeliverWebhook($id: String!) { redeliverWebhook(id: $id) { ...WebhookDeliveryFields } }`),
    variables: ({ params }) => ({ id: params.id }),
    respond: (d) => ({ status: 202, body: { data: webhookDelivery(d.redeliverWebhook) } }),
  }),
];
