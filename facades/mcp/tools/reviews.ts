import { Review, review } from '../../shared/presenters/review';
import { arr, bool, date, fromZod, id, input, int, oneOf, page, pageOf, paginated, perPage, str } from '../schema';
import { scopeVariables } from '../scope';
import { defineTool, READ_ONLY } from '../tool';
import { ASPECTS, type Aspect } from '../../../src/analytics/lexicon';
import { graphql } from '../../shared/graphql';

/** The spec's Review resource, as the customer REST API returns it (its wire schema, facades/shared/presenters/review.ts). */
export const reviewSchema = fromZod(Review);

/** The spec's sort_by values and the `reviews` query's ReviewSort for each. */
const SORTS = {
  'Newest First': 'NEWEST_FIRST',
  'Oldest First': 'OLDEST_FIRST',
  'Highest Rating First': 'HIGHEST_RATING_FIRST',
  'Lowest Rating First': 'LOWEST_RATING_FIRST',
} as const;

interface ListReviewsArgs {
  organization_id?: number;
  location_id?: number;
  source_names?: string[];
  date_from?: string;
  date_to?: string;
  ratings?: number[];
  sentiment?: 'positive' | 'negative' | 'neutral';
  aspect?: Aspect;
  aspect_sentiment?: 'positive' | 'negative' | 'neutral';
  responded?: boolean;
  verified?: boolean;
  query?: string;
  min_message_length?: number;
  sort_by: keyof typeof SORTS;
  page: number;
  per_page: number;
}

export const listReviews = defineTool({
  name: 'list_reviews',
  title: 'List reviews',
  description:
    'Lists reviews from every connected source (Google, Facebook, testimonials, custom sources) that this token may see, ' +
    'one page at a time, newest first unless sort_by says otherwise. Filters combine (all must hold): organization_id, ' +
    'location_id (requires organization_id), source_names (source names such as "Google"), date_from/date_to (publication ' +
    'day, inclusive, UTC), ratings (any of), sentiment, aspect (reviews that talk about staff, price, wait_time, ' +
    'cleanliness, quality or communication; with aspect_sentiment, only those where it has that tone), responded (has a ' +
    'reply or not), verified, query (every word must ' +
    'appear in the author, message or reply) and min_message_length (characters). Returns {data: [review], pagination}; ' +
    'each review has author, rating 1-5, message, reply and dates. An organization_id or location_id outside the ' +
    'token\'s scope is refused with access denied. Use get_review for one review by id.',
  inputSchema: input(
    {
      organization_id: id('Only reviews of this organisation.'),
      location_id: id('Only reviews of this location (requires organization_id).'),
      source_names: arr(str({ minLength: 1, maxLength: 255 }), { maxItems: 100, description: 'Source names, e.g. ["Google", "Testimonials"].' }),
      date_from: date('Published on or after this date'),
      date_to: date('Published on or before this date'),
      ratings: arr(int({ minimum: 1, maximum: 5 }), { minItems: 1, maxItems: 5, uniqueItems: true, description: 'Star ratings to include (1-5).' }),
      sentiment: oneOf(['positive', 'negative', 'neutral']),
      aspect: oneOf([...ASPECTS], { description: 'Only reviews that talk about this aspect.' }),
      aspect_sentiment: oneOf(['positive', 'negative', 'neutral'], { description: 'With aspect: only reviews where the aspect has this tone.' }),
      responded: bool({ description: 'true: only reviews with a reply; false: only unanswered ones.' }),
      verified: bool(),
      query: str({ minLength: 1, maxLength: 255, description: 'Full text over author, message and reply: every word must appear.' }),
      min_message_length: int({ minimum: 0, maximum: 100_000, description: 'Only messages of at least this many characters.' }),
      sort_by: oneOf(Object.keys(SORTS), { default: 'Newest First' }),
      page: page(),
      per_page: perPage(50, 25),
    },
    [],
    { dependencies: { location_id: ['organization_id'], aspect_sentiment: ['aspect'] } },
  ),
  outputSchema: paginated(reviewSchema),
  annotations: READ_ONLY,
  permission: 'reviews.view',
  document: graphql(`query McpListReviews($checkScope: Boolean!, $organizationId: Int, $locationId: Int, $sourceNames: [String!], $ratings: [Int!],
    $dateFrom: String, $dateTo: String, $sentiment: String, $aspect: String, $aspectSentiment: String, $responded: Boolean, $verified: Boolean, $query: String,
    $minMessageLength: Int, $sortBy: ReviewSort, $page: Int!, $perPage: Int!) {
    ...AccessScope
    reviews(organizationId: $organizationId, locationId: $locationId, sourceNames: $sourceNames, ratings: $ratings,
      dateFrom: $dateFrom, dateTo: $dateTo, sentiment: $sentiment, aspect: $aspect, aspectSentiment: $aspectSentiment,
      responded: $responded, verified: $verified, query: $query,
      minMessageLength: $minMessageLength, sortBy: $sortBy, page: $page, perPage: $perPage) {
      total page perPage items { ...ReviewFields }
    }
  }`),
  variables: (a: ListReviewsArgs) => ({
    ...scopeVariables(a),
    sourceNames: a.source_names ?? null,
    ratings: a.ratings ?? null,
    dateFrom: a.date_from ?? null,
    dateTo: a.date_to ?? null,
    sentiment: a.sentiment ?? null,
    aspect: a.aspect ?? null,
    aspectSentiment: a.aspect_sentiment ?? null,
    responded: a.responded ?? null,
    verified: a.verified ?? null,
    query: a.query ?? null,
    minMessageLength: a.min_message_length ?? null,
    sortBy: SORTS[a.sort_by],
    page: a.page,
    perPage: a.per_page,
  }),
  result: (d) => pageOf(d.reviews, review),
});

export const getReview = defineTool({
  name: 'get_review',
  title: 'Get a review',
  description:
    'Returns one review by its id (from list_reviews): author, rating, title, message, source, the reply and its date. ' +
    'A review that does not exist or that this token may not see is "not found".',
  inputSchema: input({ review_id: id('The review id.') }, ['review_id']),
  outputSchema: reviewSchema,
  annotations: READ_ONLY,
  permission: 'reviews.view',
  document: graphql(`query McpGetReview($id: Int!) { review(id: $id) { ...ReviewFields } }`),
  variables: (a: { review_id: number }) => ({ id: a.review_id }),
  result: (d) => review(d.review),
});

export const reviewTools = [listReviews, getReview];
