import type { Sequelize } from 'sequelize-typescript';
import { ASPECTS, type Aspect, type Sentiment } from '../analytics/sentiment';
import { ASPECT_ATTRIBUTES, ASPECT_COLUMNS } from '../models/review.model';
import { readRows } from '../db/read';
import { Forbidden, NotFound, Validation, type FieldErrors } from '../domain/errors';
import { canSeeLocated, canSeeLocation, canSeeOrganization, inAccount } from '../domain/permissions';
import type { Principal } from '../domain/principal';
import { Integration, Location, Organization, Review } from '../models';
import { reviewPayload } from '../outbox/payloads';
import { writeEvent } from '../outbox/writer';
import { checkPageDepth, clockOf, inTransaction, parseDate, plainText, scopeSql, type Page, type PageArgs, type ServiceOptions } from './common';
import { prepareImage, saveImage, type UploadInput } from './files.service';
import { WRITABLE_TYPES } from './integrations.service';
import { queueAutoRespond } from './auto-respond.service';
import { tagFilterSql } from './tags.service';
import { containsPattern } from '../db/like';

/** Orders of the reviews list (the MCP list_reviews `sort_by` values); within a rating, newest first. */
export enum ReviewSort {
  NEWEST_FIRST = 'NEWEST_FIRST',
  OLDEST_FIRST = 'OLDEST_FIRST',
  HIGHEST_RATING_FIRST = 'HIGHEST_RATING_FIRST',
  LOWEST_RATING_FIRST = 'LOWEST_RATING_FIRST',
}

const ORDER_BY: Record<ReviewSort, string> = {
  [ReviewSort.NEWEST_FIRST]: 'r.published_at DESC, r.id DESC',
  [ReviewSort.OLDEST_FIRST]: 'r.published_at ASC, r.id ASC',
  [ReviewSort.HIGHEST_RATING_FIRST]: 'r.rating DESC, r.published_at DESC, r.id DESC',
  [ReviewSort.LOWEST_RATING_FIRST]: 'r.rating ASC, r.published_at DESC, r.id DESC',
};

type Ordered = Pick<JoinedRow, 'id' | 'rating' | 'publishedAt'>;
const newestFirst = (a: Ordered, b: Ordered): number => b.publishedAt.getTime() - a.publishedAt.getTime() || b.id - a.id;
/** ORDER_BY in JavaScript, for a page's few rows (every order ends in the unique id, so it is total). */
const ORDER_ROWS: Record<ReviewSort, (a: Ordered, b: Ordered) => number> = {
  [ReviewSort.NEWEST_FIRST]: newestFirst,
  [ReviewSort.OLDEST_FIRST]: (a, b) => -newestFirst(a, b),
  [ReviewSort.HIGHEST_RATING_FIRST]: (a, b) => b.rating - a.rating || newestFirst(a, b),
  [ReviewSort.LOWEST_RATING_FIRST]: (a, b) => a.rating - b.rating || newestFirst(a, b),
};

export interface ReviewFilter extends PageArgs {
  rating?: number | null;
  /** Any of these ratings (1-5); an empty list filters nothing. */
  ratings?: number[] | null;
  organizationId?: number | null;
  locationId?: number | null;
  sourceNames?: string[] | null;
  /** Reviews carrying at least one of these tags. */
  tags?: string[] | null;
  /** `Y-m-d`, inclusive: UTC days of the publication time. */
  dateFrom?: string | null;
  dateTo?: string | null;
  sentiment?: Sentiment | null;
  /** Reviews that talk about this aspect (with `aspectSentiment`: in that tone). */
  aspect?: Aspect | null;
  aspectSentiment?: Sentiment | null;
  /** true: the review has a reply (with text); false: it has none. */
  responded?: boolean | null;
  verified?: boolean | null;
  /** Words to find in the author, message or reply (see `textFilterSql`). */
  query?: string | null;
  /** Messages of at least this many characters. */
  minMessageLength?: number | null;
  sortBy?: ReviewSort | null;
}

