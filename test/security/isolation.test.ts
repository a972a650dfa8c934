import { randomUUID } from 'node:crypto';
import { QueryTypes } from 'sequelize';
import { TOOLS } from '../../facades/mcp/tools';
import { AGENCY_ROUTES } from '../../facades/rest/agency';
import { CUSTOMER_ROUTES } from '../../facades/rest/customer';
import type { RouteDef } from '../../facades/rest/route';
import { OutboxEvent, Tenant, WebhookDelivery, WebhookEndpoint, type Location, type Organization, type User } from '../../src/models';
import { issueConnectLink } from '../../src/services/connect-links.service';
import { configureGridProviders } from '../../src/services/grid-providers.service';
import { seedDemoScan } from '../../src/services/scans.service';
import { serveApp, type ServedApp } from '../support/app';
import { useDatabase } from '../support/db';
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
  tokenFor,
} from '../support/factories';
import { makeCampaign, makeSentInvite } from '../inbound/support';
import { AI_ALL } from '../mcp/support';

/**
 * The standing tenant-isolation sweep (issue 14; docs/security.md "Standing suite"), generated from the route
 * records (CUSTOMER_ROUTES, AGENCY_ROUTES) and the MCP tool registry, so a route or tool is swept the day it lands.
 *
 * Two tenants with two organisations each. Every route and tool is called by every principal of tenant A (tenant
 * owner, organisation owner, team member; customer, agency and AI tokens) with the ids of objects it must not
 * reach: tenant B's, and, for A's organisation owner and member, A's other organisation's. Every id is sent where
 * the route takes one (path, query, body; for MCP every id argument), together with a plausible body.
 *
 * A finding is any of: a 2xx for a foreign id in the path; a 2xx answer carrying a foreign object's marker; an
 * answer for a foreign id that differs from the answer for an id that does not exist (status and error code: the
 * spec's "404 also for ids outside the caller's scope", so no answer tells a foreign object exists), except the
 * spec's 403 `location_access_denied` for a team member inside its own tenant; a change to any stored row.
 * The same ids go through GraphQL with each route's own document, so the business API is swept alike.
 */
jest.setTimeout(240_000);

const MISSING_INT = 987_654_321;

/** Marker carried by every name of a foreign object: a 2xx answer that contains it leaked one. */
const FOREIGN = 'FOREIGNX';

/** The kind of object each path parameter names, by the collection segment before it. */
type IdKind = 'review' | 'organization' | 'location' | 'webhook' | 'delivery' | 'campaign' | 'customer' | 'order' | 'connectLink' | 'scan';
const PATH_KIND: Record<string, IdKind> = {
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
};

interface Ids {
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
  source: number;
  contact: number;
  contactList: number;
  plan: number;
}

const missingIds = (): Ids => ({
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
  source: MISSING_INT,
  contact: MISSING_INT,
  contactList: MISSING_INT,
  plan: MISSING_INT,
});

/** Every id a query string may carry (unknown keys are ignored by the routes' schemas). */
const queryIds = (i: Ids) => ({ organization_id: i.organization, location_id: i.location, campaign_id: i.campaign, contact_list_id: i.contactList });

/**
 * A plausible body for each write, with the ids it takes. A route missing here fails the sweep: whoever adds a
 * write route says what a caller would send it.
 */
const BODIES: Record<string, (i: Ids) => Record<string, unknown>> = {
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
  'POST /webhook-deliveries/:id/redeliver': () => ({}),
  'POST /request-reviews/campaigns/:campaign/invite': () => ({ email: 'sweep@example.test', first_name: 'Sweep' }),
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
  'POST /scans': () => ({ location: 'Sweep', keywords: ['dentist'], grid_size: 3, distance: 1, distance_unit: 'km', lat: 30.26, lng: -97.74 }),
  'POST /scans/:uuid/run': () => ({}),
  'PUT /scans/:uuid': () => ({ keywords: ['changed'] }),
  'POST /scans/:uuid/archive': () => ({}),
  'POST /scans/:uuid/restore': () => ({}),
  'POST /scans/:uuid/schedule': () => ({ is_scheduled: true, frequency: 'weekly', scheduled_from: '09:00', scheduled_to: '10:00', timezone: 'Europe/Berlin' }),
};

/** MCP arguments that name an object, and the kind of id each takes. */
const MCP_ID_ARGS: Record<string, (i: Ids) => unknown> = {
  organization_id: (i) => i.organization,
  location_id: (i) => i.location,
  review_id: (i) => i.review,
  review_ids: (i) => [i.review],
  campaign_id: (i) => i.campaign,
  contact_id: (i) => i.contact,
  contact_list_id: (i) => i.contactList,
  uuid: (i) => i.scan,
};

