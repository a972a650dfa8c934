import { randomUUID } from 'node:crypto';
import { parse, type DocumentNode, type SelectionNode } from 'graphql';
import { QueryTypes, type Sequelize } from 'sequelize';
import type { AnyRoute } from '../../facades/rest/route';
import {
  ContactList,
  Location,
  McpAuditEntry,
  MessagingSetting,
  OutboxEvent,
  PrivateFeedback,
  ScanSnapshot,
  Tenant,
  User,
  WebhookDelivery,
  WebhookEndpoint,
  type Organization,
} from '../../src/models';
import { issueToken } from '../../src/services/auth.service';
import * as autoRespond from '../../src/services/auto-respond.service';
import { issueConnectLink } from '../../src/services/connect-links.service';
import { configureGridProviders } from '../../src/services/grid-providers.service';
import { seedDemoScan } from '../../src/jobs/scan-runs';
import { recordAuthorization } from '../../src/services/mcp-oauth.service';
import { hashPassword } from '../../src/services/admin.service';
import * as drafts from '../../src/services/reply-drafts.service';
import {
  ALL,
  defaultLocationOf,
  makeLocation,
  makeOrder,
  makeOrganization,
  makeOrgOwner,
  makePlan,
  makeReview,
  makeTeamMember,
  makeTenant,
  testimonialsOf,
} from '../support/factories';
import { setAutoRespondFeature } from '../auto-respond/support';
import { makeCampaign, makeConnection, makeSentInvite, ownerPrincipal } from '../inbound/support';
import { connect, register } from '../oauth/connect-support';
import { Browser } from '../oauth/mcp-support';

/**
 * What the standing security sweeps share (issue 14; docs/security.md "Standing suite"): the objects of a tenant,
 * the kind of object each path parameter names, a plausible body for every write route, and how a call is made.
 * A route missing from BODIES or PATH_KIND fails the sweeps: whoever adds a route says what a caller would send it.
 */
export const MISSING_INT = 987_654_321;

/** Marker carried by every name of a foreign object: a 2xx answer that contains it leaked one. */
export const FOREIGN = 'FOREIGNX';

/** The tool name of the MCP audit entries makeSide seeds. */
export const AUDIT_MARK_TOOL = 'sweep_marked_call';

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
  replyDraft: number;
  privateFeedback: number;
  /** A team member of the organisation's account. */
  teamMember: number;
  /** An API token of the organisation's owner. */
  apiToken: number;
  autoRespondRule: number;
  inboundConnection: string;
  /** Not an id: the e-mail address of the organisation's owner (a test message may go only to the caller's own users). */
  userEmail: string;
  /** A run of the scan (its snapshots' run id). */
  scanRun: string;
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
  replyDraft: MISSING_INT,
  privateFeedback: MISSING_INT,
  teamMember: MISSING_INT,
  apiToken: MISSING_INT,
  autoRespondRule: MISSING_INT,
  inboundConnection: randomUUID(),
  userEmail: `nobody-${randomUUID().slice(0, 8)}@example.test`,
  scanRun: randomUUID(),
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

/**
 * GraphQL operations no REST route or MCP tool sends (the business API's own: team, tokens, drafts, feedback,
 * campaigns and lists, rules, inbound connections, messaging, integrations, the MCP audit log, agency reads), each
 * with the ids it takes. How each is judged (`kind`):
 *
 * - `object`: names one object: for a foreign id it answers what it answers for a missing one, one of `refusals`
 *   (NOT_FOUND or FORBIDDEN unless said), never data.
 * - `filter`: a list narrowed by an id: for a foreign id it answers what it answers for a missing one.
 * - `list`: names nothing: it shows no foreign object; the principals in `shows` see their own objects in it (so the
 *   list is known to answer at all).
 * - `own`: a write on the caller's own account that names nothing: it changes no row of another account (tried last,
 *   see rowsOf).
 *
 * `unassignedLocation`: the spec's answer to a team member for an object at a location of its own organisation it
 * is not assigned, where that is not a missing id's ("403 location_access_denied where stated").
 * Every Query and Mutation field is swept by a route, a tool or this table, or says in NOT_SWEPT why not.
 */
export interface GraphqlOperation {
  field: string;
  /** Told apart from another entry of the same field (a list with and without its filter). */
  label?: string;
  kind: 'object' | 'filter' | 'list' | 'own';
  document: string;
  variables?: (i: Ids) => Record<string, unknown>;
  refusals?: readonly string[];
  unassignedLocation?: string;
  shows?: ReadonlyArray<'organisation owner' | 'team member' | 'tenant owner'>;
}