/** A review as read for display: the plain row (reads skip model instances, writes return models). */
export type ReviewRow = Pick<
  Review,
  | 'id' | 'tenantId' | 'customerId' | 'organizationId' | 'locationId' | 'integrationId' | 'author' | 'rating'
  | 'originalRating' | 'title' | 'message' | 'publishedAt' | 'avatarFileId' | 'avatarUrl' | 'reply' | 'replyDate'
  | 'hidden' | 'verified' | 'identifier' | 'url' | 'createdAt' | 'updatedAt' | 'sentiment' | 'sentimentScore'
  | 'language' | 'sentimentReason' | 'sentimentSource' | (typeof ASPECT_ATTRIBUTES)[Aspect]
>;

const COLUMNS = `r.id, r.tenant_id AS tenantId, r.customer_id AS customerId, r.organization_id AS organizationId,
  r.location_id AS locationId, r.integration_id AS integrationId, r.author, r.rating, r.original_rating AS originalRating,
  r.title, r.message, r.published_at AS publishedAt, r.avatar_file_id AS avatarFileId, r.avatar_url AS avatarUrl,
  r.reply, r.reply_date AS replyDate, r.hidden, r.verified, r.identifier, r.url, r.created_at AS createdAt,
  r.updated_at AS updatedAt, r.sentiment, r.sentiment_score AS sentimentScore, r.language, r.sentiment_reason AS sentimentReason,
  r.sentiment_source AS sentimentSource, ${ASPECTS.map((a) => `r.${ASPECT_COLUMNS[a]} AS ${ASPECT_ATTRIBUTES[a]}`).join(', ')}`;

/** Joined in by the reads, so a page of reviews needs no second query for its sources. */
export interface ReviewWithIntegration extends ReviewRow {
  integration: IntegrationRow;
}
export type IntegrationRow = Pick<Integration, 'id' | 'name' | 'sourceId' | 'type' | 'locationId'>;

const FROM = `reviews r INNER JOIN integrations i ON i.id = r.integration_id`;
const INTEGRATION_COLUMNS = `i.name AS integrationName, i.source_id AS integrationSourceId, i.type AS integrationType`;

type JoinedRow = ReviewRow & { integrationName: string; integrationSourceId: number; integrationType: IntegrationRow['type'] };

function toRow({ integrationName, integrationSourceId, integrationType, ...r }: JoinedRow): ReviewWithIntegration {
  return {
    ...r,
    hidden: Boolean(r.hidden),
    verified: Boolean(r.verified),
    // DECIMAL arrives as text from the driver.
    sentimentScore: r.sentimentScore == null ? null : Number(r.sentimentScore),
    integration: { id: r.integrationId, name: integrationName, sourceId: integrationSourceId, type: integrationType, locationId: r.locationId },
  };
}

/** The hot reads: plain prepared statements, no model instances (see `readRows`). */
function select<T extends object>(sql: string, values: unknown[], opts: ServiceOptions = {}): Promise<T[]> {
  return readRows<T>(Review.sequelize as Sequelize, sql, values, opts.transaction);
}

/**
 * The `query` filter: every term must occur in the author, the message or the reply, anywhere (inside words too), in
 * any letter case and with or without accents (the columns' utf8mb4_unicode_ci collation). Terms are the query's
 * whitespace-separated parts; a "double-quoted phrase" is one term. LIKE rather than a FULLTEXT index
 * (docs/decisions/reviews.md, "Reviews list filters"): it reads only the caller's scope, walked newest first through the
 * scope's (..., published_at, id) index, so a page stops at its last match; a FULLTEXT search would read every
 * tenant's matches of a common word. Null for a blank query.
 */
export function textFilterSql(alias: string, query: string | null | undefined, bind: (value: unknown) => string): string | null {
  const terms = new Set<string>();
  for (const m of (query ?? '').normalize('NFC').matchAll(/"([^"]*)"|(\S+)/g)) {
    const term = (m[1] ?? m[2]).trim().replace(/\s+/g, ' ');
    if (term) terms.add(term);
  }
  if (terms.size === 0) return null;
  return [...terms]
    .map((term) => {
      const like = containsPattern(term);
      return `(${alias}.author LIKE ${bind(like)} OR ${alias}.message LIKE ${bind(like)} OR ${alias}.reply LIKE ${bind(like)})`;
    })
    .join(' AND ');
}

const sqlMidnight = (d: Date): string => `${d.toISOString().slice(0, 10)} 00:00:00.000`;

