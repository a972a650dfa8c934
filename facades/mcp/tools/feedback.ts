import { arr, bool, date, id, input, int, nullable, object, page, pageOf, paginated, perPage, str } from '../schema';
import { scopeVariables } from '../scope';
import { defineTool, READ_ONLY, redactFields, redactText } from '../tool';
import { graphql } from '../../shared/graphql';
import type { PrivateFeedbackFieldsFragment } from '../../shared/graphql/graphql';

/** Private feedback (GraphQL `privateFeedbacks`): what unhappy customers wrote on the form of a review request. */
const ts = (extra = {}) => str({ format: 'date-time', ...extra });

graphql(`fragment PrivateFeedbackFields on PrivateFeedback { id organizationId locationId campaignId contactId rating author email phone message reply replyDate replied source sourceName createdAt }`);

const personal = (what: string) => nullable(str({ description: `${what} as given on the form (null when left empty); "[redacted]" unless include_pii is true.` }));
const feedbackSchema = object({
  id: int(),
  organization_id: int(),
  location_id: int(),
  campaign_uuid: nullable(str({ description: 'UUID of the campaign whose request led to the form.' })),
  contact_uuid: nullable(str({ description: 'UUID of the contact the request went to.' })),
  rating: int({ minimum: 1, maximum: 5 }),
  name: personal('Name'),
  email: personal('E-mail address'),
  phone: personal('Phone number'),
  message: str({ description: 'As written; the name, e-mail address and phone number in it are "[redacted]" unless include_pii is true.' }),
  reply: nullable(str()),
  reply_date: nullable(ts()),
  replied: bool(),
  source: str({ description: 'How the form was reached: email, sms, messaging or link.' }),
  source_name: str({ description: "The campaign's name." }),
  created_at: ts(),
});

const blankToNull = (v: string) => (v === '' ? null : v);
const feedback = (f: PrivateFeedbackFieldsFragment) => ({
  id: f.id,
  organization_id: f.organizationId,
  location_id: f.locationId,
  campaign_uuid: f.campaignId,
  contact_uuid: f.contactId,
  rating: f.rating,
  name: blankToNull(f.author),
  email: blankToNull(f.email),
  phone: blankToNull(f.phone),
  message: f.message,
  reply: f.reply,
  reply_date: f.replyDate,
  replied: f.replied,
  source: f.source,
  source_name: f.sourceName,
  created_at: f.createdAt,
});

/**
 * A feedback row without personal data: its name, e-mail and phone blanked, and, in the message (people sign with
 * their name or leave their number there), any e-mail address, that phone number and that name and each word of it
 * (redactText, as get_contact_activity's details); the rest of the message stays.
 */
export function redactFeedback(row: Record<string, unknown>): Record<string, unknown> {
  const name = typeof row.name === 'string' ? row.name : '';
  const person = { names: [name, ...name.split(/\s+/)], phone: row.phone };
  return { ...redactFields(row), message: typeof row.message === 'string' ? redactText(row.message, person) : row.message };
}

interface ListFeedbackArgs {
  organization_id?: number;
  location_id?: number;
  date_from?: string;
  date_to?: string;
  ratings?: number[];
  include_pii: boolean;
  responded?: boolean;
  page: number;
  per_page: number;
}

export const listPrivateFeedback = defineTool({
  name: 'list_private_feedback',
  title: 'List private feedback',
  description:
    'Lists private feedback, newest first: what customers who rated a review request low wrote on the private form ' +
    'instead of a public review (rating 1-5, message, the reply if any, the campaign). Filter by organization_id, ' +
    'location_id, dates (date_from, date_to: the day it was sent), ratings and responded. The name, e-mail and phone the ' +
    'person gave are "[redacted]" unless include_pii is true (needs the reviews.pii permission); ask for them only when ' +
    'the task needs them.',
  inputSchema: input({
    organization_id: id('Only feedback of this organisation.'),
    location_id: id('Only feedback of this location.'),
    date_from: date('Sent on or after this day'),
    date_to: date('Sent on or before this day'),
    ratings: arr(int({ minimum: 1, maximum: 5 }), { minItems: 1, maxItems: 5, uniqueItems: true, description: 'Ratings to include (1-5).' }),
    include_pii: bool({ default: false, description: 'Show the name, e-mail and phone (needs the reviews.pii permission).' }),
    responded: bool({ description: 'true: only feedback with a reply; false: only unanswered feedback.' }),
    page: page(),
    per_page: perPage(50, 25),
  }),
  outputSchema: paginated(feedbackSchema),
  annotations: READ_ONLY,
  permission: 'reviews.view',
  redact: (r) => ({ ...r, data: (r.data as Array<Record<string, unknown>>).map(redactFeedback) }),
  document: graphql(`query McpListPrivateFeedback($checkScope: Boolean!, $organizationId: Int, $locationId: Int, $dateFrom: String, $dateTo: String, $ratings: [Int!], $responded: Boolean,
      $page: Int!, $perPage: Int!) {
    ...AccessScope
    privateFeedbacks(organizationId: $organizationId, locationId: $locationId, dateFrom: $dateFrom, dateTo: $dateTo, ratings: $ratings, responded: $responded,
        page: $page, perPage: $perPage) {
      total page perPage items { ...PrivateFeedbackFields }
    }
  }`),
  variables: (a: ListFeedbackArgs) => ({
    ...scopeVariables(a),
    dateFrom: a.date_from ?? null,
    dateTo: a.date_to ?? null,
    ratings: a.ratings ?? null,
    responded: a.responded ?? null,
    page: a.page,
    perPage: a.per_page,
  }),
  result: (d) => pageOf(d.privateFeedbacks, feedback),
});

export const feedbackTools = [listPrivateFeedback];