function paramsOf(def: RouteDef<never>, ids: Ids): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of def.path.matchAll(/\/([^/]+)\/:([a-z]+)/g)) out[m[2]] = String(ids[PATH_KIND[m[1]]]);
  return out;
}

function pathOf(def: RouteDef<never>, ids: Ids): string {
  return def.path.replace(/\/([^/]+)\/:([a-z]+)/g, (_m, segment: string) => {
    const kind = PATH_KIND[segment];
    if (!kind) throw new Error(`The isolation sweep does not know what ${def.method.toUpperCase()} ${def.path} names: add "${segment}" to PATH_KIND`);
    return `/${segment}/${encodeURIComponent(String(ids[kind]))}`;
  });
}

/** A sample value for a required MCP argument that is not an id, from its JSON Schema. */
function sampleOf(schema: Record<string, unknown>): unknown {
  if (Array.isArray(schema.enum)) return schema.enum[0];
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  if (type === 'string') return schema.format === 'date' ? '2026-01-01' : 'sweep';
  if (type === 'integer' || type === 'number') return typeof schema.minimum === 'number' ? Math.max(schema.minimum, 1) : 3;
  if (type === 'boolean') return true;
  if (type === 'array') return [sampleOf((schema.items as Record<string, unknown>) ?? { type: 'string' })];
  return {};
}

interface Answer {
  status: number;
  /** The error's code or reason ('' for none): two answers that differ here tell the caller something. */
  code: string;
  text: string;
}

