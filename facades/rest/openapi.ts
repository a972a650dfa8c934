import express, { type Router } from 'express';
import { OpenApiGeneratorV31, OpenAPIRegistry, type ResponseConfig, type RouteConfig } from '@asteasolutions/zod-to-openapi';
import { stringify } from 'yaml';
import { ErrorBody, ValidationErrorBody } from '../shared/presenters/common';
import { eventBody, WEBHOOK_EVENTS, type WebhookEventName } from '../shared/presenters/events';
import { z } from '../shared/presenters/zod';
import { AGENCY_ROUTES } from './agency';
import { CUSTOMER_ROUTES } from './customer';
import type { AnyRoute, PathParam } from './route';

/**
 * The OpenAPI 3.1 documents of the two REST APIs, generated from the route records (their permissions, path/query/body
 * schemas and response schemas) and the webhook event schemas: the same zod schemas that parse requests and type the
 * presenters, so the contract cannot drift from the code. `npm run openapi:emit` writes the committed copies
 * (schema/openapi/), `npm run openapi:check` fails when they are stale or when Redocly's linter finds an error; the
 * app serves them at `/api/v1/openapi.json` and `/api/agency/v1/openapi.json` (and `.yaml`).
 */
export type Api = 'customer' | 'agency';
type OpenAPIObject = ReturnType<OpenApiGeneratorV31['generateDocument']>;

const VERSION = '1.0.0';

interface ApiInfo {
  title: string;
  base: string;
  routes: readonly AnyRoute[];
  description: string;
  tokens: string;
}

const APIS: Record<Api, ApiInfo> = {
  customer: {
    title: 'Customer REST API',
    base: '/api/v1',
    routes: CUSTOMER_ROUTES,
    tokens: 'A customer API token, created in the account settings under "API and webhooks". Each operation names the token permissions it needs.',
    description:
      'Reviews, organisations, locations, review-request campaigns, business-profile performance and outbound webhooks of one customer account. ' +
      'Visibility follows the token user\'s dashboard scope: ids outside it answer 404 (or 403 `location_access_denied` where stated).\n\n' +
      'Every POST but the invite (which accepts no key: its rule 9) takes an optional `Idempotency-Key` header (per token, 24 hours). Errors are JSON with a `message` (and a `code` where ' +
      'one is named); validation errors add `errors` per field. Webhook deliveries are signed per Standard Webhooks: see the `webhooks` ' +
      'section and the receiver guide at `/docs/webhooks`.',
  },
  agency: {
    title: 'Agency REST API',
    base: '/api/agency/v1',
    routes: AGENCY_ROUTES,
    tokens: 'An agency-level token of the tenant owner (`reviewgrid token:create --kind agency`); it acts as a super administrator.',
    description:
      'Customer accounts, plans, NFC orders, connect links, Local Search Grid scans and the audit trail of an agency. Every operation needs ' +
      'an agency token of the tenant owner; any other token answers 403.\n\nEvery POST accepts an optional `Idempotency-Key` header.',
  },
};

/** `/reviews/:id` -> `/reviews/{id}` */
export const openApiPath = (expressPath: string): string => expressPath.replace(/:([A-Za-z_]+)/g, '{$1}');

const paramSchema = (p: PathParam) => {
  const s = p.kind === 'id' ? z.number().int().min(1) : p.kind === 'uuid' ? z.string().uuid() : z.string();
  return p.description ? s.openapi({ description: p.description }) : s;
};

const rateLimitHeaders = z.object({
  'X-RateLimit-Limit': z.string().openapi({ description: 'Requests allowed per minute for this token.' }),
  'X-RateLimit-Remaining': z.string().openapi({ description: 'Requests left in the current minute.' }),
});

const json = (schema: z.ZodTypeAny) => ({ 'application/json': { schema } });

const errorResponse = (description: string, schema: z.ZodTypeAny = ErrorBody): ResponseConfig => ({ description, content: json(schema) });

