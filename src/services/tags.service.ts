import { Op } from 'sequelize';
import { NotFound, Validation, type FieldErrors } from '../domain/errors';
import { charCount } from '../domain/limits';
import { canSeeLocated } from '../domain/permissions';
import type { Principal } from '../domain/principal';
import { Review, ReviewTag } from '../models';
import { clockOf, inTransaction, type ServiceOptions } from './common';

/**
 * Tags on reviews (spec: MCP tag_reviews). A tag is the caller's own label: normalised (trimmed, whitespace
 * runs as one space, Unicode NFC, lower case) so `VIP`, ` vip ` and `Vip` are one tag, at most 64 characters.
 * `__flag__` is reserved: it is the sentinel the platform keeps for flagging reviews for attention, so it cannot
 * be attached as an ordinary tag.
 */
export const MAX_TAG_REVIEWS = 50;
export const MAX_TAG_CHARS = 64;
/** Tags per list (attach, detach) in one call. */
export const MAX_TAGS_PER_CALL = 20;
export const FLAG_SENTINEL = '__flag__';

export const normalizeTag = (raw: string): string => raw.normalize('NFC').trim().replace(/\s+/g, ' ').toLowerCase();

export interface TagReviewsInput {
  reviewIds: number[];
  attachTags?: string[] | null;
  detachTags?: string[] | null;
}

export interface ReviewTags {
  reviewId: number;
  tags: string[];
}

function cleanTags(list: string[] | null | undefined, field: 'attach_tags' | 'detach_tags', errors: FieldErrors): string[] {
  const tags = new Set<string>();
  const values = list ?? [];
  if (values.length > MAX_TAGS_PER_CALL) {
    errors[field] = [`The ${field.replace('_', ' ')} may not have more than ${MAX_TAGS_PER_CALL} items.`];
    return [];
  }
  values.forEach((raw, i) => {
    const tag = normalizeTag(typeof raw === 'string' ? raw : '');
    const problem = !tag
      ? 'A tag may not be empty.'
      : charCount(tag) > MAX_TAG_CHARS
        ? `A tag may not be greater than ${MAX_TAG_CHARS} characters.`
        : field === 'attach_tags' && tag === FLAG_SENTINEL
          ? `The tag ${FLAG_SENTINEL} is reserved and cannot be attached.`
          : null;
    if (problem) errors[`${field}.${i}`] = [problem];
    else tags.add(tag);
  });
  return [...tags];
}

/**
 * Attaches and detaches tags on up to 50 visible reviews (distinct ids) in one transaction. Attaching a tag a review already has
 * changes nothing; detaching one it lacks likewise. All or nothing: one review outside the caller's scope (or
 * unknown) is 404 and no review changes. Tags are the account's metadata, so synced reviews take them too, and
 * no webhook event is written (tags are not part of any payload).
 */
export async function tagReviews(p: Principal, input: TagReviewsInput, opts: ServiceOptions = {}): Promise<ReviewTags[]> {
  const errors: FieldErrors = {};
  const ids = [...new Set(input.reviewIds ?? [])];
  if (ids.length === 0) errors.review_ids = ['The review ids field is required.'];
  // Counted once each: a repeated id is the same review (docs/decisions/reviews.md, "Tags").
  else if (ids.length > MAX_TAG_REVIEWS) errors.review_ids = [`The review ids may not have more than ${MAX_TAG_REVIEWS} items.`];
  const attach = cleanTags(input.attachTags, 'attach_tags', errors);
  const detach = cleanTags(input.detachTags, 'detach_tags', errors);
  if (attach.length === 0 && detach.length === 0 && Object.keys(errors).every((k) => k === 'review_ids')) {
    errors.attach_tags = ['Give at least one tag to attach or detach.'];
  }
  const both = attach.filter((t) => detach.includes(t));
  if (both.length) errors.detach_tags = [`A tag cannot be attached and detached in one call: ${both.join(', ')}.`];
  if (Object.keys(errors).length) {
    const reserved = Object.values(errors).flat().some((m) => m.includes(FLAG_SENTINEL));
    throw new Validation(errors, reserved ? 'reserved_tag' : undefined);
  }

  const now = clockOf(opts).now();
  return inTransaction(opts, async (transaction) => {
    const reviews = await Review.findAll({
      where: { id: { [Op.in]: ids } },
      attributes: ['id', 'tenantId', 'customerId', 'locationId', 'removedAt'],
      transaction,
    });
    const byId = new Map(reviews.map((r) => [r.id, r]));
    for (const id of ids) {
      const review = byId.get(id);
      if (!review || review.removedAt || !canSeeLocated(p, review)) throw new NotFound(`Review ${id}`);
    }
    if (detach.length) {
      await ReviewTag.destroy({ where: { reviewId: { [Op.in]: ids }, tag: { [Op.in]: detach } }, transaction });
    }
    if (attach.length) {
      await ReviewTag.bulkCreate(
        reviews.flatMap((r) => attach.map((tag) => ({ reviewId: r.id, tag, tenantId: r.tenantId, customerId: r.customerId, createdAt: now }))),
        { ignoreDuplicates: true, transaction },
      );
    }
    const tags = await tagsOf(ids, { transaction });
    return ids.map((reviewId) => ({ reviewId, tags: tags.get(reviewId) ?? [] }));
  });
}

/** The tags of each review, alphabetical (one query for the lot: the DataLoader of `Review.tags`). */
export async function tagsOf(reviewIds: readonly number[], opts: ServiceOptions = {}): Promise<Map<number, string[]>> {
  const result = new Map<number, string[]>();
  if (reviewIds.length === 0) return result;
  const rows = await ReviewTag.findAll({
    where: { reviewId: { [Op.in]: [...reviewIds] } },
    attributes: ['reviewId', 'tag'],
    order: [['reviewId', 'ASC'], ['tag', 'ASC']],
    transaction: opts.transaction,
  });
  for (const row of rows) result.set(row.reviewId, [...(result.get(row.reviewId) ?? []), row.tag]);
  return result;
}

/**
 * The review-list filter on tags, as SQL over the reviews alias: the review carries at least one of the tags
 * (normalised as on attach). Every tag is a bound parameter. Null when there is nothing to filter on.
 */
export function tagFilterSql(alias: string, tags: readonly string[] | null | undefined, bind: (value: unknown) => string): string | null {
  const wanted = [...new Set((tags ?? []).map(normalizeTag).filter((t) => t !== ''))];
  if (wanted.length === 0) return null;
  return `EXISTS (SELECT 1 FROM review_tags rt WHERE rt.review_id = ${alias}.id AND rt.tag IN (${wanted.map(bind).join(', ')}))`;
}