async function restCall(origin: string, api: string, method: string, path: string, token: string, query: Record<string, unknown>, body: unknown): Promise<Answer> {
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

async function graphqlCall(origin: string, token: string, document: string, variables: Record<string, unknown>): Promise<Answer> {
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

async function mcpCall(origin: string, token: string, name: string, args: Record<string, unknown>): Promise<Answer> {
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
async function makeSide(tag: string) {
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
      source: source.id,
      contact: contact.id,
      contactList: campaign.contactListId,
      plan: plan.id,
    };
  };
  return {
    tenant,
    users: { owner, owner1, member },
    org1: await objectsOf(org1, home1, owner1, `${tag}1`),
    org2: await objectsOf(org2, home2, owner2, `${tag}2`),
  };
}

interface Principal {
  name: string;
  token: string;
  /** The APIs this token kind is for. */
  apis: ReadonlyArray<'customer' | 'agency' | 'graphql' | 'mcp'>;
}

interface Finding {
  where: string;
  who: string;
  why: string;
}

describe('tenant isolation: every route and tool, every principal, every foreign id', () => {
  const db = useDatabase();
  let served: ServedApp;
  beforeAll(async () => {
    served = await serveApp({ mcp: { perToken: 1_000_000, perWorkspace: 1_000_000, auditFlushMs: 20 } });
  });
  afterAll(async () => {
    await served?.close();
  });

  /** Every table's checksum: a rejected attempt changes no stored row. */
  async function checksums(): Promise<Map<string, string>> {
    const tables = await db().query<{ t: string }>('SELECT table_name AS t FROM information_schema.tables WHERE table_schema = DATABASE() ORDER BY table_name', { type: QueryTypes.SELECT });
    const rows = await db().query<{ Table: string; Checksum: string }>(`CHECKSUM TABLE ${tables.map((x) => `\`${x.t}\``).join(', ')}`, { type: QueryTypes.SELECT });
    return new Map(rows.map((r) => [r.Table.split('.').pop()!, String(r.Checksum)]));
  }

  it('no foreign object is read, changed or told apart from a missing one', async () => {
    const a = await makeSide('ALPHA');
    const b = await makeSide(FOREIGN);
    const customerToken = (u: User) => tokenFor(u);
    const ai = (u: User) => tokenFor(u, AI_ALL, 'ai');
    const principals: Array<Principal & { targets: Array<{ label: string; ids: Ids; sameTenant: boolean; marker: string }> }> = [];
    const crossTenant = [
      { label: 'tenant B org 1', ids: b.org1, sameTenant: false, marker: `${FOREIGN}1` },
      { label: 'tenant B org 2', ids: b.org2, sameTenant: false, marker: `${FOREIGN}2` },
    ];
    const otherOrg = { label: "tenant A's other organisation", ids: a.org2, sameTenant: true, marker: 'ALPHA2' };
    principals.push({ name: 'tenant owner (customer token)', token: await customerToken(a.users.owner), apis: ['customer', 'graphql'], targets: crossTenant });
    principals.push({ name: 'tenant owner (agency token)', token: await tokenFor(a.users.owner, [], 'agency'), apis: ['agency', 'graphql'], targets: crossTenant });
    principals.push({ name: 'tenant owner (AI token)', token: await ai(a.users.owner), apis: ['mcp'], targets: crossTenant });
    for (const [name, user] of [['organisation owner', a.users.owner1], ['team member', a.users.member]] as const) {
      principals.push({ name: `${name} (customer token)`, token: await customerToken(user), apis: ['customer', 'graphql'], targets: [...crossTenant, otherOrg] });
      principals.push({ name: `${name} (AI token)`, token: await ai(user), apis: ['mcp'], targets: [...crossTenant, otherOrg] });
    }
    // Wrong token kinds on each API: refused whatever the id (403 wrong_token_kind before the route is read).
    const refusedKinds: Principal[] = [
      { name: 'agency token on the customer API', token: await tokenFor(a.users.owner, [], 'agency'), apis: ['customer'] },
      { name: 'customer token on the agency API', token: await customerToken(a.users.owner), apis: ['agency'] },
      { name: 'AI token on both REST APIs', token: await ai(a.users.owner), apis: ['customer', 'agency'] },
    ];

    const findings: Finding[] = [];
    const counts = { rest: 0, graphql: 0, mcp: 0, routes: 0, tools: TOOLS.length, principals: principals.length + refusedKinds.length };
    const apis = [
      { key: 'customer' as const, base: '/api/v1', routes: CUSTOMER_ROUTES },
      { key: 'agency' as const, base: '/api/agency/v1', routes: AGENCY_ROUTES },
    ];
    counts.routes = CUSTOMER_ROUTES.length + AGENCY_ROUTES.length;
    const before = await checksums();

    for (const api of apis) {
      for (const def of api.routes) {
        const key = `${def.method.toUpperCase()} ${def.path}`;
        const takesPathId = def.path.includes('/:');
        const bodyOf = def.method === 'get' ? () => ({}) : BODIES[key];
        if (!bodyOf) throw new Error(`The isolation sweep has no sample body for ${key}: add one to BODIES`);
        const writeTakesId = def.method !== 'get' && JSON.stringify(bodyOf(a.org1)) !== JSON.stringify(bodyOf(b.org1));
        // A route that takes no id at all is not a cross-object attempt; a list is still read for leaks below.
        if (!takesPathId && def.method !== 'get' && !writeTakesId) continue;
        const missing = missingIds();
        const request = (ids: Ids) => ({ path: pathOf(def, ids), query: def.method === 'get' ? queryIds(ids) : {}, body: bodyOf(ids) });

        for (const p of principals.filter((x) => x.apis.includes(api.key))) {
          const m = request(missing);
          const control = await restCall(served.origin, api.base, def.method, m.path, p.token, m.query, m.body);
          // The sample must reach the id check: a missing id is a 404 (or the role's own 403, or the spec's 422 naming
          // the id field itself, as "The selected custom plan id is invalid."), never a 422 about the rest of the body.
          const idField422 = control.status === 422 && /"errors":\{"(custom_plan_id|organization_id|location_id|source)":\[[^\]]*\]\}/.test(control.text);
          if ((takesPathId || def.method !== 'get') && control.status !== 404 && control.status !== 403 && !idField422) {
            findings.push({ where: key, who: p.name, why: `a missing id answers ${control.status} ${control.text.slice(0, 160)}: the sample does not reach the id check` });
          }
          for (const target of p.targets) {
            const f = request(target.ids);
            const got = await restCall(served.origin, api.base, def.method, f.path, p.token, f.query, f.body);
            counts.rest++;
            const where = `${key} (${target.label})`;
            if (got.status >= 500 || got.code === '<not json>') findings.push({ where, who: p.name, why: `answered ${got.status} ${got.text.slice(0, 120)}` });
            else if (got.status < 300 && (takesPathId || def.method !== 'get')) findings.push({ where, who: p.name, why: `${got.status} for a foreign id: ${got.text.slice(0, 200)}` });
            else if (got.status < 300 && got.text.includes(target.marker)) findings.push({ where, who: p.name, why: `the answer carries ${target.marker}: ${got.text.slice(0, 200)}` });
            else if (got.status !== control.status || got.code !== control.code) {
              const spec403 = target.sameTenant && p.name.startsWith('team member') && got.status === 403 && got.code === 'location_access_denied';
              if (!spec403) findings.push({ where, who: p.name, why: `answered ${got.status} ${got.code} where a missing id answers ${control.status} ${control.code}` });
            }
          }
          // Through GraphQL, with this route's own document and the variables its REST form builds.
          if (p.apis.includes('graphql')) {
            for (const target of p.targets) {
              let variables: Record<string, unknown>;
              let missingVariables: Record<string, unknown>;
              try {
                const restRequest = (ids: Ids) => {
                  const r = request(ids);
                  return { params: paramsOf(def, ids), query: Object.fromEntries(Object.entries(r.query).map(([k, v]) => [k, String(v)])), body: r.body, files: {}, raw: { get: () => undefined } as never };
                };
                variables = def.variables(restRequest(target.ids));
                missingVariables = def.variables(restRequest(missing));
              } catch {
                continue; // the REST form refuses this input before GraphQL sees it
              }
              const got = await graphqlCall(served.origin, p.token, def.document, variables);
              const control = await graphqlCall(served.origin, p.token, def.document, missingVariables);
              counts.graphql++;
              const where = `graphql ${key} (${target.label})`;
              if (got.status < 300 && (takesPathId || def.method !== 'get')) findings.push({ where, who: p.name, why: `data for a foreign id: ${got.text.slice(0, 200)}` });
              else if (got.text.includes(target.marker)) findings.push({ where, who: p.name, why: `the data carries ${target.marker}` });
              else if (got.code !== control.code) {
                const spec403 = target.sameTenant && p.name.startsWith('team member') && got.code === 'FORBIDDEN';
                if (!spec403) findings.push({ where, who: p.name, why: `${got.code} where a missing id gives ${control.code}` });
              }
            }
          }
        }
        for (const p of refusedKinds.filter((x) => x.apis.includes(api.key))) {
          const f = request(b.org1);
          const got = await restCall(served.origin, api.base, def.method, f.path, p.token, f.query, f.body);
          counts.rest++;
          if (got.status !== 403 || got.code !== 'wrong_token_kind') findings.push({ where: key, who: p.name, why: `answered ${got.status} ${got.code}, not 403 wrong_token_kind` });
        }
      }
    }

    for (const tool of TOOLS) {
      const schema = tool.inputSchema as { properties?: Record<string, Record<string, unknown>>; required?: string[] };
      const props = schema.properties ?? {};
      const idArgs = Object.keys(props).filter((k) => k in MCP_ID_ARGS);
      const argsOf = (ids: Ids) => {
        const args: Record<string, unknown> = {};
        for (const name of schema.required ?? []) args[name] = sampleOf(props[name]);
        for (const name of idArgs) args[name] = MCP_ID_ARGS[name](ids);
        // A scan id is a uuid string; a campaign id is too.
        return args;
      };
      for (const p of principals.filter((x) => x.apis.includes('mcp'))) {
        const control = await mcpCall(served.origin, p.token, tool.name, argsOf(missingIds()));
        for (const target of p.targets) {
          const got = await mcpCall(served.origin, p.token, tool.name, argsOf(target.ids));
          counts.mcp++;
          const where = `mcp ${tool.name} (${target.label})`;
          if (got.text.includes(target.marker)) findings.push({ where, who: p.name, why: `the result carries ${target.marker}: ${got.text.slice(0, 200)}` });
          else if (idArgs.length > 0 && (got.status !== control.status || got.code !== control.code)) {
            const spec403 = target.sameTenant && p.name.startsWith('team member') && got.code.startsWith('-32001/');
            if (!spec403) findings.push({ where, who: p.name, why: `${got.status} ${got.code} where a missing id gives ${control.status} ${control.code}` });
          }
        }
      }
    }

    // Nothing stored changed, except the rows that record the calls themselves.
    const after = await checksums();
    const RECORDS_OF_CALLS = new Set(['api_tokens', 'mcp_audit_log']);
    const changed = [...after.keys()].filter((t) => after.get(t) !== before.get(t) && !RECORDS_OF_CALLS.has(t));
    for (const t of changed) findings.push({ where: t, who: 'the sweep', why: 'a rejected attempt changed stored rows' });

    // The counts the CI log shows (issue 14: routes x principals tried).
    process.stdout.write(
      `isolation sweep: ${counts.routes} REST routes and ${counts.tools} MCP tools x ${counts.principals} principals: ${counts.rest} REST, ${counts.graphql} GraphQL and ${counts.mcp} MCP attempts, ${findings.length} findings\n`,
    );
    if (findings.length) process.stdout.write(findings.map((f) => `FINDING ${f.where} :: ${f.who} :: ${f.why}`).join("\n") + "\n");
    expect(findings).toEqual([]);
    expect(counts.rest).toBeGreaterThan(300);
    expect(counts.mcp).toBeGreaterThan(100);
  });
});