/** The documented error answers of a route: the ones every route has, the input ones, and the route's own. */
function errorResponses(def: AnyRoute, api: Api): Record<string, ResponseConfig> {
  const out: Record<string, ResponseConfig> = {
    401: errorResponse('Missing or invalid token.'),
    403: errorResponse(
      api === 'agency'
        ? 'The token is not an agency token of the tenant owner.'
        : 'The token lacks a needed permission, or the resource is outside the caller\'s scope (`code` says which where named).',
    ),
    429: {
      description: 'Rate limit exceeded.',
      headers: z.object({ 'Retry-After': z.string().openapi({ description: 'Seconds to wait.' }) }),
      content: json(ErrorBody),
    },
  };
  if (def.params || def.query || def.body || def.files?.length) out[404] = errorResponse('Not found, or outside the caller\'s scope.');
  // Any request can carry a body that is not JSON, or not an object: 422 everywhere, with the fields at fault.
  out[422] = errorResponse('Validation failed, the body is not a JSON object, or a named rule (`code`) refused the request.', ValidationErrorBody);
  // Customer writes: a paused account may read, not write (402 `subscription_paused`); plan limits are 402 too.
  if (def.errors?.includes(402) || (api === 'customer' && def.method !== 'get')) {
    out[402] = errorResponse('A plan limit or plan feature is needed (`upgrade_required`), or the account is paused (`subscription_paused`).');
  }
  if (def.errors?.includes(409) || (def.method === 'post' && def.idempotencyKey !== false)) out[409] = errorResponse('Already in the requested state, or the same `Idempotency-Key` is still running.');
  if (def.errors?.includes(502)) out[502] = errorResponse('The review platform refused the request.');
  out[400] = errorResponse('The request could not be read (for example a path that is not valid percent-encoding).');
  if (def.method !== 'get') {
    out[413] = errorResponse('The request body is too large.');
    out[415] = errorResponse('The body\'s content encoding or charset is not supported.');
  }
  return out;
}

function requestOf(def: AnyRoute): RouteConfig['request'] {
  const request: NonNullable<RouteConfig['request']> = {};
  const params = Object.entries((def.params ?? {}) as Record<string, PathParam>);
  if (params.length) request.params = z.object(Object.fromEntries(params.map(([name, p]) => [name, paramSchema(p)])));
  if (def.query) request.query = def.query;
  if (def.method === 'post' && def.idempotencyKey !== false) {
    request.headers = z.object({
      'Idempotency-Key': z
        .string()
        .min(1)
        .max(255)
        .optional()
        .openapi({ description: 'Repeat a POST safely: the same key and request within 24 hours answers the first response again (`Idempotent-Replayed: true`).' }),
    });
  }
  if (def.body || def.files?.length) {
    const body = (def.body ?? z.object({})) as z.AnyZodObject;
    const content: Record<string, { schema: z.ZodTypeAny }> = { 'application/json': { schema: body } };
    if (def.files?.length) {
      const files = Object.fromEntries(
        def.files.map((f) => [f, z.string().optional().openapi({ format: 'binary', description: 'png, jpg, jpeg or svg; at most 250 KB.' })]),
      );
      content['multipart/form-data'] = { schema: body.extend(files) };
    }
    request.body = { required: def.method !== 'put', content };
  }
  return request;
}

