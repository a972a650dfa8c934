import { arr, bool, date, id, input, int, nullable, object, page, pageOf, paginated, perPage, str } from '../schema';
import { organizationScopeVariables } from '../scope';
import { defineTool, READ_ONLY, redactFields, redactRows, redactText } from '../tool';
import { graphql } from '../../shared/graphql';
import type { CampaignFieldsFragment, ContactFieldsFragment } from '../../shared/graphql/graphql';

/**
 * Review-request campaigns and their contacts (GraphQL `campaigns`, `contacts`, `contact`, `contactActivity`).
 * Campaigns and contacts have an integer id (what these tools take and return as `id`) and a UUID (the REST API's
 * id, returned as `uuid`). Metric and counter definitions: docs/decisions/review-requests.md ("Review-request campaigns").
 */
const ts = (extra = {}) => str({ format: 'date-time', ...extra });
const count = () => int({ minimum: 0 });

graphql(`fragment CampaignFields on Campaign { id internalId name organizationId locationId contactListId paused pausedAt reviewUrl feedbackThreshold steps { channel delayHours } metrics { invitesSent invitesFailed invitesScheduled clicks feedbackCount } createdAt updatedAt }`);

const campaignSchema = object({
  id: int({ description: 'Integer campaign id (the campaign_id argument).' }),
  uuid: str({ description: 'The campaign UUID (the REST API id).' }),
  name: str(),
  organization_id: int(),
  location_id: int(),
  contact_list_id: int(),
  paused: bool(),
  paused_at: nullable(ts()),
  review_url: nullable(str({ description: 'Where ratings above feedback_threshold are sent.' })),
  feedback_threshold: int({ minimum: 1, maximum: 4, description: 'Ratings at or below it go to the private feedback form.' }),
  steps: arr(object({ channel: str({ description: 'email, sms or messaging.' }), delay_hours: count() })),
  metrics: object({
    invites_sent: count(),
    invites_failed: count(),
    invites_scheduled: int({ minimum: 0, description: 'Invites waiting for their send time.' }),
    clicks: int({ minimum: 0, description: 'Invites whose review link was opened (once per invite).' }),
    feedback_count: int({ minimum: 0, description: 'Private feedback received through the campaign.' }),
  }),
  created_at: ts(),
  updated_at: ts(),
});

const campaign = (c: CampaignFieldsFragment) => ({
  id: c.internalId,
  uuid: c.id,
  name: c.name,
  organization_id: c.organizationId,
  location_id: c.locationId,
  contact_list_id: c.contactListId,
  paused: c.paused,
  paused_at: c.pausedAt,
  review_url: c.reviewUrl,
  feedback_threshold: c.feedbackThreshold,
  steps: c.steps.map((s) => ({ channel: s.channel, delay_hours: s.delayHours })),
  metrics: {
    invites_sent: c.metrics.invitesSent,
    invites_failed: c.metrics.invitesFailed,
    invites_scheduled: c.metrics.invitesScheduled,
    clicks: c.metrics.clicks,
    feedback_count: c.metrics.feedbackCount,
  },
  created_at: c.createdAt,
  updated_at: c.updatedAt,
});

interface ListCampaignsArgs {
  campaign_id?: number;
  organization_id?: number;
  date_from?: string;
  date_to?: string;
  page: number;
  per_page: number;
}