/** The date bounds as UTC midnights in SQL text (`to` exclusive: the day after dateTo), or Validation naming each bad one. */
function dateRange(f: ReviewFilter): { from: string | null; to: string | null } {
  const errors: FieldErrors = {};
  const from = f.dateFrom != null ? parseDate(f.dateFrom) : null;
  const to = f.dateTo != null ? parseDate(f.dateTo) : null;
  if (f.dateFrom != null && !from) errors.date_from = ['The date from is not a valid date (Y-m-d).'];
  if (f.dateTo != null && !to) errors.date_to = ['The date to is not a valid date (Y-m-d).'];
  if (from && to && from > to) errors.date_to = ['The date to must be a date after or equal to date from.'];
  if (Object.keys(errors).length) throw new Validation(errors);
  return { from: from && sqlMidnight(from), to: to && sqlMidnight(new Date(to.getTime() + 86_400_000)) };
}

/**
 * Visible reviews, in the order asked for (newest publication first by default). The total comes from
 * `review_counts` (kept by triggers) when every filter is one of its columns (rating, organisation, location,
 * source, scope): exact without counting the reviews themselves. Any other filter is counted over `reviews`.
 */
export async function list(p: Principal, f: ReviewFilter): Promise<Page<ReviewWithIntegration>> {
  const { from, to } = dateRange(f);
  const ratings = [...new Set(f.ratings ?? [])];
  const minLength = f.minMessageLength != null && f.minMessageLength > 0 ? f.minMessageLength : null;
  // Each statement gets its own values, in the order of its placeholders; every value is a parameter, so the
  // text depends only on which filters are used and the driver's prepared-statement cache stays small.
  // `reviewsOnly` adds the filters that only the reviews table can answer (review_counts has no such columns).
  const where = (alias: string, values: unknown[], reviewsOnly: boolean): string => {
    const bind = (value: unknown) => (values.push(value), '?');
    const clauses: string[] = [];
    if (f.rating != null) clauses.push(`${alias}.rating = ${bind(f.rating)}`);
    if (ratings.length) clauses.push(`${alias}.rating IN (${ratings.map(bind).join(', ')})`);
    if (f.organizationId != null) clauses.push(`${alias}.organization_id = ${bind(f.organizationId)}`);
    if (f.locationId != null) clauses.push(`${alias}.location_id = ${bind(f.locationId)}`);
    if (f.sourceNames && f.sourceNames.length) {
      const tenant = bind(p.tenantId);
      clauses.push(`${alias}.integration_id IN (SELECT i.id FROM integrations i WHERE i.tenant_id = ${tenant} AND i.name IN (${f.sourceNames.map(bind).join(', ')}))`);
    }
    if (reviewsOnly) {
      // Removed on their platform: kept, never shown (review_counts does not count them either).
      clauses.push(`${alias}.removed_at IS NULL`);
      const tagged = tagFilterSql(alias, f.tags, bind);
      if (tagged) clauses.push(tagged);
      if (from) clauses.push(`${alias}.published_at >= ${bind(from)}`);
      if (to) clauses.push(`${alias}.published_at < ${bind(to)}`);
      if (f.sentiment != null) clauses.push(`${alias}.sentiment = ${bind(f.sentiment)}`);
      if (f.aspect != null) {
        const column = `${alias}.${ASPECT_COLUMNS[f.aspect]}`;
        clauses.push(f.aspectSentiment != null ? `${column} = ${bind(f.aspectSentiment)}` : `${column} IS NOT NULL`);
      }
      if (f.responded === true) clauses.push(`(${alias}.reply IS NOT NULL AND ${alias}.reply <> '')`);
      if (f.responded === false) clauses.push(`(${alias}.reply IS NULL OR ${alias}.reply = '')`);
      if (f.verified != null) clauses.push(`${alias}.verified = ${bind(f.verified ? 1 : 0)}`);
      if (minLength) clauses.push(`CHAR_LENGTH(${alias}.message) >= ${bind(minLength)}`);
      const matched = textFilterSql(alias, f.query, bind);
      if (matched) clauses.push(matched);
    }
    clauses.push(scopeSql(p, alias, 'location_id', bind));
    return clauses.join(' AND ');
  };
  checkPageDepth(f);
  // The page in one statement, a deferred join: its ids first, in a derived table walked through the scope's
  // (..., published_at, id) index without touching the rows it skips, then only those rows joined with their
  // integration. Joining the integration and reading whole rows in the paging statement itself made the server read
  // and join every row before the offset too (a page 25 deep: 250 rows for 10); measured on 100,000 reviews, 0.72 ms
  // of database CPU per page against 0.30 for the ids alone. Two statements (ids, then rows) cost the API a round trip
  // more per page. The page's rows are put in order here: sorting them in the statement too cost the server a
  // temporary table and a filesort per page.
  const pageValues: unknown[] = [];
  const sort = f.sortBy ?? ReviewSort.NEWEST_FIRST;
  const pageSql = `SELECT ${COLUMNS}, ${INTEGRATION_COLUMNS}
    FROM (SELECT r.id FROM reviews r WHERE ${where('r', pageValues, true)} ORDER BY ${ORDER_BY[sort]} LIMIT ? OFFSET ?) page
    INNER JOIN reviews r ON r.id = page.id INNER JOIN integrations i ON i.id = r.integration_id`;
  // LIMIT values go as strings: MySQL 8 refuses the doubles the driver would send for numbers.
  pageValues.push(String(f.perPage), String((f.page - 1) * f.perPage));
  const countValues: unknown[] = [];
  const countable = !tagFilterSql('r', f.tags, () => '?') && !from && !to && f.sentiment == null && f.aspect == null && f.responded == null &&
    f.verified == null && !minLength && !textFilterSql('r', f.query, () => '?');
  const countSql = countable
    ? `SELECT SUM(c.n) AS total FROM review_counts c WHERE ${where('c', countValues, false)}`
    : `SELECT COUNT(*) AS total FROM reviews r WHERE ${where('r', countValues, true)}`;
  const [rows, [{ total }]] = await Promise.all([
    select<JoinedRow>(pageSql, pageValues),
    select<{ total: number | string | null }>(countSql, countValues),
  ]);
  return { items: rows.sort(ORDER_ROWS[sort]).map(toRow), total: Number(total ?? 0), page: f.page, perPage: f.perPage };
}

