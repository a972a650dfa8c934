import { randomUUID } from 'node:crypto';
import { QueryTypes, type Sequelize } from 'sequelize';
import type { AnyRoute } from '../../facades/rest/route';
import { OutboxEvent, Tenant, WebhookDelivery, WebhookEndpoint, type Location, type Organization, type User } from '../../src/models';
import { issueConnectLink } from '../../src/services/connect-links.service';
import { configureGridProviders } from '../../src/services/grid-providers.service';
import { seedDemoScan } from '../../src/jobs/scan-runs';
import { recordAuthorization } from '../../src/services/mcp-oauth.service';
import {
  defaultLocationOf,
  makeOrder,
  makeOrganization,
  makeOrgOwner,
  makePlan,
  makeReview,
  makeTeamMember,
  makeTenant,
  testimonialsOf,
} from '../support/factories';
import { makeCampaign, makeSentInvite } from '../inbound/support';

/**
 * What the standing security sweeps share (issue 14; docs/security.md "Standing suite"): the objects of a tenant,
 * the kind of object each path parameter names, a plausible body for every write route, and how a call is made.
 * A route missing from BODIES or PATH_KIND fails the sweeps: whoever adds a route says what a caller would send it.
 */
export const MISSING_INT = 987_654_321;

/** Marker carried by every name of a foreign object: a 2xx answer that contains it leaked one. */
export const FOREIGN = 'FOREIGNX';

/** The kind of object each path parameter names, by the collection segment before it. */
export type IdKind = 'review' | 'organization' | 'location' | 'webhook' | 'delivery' | 'campaign' | 'customer' | 'order' | 'connectLink' | 'scan' | 'aiAuthorization' | 'reportMonth';
export const PATH_KIND: Record<string, IdKind> = {
  reviews: 'review',
  organizations: 'organization',
  locations: 'location',
  webhooks: 'webhook',
  'webhook-deliveries': 'delivery',
  campaigns: 'campaign',
  customers: 'customer',
  orders: 'order',
  'connect-links': 'connectLink',
  scans: 'scan',
  'ai-authorizations': 'aiAuthorization',
  // A monthly report names its organisation (the segment before) and a month, the same for every side.
  reports: 'reportMonth',
};

export interface Ids {
  review: number;
  organization: number;
  location: number;
  webhook: number;
  delivery: string;
  campaign: string;
  customer: number;
  order: string;
  connectLink: string;
  scan: string;
  aiAuthorization: number;
  source: number;
  contact: number;
  contactList: number;
  plan: number;
  /** Not an id: the month of a report route (`/organizations/:id/reports/:month`), the same on every side. */
  reportMonth: string;
}

export const missingIds = (): Ids => ({
  review: MISSING_INT,
  organization: MISSING_INT,
  location: MISSING_INT,
  webhook: MISSING_INT,
  delivery: randomUUID(),
  campaign: randomUUID(),
  customer: MISSING_INT,
  order: randomUUID(),
  connectLink: 'cl_' + randomUUID().replace(/-/g, ''),
  scan: randomUUID(),
  aiAuthorization: MISSING_INT,
  source: MISSING_INT,
  contact: MISSING_INT,
  contactList: MISSING_INT,
  plan: MISSING_INT,
  reportMonth: '2026-01',
});

/** Every id a query string may carry (unknown keys are ignored by the routes' schemas). */
export const queryIds = (i: Ids) => ({ organization_id: i.organization, location_id: i.location, campaign_id: i.campaign, contact_list_id: i.contactList });

/**
 * A plausible body for each write, with the ids it takes. A route missing here fails the sweep: whoever adds a
 * write route says what a caller would send it.
 */
