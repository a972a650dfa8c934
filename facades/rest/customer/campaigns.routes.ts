import { integer, presentOnly, text } from '../../shared/input';
import { envelope } from '../../shared/pagination';
import { pageOf } from '../../shared/presenters/common';
import { campaign, Campaign, InviteAccepted } from '../../shared/presenters/reference';
import { z } from '../../shared/presenters/zod';
import { pathString, route } from '../route';
import { graphql } from '../../shared/graphql';
import { MAX_BATCH_INVITES } from '../../../src/domain/limits';

/**
 * Review-request campaigns (spec: Endpoints > Campaigns and invites). Campaign = {id: uuid, name}; the invite
 * answers 202 {id: <contact uuid>, message}. The path's campaign goes to the schema as sent, so an unknown or
 * malformed UUID is a 404 decided after the permission check, like every other scope question.
 */
const TAG = 'Campaigns';

/** A scalar sent as a JSON number (a phone number typed as one) is read as its text; objects are a 422. */
const scalarText = (field: string) => z.preprocess((v) => (typeof v === 'number' ? String(v) : v), text(field));

const inviteBody = z.object({
  email: scalarText('email').nullish().openapi({ description: 'Required when `phone` is absent.' }),
  phone: scalarText('phone').nullish().openapi({ description: 'E.164; required when `email` is absent.', example: '+14155550123' }),
  first_name: scalarText('first_name').nullish().openapi({ maxLength: 255 }),
  last_name: scalarText('last_name').nullish().openapi({ maxLength: 255 }),
  send_after_hours: integer('send_after_hours').nullish().openapi({ description: '0 = as soon as possible within the send window; null = the campaign default.' }),
});

/** The single invite's body as one entry of a batch (its fields and rules are the same). */
const invitesBody = z.object({
  contacts: z
    // Blank fields count as absent, as in the single invite's body.
    .array(z.preprocess((v) => (v && typeof v === 'object' && !Array.isArray(v) ? presentOnly(v as Record<string, unknown>) : v), inviteBody))
    .min(1, 'The contacts must hold at least one contact.')
    .max(MAX_BATCH_INVITES, `The contacts may not hold more than ${MAX_BATCH_INVITES} contacts.`)
    .openapi({ description: `1 to ${MAX_BATCH_INVITES} contacts, each with the fields of the single invite.` }),
});

const InvitesAccepted = z.object({ data: z.array(InviteAccepted) }).openapi('InvitesAccepted');

const inputOf = (b: z.infer<typeof inviteBody>) => ({
  email: b.email ?? null,
  phone: b.phone ?? null,
  firstName: b.first_name ?? null,
  lastName: b.last_name ?? null,
  sendAfterHours: b.send_after_hours ?? null,
});

export const campaignRoutes = [
  route({
    method: 'get',
    path: '/request-reviews/campaigns',
    operationId: 'listCampaigns',
    summary: 'List review-request campaigns',
    tag: TAG,
    permissions: ['request:read'],
    query: z.object({
      organization_id: integer('organization_id').optional(),
      search: text('search').optional().openapi({ description: 'By name.' }),
      page: integer('page').optional(),
      per_page: integer('per_page').optional(),
    }),
    responses: { 200: { description: 'A page of campaigns.', schema: pageOf(Campaign) } },
    document: graphql(`query ListCampaigns($organizationId: Int, $search: String, $page: Int!, $perPage: Int!) {
      campaigns(organizationId: $organizationId, search: $search, page: $page, perPage: $perPage) {
        total page perPage items { id name }
      }
    }`),
    variables: ({ query: q }) => ({ organizationId: q.organization_id, search: q.search || null, page: q.page ?? 1, perPage: q.per_page ?? 10 }),
    respond: (d, req) => ({ body: envelope(req, d.campaigns, campaign) }),
  }),
  route({
    method: 'post',
    path: '/request-reviews/campaigns/:campaign/invite',
    operationId: 'inviteContact',
    summary: 'Invite a contact to review',
    description:
      '202 means accepted, not sent: the invite goes out in the background within the campaign\'s send window. A duplicate within the ' +
      'duplicate window or an unsubscribed contact still answers 202 (no invite is scheduled). Unlisted fields are ignored and never stored.',
    tag: TAG,
    permissions: ['request:read', 'request:create'],
    params: { campaign: pathString('Campaign', 'The campaign UUID.') },
    // Rule 9: no idempotency key is accepted (a resent invite is matched to its contact instead).
    idempotencyKey: false,
    body: inviteBody,
    blankIsAbsent: true,
    responses: { 202: { description: 'Accepted: the contact\'s id.', schema: InviteAccepted } },
    document: graphql(`mutation InviteContact($campaign: String!, $input: InviteContactInput!) {
      inviteContact(campaign: $campaign, input: $input) { id message }
    }`),
    variables: ({ params, body }) => ({ campaign: params.campaign, input: inputOf(body) }),
    respond: (d) => ({ status: 202, body: { id: d.inviteContact.id, message: d.inviteContact.message } }),
  }),
  // An addition to the contract (docs/decisions/review-requests.md "Invites in batches"): a campaign's list in a few
  // requests instead of one per contact.
  route({
    method: 'post',
    path: '/request-reviews/campaigns/:campaign/invites',
    operationId: 'inviteContacts',
    summary: 'Invite many contacts to review',
    description:
      `Up to ${MAX_BATCH_INVITES} contacts in one request, each accepted exactly as the single invite would accept it, in the order ` +
      'given (a contact listed twice is matched and rescheduled as a resent invite is). The answer lists each contact\'s id in the ' +
      'same order. A validation error in any entry answers 422 naming it (`contacts.<i>.<field>`) and stores nothing.',
    tag: TAG,
    permissions: ['request:read', 'request:create'],
    params: { campaign: pathString('Campaign', 'The campaign UUID.') },
    // As the single invite (rule 9): sending the batch again matches its contacts and reschedules their waiting invites.
    idempotencyKey: false,
    body: invitesBody,
    responses: { 202: { description: 'Accepted: each contact\'s id, in the order sent.', schema: InvitesAccepted } },
    document: graphql(`mutation InviteContacts($campaign: String!, $inputs: [InviteContactInput!]!) {
      inviteContacts(campaign: $campaign, inputs: $inputs) { id message }
    }`),
    variables: ({ params, body }) => ({ campaign: params.campaign, inputs: body.contacts.map(inputOf) }),
    respond: (d) => ({ status: 202, body: { data: d.inviteContacts.map((a) => ({ id: a.id, message: a.message })) } }),
  }),
];