const OWNERS = ['organisation owner', 'team member'] as const;
/** The spec's 403 for a location outside a team member's assigned scope (campaigns are named by their location). */
const DENIED = 'FORBIDDEN/location_access_denied';
const STEP = '{ channel: "email", subject: "How did we do?", body: "Hi {first_name}, {review_link}" }';

export const GRAPHQL_OPERATIONS: readonly GraphqlOperation[] = [
  // Team and API tokens.
  { field: 'teamMembers', kind: 'list', document: 'query { teamMembers { id name email } }', shows: ['organisation owner'] },
  {
    field: 'addTeamMember',
    kind: 'object',
    document: 'mutation ($o: Int!, $l: [Int!]!, $e: String!) { addTeamMember(input: { organizationId: $o, locationIds: $l, email: $e, name: "Sweep", permissions: [] }) { id name } }',
    variables: (i) => ({ o: i.organization, l: [i.location], e: `sweep-${randomUUID().slice(0, 8)}@example.test` }),
  },
  {
    field: 'setTeamMemberAccess',
    kind: 'object',
    document: 'mutation ($u: Int!, $o: Int!, $l: [Int!]!) { setTeamMemberAccess(input: { userId: $u, organizationId: $o, locationIds: $l, permissions: [] }) { id name } }',
    variables: (i) => ({ u: i.teamMember, o: i.organization, l: [i.location] }),
  },
  { field: 'apiTokens', kind: 'list', document: 'query { apiTokens { id name } }', shows: ['organisation owner'] },
  { field: 'createApiToken', kind: 'own', document: 'mutation { createApiToken(input: { name: "Sweep", permissions: ["reviews:read"] }) { token { id name } } }' },
  { field: 'revokeApiToken', kind: 'object', document: 'mutation ($id: Int!) { revokeApiToken(id: $id) { id name revokedAt } }', variables: (i) => ({ id: i.apiToken }) },
  // Reply drafts (the approvals queue).
  { field: 'replyDrafts', kind: 'list', document: 'query { replyDrafts(perPage: 100) { total items { id message } } }', shows: OWNERS },
  {
    field: 'replyDrafts',
    label: 'replyDrafts (filtered)',
    kind: 'filter',
    document: 'query ($o: Int, $l: Int, $r: Int) { replyDrafts(organizationId: $o, locationId: $l, reviewId: $r, perPage: 100) { total items { id message } } }',
    variables: (i) => ({ o: i.organization, l: i.location, r: i.review }),
  },
  { field: 'replyDraft', kind: 'object', document: 'query ($id: Int!) { replyDraft(id: $id) { id message } }', variables: (i) => ({ id: i.replyDraft }) },
  { field: 'approveReplyDraft', kind: 'object', document: 'mutation ($id: Int!) { approveReplyDraft(id: $id, input: { message: "Thanks!" }) { id status } }', variables: (i) => ({ id: i.replyDraft }) },
  { field: 'rejectReplyDraft', kind: 'object', document: 'mutation ($id: Int!) { rejectReplyDraft(id: $id, input: { reason: "No" }) { id status } }', variables: (i) => ({ id: i.replyDraft }) },
  // Private feedback.
  { field: 'privateFeedbacks', kind: 'list', document: 'query { privateFeedbacks(perPage: 100) { total items { id author message } } }', shows: OWNERS },
  {
    field: 'privateFeedbacks',
    label: 'privateFeedbacks (filtered)',
    kind: 'filter',
    document: 'query ($o: Int, $l: Int) { privateFeedbacks(organizationId: $o, locationId: $l, perPage: 100) { total items { id author message } } }',
    variables: (i) => ({ o: i.organization, l: i.location }),
  },
  { field: 'privateFeedback', kind: 'object', document: 'query ($id: Int!) { privateFeedback(id: $id) { id author message } }', variables: (i) => ({ id: i.privateFeedback }) },
  {
    field: 'replyToPrivateFeedback',
    kind: 'object',
    document: 'mutation ($id: Int!) { replyToPrivateFeedback(id: $id, input: { message: "Sorry" }) { id reply } }',
    variables: (i) => ({ id: i.privateFeedback }),
  },
  { field: 'updatePrivateFeedback', kind: 'object', document: 'mutation ($id: Int!) { updatePrivateFeedback(id: $id, input: { rating: 2 }) { id rating } }', variables: (i) => ({ id: i.privateFeedback }) },
  // Campaigns, contacts and contact lists.
  { field: 'campaigns', kind: 'list', document: 'query { campaigns(perPage: 100) { total items { id name } } }', shows: OWNERS },
  {
    field: 'campaign',
    kind: 'object',
    document: 'query ($id: String!) { campaign(id: $id) { id name } }',
    variables: (i) => ({ id: i.campaign }),
    unassignedLocation: DENIED,
  },
  {
    field: 'createCampaign',
    kind: 'object',
    document: `mutation ($o: Int!, $l: Int!, $c: Int) { createCampaign(input: { organizationId: $o, locationId: $l, contactListId: $c, name: "Sweep", steps: [${STEP}] }) { id name } }`,
    variables: (i) => ({ o: i.organization, l: i.location, c: i.contactList }),
  },
  { field: 'updateCampaign', kind: 'object', document: 'mutation ($id: String!) { updateCampaign(id: $id, input: { name: "Renamed" }) { id name } }', variables: (i) => ({ id: i.campaign }), unassignedLocation: DENIED },
  { field: 'pauseCampaign', kind: 'object', document: 'mutation ($id: String!) { pauseCampaign(id: $id) { id paused } }', variables: (i) => ({ id: i.campaign }), unassignedLocation: DENIED },
  { field: 'resumeCampaign', kind: 'object', document: 'mutation ($id: String!) { resumeCampaign(id: $id) { id paused } }', variables: (i) => ({ id: i.campaign }), unassignedLocation: DENIED },
  { field: 'deleteCampaign', kind: 'object', document: 'mutation ($id: String!) { deleteCampaign(id: $id) { __typename } }', variables: (i) => ({ id: i.campaign }), unassignedLocation: DENIED },
  { field: 'contacts', kind: 'list', document: 'query { contacts(perPage: 100) { total items { id firstName } } }', shows: OWNERS },
  { field: 'contact', kind: 'object', document: 'query ($id: ID!) { contact(id: $id) { id firstName } }', variables: (i) => ({ id: String(i.contact) }) },
  { field: 'contactActivity', kind: 'object', document: 'query ($id: ID!) { contactActivity(contactId: $id) { id detail } }', variables: (i) => ({ id: String(i.contact) }) },
  { field: 'contactLists', kind: 'list', document: 'query { contactLists(perPage: 100) { total items { id name } } }', shows: OWNERS },
  {
    field: 'contactLists',
    label: 'contactLists (filtered)',
    kind: 'filter',
    document: 'query ($o: Int) { contactLists(organizationId: $o, perPage: 100) { total items { id name } } }',
    variables: (i) => ({ o: i.organization }),
  },
  { field: 'createContactList', kind: 'object', document: 'mutation ($o: Int) { createContactList(input: { organizationId: $o, name: "Sweep" }) { id name } }', variables: (i) => ({ o: i.organization }) },
  { field: 'updateContactList', kind: 'object', document: 'mutation ($id: Int!) { updateContactList(id: $id, input: { name: "Renamed" }) { id name } }', variables: (i) => ({ id: i.contactList }) },
  { field: 'deleteContactList', kind: 'object', document: 'mutation ($id: Int!) { deleteContactList(id: $id) { __typename } }', variables: (i) => ({ id: i.contactList }) },
  // Auto-respond rules.
  { field: 'autoRespondRule', kind: 'object', document: 'query ($id: Int!) { autoRespondRule(id: $id) { id name template } }', variables: (i) => ({ id: i.autoRespondRule }) },
  {
    field: 'createAutoRespondRule',
    kind: 'object',
    document: 'mutation ($o: Int!, $l: Int) { createAutoRespondRule(input: { organizationId: $o, locationId: $l, name: "Sweep", ratings: [5], template: "Thanks!", paused: true }) { id name } }',
    variables: (i) => ({ o: i.organization, l: i.location }),
  },
  { field: 'updateAutoRespondRule', kind: 'object', document: 'mutation ($id: Int!) { updateAutoRespondRule(id: $id, input: { name: "Renamed" }) { id name } }', variables: (i) => ({ id: i.autoRespondRule }) },
  { field: 'deleteAutoRespondRule', kind: 'object', document: 'mutation ($id: Int!) { deleteAutoRespondRule(id: $id) { __typename } }', variables: (i) => ({ id: i.autoRespondRule }) },
  // Inbound connections.
  {
    field: 'inboundConnections',
    kind: 'filter',
    document: 'query ($c: String) { inboundConnections(campaignId: $c, perPage: 100) { total items { id name campaignId } } }',
    variables: (i) => ({ c: i.campaign }),
  },
  { field: 'inboundConnection', kind: 'object', document: 'query ($id: String!) { inboundConnection(id: $id) { id name endpointUrl } }', variables: (i) => ({ id: i.inboundConnection }) },
  { field: 'inboundSubmissions', kind: 'object', document: 'query ($id: String!) { inboundSubmissions(connectionId: $id) { total items { id outcome } } }', variables: (i) => ({ id: i.inboundConnection }) },
  {
    field: 'createInboundConnection',
    kind: 'object',
    document: 'mutation ($c: String!) { createInboundConnection(input: { campaignId: $c, name: "Sweep", mapping: { email: "email" } }) { id name } }',
    variables: (i) => ({ c: i.campaign }),
  },
  { field: 'updateInboundConnection', kind: 'object', document: 'mutation ($id: String!) { updateInboundConnection(id: $id, input: { name: "Renamed" }) { id name } }', variables: (i) => ({ id: i.inboundConnection }) },
  { field: 'deleteInboundConnection', kind: 'object', document: 'mutation ($id: String!) { deleteInboundConnection(id: $id) { __typename } }', variables: (i) => ({ id: i.inboundConnection }) },
  { field: 'regenerateInboundToken', kind: 'object', document: 'mutation ($id: String!) { regenerateInboundToken(id: $id) { id endpointUrl } }', variables: (i) => ({ id: i.inboundConnection }) },
  { field: 'setInboundSigningSecret', kind: 'object', document: 'mutation ($id: String!) { setInboundSigningSecret(id: $id) { __typename } }', variables: (i) => ({ id: i.inboundConnection }) },
  { field: 'clearInboundSigningSecret', kind: 'object', document: 'mutation ($id: String!) { clearInboundSigningSecret(id: $id) { id signed } }', variables: (i) => ({ id: i.inboundConnection }) },
  // Messaging settings: the caller's own account's, named by nothing but the channel.
  {
    field: 'messagingSettings',
    kind: 'list',
    document: 'query { messagingSettings { channel configured email { host fromEmail fromName } sms { accountSid fromNumber } } }',
    shows: ['organisation owner'],
  },
  { field: 'setEmailSettings', kind: 'own', document: 'mutation { setEmailSettings(input: { host: "93.184.215.14", port: 587, fromEmail: "sweep@example.com", fromName: "Sweep" }) { channel configured } }' },
  { field: 'setSmsSettings', kind: 'own', document: 'mutation { setSmsSettings(input: { accountSid: "ACsweep", authToken: "sweep-secret", fromNumber: "+14155552671" }) { channel configured } }' },
  { field: 'clearMessagingSettings', kind: 'own', document: 'mutation { clearMessagingSettings(channel: "sms") { channel configured } }' },
  // Through platform mail a test message goes only to a user of the caller's account: another account's user is refused as an unknown address is.
  {
    field: 'sendTestMessage',
    kind: 'object',
    document: 'mutation ($to: String!) { sendTestMessage(input: { channel: "email", to: $to }) { to sender } }',
    variables: (i) => ({ to: i.userEmail }),
    refusals: ['VALIDATION', 'FORBIDDEN'],
  },
  // Account and agency settings: the caller's own.
  { field: 'account', kind: 'list', document: 'query { account { id name email } }' },
  { field: 'setAccountLanguage', kind: 'own', document: 'mutation { setAccountLanguage(language: "en") { id language } }' },
  { field: 'setAccountReportEmails', kind: 'own', document: 'mutation { setAccountReportEmails(enabled: true) { id reportEmails } }' },
  { field: 'setTenantLanguage', kind: 'own', document: 'mutation { setTenantLanguage(language: "en") { __typename } }' },
  { field: 'setTenantBrandColor', kind: 'own', document: 'mutation { setTenantBrandColor(color: "#336699") { __typename } }' },
  // Sources, locations and what lists them.
  { field: 'integrations', kind: 'object', document: 'query ($l: Int!) { integrations(locationId: $l) { id name } }', variables: (i) => ({ l: i.location }) },
  { field: 'createCustomSource', kind: 'object', document: 'mutation ($l: Int!) { createCustomSource(input: { locationId: $l, name: "Sweep" }) { id name } }', variables: (i) => ({ l: i.location }) },
  { field: 'reviews', kind: 'list', document: 'query { reviews(perPage: 100) { total items { id author message } } }', shows: OWNERS },
  { field: 'locations', kind: 'list', document: 'query { locations(perPage: 100) { total items { id name } } }', shows: OWNERS },
  { field: 'organizations', kind: 'list', document: 'query { organizations(perPage: 100) { total items { id name locations { id name } } } }', shows: OWNERS },
  { field: 'writableSources', kind: 'list', document: 'query { writableSources(perPage: 100) { total items { id name locationId } } }' },
  {
    field: 'reviewMetrics',
    kind: 'object',
    document: 'query ($l: Int) { reviewMetrics(locationId: $l) { totals { __typename } } }',
    variables: (i) => ({ l: i.location }),
    unassignedLocation: DENIED,
  },
  { field: 'tagReviews', kind: 'object', document: 'mutation ($r: [Int!]!) { tagReviews(reviewIds: $r, attachTags: ["sweep"]) { reviewId tags } }', variables: (i) => ({ r: [i.review] }) },
  { field: 'scanRun', kind: 'object', document: 'query ($id: String!) { scanRun(id: $id) { id scanUuid status } }', variables: (i) => ({ id: i.scanRun }) },
  { field: 'scanReportPage', kind: 'object', document: 'query ($u: String!) { scanReportPage(uuid: $u) { __typename } }', variables: (i) => ({ u: i.scan }) },
  // The MCP audit log (tenant owners) and the agency's customers.
  {
    field: 'mcpAuditLog',
    kind: 'list',
    document: `query { mcpAuditLog(tool: "${AUDIT_MARK_TOOL}", perPage: 100) { total items { correlationId tool argumentsJson } } }`,
    shows: ['tenant owner'],
  },
  {
    field: 'mcpAuditLog',
    label: 'mcpAuditLog (filtered)',
    kind: 'filter',
    document: 'query ($t: Int) { mcpAuditLog(tokenId: $t, perPage: 100) { total items { correlationId tool argumentsJson } } }',
    variables: (i) => ({ t: i.apiToken }),
  },
  { field: 'agencyCustomer', kind: 'object', document: 'query ($id: Int!) { agencyCustomer(id: $id) { id name email } }', variables: (i) => ({ id: i.customer }) },
  { field: 'agencyCustomerCredits', kind: 'object', document: 'query ($id: Int!) { agencyCustomerCredits(id: $id, type: "email") }', variables: (i) => ({ id: i.customer }) },
];

