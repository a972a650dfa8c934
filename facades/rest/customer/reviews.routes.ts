import { integer, stringList, text } from '../../shared/input';
import { envelope } from '../../shared/pagination';
import { MessageBody, dataOf, pageOf } from '../../shared/presenters/common';
import { review, Review, writableSource, WritableSource } from '../../shared/presenters/review';
import { z } from '../../shared/presenters/zod';
import { pathId, route } from '../route';
import { graphql } from '../../shared/graphql';

/** Reviews (spec: "Endpoints > Reviews"). Writes take multipart or JSON; an empty field counts as not sent. */
const TAG = 'Reviews';
const id = { id: pathId('Review', 'The review id.') };

const listQuery = z.object({
  rating: integer('rating').optional().openapi({ description: 'Only reviews with this rating (1-5).' }),
  organization_id: integer('organization_id').optional(),
  location_id: integer('location_id').optional(),
  source_names: stringList('source_names').optional().openapi({ description: 'Source names (also accepted as `source_names[]`).' }),
  tags: stringList('tags').optional().openapi({ description: 'Tag names (also accepted as `tags[]`).' }),
  page: integer('page').optional(),
  per_page: integer('per_page').optional().openapi({ description: 'Items per page, 1-100 (default 10).' }),
});

const createBody = z.object({
  author: text('author').openapi({ maxLength: 255 }),
  rating: integer('rating').openapi({ minimum: 1, maximum: 5 }),
  published_on: text('published_on').openapi({ format: 'date' }),
  organization_id: integer('organization_id'),
  location_id: integer('location_id'),
  source: integer('source').openapi({ description: 'Integration id from `GET /reviews/sources`.' }),
  message: text('message').nullish(),
  title: text('title').nullish().openapi({ maxLength: 255 }),
});

const updateBody = z.object({
  author: text('author').optional(),
  rating: integer('rating').optional(),
  message: text('message').nullish(),
  title: text('title').nullish(),
  published_on: text('published_on').optional(),
});

const pageQuery = z.object({
  organization_id: integer('organization_id').optional(),
  location_id: integer('location_id').optional(),
  page: integer('page').optional(),
  per_page: integer('per_page').optional(),
});

/** `source_names[]=A&source_names[]=B` (and `source_names=A`) both reach the filter; `tags[]` likewise. */
function aliases(q: Record<string, unknown>) {
  const out = { ...q };
  if (out['source_names[]'] !== undefined && out.source_names === undefined) out.source_names = out['source_names[]'];
  if (out['tags[]'] !== undefined && out.tags === undefined) out.tags = out['tags[]'];
  return out;
}

