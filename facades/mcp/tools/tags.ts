import { arr, id, input, int, object, str } from '../schema';
import { defineTool } from '../tool';
import { graphql } from '../../shared/graphql';

/** Review tags (GraphQL `tagReviews`); normalisation and the reserved `__flag__` sentinel in docs/decisions/reviews.md. */
const tagList = (description: string) =>
  arr(str({ minLength: 1, maxLength: 64 }), { maxItems: 20, description: `${description} (at most 20, each 1-64 characters).` });

export const tagReviews = defineTool({
  name: 'tag_reviews',
  title: 'Tag reviews',
  description:
    'Attaches and/or detaches labels (tags) on up to 50 reviews at once, e.g. to mark reviews about "parking" or "vip". ' +
    'Tags are stored in lower case with single spaces; attaching a tag a review has, or detaching one it lacks, changes ' +
    'nothing. The tag __flag__ is reserved and cannot be attached. All or nothing: if one review is not visible to this ' +
    'token, nothing changes ("not found"). Returns every review with its tags afterwards.',
  inputSchema: input(
    {
      review_ids: arr(id('A review id.'), { minItems: 1, maxItems: 50, description: 'The reviews (1-50 ids).' }),
      attach_tags: tagList('Tags to add'),
      detach_tags: tagList('Tags to remove'),
    },
    ['review_ids'],
  ),
  outputSchema: object({
    data: arr(object({ review_id: int(), tags: arr(str(), { description: 'All tags of the review, alphabetical.' }) })),
  }),
  // Detaching removes labels (destructive); repeating a call changes nothing more (idempotent).
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  permission: 'reviews.edit',
  writes: true,
  document: graphql(`mutation McpTagReviews($reviewIds: [Int!]!, $attachTags: [String!], $detachTags: [String!]) {
    tagReviews(reviewIds: $reviewIds, attachTags: $attachTags, detachTags: $detachTags) { reviewId tags }
  }`),
  variables: (a: { review_ids: number[]; attach_tags?: string[]; detach_tags?: string[] }) => ({ reviewIds: a.review_ids, attachTags: a.attach_tags ?? null, detachTags: a.detach_tags ?? null }),
  result: (d) => ({ data: d.tagReviews.map((r) => ({ review_id: r.reviewId, tags: r.tags })) }),
});

export const tagTools = [tagReviews];
