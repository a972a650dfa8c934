import { Op, type Transaction } from 'sequelize';
import { ensureReviewSync, integrationLabel } from '../../workflows/client';
import { systemClock, type Clock } from '../domain/clock';
import { Customer, Integration, ProviderConnection, Review, ReviewSource } from '../models';
import { subscriptionHeld } from '../models/customer.model';
import { SIGN_IN_PROVIDERS, type ProviderReview, type SignInProvider } from '../providers/types';
import { queueAutoRespond } from '../services/auto-respond.service';
import { inTransaction } from '../services/common';
import { supersedePendingDrafts } from '../services/replies.service';
import { reviewEvent } from '../services/reviews.service';

/**
 * Periodic review sync of synced integrations (Temporal: workflows/reviews/sync.workflow.ts). These are the
 * database halves of its activities: what to sync, the upsert of one page of platform reviews with its
 * review-created / review-updated events (a reply arriving supersedes the review's pending drafts), the removal of
 * reviews the platform no longer lists after a complete listing, and the sync state kept on the integration.
 */

export interface SyncTarget {
  integrationId: number;
  provider: SignInProvider;
  externalId: string;
}

/** Why a run does nothing: the integration is gone, not a platform we sync, paused, or never signed in. */
export type SyncSkip = 'gone' | 'not_synced' | 'paused' | 'no_connection';

export async function loadSyncTarget(integrationId: number): Promise<{ target: SyncTarget | null; skip: SyncSkip | null }> {
  const integration = await Integration.findByPk(integrationId, { include: [ReviewSource] });
  if (!integration) return { target: null, skip: 'gone' };
  const slug = integration.source?.slug as SignInProvider | undefined;
  if (integration.type !== 'synced' || !slug || !SIGN_IN_PROVIDERS.includes(slug) || !integration.externalId) {
    return { target: null, skip: 'not_synced' };
  }
  const customer = await Customer.findByPk(integration.customerId, { attributes: ['id', 'subscriptionStatus'] });
  if (subscriptionHeld(customer?.subscriptionStatus)) return { target: null, skip: 'paused' };
  const connection = await ProviderConnection.findByPk(integrationId, { attributes: ['integrationId'] });
  if (!connection) return { target: null, skip: 'no_connection' };
  return { target: { integrationId, provider: slug, externalId: integration.externalId }, skip: null };
}

export interface UpsertCounts {
  created: number;
  updated: number;
  unchanged: number;
}

const iso = (d: Date | null | undefined): string | null => (d ? new Date(d).toISOString() : null);

/** What we keep of the platform's view beyond the review columns (the webhook `meta`). */
function metaOf(provider: string, r: ProviderReview): Record<string, unknown> {
  return { provider, provider_updated_at: iso(r.updatedAt) };
}

/** The fields a platform can change; a difference in any of them is a review-updated. */
function differs(review: Review, r: ProviderReview, provider: string): boolean {
  const meta = (review.meta ?? {}) as Record<string, unknown>;
  return (
    review.rating !== r.rating ||
    (review.message ?? '') !== r.message ||
    (review.title ?? null) !== r.title ||
    review.author !== r.author.slice(0, 255) ||
    (review.reply ?? null) !== r.reply ||
    (meta.provider_updated_at ?? null) !== iso(r.updatedAt) ||
    (meta.provider ?? null) !== provider
  );
}

/**
 * Stores one page of platform reviews, matched by (integration, identifier), in one transaction: a new review is
 * created with review-created; a changed one (rating, text, reply, the platform's update time) is updated with
 * review-updated; an unchanged one writes nothing, so running a sync twice emits nothing the second time.
 *
 * `fetchedFrom` is the wall-clock time the page's fetch started. A review that has a reply and whose row was written
 * at or after it keeps its reply: the page may have been read before that reply was published (the reply path
 * stores it while the fetch is under way), and clearing it would let a second reply overwrite the first on the
 * platform. The next sync, fetched after the write, brings the reply in line with the platform.
 */