export const BODIES: Record<string, (i: Ids) => Record<string, unknown>> = {
  'POST /reviews': (i) => ({ author: 'Sweep', rating: 5, published_on: '2026-01-02', organization_id: i.organization, location_id: i.location, source: i.source, message: 'x' }),
  'PUT /reviews/:id': () => ({ rating: 1, message: 'changed' }),
  'POST /reviews/:id/reply': () => ({ message: 'Thanks!' }),
  'DELETE /reviews/:id': () => ({}),
  'POST /organizations': () => ({ name: 'Sweep org' }),
  'PUT /organizations/:id': () => ({ name: 'Renamed' }),
  'DELETE /organizations/:id': () => ({}),
  'POST /locations': (i) => ({ organization_id: i.organization, name: 'Sweep location' }),
  'PUT /locations/:id': () => ({ name: 'Renamed' }),
  'DELETE /locations/:id': () => ({}),
  'POST /webhooks': () => ({ url: 'https://hooks.example.com/sweep', events: ['review-created'] }),
  'PUT /webhooks/:id': () => ({ url: 'https://hooks.example.com/changed' }),
  'DELETE /webhooks/:id': () => ({}),
  'POST /webhooks/:id/rotate-secret': () => ({}),
  'POST /webhooks/:id/test': () => ({}),
  'POST /webhook-deliveries/:id/redeliver': () => ({}),
  'POST /request-reviews/campaigns/:campaign/invite': () => ({ email: 'sweep@example.test', first_name: 'Sweep' }),
  'POST /request-reviews/campaigns/:campaign/invites': () => ({ contacts: [{ email: 'sweep@example.test', first_name: 'Sweep' }, { phone: '+14155552671' }] }),
  'POST /customers': (i) => ({ name: 'Sweep', company: 'Sweep Co', password: 'correct-horse-battery-9', email: `sweep-${randomUUID().slice(0, 8)}@example.test`, custom_plan_id: i.plan }),
  'PUT /customers/:customer': (i) => ({ custom_plan_id: i.plan }),
  'PUT /customers/:customer/location-limit': () => ({ location_limit: 99 }),
  'PUT /customers/:customer/member-limit': () => ({ member_limit: 99 }),
  'POST /customers/:customer/add-credits': () => ({ type: 'email', credits: 100 }),
  'PUT /customers/:customer/pause': () => ({}),
  'PUT /customers/:customer/resume': () => ({}),
  'DELETE /customers/:customer': () => ({}),
  'PUT /orders/:order/ship': () => ({ tracking_url: 'https://track.example.com/1' }),
  'PUT /orders/:order/complete': () => ({}),
  'PUT /orders/:order/cancel': () => ({}),
  'POST /connect-links': (i) => ({ provider: 'google', location_id: i.location }),
  'DELETE /connect-links/:token': () => ({}),
  'POST /scans': () => ({ location: 'Sweep', keywords: ['dentist'], grid_size: 3, distance: 1, distance_unit: 'km', lat: 30.26, lng: -97.74, target_place_id: 'sweep-place' }),
  'POST /scans/:uuid/run': () => ({}),
  'PUT /scans/:uuid': () => ({ keywords: ['changed'], target_place_id: 'sweep-place' }),
  'POST /scans/:uuid/archive': () => ({}),
  'POST /scans/:uuid/restore': () => ({}),
  'DELETE /ai-authorizations/:id': () => ({}),
  'POST /scans/:uuid/schedule': () => ({ is_scheduled: true, frequency: 'weekly', scheduled_from: '09:00', scheduled_to: '10:00', timezone: 'Europe/Berlin' }),
};

/** MCP arguments that name an object, and the kind of id each takes. */
export const MCP_ID_ARGS: Record<string, (i: Ids) => unknown> = {
  organization_id: (i) => i.organization,
  location_id: (i) => i.location,
  review_id: (i) => i.review,
  review_ids: (i) => [i.review],
  campaign_id: (i) => i.campaign,
  contact_id: (i) => i.contact,
  contact_list_id: (i) => i.contactList,
  uuid: (i) => i.scan,
};