/**
 * Operations the sweeps do not try, and why: the page and webhook operations whose credential is a secret of the link
 * or endpoint itself (an invite, connect link, unsubscribe or endpoint token), not a token's scope, and the caller's
 * own identity.
 */
export const NOT_SWEPT: Record<string, string> = {
  me: "the caller's own user",
  tenant: "the caller's own agency",
  countries: 'reference data',
  scanCost: 'names no object: the cost of the scan its input describes (POST /scans with dry_run)',
  feedbackPage: "an invite's review page: the invite UUID is the credential",
  openReviewLink: "an invite's review page: the invite UUID is the credential",
  sendPrivateFeedback: "an invite's review page: the invite UUID is the credential",
  unsubscribePage: 'the unsubscribe page: the signed link token is the credential',
  unsubscribe: 'the unsubscribe page: the signed link token is the credential',
  connectPage: 'the connect page: the link token is the credential',
  connectSelection: 'the connect page: the link token is the credential',
  connectBrandForState: "the connect page: the sign-in's OAuth state is the credential",
  startConnectSignIn: 'the connect page: the link token and its form token are the credential',
  completeConnectSignIn: "the connect page: the sign-in's OAuth state is the credential",
  selectConnectBusiness: "the connect page: the link token and the sign-in's nonce are the credential",
  inboundEndpoint: "the inbound webhook: the endpoint token is the credential",
  receiveInboundSubmission: 'the inbound webhook: the endpoint token is the credential',
};