export async function upsertProviderReviews(
  integrationId: number,
  provider: SignInProvider,
  reviews: ProviderReview[],
  opts: { clock?: Clock; transaction?: Transaction; fetchedFrom?: Date; listedAt?: Date } = {},
): Promise<UpsertCounts> {
  const clock = opts.clock ?? systemClock;
  const counts: UpsertCounts = { created: 0, updated: 0, unchanged: 0 };
  // A platform may list one review twice while pages shift; the last copy wins.
  const byId = new Map(reviews.map((r) => [r.externalId, r]));
  if (byId.size === 0) return counts;
  return inTransaction(opts, async (transaction) => {
    const integration = await Integration.findByPk(integrationId, { transaction });
    if (!integration) return counts;
    const existing = await Review.findAll({
      where: { integrationId, identifier: { [Op.in]: [...byId.keys()] } },
      transaction,
      lock: transaction.LOCK.UPDATE,
    });
    const known = new Map(existing.map((r) => [r.identifier!, r]));
    // Seen in this run's listing: stamped, and a review removed earlier is back (same row, counted again by the
    // review_counts trigger). No event for either, and updated_at stays: nothing about the review changed.
    if (existing.length && (opts.listedAt || existing.some((r) => r.removedAt))) {
      await Review.update(
        { removedAt: null, ...(opts.listedAt ? { platformSeenAt: opts.listedAt } : {}) },
        { where: { id: { [Op.in]: existing.map((r) => r.id) } }, transaction, silent: true, hooks: false },
      );
    }
    for (const [externalId, fetched] of byId) {
      const review = known.get(externalId);
      const r = review && replyNewerThanPage(review, opts.fetchedFrom) ? { ...fetched, reply: review.reply, replyDate: review.replyDate } : fetched;
      if (!review) {
        const created = await Review.create(
          {
            tenantId: integration.tenantId,
            customerId: integration.customerId,
            organizationId: integration.organizationId,
            locationId: integration.locationId,
            integrationId,
            author: r.author.slice(0, 255),
            rating: r.rating,
            originalRating: r.rating,
            title: r.title,
            message: r.message,
            publishedAt: r.publishedAt,
            avatarUrl: r.avatarUrl,
            reply: r.reply,
            replyDate: r.reply === null ? null : r.replyDate ?? clock.now(),
            hidden: false,
            verified: false,
            identifier: externalId,
            url: r.url,
            meta: metaOf(provider, r),
            platformSeenAt: opts.listedAt ?? null,
          },
          { transaction },
        );
        await reviewEvent('review-created', created, integration, transaction, { clock });
        await queueAutoRespond(created, integration, transaction);
        counts.created++;
        continue;
      }
      if (!differs(review, r, provider)) {
        counts.unchanged++;
        continue;
      }
      const replyChanged = (review.reply ?? null) !== r.reply;
      const gotReply = !review.reply && Boolean(r.reply);
      review.set({
        author: r.author.slice(0, 255),
        rating: r.rating,
        title: r.title,
        message: r.message,
        avatarUrl: r.avatarUrl,
        url: r.url,
        reply: r.reply,
        replyDate: r.reply === null ? null : replyChanged ? r.replyDate ?? clock.now() : review.replyDate,
        meta: metaOf(provider, r),
      });
      await review.save({ transaction });
      // Replied to on the platform: the review's pending drafts can no longer be published.
      if (gotReply) await supersedePendingDrafts(review.id, `Superseded: the review was replied to on ${integration.name}.`, { transaction, now: clock.now() });
      await reviewEvent('review-updated', review, integration, transaction, { clock });
      counts.updated++;
    }
    return counts;
  });
}

/**
 * The stored reply may be newer than the page: the row was written (updated_at, wall clock like `fetchedFrom`) at or
 * after the fetch started. Any write counts, not only the reply's: keeping a reply one sync longer is harmless.
 */
function replyNewerThanPage(review: Review, fetchedFrom: Date | undefined): boolean {
  if (!fetchedFrom || review.reply === null || review.reply === '') return false;
  return review.updatedAt.getTime() >= fetchedFrom.getTime();
}

/** Reviews marked removed per statement (an IN list of ids). */
const REMOVAL_CHUNK = 1000;

/** What the removal step of a complete listing did; `skipped`: why it removed nothing whatever it found. */
export interface RemovalOutcome {
  removed: number;
  skipped: 'empty_listing' | null;
}

