import { integer, text } from '../../shared/input';
import { envelope } from '../../shared/pagination';
import { pageOf } from '../../shared/presenters/common';
import { campaign, Campaign, InviteAccepted } from '../../shared/presenters/reference';
import { z } from '../../shared/presenters/zod';
import { pathString, route } from '../route';
import { graphql } from '../../shared/graphql';

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
    variables: ({ params, body: b }) => ({
      campaign: params.campaign,
      input: {
        email: b.email ?? null,
        phone: b.phone ?? null,
        firstName: b.first_name ?? null,
        lastName: b.last_name ?? null,
        sendAfterHours: b.send_after_hours ?? null,
      },
    }),
    respond: (d) => ({ status: 202, body: { id: d.inviteContact.id, message: d.inviteContact.message } }),
  }),
];
