import { timestamp, url, z } from './zod';
import { graphql } from '../graphql';
import type { ReviewFieldsFragment, WritableSourceFieldsFragment } from '../graphql/graphql';

/** The Review resource (spec: "Review"): GraphQL selection, what it returns, its wire schema and the presenter. */
graphql(`fragment ReviewFields on Review { id organizationId locationId integrationId author publishedAt rating title message
  source sourceLogo avatar reply replyDate hidden verified }`);

export const Review = z
  .object({
    id: z.number().int(),
    organization_id: z.number().int(),
    location_id: z.number().int(),
    integration_id: z.number().int().openapi({ description: 'The review source (integration) it came from.' }),
    author: z.string(),
    date: timestamp().openapi({ description: 'When the review was published.' }),
    rating: z.number().int().min(1).max(5),
    title: z.string().nullable(),
    message: z.string(),
    source: z.string().openapi({ example: 'Google' }),
    source_logo: url(),
    avatar: url(),
    reply: z.string().nullable(),
    reply_date: timestamp().nullable(),
    hidden: z.boolean(),
    verified: z.boolean(),
  })
  .openapi('Review');

export const review = (r: ReviewFieldsFragment): z.infer<typeof Review> => ({
  id: r.id,
  organization_id: r.organizationId,
  location_id: r.locationId,
  integration_id: r.integrationId,
  author: r.author,
  date: r.publishedAt,
  rating: r.rating,
  title: r.title,
  message: r.message,
  source: r.source,
  source_logo: r.sourceLogo,
  avatar: r.avatar,
  reply: r.reply,
  reply_date: r.replyDate,
  hidden: r.hidden,
  verified: r.verified,
});

/** Writable review source (spec: "Writable review source"). */
graphql(`fragment WritableSourceFields on WritableSource { id name logo type organizationId locationId }`);
export const WritableSource = z
  .object({
    id: z.number().int().openapi({ description: 'The integration id to send as `source` when creating a review.' }),
    name: z.string(),
    logo: url(),
    type: z.string().openapi({ example: 'custom' }),
    organization_id: z.number().int(),
    location_id: z.number().int(),
  })
  .openapi('WritableReviewSource');
export const writableSource = (s: WritableSourceFieldsFragment): z.infer<typeof WritableSource> => ({
  id: s.id,
  name: s.name,
  logo: s.logo,
  type: s.type,
  organization_id: s.organizationId,
  location_id: s.locationId,
});