export const reviewRoutes = [
  route({
    method: 'get',
    path: '/reviews',
    operationId: 'listReviews',
    summary: 'List reviews',
    description: 'Reviews from every source the token can see, newest first, with the pagination envelope.',
    tag: TAG,
    permissions: ['reviews:read'],
    query: listQuery,
    prepare: { query: aliases },
    responses: { 200: { description: 'A page of reviews.', schema: pageOf(Review) } },
    document: graphql(`query ListReviews($rating: Int, $organizationId: Int, $locationId: Int, $sourceNames: [String!], $tags: [String!], $page: Int!, $perPage: Int!) {
      reviews(rating: $rating, organizationId: $organizationId, locationId: $locationId, sourceNames: $sourceNames, tags: $tags, page: $page, perPage: $perPage) {
        total page perPage items { ...ReviewFields }
      }
    }`),
    variables: ({ query: f }) => ({
      rating: f.rating,
      organizationId: f.organization_id,
      locationId: f.location_id,
      sourceNames: f.source_names,
      tags: f.tags,
      page: f.page ?? 1,
      perPage: f.per_page ?? 10,
    }),
    respond: (d, req) => ({ body: envelope(req, d.reviews, review) }),
  }),
  route({
    method: 'get',
    path: '/reviews/sources',
    operationId: 'listWritableReviewSources',
    summary: 'List writable review sources',
    description: 'The custom and testimonial sources reviews can be created in.',
    tag: TAG,
    permissions: ['reviews:read'],
    query: pageQuery,
    responses: { 200: { description: 'A page of writable sources.', schema: pageOf(WritableSource) } },
    document: graphql(`query ListWritableReviewSources($organizationId: Int, $locationId: Int, $page: Int!, $perPage: Int!) {
      writableSources(organizationId: $organizationId, locationId: $locationId, page: $page, perPage: $perPage) {
        total page perPage items { ...WritableSourceFields }
      }
    }`),
    variables: ({ query: f }) => ({ organizationId: f.organization_id, locationId: f.location_id, page: f.page ?? 1, perPage: f.per_page ?? 10 }),
    respond: (d, req) => ({ body: envelope(req, d.writableSources, writableSource) }),
  }),
  route({
    method: 'get',
    path: '/reviews/:id',
    operationId: 'getReview',
    summary: 'Get a review',
    tag: TAG,
    permissions: ['reviews:read'],
    params: id,
    responses: { 200: { description: 'The review.', schema: dataOf(Review) } },
    document: graphql(`query GetReview($id: Int!) { review(id: $id) { ...ReviewFields } }`),
    variables: ({ params }) => ({ id: params.id }),
    respond: (d) => ({ body: { data: review(d.review) } }),
  }),
  route({
    method: 'post',
    path: '/reviews',
    operationId: 'createReview',
    summary: 'Create a review',
    description: 'Creates a review in a custom or testimonial source (synced sources cannot be written). Multipart (with an `avatar` file) or JSON.',
    tag: TAG,
    permissions: ['reviews:read', 'reviews:create'],
    body: createBody,
    files: ['avatar'],
    blankIsAbsent: true,
    responses: { 201: { description: 'The created review.', schema: dataOf(Review) } },
    document: graphql(`mutation CreateReview($input: CreateReviewInput!) { createReview(input: $input) { ...ReviewFields } }`),
    variables: ({ body: b, files }) => ({
      input: {
        author: b.author,
        rating: b.rating,
        publishedOn: b.published_on,
        organizationId: b.organization_id,
        locationId: b.location_id,
        source: b.source,
        message: b.message ?? null,
        title: b.title ?? null,
        avatar: files.avatar ?? null,
      },
    }),
    respond: (d) => ({ status: 201, body: { data: review(d.createReview) } }),
  }),
  route({
    method: 'put',
    path: '/reviews/:id',
    operationId: 'updateReview',
    summary: 'Update a review',
    description: 'Only sent fields change; an explicit JSON `null` clears `message` or `title`. Synced reviews answer 403.',
    tag: TAG,
    permissions: ['reviews:read', 'reviews:update'],
    params: id,
    body: updateBody,
    files: ['avatar'],
    blankIsAbsent: true,
    responses: { 200: { description: 'The review after the change.', schema: dataOf(Review) } },
    document: graphql(`mutation UpdateReview($id: Int!, $input: UpdateReviewInput!) { updateReview(id: $id, input: $input) { ...ReviewFields } }`),
    variables: ({ params, body: b, files, raw }) => {
      const sent = (raw.body ?? {}) as Record<string, unknown>;
      // Only the fields that were sent go into the input: absent fields stay absent, so they do not change.
      const input: Record<string, unknown> = {};
      if (b.author !== undefined) input.author = b.author;
      if (b.rating !== undefined) input.rating = b.rating;
      // An empty field is "not sent" (multipart cannot tell the two apart); an explicit JSON null clears.
      if (b.message !== undefined || sent.message === null) input.message = b.message ?? null;
      if (b.title !== undefined || sent.title === null) input.title = b.title ?? null;
      if (b.published_on !== undefined) input.publishedOn = b.published_on;
      if (files.avatar) input.avatar = files.avatar;
      return { id: params.id, input };
    },
    respond: (d) => ({ body: { data: review(d.updateReview) } }),
  }),
  // "Reply to Review" (the spec names it, not its shape): POST /reviews/{id}/reply {message} -> 200 {data: Review}.
  route({
    method: 'post',
    path: '/reviews/:id/reply',
    operationId: 'replyToReview',
    summary: 'Reply to a review',
    description: 'Publishes the reply at the review\'s source (synced reviews) or stores it (custom and testimonial).',
    tag: TAG,
    permissions: ['reviews:read', 'reviews:update'],
    params: id,
    body: z.object({ message: text('message') }),
    blankIsAbsent: true,
    errors: [409, 502],
    responses: { 200: { description: 'The review with its reply.', schema: dataOf(Review) } },
    document: graphql(`mutation ReplyToReview($id: Int!, $input: ReplyToReviewInput!) { replyToReview(id: $id, input: $input) { ...ReviewFields } }`),
    variables: ({ params, body }) => ({ id: params.id, input: { message: body.message } }),
    respond: (d) => ({ body: { data: review(d.replyToReview) } }),
  }),
  route({
    method: 'delete',
    path: '/reviews/:id',
    operationId: 'deleteReview',
    summary: 'Delete a review',
    description: 'Permanent. Only custom or testimonial reviews; synced reviews answer 403.',
    tag: TAG,
    permissions: ['reviews:read', 'reviews:delete'],
    params: id,
    responses: { 200: { description: '`Review deleted successfully.`', schema: MessageBody } },
    document: graphql(`mutation DeleteReview($id: Int!) { deleteReview(id: $id) { id message } }`),
    variables: ({ params }) => ({ id: params.id }),
    respond: (d) => ({ body: { message: d.deleteReview.message } }),
  }),
];