/** The root fields of a GraphQL document (text or parsed), also those of the fragments it spreads at its root. */
export function rootFieldsOf(document: string | DocumentNode): string[] {
  const doc = typeof document === 'string' ? parse(document) : document;
  const fragments = new Map(doc.definitions.flatMap((d) => (d.kind === 'FragmentDefinition' ? [[d.name.value, d] as const] : [])));
  const fieldsOf = (selections: readonly SelectionNode[]): string[] =>
    selections.flatMap((s) => {
      if (s.kind === 'Field') return [s.name.value];
      if (s.kind === 'InlineFragment') return fieldsOf(s.selectionSet.selections);
      const fragment = fragments.get(s.name.value);
      return fragment ? fieldsOf(fragment.selectionSet.selections) : [];
    });
  return doc.definitions.flatMap((d) => (d.kind === 'OperationDefinition' ? fieldsOf(d.selectionSet.selections) : []));
}

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
  /** GraphQL: the error's `reason` ('' for none), which tells the caller as much as its code. */
  reason?: string;
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
  const json = JSON.parse(text) as { data?: unknown; errors?: { message?: string; extensions?: { code?: string; reason?: string } }[] };
  const code = json.errors?.[0]?.extensions?.code ?? '';
  const reason = json.errors?.[0]?.extensions?.reason ?? '';
  // The data, and the errors' messages: a message naming a foreign object tells as much as data would.
  const messages = (json.errors ?? []).map((e) => e.message ?? '');
  return { status: json.errors?.length ? 400 : res.status, code, reason, text: JSON.stringify(json.data ?? null) + (messages.length ? ` ${JSON.stringify(messages)}` : '') };
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

