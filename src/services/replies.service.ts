import { Conflict, NotFound, Upstream, Validation, ruleViolation } from '../domain/errors';
import { charCount } from '../domain/limits';
import { canSeeLocated } from '../domain/permissions';
import type { Principal } from '../domain/principal';
import { Integration, Review, ReviewSource } from '../models';
import { reviewPayload } from '../outbox/payloads';
import { writeEvent } from '../outbox/writer';
import { platformClient } from '../providers';
import { FacebookReplyExists } from '../providers/facebook/graph.client';
import { ProviderRejected, ProviderUnavailable, SIGN_IN_PROVIDERS, type ReviewPlatformClient, type SignInProvider } from '../providers/types';
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
}

/**
 * Publishes the owner's reply to a review ("Reply to Review"). A written review (testimonials, custom) stores the
 * reply; a synced review's reply is published on its platform first, and stored only once the platform accepted
 * it. One reply per review: a review already replied to is 409 `already_replied`. The review row stays locked
 * while the platform is called, so two replies at once cannot both be published. review-updated is written in the
 * same transaction.
 *
 * A retry after a lost answer is safe on both platforms: Google's reply is an overwriting PUT; Facebook's client
 * reads the story's comments before it comments, so the page's comment with this text (an earlier attempt that
 * went through) is recorded as the reply instead of a second comment, and a page comment with another text is
 * 409 `already_replied` (docs/decisions/reviews.md, "Durable").
 */
export async function reply(p: Principal, id: number, message: string, opts: ReplyOptions = {}): Promise<Review> {
  const text = cleanMessage(message);
  const clock = clockOf(opts);
  return inTransaction(opts, async (transaction) => {
    const review = await Review.findByPk(id, { transaction, lock: transaction.LOCK.UPDATE });
    if (!review || !canSeeLocated(p, review)) throw new NotFound('Review');
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
        if (e instanceof FacebookReplyExists) throw new Conflict(`This review has already been replied to on ${name}.`, 'already_replied');
        if (e instanceof ProviderRejected) throw new Upstream(`${name} rejected the reply: ${e.reason}`, 'provider_rejected');
        if (e instanceof ProviderUnavailable) throw new Upstream(`${name} could not be reached; the reply was not published. Try again later.`, 'provider_unavailable');
        throw e;
      }
    }
    review.set({ reply: text, replyDate });
    await review.save({ transaction });
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