export async function get(p: Principal, id: number, opts: ServiceOptions = {}): Promise<ReviewWithIntegration> {
  // A review removed on its platform is answered like one that never existed.
  const [review] = await select<JoinedRow>(`SELECT ${COLUMNS}, ${INTEGRATION_COLUMNS} FROM ${FROM} WHERE r.id = ? AND r.removed_at IS NULL`, [id], opts);
  if (!review || !canSeeLocated(p, review)) throw new NotFound('Review');
  return toRow(review);
}

export interface CreateReviewInput {
  author: string;
  rating: number;
  publishedOn: string;
  organizationId: number;
  locationId: number;
  source: number;
  message?: string | null;
  title?: string | null;
  avatar?: UploadInput | null;
}

function publishedAt(value: string): Date {
  const d = parseDate(value);
  if (!d) throw new Validation({ published_on: ['The published on does not match the format Y-m-d.'] });
  return d;
}

/** A review's author as sent (stored verbatim), refused when it is only whitespace or not one line of text. */
function presentAuthor(author: string): string {
  if (!author.trim()) throw new Validation({ author: ['The author field is required.'] });
  return plainText(author, 'author');
}

/** A title (one line) and a message (line breaks allowed) as sent, refused with other control characters. */
function checkText(input: { title?: string | null; message?: string | null }): void {
  if (input.title != null) plainText(input.title, 'title');
  if (input.message != null) plainText(input.message, 'message', { lines: true });
}