export function paramsOf(def: AnyRoute, ids: Ids): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of def.path.matchAll(/\/([^/]+)\/:([a-z]+)/g)) out[m[2]] = String(ids[PATH_KIND[m[1]]]);
  return out;
}

export function pathOf(def: AnyRoute, ids: Ids): string {
  return def.path.replace(/\/([^/]+)\/:([a-z]+)/g, (_m, segment: string) => {
    const kind = PATH_KIND[segment];
    if (!kind) throw new Error(`The isolation sweep does not know what ${def.method.toUpperCase()} ${def.path} names: add "${segment}" to PATH_KIND`);
    return `/${segment}/${encodeURIComponent(String(ids[kind]))}`;
  });
}

/** A sample value for a required MCP argument that is not an id, from its JSON Schema. */
export function sampleOf(schema: Record<string, unknown>): unknown {
  if (Array.isArray(schema.enum)) return schema.enum[0];
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  if (type === 'string') return schema.format === 'date' ? '2026-01-01' : 'sweep';
  if (type === 'integer' || type === 'number') return typeof schema.minimum === 'number' ? Math.max(schema.minimum, 1) : 3;
  if (type === 'boolean') return true;
  if (type === 'array') return [sampleOf((schema.items as Record<string, unknown>) ?? { type: 'string' })];
  return {};
}

export interface Answer {
  status: number;
  /** The error's code or reason ('' for none): two answers that differ here tell the caller something. */
  code: string;
  text: string;
}

export async function restCall(origin: string, api: string, method: string, path: string, token: string, query: Record<string, unknown>, body: unknown): Promise<Answer> {
  const url = new URL(`${origin}${api}${path}`);
  for (const [k, v] of Object.entries(query)) url.searchParams.set(k, String(v));
  const res = await fetch(url, {
    method: method.toUpperCase(),
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json' },
    body: method === 'get' ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  let code = '';
  try {
    const json = JSON.parse(text) as { code?: string; error?: { code?: string } };
    code = json.code ?? json.error?.code ?? '';
  } catch {
    code = '<not json>';
  }
  return { status: res.status, code, text };
}

export async function graphqlCall(origin: string, token: string, document: string, variables: Record<string, unknown>): Promise<Answer> {
  const res = await fetch(`${origin}/graphql`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'apollo-require-preflight': 'true' },
    body: JSON.stringify({ query: document, variables }),
  });
  const text = await res.text();
  const json = JSON.parse(text) as { data?: unknown; errors?: { extensions?: { code?: string } }[] };
  const code = json.errors?.[0]?.extensions?.code ?? '';
  return { status: json.errors?.length ? 400 : res.status, code, text: JSON.stringify(json.data ?? null) };
}

export async function mcpCall(origin: string, token: string, name: string, args: Record<string, unknown>): Promise<Answer> {
  const res = await fetch(`${origin}/api/mcp`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } }),
  });
  const text = await res.text();
  const json = JSON.parse(text) as { error?: { code: number; data?: { reason?: string } }; result?: { isError?: boolean; structuredContent?: { reason?: string } } };
  if (json.error) return { status: 400, code: `${json.error.code}/${json.error.data?.reason ?? ''}`, text: '' };
  if (json.result?.isError) return { status: 409, code: `tool_error/${json.result.structuredContent?.reason ?? ''}`, text };
  return { status: 200, code: '', text };
}