export const listCampaigns = defineTool({
  name: 'list_campaigns',
  title: 'List review-request campaigns',
  description:
    'Lists the review-request campaigns this token may see, newest first, each with its organisation, location, contact ' +
    'list, steps (channel and delay), paused state and metrics: invites sent, failed and scheduled, clicks on the review ' +
    'link and private feedback received. Filter by campaign_id (integer id), organization_id and creation dates ' +
    '(date_from, date_to). Use list_contacts for the people a campaign reaches.',
  inputSchema: input({
    campaign_id: id('Only this campaign (its integer id).'),
    organization_id: id('Only campaigns of this organisation.'),
    date_from: date('Created on or after this day'),
    date_to: date('Created on or before this day'),
    page: page(),
    per_page: perPage(50, 25),
  }),
  outputSchema: paginated(campaignSchema),
  annotations: READ_ONLY,
  permission: 'campaigns.view',
  document: graphql(`query McpListCampaigns($checkScope: Boolean!, $organizationId: Int, $campaignId: Int, $dateFrom: String, $dateTo: String, $page: Int!, $perPage: Int!) {
    ...OrganizationScope
    campaigns(organizationId: $organizationId, campaignId: $campaignId, dateFrom: $dateFrom, dateTo: $dateTo, page: $page, perPage: $perPage) {
      total page perPage items { ...CampaignFields }
    }
  }`),
  variables: (a: ListCampaignsArgs) => ({
    ...organizationScopeVariables(a),
    campaignId: a.campaign_id ?? null,
    dateFrom: a.date_from ?? null,
    dateTo: a.date_to ?? null,
    page: a.page,
    perPage: a.per_page,
  }),
  result: (d) => pageOf(d.campaigns, campaign),
});

graphql(`fragment ContactFields on Contact { id internalId contactListId firstName lastName email phone subscribed unsubscribedAt engagement { invitesSent lastInvitedAt clicks feedbackCount } createdAt }`);
/** The personal fields of a contact: "name" in the spec's words is the first and the last name. */
const CONTACT_PII = ['first_name', 'last_name', 'email', 'phone'] as const;

const personal = (what: string) => nullable(str({ description: `${what}; "[redacted]" unless include_pii is true.` }));
const contactSchema = object({
  id: int({ description: 'Integer contact id (the contact_id of get_contact_activity).' }),
  uuid: str({ description: 'The contact UUID (the id the invite endpoint answers).' }),
  contact_list_id: int(),
  first_name: personal('First name'),
  last_name: personal('Last name'),
  email: personal('E-mail address'),
  phone: personal('Phone number (E.164)'),
  subscribed: bool({ description: 'false once the person unsubscribed from review requests.' }),
  unsubscribed_at: nullable(ts()),
  engagement: object({
    invites_sent: count(),
    last_invited_at: nullable(ts()),
    clicks: int({ minimum: 0, description: 'Invites whose review link the person opened.' }),
    feedback_count: int({ minimum: 0, description: 'Private feedback the person sent.' }),
  }),
  created_at: ts(),
});

const contact = (c: ContactFieldsFragment) => ({
  id: c.internalId,
  uuid: c.id,
  contact_list_id: c.contactListId,
  first_name: c.firstName,
  last_name: c.lastName,
  email: c.email,
  phone: c.phone,
  subscribed: c.subscribed,
  unsubscribed_at: c.unsubscribedAt,
  engagement: {
    invites_sent: c.engagement.invitesSent,
    last_invited_at: c.engagement.lastInvitedAt,
    clicks: c.engagement.clicks,
    feedback_count: c.engagement.feedbackCount,
  },
  created_at: c.createdAt,
});

const includePii = () => bool({ default: false, description: 'Show names, e-mail addresses and phone numbers (needs the reviews.pii permission).' });

interface ListContactsArgs {
  organization_id?: number;
  contact_list_id?: number;
  subscribed?: boolean;
  date_from?: string;
  date_to?: string;
  include_pii: boolean;
  page: number;
  per_page: number;
}