/** Creates a review on a written source (testimonials or custom) of a visible location. */
export async function create(p: Principal, input: CreateReviewInput, opts: ServiceOptions = {}): Promise<Review> {
  const date = publishedAt(input.publishedOn);
  const author = presentAuthor(input.author);
  checkText(input);
  // Checked and sanitised before the transaction opens; a refusal is thrown where the avatar is stored.
  const upload = input.avatar ? prepareImage('avatar', 'review-avatar', input.avatar) : null;
  return inTransaction(opts, async (transaction) => {
    const org = await Organization.findByPk(input.organizationId, { transaction });
    if (!org || !canSeeOrganization(p, org)) throw new NotFound('Organization');
    const location = await Location.findByPk(input.locationId, { transaction });
    if (!location || !inAccount(p, location)) throw new NotFound('Location');
    if (location.organizationId !== org.id) {
      throw new Validation({ location_id: ['The location does not belong to the organization.'] });
    }
    if (!canSeeLocation(p, location)) throw new Forbidden('You do not have access to this location.', 'location_access_denied');
    const integration = await Integration.findByPk(input.source, { transaction });
    if (!integration || integration.locationId !== location.id || !WRITABLE_TYPES.includes(integration.type)) {
      throw new Validation({ source: ['The selected source is invalid: use a testimonials or custom source of this location.'] });
    }
    const avatar = upload ? await saveImage(p.tenantId, upload, { transaction }) : null;
    const review = await Review.create(
      {
        tenantId: location.tenantId,
        customerId: location.customerId,
        organizationId: org.id,
        locationId: location.id,
        integrationId: integration.id,
        author,
        rating: input.rating,
        originalRating: input.rating,
        title: input.title ?? null,
        message: input.message ?? '',
        publishedAt: date,
        avatarFileId: avatar?.id ?? null,
        verified: false,
        hidden: false,
      },
      { transaction },
    );
    await reviewEvent('review-created', review, integration, transaction, opts);
    await queueAutoRespond(review, integration, transaction);
    return review;
  });
}

/** review-created / review-updated, in the transaction of the change (the account owning the review receives it). */
export function reviewEvent(
  event: 'review-created' | 'review-updated',
  review: Review,
  integration: Integration,
  transaction: NonNullable<ServiceOptions['transaction']>,
  opts: ServiceOptions,
) {
  return writeEvent(
    transaction,
    {
      tenantId: review.tenantId,
      customerId: review.customerId,
      event,
      aggregateType: 'review',
      aggregateId: review.id,
      payload: reviewPayload(review, integration.name),
    },
    { clock: clockOf(opts) },
  );
}

export interface UpdateReviewInput {
  author?: string | null;
  rating?: number | null;
  message?: string | null;
  title?: string | null;
  publishedOn?: string | null;
  avatar?: UploadInput | null;
}

async function writable(p: Principal, id: number, opts: ServiceOptions & { transaction: NonNullable<ServiceOptions['transaction']> }) {
  const review = await Review.findByPk(id, { transaction: opts.transaction, lock: opts.transaction.LOCK.UPDATE });
  if (!review || !canSeeLocated(p, review)) throw new NotFound('Review');
  const integration = await Integration.findByPk(review.integrationId, { transaction: opts.transaction });
  if (!integration || !WRITABLE_TYPES.includes(integration.type)) {
    throw new Forbidden('Reviews from synced sources cannot be modified.', 'synced_review');
  }
  return { review, integration };
}

/** Changes only the fields that were sent; the source never changes. */
export async function update(p: Principal, id: number, input: UpdateReviewInput, opts: ServiceOptions = {}): Promise<Review> {
  const upload = input.avatar ? prepareImage('avatar', 'review-avatar', input.avatar) : null;
  return inTransaction(opts, async (transaction) => {
    const { review, integration } = await writable(p, id, { ...opts, transaction });
    checkText(input);
    const patch: Partial<Review> = {};
    if (input.author != null) patch.author = presentAuthor(input.author);
    if (input.rating != null) patch.rating = input.rating;
    if (input.message !== undefined) patch.message = input.message ?? '';
    if (input.title !== undefined) patch.title = input.title;
    if (input.publishedOn != null) patch.publishedAt = publishedAt(input.publishedOn);
    if (upload) patch.avatarFileId = (await saveImage(p.tenantId, upload, { transaction })).id;
    review.set(patch);
    if (!review.changed()) return review;
    await review.save({ transaction });
    await reviewEvent('review-updated', review, integration, transaction, opts);
    return review;
  });
}

/**
 * Permanent; the interface defines no review-deleted event, so none is written. Locks the review, then (ON DELETE
 * CASCADE) its auto-respond run and drafts: the order of the reply path and of the auto-respond publish
 * (src/jobs/auto-respond-runs.ts), so a deletion while the review's auto-response is published waits for it or makes
 * it skip (`review_deleted`), never a deadlock.
 */
export async function remove(p: Principal, id: number, opts: ServiceOptions = {}): Promise<Review> {
  return inTransaction(opts, async (transaction) => {
    const { review } = await writable(p, id, { ...opts, transaction });
    await review.destroy({ transaction });
    return review;
  });
}