/**
 * A tenant with two organisations under two owners, a team member on the first organisation's home location, one of
 * everything at each organisation, and a second location of the first organisation that the member is not assigned
 * (`org1Unassigned`: the objects there carry the marker `<tag>1L2`).
 */
export async function makeSide(tag: string) {
  const { tenant, owner } = await makeTenant();
  await Tenant.update({ brandName: `${tag} brand` }, { where: { id: tenant.id } });
  await configureGridProviders({ tenantId: tenant.id, mode: 'simulator' });
  const owner1 = await makeOrgOwner(tenant.id);
  const owner2 = await makeOrgOwner(tenant.id);
  // Both owners' accounts are on the tenant's default plan: with the feature, the rule operations reach their id check.
  await setAutoRespondFeature(owner1.customerId!, true);
  await setAutoRespondFeature(owner2.customerId!, true);
  const org1 = await makeOrganization(owner1, `${tag}1 organisation`);
  const org2 = await makeOrganization(owner2, `${tag}2 organisation`);
  const home1 = await defaultLocationOf(org1);
  const home2 = await defaultLocationOf(org2);
  const member = await makeTeamMember(tenant.id, org1, [home1]);
  const unassigned1 = await makeLocation(org1, `${tag}1L2 location`);

  /** What a location holds: a review and its reply draft, a campaign with a contact and its private feedback, a rule, an inbound connection. */
  const locationObjects = async (org: Organization, home: Location, orgOwner: User, mark: string) => {
    await Location.update({ name: `${mark} location` }, { where: { id: home.id } });
    const source = await testimonialsOf(home);
    const review = await makeReview(source, { author: `${mark} author`, message: `${mark} message` });
    const campaign = await makeCampaign(org, home, { name: `${mark} campaign` });
    await ContactList.update({ name: `${mark} list` }, { where: { id: campaign.contactListId } });
    const { contact, invite } = await makeSentInvite(campaign, { firstName: `${mark}`, lastName: 'Contact' });
    const owner = await ownerPrincipal(orgOwner);
    const draft = await drafts.createDraft(owner, { reviewId: review.id, message: `${mark} draft` });
    const feedback = await PrivateFeedback.create({
      tenantId: tenant.id,
      customerId: org.customerId,
      organizationId: org.id,
      locationId: home.id,
      campaignId: campaign.id,
      contactId: contact.id,
      inviteId: invite.id,
      rating: 1,
      author: `${mark} feedback`,
      email: `${mark.toLowerCase()}@feedback.test`,
      phone: '',
      message: `${mark} feedback message`,
      source: 'link',
      sourceName: `${mark} campaign`,
      meta: {},
    } as never);
    const rule = await autoRespond.createRule(owner, { organizationId: org.id, locationId: home.id, name: `${mark} rule`, ratings: [5], template: `${mark} thanks`, paused: true });
    const { view: connection } = await makeConnection(orgOwner, campaign, { name: `${mark} connection` });
    const link = await issueConnectLink({ tenantId: tenant.id, locationId: home.id, provider: 'google' });
    return {
      review: review.id,
      location: home.id,
      campaign: campaign.uuid,
      connectLink: link.token,
      source: source.id,
      contact: contact.id,
      contactList: campaign.contactListId,
      replyDraft: draft.id,
      privateFeedback: feedback.id,
      autoRespondRule: rule.id,
      inboundConnection: connection.id,
    };
  };

  const objectsOf = async (org: Organization, home: Location, orgOwner: User, mark: string): Promise<Ids> => {
    const located = await locationObjects(org, home, orgOwner, mark);
    const webhook = await WebhookEndpoint.create({ tenantId: tenant.id, customerId: org.customerId, url: `https://hooks.example.com/${mark}`, secret: `whsec_${randomUUID()}`, enabled: true });
    const event = await OutboxEvent.create({ tenantId: tenant.id, customerId: org.customerId, event: 'review-created', aggregateType: 'review', aggregateId: String(located.review), payload: { mark }, occurredAt: new Date(), dispatchedAt: new Date() });
    const delivery = await WebhookDelivery.create({ id: randomUUID(), tenantId: tenant.id, customerId: org.customerId!, endpointId: webhook.id, outboxEventId: Number(event.id), event: 'review-created', payload: JSON.stringify({ mark }), status: 'failed', attempts: 1 });
    const scan = await seedDemoScan(tenant.id, orgOwner.customerId);
    const run = await ScanSnapshot.findOne({ where: { scanId: scan.id } });
    const order = await makeOrder(tenant.id, { email: `${mark.toLowerCase()}-${randomUUID().slice(0, 6)}@shop.test` });
    const plan = await makePlan(tenant.id, { name: `${mark} plan` });
    const authorization = await recordAuthorization({ userId: orgOwner.id, grantId: `grant-${randomUUID()}`, clientId: `client-${mark}`, clientName: `${mark} assistant`, scopes: ['mcp:access'], organizationIds: null });
    const teamMember = await makeTeamMember(tenant.id, org, [home]);
    await User.update({ name: `${mark} member` }, { where: { id: teamMember.id } });
    const { token } = await issueToken(orgOwner, { name: `${mark} token`, permissions: ALL, kind: 'customer' });
    // The account's own SMS sender (the e-mail channel stays on platform mail, where a test message goes only to the account's users).
    await MessagingSetting.create({ tenantId: tenant.id, customerId: org.customerId, channel: 'sms', config: { accountSid: `${mark}-sid`, fromNumber: '+14155550100', baseUrl: null }, secretEncrypted: null } as never);
    // One call in the MCP audit log, found by its tool name (the sweep's own calls fill the log's first pages).
    await McpAuditEntry.create({ tenantId: tenant.id, customerId: org.customerId, tokenId: token.id, userId: orgOwner.id, method: 'tools/call', tool: AUDIT_MARK_TOOL, arguments: { note: mark }, resultCode: 0, durationMs: 1, correlationId: `${mark}-call` } as never);
    return {
      ...located,
      organization: org.id,
      webhook: webhook.id,
      delivery: delivery.id,
      customer: org.customerId!,
      order: String(order.id),
      scan: scan.uuid,
      scanRun: run!.runId,
      aiAuthorization: authorization.id,
      plan: plan.id,
      reportMonth: '2026-01',
      teamMember: teamMember.id,
      apiToken: token.id,
      userEmail: orgOwner.email,
    };
  };
  const org1Ids = await objectsOf(org1, home1, owner1, `${tag}1`);
  return {
    tenant,
    users: { owner, owner1, member },
    org1: org1Ids,
    org2: await objectsOf(org2, home2, owner2, `${tag}2`),
    /**
     * The objects at the first organisation's location the member is not assigned; what is not at a location (the
     * organisation itself, the account's objects) is the member's own, so those ids are missing ones here.
     */
    org1Unassigned: { ...missingIds(), ...(await locationObjects(org1, unassigned1, owner1, `${tag}1L2`)) } as Ids,
  };
}