/** A tenant with two organisations under two owners, a team member on the first, and one of everything. */
export async function makeSide(tag: string) {
  const { tenant, owner } = await makeTenant();
  await Tenant.update({ brandName: `${tag} brand` }, { where: { id: tenant.id } });
  await configureGridProviders({ tenantId: tenant.id, mode: 'simulator' });
  const owner1 = await makeOrgOwner(tenant.id);
  const owner2 = await makeOrgOwner(tenant.id);
  const org1 = await makeOrganization(owner1, `${tag} org one`);
  const org2 = await makeOrganization(owner2, `${tag} org two`);
  const home1 = await defaultLocationOf(org1);
  const home2 = await defaultLocationOf(org2);
  const member = await makeTeamMember(tenant.id, org1, [home1]);
  const objectsOf = async (org: Organization, home: Location, orgOwner: User, mark: string): Promise<Ids> => {
    const source = await testimonialsOf(home);
    const review = await makeReview(source, { author: `${mark} author`, message: `${mark} message` });
    const webhook = await WebhookEndpoint.create({ tenantId: tenant.id, customerId: org.customerId, url: `https://hooks.example.com/${mark}`, secret: `whsec_${randomUUID()}`, enabled: true });
    const event = await OutboxEvent.create({ tenantId: tenant.id, customerId: org.customerId, event: 'review-created', aggregateType: 'review', aggregateId: String(review.id), payload: { mark }, occurredAt: new Date(), dispatchedAt: new Date() });
    const delivery = await WebhookDelivery.create({ id: randomUUID(), tenantId: tenant.id, customerId: org.customerId!, endpointId: webhook.id, outboxEventId: Number(event.id), event: 'review-created', payload: JSON.stringify({ mark }), status: 'failed', attempts: 1 });
    const campaign = await makeCampaign(org, home, { name: `${mark} campaign` });
    const { contact } = await makeSentInvite(campaign, { firstName: `${mark}`, lastName: 'Contact' });
    const scan = await seedDemoScan(tenant.id, orgOwner.customerId);
    const link = await issueConnectLink({ tenantId: tenant.id, locationId: home.id, provider: 'google' });
    const order = await makeOrder(tenant.id, { email: `${mark.toLowerCase()}-${randomUUID().slice(0, 6)}@shop.test` });
    const plan = await makePlan(tenant.id, { name: `${mark} plan` });
    const authorization = await recordAuthorization({ userId: orgOwner.id, grantId: `grant-${randomUUID()}`, clientId: `client-${mark}`, clientName: `${mark} assistant`, scopes: ['mcp:access'], organizationIds: null });
    return {
      review: review.id,
      organization: org.id,
      location: home.id,
      webhook: webhook.id,
      delivery: delivery.id,
      campaign: campaign.uuid,
      customer: org.customerId!,
      order: String(order.id),
      connectLink: link.token,
      scan: scan.uuid,
      aiAuthorization: authorization.id,
      source: source.id,
      contact: contact.id,
      contactList: campaign.contactListId,
      plan: plan.id,
      reportMonth: '2026-01',
    };
  };
  return {
    tenant,
    users: { owner, owner1, member },
    org1: await objectsOf(org1, home1, owner1, `${tag}1`),
    org2: await objectsOf(org2, home2, owner2, `${tag}2`),
  };
}

/** Every table's checksum: a rejected attempt changes no stored row. */
export async function checksums(sequelize: Sequelize): Promise<Map<string, string>> {
  const tables = await sequelize.query<{ t: string }>('SELECT table_name AS t FROM information_schema.tables WHERE table_schema = DATABASE() ORDER BY table_name', { type: QueryTypes.SELECT });
  const rows = await sequelize.query<{ Table: string; Checksum: string }>(`CHECKSUM TABLE ${tables.map((x) => `\`${x.t}\``).join(', ')}`, { type: QueryTypes.SELECT });
  return new Map(rows.map((r) => [r.Table.split('.').pop()!, String(r.Checksum)]));
}

/** The tables whose rows record the calls themselves (a token's last use, the MCP audit log): they may change. */
export const RECORDS_OF_CALLS: ReadonlySet<string> = new Set(['api_tokens', 'mcp_audit_log']);

export function changedTables(before: Map<string, string>, after: Map<string, string>): string[] {
  return [...after.keys()].filter((t) => after.get(t) !== before.get(t) && !RECORDS_OF_CALLS.has(t));
}
