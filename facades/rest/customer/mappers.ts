/** GraphQL selections and their REST shapes, shared by the customer routes. */
import { NotFound } from '../../../src/domain/errors';

export const REVIEW_FIELDS = `
  id organizationId locationId integrationId author publishedAt rating title message
  source sourceLogo avatar reply replyDate hidden verified`;

export interface ReviewData {
  id: number;
  organizationId: number;
  locationId: number;
  integrationId: number;
  author: string;
  publishedAt: string;
  rating: number;
  title: string | null;
  message: string;
  source: string;
  sourceLogo: string;
  avatar: string;
  reply: string | null;
  replyDate: string | null;
  hidden: boolean;
  verified: boolean;
}

export const review = (r: ReviewData) => ({
  id: r.id,
  organization_id: r.organizationId,
  location_id: r.locationId,
  integration_id: r.integrationId,
  author: r.author,
  date: r.publishedAt,
  rating: r.rating,
  title: r.title,
  message: r.message,
  source: r.source,
  source_logo: r.sourceLogo,
  avatar: r.avatar,
  reply: r.reply,
  reply_date: r.replyDate,
  hidden: r.hidden,
  verified: r.verified,
});

export const LOCATION_FIELDS = 'id organizationId name createdAt updatedAt';

export interface LocationData {
  id: number;
  organizationId: number;
  name: string;
  createdAt: string;
  updatedAt: string;
}

export const location = (l: LocationData) => ({
  id: l.id,
  organization_id: l.organizationId,
  name: l.name,
  created_at: l.createdAt,
  updated_at: l.updatedAt,
});

export const ORGANIZATION_FIELDS = `id name defaultLocationId logo createdAt updatedAt locations { ${LOCATION_FIELDS} }`;

export interface OrganizationData {
  id: number;
  name: string;
  defaultLocationId: number | null;
  logo: string | null;
  createdAt: string;
  updatedAt: string;
  locations: LocationData[];
}

export const organization = (o: OrganizationData) => ({
  id: o.id,
  name: o.name,
  default_location_id: o.defaultLocationId,
  logo: o.logo,
  locations: o.locations.map(location),
  created_at: o.createdAt,
  updated_at: o.updatedAt,
});

/** Path ids are positive 32-bit integers (GraphQL Int); anything else names no resource (404, as for an unknown id). */
export function idParam(value: string | undefined, what: string): number {
  if (!value || !/^\d{1,10}$/.test(value) || Number(value) < 1 || Number(value) > 2_147_483_647) throw new NotFound(what);
  return Number(value);
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Path UUIDs (webhook deliveries): anything else names no resource (404). */
export function uuidParam(value: string | undefined, what: string): string {
  if (!value || !UUID.test(value)) throw new NotFound(what);
  return value.toLowerCase();
}

export const WEBHOOK_FIELDS = 'id url description enabled events previousSecretExpiresAt createdAt updatedAt';

export interface WebhookData {
  id: number;
  url: string;
  description: string | null;
  enabled: boolean;
  events: string[] | null;
  previousSecretExpiresAt: string | null;
  createdAt: string;
  updatedAt: string;
}

export const webhook = (w: WebhookData) => ({
  id: w.id,
  url: w.url,
  description: w.description,
  enabled: w.enabled,
  events: w.events,
  previous_secret_expires_at: w.previousSecretExpiresAt,
  created_at: w.createdAt,
  updated_at: w.updatedAt,
});

export const WEBHOOK_DELIVERY_FIELDS = `id endpointId event status attemptCount lastStatusCode lastError deliveredAt payload createdAt updatedAt
  attempts { attempt statusCode latencyMs error responseExcerpt requestHeaders { name value } responseHeaders { name value } createdAt }`;

export interface WebhookDeliveryData {
  id: string;
  endpointId: number;
  event: string;
  status: string;
  attemptCount: number;
  lastStatusCode: number | null;
  lastError: string | null;
  deliveredAt: string | null;
  payload: string;
  createdAt: string;
  updatedAt: string;
  attempts: Array<{
    attempt: number;
    statusCode: number | null;
    latencyMs: number;
    error: string | null;
    responseExcerpt: string | null;
    requestHeaders: HeaderList;
    responseHeaders: HeaderList;
    createdAt: string;
  }>;
}

/** A logged attempt's headers: GraphQL's name/value list, served as one object (names are lower case and unique). */
type HeaderList = Array<{ name: string; value: string }> | null;
const headerObject = (headers: HeaderList): Record<string, string> | null => headers && Object.fromEntries(headers.map((h) => [h.name, h.value]));

export const webhookDelivery = (d: WebhookDeliveryData) => ({
  id: d.id,
  webhook_id: d.endpointId,
  event: d.event,
  status: d.status,
  attempt_count: d.attemptCount,
  last_status_code: d.lastStatusCode,
  last_error: d.lastError,
  delivered_at: d.deliveredAt,
  payload: JSON.parse(d.payload) as unknown,
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
