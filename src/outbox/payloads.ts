import { publicBaseUrl } from '../config';
import { fileUrl, placeholderAvatarUrl } from '../domain/urls';
import type { Location, Organization, PrivateFeedback, Review } from '../models';
// The organisation and location events carry the REST resources: the facades' presenters write both.
import { location, organization } from '../../facades/shared/presenters/organization';

/**
 * Webhook bodies (without `webhook_event`, which the writer puts first). Timestamps are ISO 8601 UTC; URLs are
 * absolute on `publicBaseUrl()`, since no request origin exists when the receiver reads them.
 */
const iso = (d: Date | null | undefined): string | null => (d ? new Date(d).toISOString() : null);

type ReviewFields = Pick<
  Review,
  | 'id' | 'organizationId' | 'locationId' | 'author' | 'rating' | 'originalRating' | 'title' | 'message' | 'publishedAt'
  | 'avatarFileId' | 'avatarUrl' | 'reply' | 'replyDate' | 'hidden' | 'verified' | 'identifier' | 'url' | 'meta'
  | 'createdAt' | 'updatedAt'
>;

/**
 * The spec's review-created shape, field for field (review-updated uses it too). For written reviews:
 * `identifier` is our id as a string, `url` the review's API resource; `review_updated_on` is the last change
 * after creation (null until then); `reply_url` is null (no reply page exists).
 */
export function reviewPayload(review: ReviewFields, sourceName: string, baseUrl = publicBaseUrl()): Record<string, unknown> {
  const reply = review.reply ?? null;
  const created = new Date(review.createdAt);
  const updated = new Date(review.updatedAt);
  return {
    id: review.id,
    organization_id: review.organizationId,
    location_id: review.locationId,
    source_name: sourceName,
    identifier: review.identifier ?? String(review.id),
    avatar: review.avatarFileId ? fileUrl(baseUrl, review.avatarFileId) : review.avatarUrl ?? placeholderAvatarUrl(baseUrl, review.author),
    author: review.author,
    rating: review.rating,
    original_rating: review.originalRating,
    title: review.title ?? null,
    message: review.message ?? '',
    url: review.url ?? `${baseUrl}/api/v1/reviews/${review.id}`,
    verified: Boolean(review.verified),
    replied: reply !== null && reply !== '',
    reply_message: reply,
    reply_url: null,
    hidden: Boolean(review.hidden),
    reply_published_on: iso(review.replyDate),
    published_on: iso(review.publishedAt),
    review_updated_on: updated.getTime() > created.getTime() ? iso(updated) : null,
    updated_at: iso(updated),
    created_at: iso(created),
    meta: review.meta ?? {},
  };
}

type LocationFields = Pick<Location, 'id' | 'organizationId' | 'name' | 'createdAt' | 'updatedAt'>;
const locationData = (l: LocationFields) => ({ id: l.id, organizationId: l.organizationId, name: l.name, createdAt: iso(l.createdAt)!, updatedAt: iso(l.updatedAt)! });

/** The REST location resource, through the REST presenter (one shape for the API and the event). */
export function locationPayload(l: LocationFields): Record<string, unknown> {
  return location(locationData(l));
}

/** The REST organisation resource, with every location of the organisation, through the REST presenter. */
export function organizationPayload(
  org: Pick<Organization, 'id' | 'name' | 'defaultLocationId' | 'logoFileId' | 'createdAt' | 'updatedAt'>,
  locations: ReadonlyArray<LocationFields>,
  baseUrl = publicBaseUrl(),
): Record<string, unknown> {
  return organization({
    id: org.id,
    name: org.name,
    defaultLocationId: org.defaultLocationId ?? null,
    logo: org.logoFileId ? fileUrl(baseUrl, org.logoFileId) : null,
    locations: locations.map(locationData),
    createdAt: iso(org.createdAt)!,
    updatedAt: iso(org.updatedAt)!,
  });
}

export function organizationDeletedPayload(org: Pick<Organization, 'id' | 'name'>, at: Date): Record<string, unknown> {
  return { id: org.id, name: org.name, deleted_at: iso(at) };
}

export function locationDeletedPayload(location: Pick<Location, 'id' | 'organizationId' | 'name'>, at: Date): Record<string, unknown> {
  return { id: location.id, organization_id: location.organizationId, name: location.name, deleted_at: iso(at) };
}

type PrivateFeedbackFields = Pick<
  PrivateFeedback,
  | 'id' | 'organizationId' | 'locationId' | 'rating' | 'author' | 'email' | 'phone' | 'message' | 'reply' | 'replyDate'
  | 'source' | 'sourceName' | 'meta' | 'createdAt' | 'updatedAt'
>;

/**
 * The spec's private-feedback-created shape, field for field (private-feedback-updated uses it too): `meta` mirrors
 * the submitted form (name, email, phone, message, rating, source, source_id, source_name), `source` is how the
 * form was reached (the invite's channel, or `link`), `source_name` the campaign's name.
 */
export function privateFeedbackPayload(f: PrivateFeedbackFields): Record<string, unknown> {
  const reply = f.reply ?? null;
  return {
    id: f.id,
    organization_id: f.organizationId,
    location_id: f.locationId,
    rating: f.rating,
    author: f.author,
    email: f.email,
    phone: f.phone,
    message: f.message,
    replied: reply !== null && reply !== '',
    reply_message: reply,
    reply_published_on: iso(f.replyDate),
    source: f.source,
    source_name: f.sourceName,
    updated_at: iso(f.updatedAt),
    created_at: iso(f.createdAt),
    meta: f.meta ?? {},
  };
}
