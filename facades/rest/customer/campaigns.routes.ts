import { z } from 'zod';
import { integer, parseInput, presentOnly, text } from '../../shared/input';
import { envelope, type PageResult } from '../../shared/pagination';
import { route } from '../route';

/**
 * Review-request campaigns (spec: Endpoints > Campaigns and invites). Campaign = {id: uuid, name}; the invite
 * answers 202 {id: <contact uuid>, message}. The path's campaign goes to the schema as sent, so an unknown or
 * malformed UUID is a 404 decided after the permission check, like every other scope question.
 */

/** A scalar sent as a JSON number (a phone number typed as one) is read as its text; objects are a 422. */
const scalarText = (field: string) => z.preprocess((v) => (typeof v === 'number' ? String(v) : v), text(field));

const inviteBody = z.object({
  email: scalarText('email').nullish(),
  phone: scalarText('phone').nullish(),
  first_name: scalarText('first_name').nullish(),
  last_name: scalarText('last_name').nullish(),
  send_after_hours: integer('send_after_hours').nullish(),
});

interface CampaignData {
  id: string;
  name: string;
}

export const campaignRoutes = [
  route<{ campaigns: PageResult<CampaignData> }>({
    method: 'get',
    path: '/request-reviews/campaigns',
    document: `query ($organizationId: Int, $search: String, $page: Int!, $perPage: Int!) {
      campaigns(organizationId: $organizationId, search: $search, page: $page, perPage: $perPage) {
        total page perPage items { id name }
      }
    }`,
    variables: (req) => {
      const q = parseInput(
        z.object({
          organization_id: integer('organization_id').optional(),
          search: text('search').optional(),
          page: integer('page').optional(),
          per_page: integer('per_page').optional(),
        }),
        req.query,
      );
      return { organizationId: q.organization_id, search: q.search || null, page: q.page ?? 1, perPage: q.per_page ?? 10 };
    },
    respond: (d, req) => ({ body: envelope(req, d.campaigns, (c) => ({ id: c.id, name: c.name })) }),
  }),
  route<{ inviteContact: { id: string; message: string } }>({
    method: 'post',
    path: '/request-reviews/campaigns/:campaign/invite',
    document: `mutation ($campaign: String!, $input: InviteContactInput!) {
      inviteContact(campaign: $campaign, input: $input) { id message }
    }`,
    variables: (req) => {
      // Only the listed fields are read (rule 9: anything else is ignored and never stored).
      const b = parseInput(inviteBody, presentOnly(req.body));
      return {
        campaign: req.params.campaign,
        input: {
          email: b.email ?? null,
          phone: b.phone ?? null,
          firstName: b.first_name ?? null,
          lastName: b.last_name ?? null,
          sendAfterHours: b.send_after_hours ?? null,
        },
      };
    },
    respond: (d) => ({ status: 202, body: { id: d.inviteContact.id, message: d.inviteContact.message } }),
  }),
];