export const listContacts = defineTool({
  name: 'list_contacts',
  title: 'List campaign contacts',
  description:
    'Lists the people review requests go to (contacts of the contact lists this token may see), newest first, with ' +
    'engagement counters: invites sent, the last invite time, clicks on the review link and private feedback sent. Filter ' +
    'by organization_id, contact_list_id, subscribed and creation dates. Names, e-mail addresses and phone numbers are ' +
    '"[redacted]" unless include_pii is true (which needs the reviews.pii permission); ask for them only when the task ' +
    'needs them. Use get_contact_activity for one contact\'s history.',
  inputSchema: input({
    organization_id: id('Only contacts of this organisation (its lists, or lists its campaigns use).'),
    contact_list_id: id('Only contacts of this contact list.'),
    subscribed: bool({ description: 'true: only people still receiving review requests; false: only unsubscribed ones.' }),
    date_from: date('Created on or after this day'),
    date_to: date('Created on or before this day'),
    include_pii: includePii(),
    page: page(),
    per_page: perPage(50, 25),
  }),
  outputSchema: paginated(contactSchema),
  annotations: READ_ONLY,
  permission: 'contacts.view',
  redact: redactRows(CONTACT_PII),
  document: graphql(`query McpListContacts($checkScope: Boolean!, $organizationId: Int, $contactListId: Int, $subscribed: Boolean, $dateFrom: String, $dateTo: String, $page: Int!, $perPage: Int!) {
    ...OrganizationScope
    contacts(organizationId: $organizationId, contactListId: $contactListId, subscribed: $subscribed, dateFrom: $dateFrom, dateTo: $dateTo, page: $page, perPage: $perPage) {
      total page perPage items { ...ContactFields }
    }
  }`),
  variables: (a: ListContactsArgs) => ({
    ...organizationScopeVariables(a),
    contactListId: a.contact_list_id ?? null,
    subscribed: a.subscribed ?? null,
    dateFrom: a.date_from ?? null,
    dateTo: a.date_to ?? null,
    page: a.page,
    perPage: a.per_page,
  }),
  result: (d) => pageOf(d.contacts, contact),
});

export const getContactActivity = defineTool({
  name: 'get_contact_activity',
  title: "Get a contact's activity",
  description:
    'Returns one contact (with engagement counters) and its review-request history, newest first: invites scheduled, ' +
    'rescheduled, sent or failed per channel, ignored requests, link clicks, private feedback and unsubscribes, each with ' +
    'the campaign. The contact\'s name, e-mail and phone are "[redacted]" unless include_pii is true (needs the reviews.pii ' +
    'permission). A contact this token may not see is "not found".',
  inputSchema: input(
    {
      contact_id: id('The integer contact id (from list_contacts).'),
      limit: int({ minimum: 1, maximum: 100, default: 25, description: 'Most recent entries to return (1-100).' }),
      include_pii: includePii(),
    },
    ['contact_id'],
  ),
  outputSchema: object({
    contact: contactSchema,
    data: arr(
      object({
        id: str(),
        type: str({ description: 'scheduled, rescheduled, sent, failed, ignored, unsubscribed, skipped, clicked or feedback.' }),
        channel: nullable(str()),
        detail: nullable(str()),
        occurred_at: ts(),
        campaign_uuid: nullable(str()),
        campaign_name: nullable(str()),
      }),
      { description: 'Newest first.' },
    ),
  }),
  annotations: READ_ONLY,
  permission: 'contacts.view',
  // The details quote providers' refusals, which often name the recipient ("550 <jane@example.com>: no such user").
  redact: (r) => {
    const c = r.contact as Record<string, unknown>;
    const person = { names: [c.first_name, c.last_name], phone: c.phone };
    const data = (r.data as Array<{ detail: string | null }>).map((e) => ({ ...e, detail: e.detail === null ? null : redactText(e.detail, person) }));
    return { ...r, contact: redactFields(c, CONTACT_PII), data };
  },
  document: graphql(`query McpGetContactActivity($contactId: ID!, $limit: Int!) {
    contact(id: $contactId) { ...ContactFields }
    contactActivity(contactId: $contactId, limit: $limit) { id type channel detail occurredAt campaignId campaignName }
  }`),
  variables: (a: { contact_id: number; limit: number; include_pii: boolean }) => ({ contactId: String(a.contact_id), limit: a.limit }),
  result: (d) => ({
    contact: contact(d.contact),
    data: d.contactActivity.map((e) => ({
      id: e.id,
      type: e.type,
      channel: e.channel,
      detail: e.detail,
      occurred_at: e.occurredAt,
      campaign_uuid: e.campaignId,
      campaign_name: e.campaignName,
    })),
  }),
});

export const campaignTools = [listCampaigns];
export const contactTools = [listContacts, getContactActivity];