/**
 * An MCP client's OAuth access token for `user`, who grants it on the consent page every scope but only the
 * organisations `organizationIds` (signing in with a password set here).
 */
export async function oauthGrantOf(origin: string, user: User, organizationIds: number[]): Promise<string> {
  const password = `pw-${randomUUID()}`;
  await User.update({ passwordHash: await hashPassword(password) }, { where: { id: user.id } });
  const client = await register(origin);
  const { issued } = await connect(origin, new Browser(), {
    clientId: client.client_id,
    email: user.email,
    password,
    consent: () => ({ scope: ['mcp:writes', 'reviews:pii'], organizations: 'some', organization: organizationIds.map(String) }),
  });
  if (issued.status !== 200) throw new Error(`OAuth token exchange: ${issued.status} ${JSON.stringify(issued.json)}`);
  return issued.json.access_token;
}

/** Columns that record a call itself (an OAuth grant's last use): left out of its table's checksum. */
export const COLUMNS_RECORDING_CALLS: Readonly<Record<string, readonly string[]>> = { mcp_authorizations: ['last_used_at'] };

/** A checksum of the rows of `table` matching `where` (every column but `leaveOut`): count and a sum of row hashes. */
async function rowsChecksum(sequelize: Sequelize, table: string, leaveOut: readonly string[], where = '1 = 1', replacements: unknown[] = []): Promise<string> {
  const columns = await sequelize.query<{ c: string }>('SELECT column_name AS c FROM information_schema.columns WHERE table_schema = DATABASE() AND table_name = ? ORDER BY ordinal_position', {
    replacements: [table],
    type: QueryTypes.SELECT,
  });
  const kept = columns.map((x) => x.c).filter((c) => !leaveOut.includes(c));
  const [row] = await sequelize.query<{ n: number; h: string }>(
    `SELECT COUNT(*) AS n, COALESCE(SUM(CRC32(CONCAT_WS('|', ${kept.map((c) => `IFNULL(HEX(\`${c}\`), 'NULL')`).join(', ')}))), 0) AS h FROM \`${table}\` WHERE ${where}`,
    { replacements, type: QueryTypes.SELECT },
  );
  return `${row.n}:${row.h}`;
}

