import { id, input, int, object, str } from '../schema';
import { defineTool } from '../tool';
import { graphql } from '../../shared/graphql';

/** Reply drafts (GraphQL `draftReviewResponse`): an assistant proposes, a person approves (docs/decisions/reviews.md). */
export const draftReviewResponse = defineTool({
  name: 'draft_review_response',
  title: 'Draft a reply to a review',
  description:
    'Proposes a public reply to a review (from list_reviews or get_review). The draft goes to the approvals queue and ' +
    'is never published automatically: a person approves (possibly after editing) or rejects it in the dashboard. ' +
    'message is the reply text (up to 8000 characters; platforms publish at most 4096). Several drafts of one review may ' +
    'wait side by side. A review that already has a reply is refused (already_replied); one this token may not see is ' +
    '"not found".',
  inputSchema: input(
    {
      review_id: id('The review to reply to.'),
      message: str({ minLength: 1, maxLength: 8000, description: 'The proposed reply (1-8000 characters).' }),
    },
    ['review_id', 'message'],
  ),
  outputSchema: object({
    id: int({ description: 'The draft id.' }),
    review_id: int(),
    organization_id: int(),
    location_id: int(),
    message: str(),
    status: str({ description: 'pending until a person approves (published) or rejects it.' }),
    created_via: str({ description: 'Kind of token that drafted it: ai for this tool.' }),
    created_at: str({ format: 'date-time' }),
  }),
  // Writes a new draft each call (not idempotent), never replaces or publishes anything (not destructive).
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  permission: 'reviews.respond',
  writes: true,
  document: graphql(`mutation McpDraftReviewResponse($reviewId: Int!, $message: String!) {
    draftReviewResponse(reviewId: $reviewId, message: $message) { id reviewId organizationId locationId message status createdVia createdAt }
  }`),
  variables: (a: { review_id: number; message: string }) => ({ reviewId: a.review_id, message: a.message }),
  result: ({ draftReviewResponse: d }) => ({
    id: d.id,
    review_id: d.reviewId,
    organization_id: d.organizationId,
    location_id: d.locationId,
    message: d.message,
    status: d.status,
    created_via: d.createdVia,
    created_at: d.createdAt,
  }),
});

export const draftTools = [draftReviewResponse];
