import { z } from 'zod';
import { bool, integer, parseInput, text } from '../../shared/input';
import { envelope, type PageResult } from '../../shared/pagination';
import { route } from '../route';
import {
  idParam,
  uuidParam,
  webhook,
  WEBHOOK_DELIVERY_FIELDS,
  WEBHOOK_FIELDS,
  webhookDelivery,
  type WebhookData,
  type WebhookDeliveryData,
} from './mappers';

/**
 * Outbound webhooks of the caller's account: receivers (`/webhooks`) and their delivery log
 * (`/webhook-deliveries`). See docs/decisions.md, "Outbound webhooks".
 */
const withSecret = (d: { endpoint: WebhookData; secret: string }) => ({ data: { ...webhook(d.endpoint), secret: d.secret } });

const pageQuery = { page: integer('page').optional(), per_page: integer('per_page').optional() };

/** `events`: an array of event names (their check is the service's); not an array is 422 on `events`. */
const eventList = z.array(z.string({ invalid_type_error: 'The events must be strings.' }), { invalid_type_error: 'The events must be an array of event names.' });

export const webhookRoutes = [
  route<{ webhookEndpoints: PageResult<WebhookData> }>({
    method: 'get',
    path: '/webhooks',
    document: `query ($page: Int!, $perPage: Int!) {
      webhookEndpoints(page: $page, perPage: $perPage) { total page perPage items { ${WEBHOOK_FIELDS} } }
    }`,
    variables: (req) => {
      const q = parseInput(z.object(pageQuery), req.query);
      return { page: q.page ?? 1, perPage: q.per_page ?? 10 };
    },
    respond: (d, req) => ({ body: envelope(req, d.webhookEndpoints, webhook) }),
  }),
  route<{ createWebhookEndpoint: { endpoint: WebhookData; secret: string } }>({
    method: 'post',
    path: '/webhooks',
    document: `mutation ($input: CreateWebhookEndpointInput!) {
      createWebhookEndpoint(input: $input) { secret endpoint { ${WEBHOOK_FIELDS} } }
    }`,
    variables: (req) => {
      const b = parseInput(
        z.object({ url: text('url'), description: text('description').nullish(), enabled: bool('enabled').optional(), events: eventList.nullish() }),
        req.body,
      );
      return { input: { url: b.url, description: b.description ?? null, enabled: b.enabled ?? null, events: b.events ?? null } };
    },
    respond: (d) => ({ status: 201, body: withSecret(d.createWebhookEndpoint) }),
  }),
  route<{ webhookEndpoint: WebhookData }>({
    method: 'get',
    path: '/webhooks/:id',
    document: `query ($id: Int!) { webhookEndpoint(id: $id) { ${WEBHOOK_FIELDS} } }`,
    variables: (req) => ({ id: idParam(req.params.id, 'Webhook') }),
    respond: (d) => ({ body: { data: webhook(d.webhookEndpoint) } }),
  }),
  route<{ updateWebhookEndpoint: WebhookData }>({
    method: 'put',
    path: '/webhooks/:id',
    document: `mutation ($id: Int!, $input: UpdateWebhookEndpointInput!) {
      updateWebhookEndpoint(id: $id, input: $input) { ${WEBHOOK_FIELDS} }
    }`,
    variables: (req) => {
      const id = idParam(req.params.id, 'Webhook');
      const b = parseInput(
        z.object({ url: text('url').optional(), description: text('description').nullish(), enabled: bool('enabled').optional(), events: eventList.nullish() }),
        req.body,
      );
      // Only sent fields change; `"description": null` clears the description, `"events": null` subscribes to all.
      const input: Record<string, unknown> = {};
      if (b.url !== undefined) input.url = b.url;
      if (b.description !== undefined) input.description = b.description;
      if (b.enabled !== undefined) input.enabled = b.enabled;
      if (b.events !== undefined) input.events = b.events;
      return { id, input };
    },
    respond: (d) => ({ body: { data: webhook(d.updateWebhookEndpoint) } }),
  }),
  route<{ deleteWebhookEndpoint: { message: string } }>({
    method: 'delete',
    path: '/webhooks/:id',
    document: `mutation ($id: Int!) { deleteWebhookEndpoint(id: $id) { id message } }`,
    variables: (req) => ({ id: idParam(req.params.id, 'Webhook') }),
    respond: (d) => ({ body: { message: d.deleteWebhookEndpoint.message } }),
  }),
  route<{ rotateWebhookSecret: { endpoint: WebhookData; secret: string } }>({
    method: 'post',
    path: '/webhooks/:id/rotate-secret',
    document: `mutation ($id: Int!) { rotateWebhookSecret(id: $id) { secret endpoint { ${WEBHOOK_FIELDS} } } }`,
    variables: (req) => ({ id: idParam(req.params.id, 'Webhook') }),
    respond: (d) => ({ body: withSecret(d.rotateWebhookSecret) }),
  }),
  // Additive (issue 15): a signed ping to the receiver, answered with its status and time.
  route<{ testWebhookEndpoint: { webhookId: string; delivered: boolean; statusCode: number | null; latencyMs: number; error: string | null; responseExcerpt: string | null; sentAt: string } }>({
    method: 'post',
    path: '/webhooks/:id/test',
    document: `mutation ($id: Int!) { testWebhookEndpoint(id: $id) { webhookId delivered statusCode latencyMs error responseExcerpt sentAt } }`,
    variables: (req) => ({ id: idParam(req.params.id, 'Webhook') }),
    respond: ({ testWebhookEndpoint: r }) => ({
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
  route<{ webhookEndpointSecret: string }>({
    method: 'get',
    path: '/webhooks/:id/secret',
    document: `query ($id: Int!) { webhookEndpointSecret(id: $id) }`,
    variables: (req) => ({ id: idParam(req.params.id, 'Webhook') }),
    respond: (d) => ({ body: { data: { secret: d.webhookEndpointSecret } } }),
  }),
  route<{ webhookDeliveries: PageResult<WebhookDeliveryData> }>({
    method: 'get',
    path: '/webhooks/:id/deliveries',
    document: `query ($endpointId: Int, $status: String, $event: String, $page: Int!, $perPage: Int!) {
      webhookDeliveries(endpointId: $endpointId, status: $status, event: $event, page: $page, perPage: $perPage) {
        total page perPage items { ${WEBHOOK_DELIVERY_FIELDS} }
      }
    }`,
    variables: (req) => {
      const endpointId = idParam(req.params.id, 'Webhook');
      const q = parseInput(z.object({ status: text('status').optional(), event: text('event').optional(), ...pageQuery }), req.query);
      return { endpointId, status: q.status || null, event: q.event || null, page: q.page ?? 1, perPage: q.per_page ?? 10 };
    },
    respond: (d, req) => ({ body: envelope(req, d.webhookDeliveries, webhookDelivery) }),
  }),
  route<{ webhookDelivery: WebhookDeliveryData }>({
    method: 'get',
    path: '/webhook-deliveries/:id',
    document: `query ($id: String!) { webhookDelivery(id: $id) { ${WEBHOOK_DELIVERY_FIELDS} } }`,
    variables: (req) => ({ id: uuidParam(req.params.id, 'Webhook delivery') }),
    respond: (d) => ({ body: { data: webhookDelivery(d.webhookDelivery) } }),
  }),
  route<{ redeliverWebhook: WebhookDeliveryData }>({
    method: 'post',
    path: '/webhook-deliveries/:id/redeliver',
    document: `mutation ($id: String!) { redeliverWebhook(id: $id) { ${WEBHOOK_DELIVERY_FIELDS} } }`,
    variables: (req) => ({ id: uuidParam(req.params.id, 'Webhook delivery') }),
    respond: (d) => ({ status: 202, body: { data: webhookDelivery(d.redeliverWebhook) } }),
  }),
];