/** Every table's checksum: a rejected attempt changes no stored row. */
export async function checksums(sequelize: Sequelize): Promise<Map<string, string>> {
  const tables = await sequelize.query<{ t: string }>('SELECT table_name AS t FROM information_schema.tables WHERE table_schema = DATABASE() ORDER BY table_name', { type: QueryTypes.SELECT });
  const rows = await sequelize.query<{ Table: string; Checksum: string }>(`CHECKSUM TABLE ${tables.map((x) => `\`${x.t}\``).join(', ')}`, { type: QueryTypes.SELECT });
  const out = new Map(rows.map((r) => [r.Table.split('.').pop()!, String(r.Checksum)]));
  for (const [table, leaveOut] of Object.entries(COLUMNS_RECORDING_CALLS)) if (out.has(table)) out.set(table, await rowsChecksum(sequelize, table, leaveOut));
  return out;
}

/**
 * The checksum of every table's rows of one owner (`tenant_id` or `customer_id` equal to `id`, and the tenant's or
 * account's own row): the operations on the caller's own account (GraphQL `own`) change its own rows, and must change
 * no one else's.
 */
export async function rowsOf(sequelize: Sequelize, column: 'tenant_id' | 'customer_id', id: number): Promise<Map<string, string>> {
  const tables = await sequelize.query<{ t: string }>('SELECT table_name AS t FROM information_schema.columns WHERE table_schema = DATABASE() AND column_name = ? ORDER BY table_name', {
    replacements: [column],
    type: QueryTypes.SELECT,
  });
  const out = new Map<string, string>();
  for (const { t } of tables) {
    if (RECORDS_OF_CALLS.has(t)) continue;
    out.set(t, await rowsChecksum(sequelize, t, COLUMNS_RECORDING_CALLS[t] ?? [], `\`${column}\` = ?`, [id]));
  }
  // And the owner's own row.
  const own = column === 'tenant_id' ? 'tenants' : 'customers';
  out.set(`${own} (its row)`, await rowsChecksum(sequelize, own, [], 'id = ?', [id]));
  return out;
}

/** The tables whose rows record the calls themselves (a token's last use, the MCP audit log): they may change. */
export const RECORDS_OF_CALLS: ReadonlySet<string> = new Set(['api_tokens', 'mcp_audit_log']);

export function changedTables(before: Map<string, string>, after: Map<string, string>): string[] {
  return [...after.keys()].filter((t) => after.get(t) !== before.get(t) && !RECORDS_OF_CALLS.has(t));
}
