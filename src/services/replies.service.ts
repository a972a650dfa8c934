import { Op, type Transaction } from 'sequelize';
import { Conflict, NotFound, Upstream, Validation, ruleViolation } from '../domain/errors';
import { charCount } from '../domain/limits';
import { canSeeLocated } from '../domain/permissions';
import type { Principal } from '../domain/principal';
import { Integration, ReplyDraft, Review, ReviewSource } from '../models';
import { reviewPayload } from '../outbox/payloads';
import { writeEvent } from '../outbox/writer';
import { platformClient } from '../providers';
import { ProviderRejected, ProviderReplyExists, ProviderUnavailable, SIGN_IN_PROVIDERS, type ReviewPlatformClient, type SignInProvider } from '../providers/types';
import { clockOf, inTransaction, type ServiceOptions } from './common';
import { WRITABLE_TYPES } from './integrations.service';
import { accessTokenFor } from './provider-connections.service';

/** Longest reply we accept: Google's documented limit for review replies is 4096 characters. */
export const MAX_REPLY_CHARS = 4096;

const PROVIDER_NAMES: Record<SignInProvider, string> = { google: 'Google', facebook: 'Facebook' };

function cleanMessage(message: string): string {
  const trimmed = (message ?? '').trim();
  if (!trimmed) throw new Validation({ message: ['The message field is required.'] });
  if (charCount(trimmed) > MAX_REPLY_CHARS) throw new Validation({ message: [`The message may not be greater than ${MAX_REPLY_CHARS} characters.`] });
  return trimmed;
}

export interface ReplyOptions extends ServiceOptions {
  /** The platform API client (default: `platformClient` of src/providers; tests give one with a short timeout). */
  platformClient?: (provider: SignInProvider) => ReviewPlatformClient;
  /** The reply is this draft being approved: it is left to the caller, the review's other pending drafts are superseded. */
  approvedDraftId?: number;
}

/**
 * A review got a reply (by any path: a reply, a draft approved, auto-respond, a sync bringing the platform's reply,
 * or an approval that found the review answered already): its pending drafts can never be published, so they are
 * closed as `rejected` with a reason starting `Superseded:`, in the caller's transaction. Lock order: the review row
 * first (every caller holds it), then its drafts.
 */
export async function supersedePendingDrafts(
  reviewId: number | number[],
  reason: string,
  opts: { transaction: Transaction; now: Date; decidedByUserId?: number | null; exceptDraftId?: number },
): Promise<number> {
  const [n] = await ReplyDraft.update(
    { status: 'rejected', decidedByUserId: opts.decidedByUserId || null, decidedAt: opts.now, rejectionReason: reason },
    {
      where: { reviewId, status: 'pending', ...(opts.exceptDraftId !== undefined ? { id: { [Op.ne]: opts.exceptDraftId } } : {}) },
      transaction: opts.transaction,
    },
  );
  return n;
}

/**
 * Publishes the owner's reply to a review ("Reply to Review"). A written review (testimonials, custom) stores the
 * reply; a synced review's reply is published on its platform first, and stored only once the platform accepted
 * it. One reply per review: a review already replied to is 409 `already_replied`. The review row stays locked
 * while the platform is called, so two replies at once cannot both be published. review-updated is written in the
 * same transaction, and the review's pending drafts are superseded (`supersedePendingDrafts`).
 *
 * A reply the business already has on the platform is never replaced or doubled, and a retry after a lost answer is
 * safe: both clients read the review's current reply first (Google `GET` of the review, whose `reply` PUT would
 * overwrite it; Facebook the story's comments), so that reply with this text (an earlier attempt that went
 * through) is recorded as the reply, and another text (the owner replied on the platform since the last sync) is
 * 409 `already_replied`, nothing published or stored (docs/decisions/reviews.md, "At most one public reply").
 */
export async function reply(p: Principal, id: number, message: string, opts: ReplyOptions = {}): Promise<Review> {
  const text = cleanMessage(message);
  const clock = clockOf(opts);
  return inTransaction(opts, async (transaction) => {
    const review = await Review.findByPk(id, { transaction, lock: transaction.LOCK.UPDATE });
    // Removed on its platform: there is nothing to reply to, as for an unknown id.
    if (!review || review.removedAt || !canSeeLocated(p, review)) throw new NotFound('Review');
    const integration = await Integration.findByPk(review.integrationId, { include: [ReviewSource], transaction });
    if (!integration) throw new NotFound('Review');
    if (review.reply !== null && review.reply !== '') throw new Conflict('This review has already been replied to.', 'already_replied');

    let replyDate = clock.now();
    if (!WRITABLE_TYPES.includes(integration.type)) {
      const provider = integration.source?.slug as SignInProvider | undefined;
      if (!provider || !SIGN_IN_PROVIDERS.includes(provider) || !integration.externalId || !review.identifier) {
        throw ruleViolation(`Replies to ${integration.name} reviews cannot be published from here.`, 'reply_not_supported');
      }
      const name = PROVIDER_NAMES[provider];
      let token: string;
      try {
        token = await accessTokenFor(integration.id, { clock });
      } catch (e) {
        if (e instanceof NotFound) {
          throw ruleViolation(`The ${name} source of this location is not connected; connect it to publish replies.`, 'source_not_connected');
        }
        throw e;
      }
      try {
        const published = await (opts.platformClient ?? platformClient)(provider).publishReply(token, integration.externalId, review.identifier, text);
        if (published && published.replyDate) replyDate = published.replyDate;
      } catch (e) {
        if (e instanceof ProviderReplyExists) throw new Conflict(`This review has already been replied to on ${name}.`, 'already_replied');
        if (e instanceof ProviderRejected) throw new Upstream(`${name} rejected the reply: ${e.reason}`, 'provider_rejected');
        if (e instanceof ProviderUnavailable) throw new Upstream(`${name} could not be reached; the reply was not published. Try again later.`, 'provider_unavailable');
        throw e;
      }
    }
    review.set({ reply: text, replyDate });
    await review.save({ transaction });
    await supersedePendingDrafts(
      review.id,
      opts.approvedDraftId !== undefined ? `Superseded: draft ${opts.approvedDraftId} of this review was approved.` : 'Superseded: the review was replied to.',
      { transaction, now: clock.now(), decidedByUserId: p.userId, exceptDraftId: opts.approvedDraftId },
    );
    await writeEvent(
      transaction,
      {
        tenantId: review.tenantId,
        customerId: review.customerId,
        event: 'review-updated',
        aggregateType: 'review',
        aggregateId: review.id,
        payload: reviewPayload(review, integration.name),
      },
      { clock },
    );
    return review;
  });
}
