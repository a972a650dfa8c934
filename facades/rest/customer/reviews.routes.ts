import { z } from 'zod';
import { integer, parseInput, presentOnly, stringList, text } from '../../shared/input';
import { envelope, type PageResult } from '../../shared/pagination';
import { route, type RestRequest } from '../route';
import { idParam, review, REVIEW_FIELDS, type ReviewData } from './mappers';

const listQuery = z.object({
  rating: integer('rating').optional(),
  organization_id: integer('organization_id').optional(),
  location_id: integer('location_id').optional(),
  source_names: stringList('source_names').optional(),
  tags: stringList('tags').optional(),
  page: integer('page').optional(),
  per_page: integer('per_page').optional(),
});

const createBody = z.object({
  author: text('author'),
  rating: integer('rating'),
  published_on: text('published_on'),
  organization_id: integer('organization_id'),
  location_id: integer('location_id'),
  source: integer('source'),
  message: text('message').nullish(),
  title: text('title').nullish(),
});

const updateBody = z.object({
  author: text('author').optional(),
  rating: integer('rating').optional(),
  message: text('message').nullish(),
  title: text('title').nullish(),
  published_on: text('published_on').optional(),
});

const SOURCE_FIELDS = 'id name logo type organizationId locationId';
interface SourceData {
  id: number;
  name: string;
  logo: string;
  type: string;
  organizationId: number;
  locationId: number;
}

/** `source_names[]=A&source_names[]=B` (and `source_names=A`) both reach the filter; `tags[]` likewise. */
function listVariables(req: RestRequest) {
  const q = { ...req.query };
  if (q['source_names[]'] !== undefined && q.source_names === undefined) q.source_names = q['source_names[]'];
  if (q['tags[]'] !== undefined && q.tags === undefined) q.tags = q['tags[]'];
  const f = parseInput(listQuery, q);
  return {
    rating: f.rating,
    organizationId: f.organization_id,
    locationId: f.location_id,
    sourceNames: f.source_names,
    tags: f.tags,
    page: f.page ?? 1,
    perPage: f.per_page ?? 10,
  };
}

export const reviewRoutes = [
  route<{ reviews: PageResult<ReviewData> }>({
    method: 'get',
    path: '/reviews',
    document: `query ($rating: Int, $organizationId: Int, $locationId: Int, $sourceNames: [String!], $tags: [String!], $page: Int!, $perPage: Int!) {
      reviews(rating: $rating, organizationId: $organizationId, locationId: $locationId, sourceNames: $sourceNames, tags: $tags, page: $page, perPage: $perPage) {
        total page perPage items { ${REVIEW_FIELDS} }
      }
    }`,
    variables: listVariables,
    respond: (d, req) => ({ body: envelope(req, d.reviews, review) }),
  }),
  route<{ writableSources: PageResult<SourceData> }>({
    method: 'get',
    path: '/reviews/sources',
    document: `query ($organizationId: Int, $locationId: Int, $page: Int!, $perPage: Int!) {
      writableSources(organizationId: $organizationId, locationId: $locationId, page: $page, perPage: $perPage) {
        total page perPage items { ${SOURCE_FIELDS} }
      }
    }`,
    variables: (req) => {
      const f = parseInput(
        z.object({
          organization_id: integer('organization_id').optional(),
          location_id: integer('location_id').optional(),
          page: integer('page').optional(),
          per_page: integer('per_page').optional(),
        }),
        req.query,
      );
      return { organizationId: f.organization_id, locationId: f.location_id, page: f.page ?? 1, perPage: f.per_page ?? 10 };
    },
    respond: (d, req) => ({
      body: envelope(req, d.writableSources, (s) => ({
        id: s.id,
        name: s.name,
        logo: s.logo,
        type: s.type,
        organization_id: s.organizationId,
        location_id: s.locationId,
      })),
    }),
  }),
  route<{ review: ReviewData }>({
    method: 'get',
    path: '/reviews/:id',
    document: `query ($id: Int!) { review(id: $id) { ${REVIEW_FIELDS} } }`,
    variables: (req) => ({ id: idParam(req.params.id, 'Review') }),
    respond: (d) => ({ body: { data: review(d.review) } }),
  }),
  route<{ createReview: ReviewData }>({
    method: 'post',
    path: '/reviews',
    files: ['avatar'],
    document: `mutation ($input: CreateReviewInput!) { createReview(input: $input) { ${REVIEW_FIELDS} } }`,
    variables: (req) => {
      const b = parseInput(createBody, presentOnly(req.body));
      return {
        input: {
          author: b.author,
          rating: b.rating,
          publishedOn: b.published_on,
          organizationId: b.organization_id,
          locationId: b.location_id,
          source: b.source,
          message: b.message ?? null,
          title: b.title ?? null,
          avatar: req.files.avatar ?? null,
        },
      };
    },
    respond: (d) => ({ status: 201, body: { data: review(d.createReview) } }),
  }),
  route<{ updateReview: ReviewData }>({
    method: 'put',
    path: '/reviews/:id',
    files: ['avatar'],
    document: `mutation ($id: Int!, $input: UpdateReviewInput!) { updateReview(id: $id, input: $input) { ${REVIEW_FIELDS} } }`,
    variables: (req) => {
      const id = idParam(req.params.id, 'Review');
      const sent = req.body;
      const b = parseInput(updateBody, presentOnly(sent));
      // Only the fields that were sent go into the input: absent fields stay absent, so they do not change.
      const input: Record<string, unknown> = {};
      if (b.author !== undefined) input.author = b.author;
      if (b.rating !== undefined) input.rating = b.rating;
      // An empty field is "not sent" (multipart cannot tell the two apart); an explicit JSON null clears.
      if (b.message !== undefined || sent.message === null) input.message = b.message ?? null;
      if (b.title !== undefined || sent.title === null) input.title = b.title ?? null;
      if (b.published_on !== undefined) input.publishedOn = b.published_on;
      if (req.files.avatar) input.avatar = req.files.avatar;
      return { id, input };
    },
    respond: (d) => ({ body: { data: review(d.updateReview) } }),
  }),
  // "Reply to Review" (the spec names it, not its shape): POST /reviews/{id}/reply {message} -> 200 {data: Review}.
  route<{ replyToReview: ReviewData }>({
    method: 'post',
    path: '/reviews/:id/reply',
    document: `mutation ($id: Int!, $input: ReplyToReviewInput!) { replyToReview(id: $id, input: $input) { ${REVIEW_FIELDS} } }`,
    variables: (req) => {
      const id = idParam(req.params.id, 'Review');
      const b = parseInput(z.object({ message: text('message') }), presentOnly(req.body));
      return { id, input: { message: b.message } };
    },
    respond: (d) => ({ body: { data: review(d.replyToReview) } }),
  }),
  route<{ deleteReview: { message: string } }>({
    method: 'delete',
    path: '/reviews/:id',
    document: `mutation ($id: Int!) { deleteReview(id: $id) { id message } }`,
    variables: (req) => ({ id: idParam(req.params.id, 'Review') }),
    respond: (d) => ({ body: { message: d.deleteReview.message } }),
  }),
];