function describe(def: AnyRoute, api: Api): string {
  const needs =
    api === 'agency'
      ? 'Needs an agency token of the tenant owner.'
      : def.permissions?.length
        ? `Needs the token permission${def.permissions.length > 1 ? 's' : ''} ${def.permissions.map((p) => `\`${p}\``).join(' and ')}.`
        : 'Any valid token.';
  return [def.description, needs].filter(Boolean).join('\n\n');
}

function register(registry: OpenAPIRegistry, def: AnyRoute, api: Api): void {
  const responses: Record<string, ResponseConfig> = {};
  for (const [status, r] of Object.entries(def.responses)) {
    const content = r.mediaTypes ? Object.fromEntries(r.mediaTypes.map((t) => [t, { schema: r.schema }])) : json(r.schema);
    responses[status] = { description: r.description, headers: rateLimitHeaders, content };
  }
  registry.registerPath({
    method: def.method,
    path: openApiPath(def.path),
    operationId: def.operationId,
    summary: def.summary,
    description: describe(def, api),
    tags: [def.tag],
    security: [{ bearerAuth: [] }],
    'x-permissions': api === 'agency' ? ['agency'] : (def.permissions ?? []),
    request: requestOf(def),
    responses: { ...responses, ...errorResponses(def, api) },
  });
}

const SIGNATURE_HEADERS = z.object({
  'webhook-id': z.string().openapi({ description: 'The delivery id: the same on every attempt (deduplicate on it).' }),
  'webhook-timestamp': z.string().openapi({ description: 'Unix seconds of this attempt; refuse ones too far from your clock.' }),
  'webhook-signature': z.string().openapi({
    description: 'Space-separated `v1,<base64 HMAC-SHA256>` of `<webhook-id>.<webhook-timestamp>.<body>` with the base64-decoded part of the secret after `whsec_`; two during a secret rotation.',
  }),
  'user-agent': z.string().openapi({ example: 'Reviewgrid-Webhooks/V1' }),
});

function registerWebhooks(registry: OpenAPIRegistry): void {
  for (const name of Object.keys(WEBHOOK_EVENTS) as WebhookEventName[]) {
    const ev = WEBHOOK_EVENTS[name];
    registry.registerWebhook({
      method: 'post',
      path: name,
      operationId: `${name.replace(/-([a-z])/g, (_m, c: string) => c.toUpperCase())}Event`,
      summary: ev.summary,
      description:
        'POSTed to every enabled receiver subscribed to the event, as JSON, with a 30-second timeout; any 2xx acknowledges it. Other answers and ' +
        'timeouts are retried up to 10 times over 5 minutes with the same `webhook-id`.',
      tags: ['Webhook events'],
      request: { headers: SIGNATURE_HEADERS, body: { required: true, content: json(eventBody(name)) } },
      responses: { 200: { description: 'Any 2xx acknowledges the delivery.' } },
    });
  }
}

const TAGS: Record<string, string> = {
  Reviews: 'Reviews from every connected source; custom and testimonial reviews can be written.',
  Organizations: 'Organisations of the account, each with its locations.',
  Locations: 'Business locations: what reviews, campaigns and profiles belong to.',
  'Reference data': 'Review sources, countries and the token\'s user.',
  Webhooks: 'Outbound webhook receivers and their delivery log (additive to the interface).',
  Campaigns: 'Review-request campaigns and invites by email and SMS.',
  'Business profile': 'Google Business Profile performance: metrics and search terms.',
  'Webhook events': 'What the platform POSTs to your receivers.',
  Customers: 'The agency\'s customer accounts: plans, limits, credits, pause and resume.',
  Plans: 'The agency\'s custom plans.',
  'NFC orders': 'NFC review-card orders and their shipping.',
  'Connect links': 'Single-use links a customer opens to connect Google or Facebook.',
  'Local Search Grid': 'Map-rank scans across a grid of pins around a business.',
  Audit: 'Who changed what on the agency side.',
  'AI authorizations': 'AI clients (MCP) a user allowed through OAuth sign-in: listed and revoked here.',
};

const cache = new Map<Api, OpenAPIObject>();

/** The OpenAPI 3.1 document of one API (built once per process). */
export function openApiDocument(api: Api): OpenAPIObject {
  const cached = cache.get(api);
  if (cached) return cached;
  const info = APIS[api];
  const registry = new OpenAPIRegistry();
  registry.registerComponent('securitySchemes', 'bearerAuth', { type: 'http', scheme: 'bearer', description: info.tokens });
  for (const def of info.routes) register(registry, def, api);
  if (api === 'customer') registerWebhooks(registry);
  const doc = new OpenApiGeneratorV31(registry.definitions).generateDocument({
    openapi: '3.1.0',
    info: { title: info.title, version: VERSION, description: info.description, license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' } },
    servers: [{ url: info.base, description: 'This server (the white-label domain the document was read from).' }],
    security: [{ bearerAuth: [] }],
    tags: [...new Set(info.routes.map((r) => r.tag)), ...(api === 'customer' ? ['Webhook events'] : [])].map((name) => ({ name, description: TAGS[name] ?? name })),
  });
  if (doc.webhooks && Object.keys(doc.webhooks).length === 0) delete doc.webhooks;
  cache.set(api, doc);
  return doc;
}

export const openApiJson = (api: Api): string => `${JSON.stringify(openApiDocument(api), null, 2)}\n`;
export const openApiYaml = (api: Api): string => stringify(openApiDocument(api), { aliasDuplicateObjects: false });

/** `GET {base}/openapi.json` and `{base}/openapi.yaml` of both APIs: public (the contract is no secret), cacheable. */
export function openApiRouter(): Router {
  const router = express.Router();
  for (const api of ['customer', 'agency'] as Api[]) {
    const { base } = APIS[api];
    router.get(`${base}/openapi.json`, (_req, res) => {
      res.set('Cache-Control', 'public, max-age=300').type('application/json').send(openApiJson(api));
    });
    router.get(`${base}/openapi.yaml`, (_req, res) => {
      res.set('Cache-Control', 'public, max-age=300').type('application/yaml').send(openApiYaml(api));
    });
  }
  return router;
}