/**
 * The end of a run that read the platform's complete list of reviews (every page to the last, none failed, not cut at
 * the page limit), `listed` reviews in all, the run's pages stamped with `listedAt`. A review of the integration that
 * neither this listing nor the previous complete one saw (`platform_seen_at` before the previous listing's time, or
 * never stamped) is marked removed: one listing may miss a review while pages shift under it (a review edited or
 * removed during the run moves the others between pages), two in a row do not. Nothing is deleted; a review listed
 * again is restored by the upsert. The removed reviews' pending reply drafts are rejected ("removed on <source>").
 *
 * An empty listing while the integration holds reviews removes nothing and does not count as a complete listing: a
 * platform outage or a permission glitch answering "no reviews" must not wipe an account's figures. No event is
 * written: the interface defines no review-deleted event, and the review did not change (review-updated would
 * announce a review that the API then answers 404 for). Idempotent: a listing already recorded does nothing again.
 */
export async function removeUnlistedReviews(
  integrationId: number,
  listedAt: Date,
  listed: number,
  opts: { clock?: Clock; transaction?: Transaction } = {},
): Promise<RemovalOutcome> {
  const clock = opts.clock ?? systemClock;
  return inTransaction(opts, async (transaction) => {
    const integration = await Integration.findByPk(integrationId, { transaction, lock: transaction.LOCK.UPDATE });
    // Only synced integrations: written reviews (testimonials, custom) are never the platform's to remove.
    if (!integration || integration.type !== 'synced') return { removed: 0, skipped: null };
    const previous = integration.lastFullListingAt;
    if (previous && previous.getTime() >= listedAt.getTime()) return { removed: 0, skipped: null };
    const held = { integrationId, removedAt: null, identifier: { [Op.ne]: null } };
    if (listed === 0 && (await Review.count({ where: held, transaction })) > 0) return { removed: 0, skipped: 'empty_listing' };
    let removed = 0;
    if (previous) {
      // The rows first (locked: the reply path's order, review then drafts), then their pending drafts, which can no
      // longer be approved: rejected with the reason, as a reply arriving on the platform supersedes them.
      const gone = await Review.findAll({
        attributes: ['id'],
        where: { ...held, [Op.or]: [{ platformSeenAt: null }, { platformSeenAt: { [Op.lt]: previous } }] },
        transaction,
        lock: transaction.LOCK.UPDATE,
      });
      const now = clock.now();
      for (let i = 0; i < gone.length; i += REMOVAL_CHUNK) {
        const ids = gone.slice(i, i + REMOVAL_CHUNK).map((r) => r.id);
        const [n] = await Review.update({ removedAt: now }, { where: { id: { [Op.in]: ids } }, transaction, hooks: false });
        removed += n;
        await supersedePendingDrafts(ids, `Superseded: the review was removed on ${integration.name}.`, { transaction, now });
      }
    }
    await integration.update({ lastFullListingAt: listedAt }, { transaction });
    return { removed, skipped: null };
  });
}

/** Records the outcome of a run on the integration: a success stamps `last_synced_at` and clears the error. */
export async function recordSyncResult(integrationId: number, error: string | null, clock: Clock = systemClock): Promise<void> {
  const values = error === null ? { lastSyncedAt: clock.now(), lastSyncError: null } : { lastSyncError: error.slice(0, 1000) };
  await Integration.update(values, { where: { id: integrationId } });
}

/** Every synced integration with a provider sign-in: each should have its sync schedule. */
export async function connectedIntegrationIds(): Promise<number[]> {
  const rows = await ProviderConnection.findAll({ attributes: ['integrationId'], order: [['integrationId', 'ASC']] });
  return rows.map((r) => r.integrationId);
}

/**
 * Worker start: makes sure every connected integration has its schedule as configured (one created now also runs at
 * once; an existing one is brought in line with the interval and task queue, not triggered). Returns how many
 * schedules were created.
 */
export async function reconcileReviewSyncSchedules(): Promise<number> {
  let created = 0;
  const ids = await connectedIntegrationIds();
  const integrations = new Map(
    (await Integration.findAll({ where: { id: { [Op.in]: ids } }, attributes: ['id', 'tenantId', 'customerId', 'organizationId', 'name'] })).map((i) => [i.id, i]),
  );
  for (const id of ids) {
    const integration = integrations.get(id);
    if (await ensureReviewSync(id, { triggerExisting: false, label: integration ? integrationLabel(integration) : null })) created++;
  }
  return created;
}
