import type { Transaction } from 'sequelize';
import type { AutoRespondOutcome, AutoResponsePlan, PublishAutoResponseInput } from '../../workflows/activities/auto-respond';
import { ChatError, chatComplete, chatConfigured, type ChatMessage } from '../providers/ai/chat.client';
import { FACEBOOK_ANONYMOUS_AUTHOR } from '../providers/facebook/graph.client';
import { GOOGLE_ANONYMOUS_AUTHOR } from '../providers/google/business.client';
import { Conflict } from '../domain/errors';
import type { Principal } from '../domain/principal';
import { AutoRespondRule, AutoRespondRun, Customer, Integration, Location, Organization, Plan, Review } from '../models';
import { subscriptionHeld } from '../models/customer.model';
import { clockOf, inTransaction, type ServiceOptions } from '../services/common';
import { MAX_REPLY_CHARS, reply, type ReplyOptions } from '../services/replies.service';
import { AUTO_RESPOND_FEATURE, log, renderTemplate, type TemplateValues } from '../services/auto-respond.service';

/**
 * Auto-respond, worker side: the activities of the `auto-respond:<review id>` workflow re-check a pending run,
 * compose its reply (the rule's template, or the chat API for AI rules) and publish it through the reply path as the
 * platform acting for the account, or end the run without a reply. Rules and choosing a rule for a new review are
 * src/services/auto-respond.service.ts.
 */
/** The platform acting for the account: a tenant-owner principal of the review's tenant, without token permissions. */
function systemPrincipal(tenantId: number, customerId: number): Principal {
  return {
    tenantId,
    userId: 0,
    role: 'tenant_owner',
    customerId,
    tokenId: 0,
    tokenKind: 'agency',
    tokenExpiresAt: null,
    permissions: new Set(),
    assignedLocationIds: new Set(),
    assignedOrganizationIds: new Set(),
    organizationPermissions: new Map(),
  };
}

/**
 * Why a pending run must not reply (now), or null. `rule`: the run's rule as the caller read it (under its lock);
 * else it is read here, without a lock (the caller decides which locks it holds: see publishAutoResponse).
 */
async function skipReason(run: AutoRespondRun, transaction?: Transaction, rule?: AutoRespondRule | null): Promise<string | null> {
  if (run.ruleId === null) return 'rule_deleted';
  if (rule === undefined || (rule !== null && rule.id !== run.ruleId)) rule = await AutoRespondRule.findByPk(run.ruleId, { transaction });
  if (!rule) return 'rule_deleted';
  if (rule.paused) return 'rule_paused';
  const review = await Review.findByPk(run.reviewId, { attributes: ['id', 'reply', 'removedAt'], transaction });
  if (!review) return 'review_deleted';
  // Removed on its platform (src/jobs/review-sync.ts): there is nothing to answer there any more.
  if (review.removedAt) return 'review_removed';
  if (review.reply) return 'already_replied';
  const customer = await Customer.findByPk(run.customerId, { include: [Plan], transaction });
  if (!customer?.plan?.features?.includes(AUTO_RESPOND_FEATURE)) return 'plan_feature_missing';
  if (subscriptionHeld(customer.subscriptionStatus)) return 'subscription_paused';
  return null;
}

/**
 * The deterministic reply of a rule without a template (AI rules when no chat API answers), by rating. Without a
 * known first name the greeting has no name ("Thank you for your review!"): renderTemplate drops it with its comma.
 */
export function defaultReplyTemplate(rating: number): string {
  if (rating >= 4) return 'Thank you for your review, {first_name}! We are glad you had a great experience with {business_name} and hope to see you again soon.';
  if (rating === 3) return 'Thank you for your feedback, {first_name}. We appreciate you taking the time to share it and will use it to keep improving at {business_name}.';
  return 'Thank you for letting us know, {first_name}. We are sorry your experience with {business_name} fell short; please get in touch with us so we can make it right.';
}

function fitReply(text: string): string {
  const chars = [...text.trim()];
  if (chars.length <= MAX_REPLY_CHARS) return chars.join('');
  const cut = chars.slice(0, MAX_REPLY_CHARS).join('');
  const end = Math.max(cut.lastIndexOf('. '), cut.lastIndexOf('! '), cut.lastIndexOf('? '));
  return end > MAX_REPLY_CHARS / 2 ? cut.slice(0, end + 1) : cut;
}

/** The reply for a review: the rule's template, or the chat API for AI rules (falling back to the template). */
export async function composeReply(
  rule: Pick<AutoRespondRule, 'useAi' | 'template'>,
  values: TemplateValues,
  review: Pick<Review, 'rating' | 'title' | 'message'>,
): Promise<{ message: string; usedAi: boolean }> {
  const fallback = renderTemplate(rule.template ?? defaultReplyTemplate(review.rating), values);
  if (!rule.useAi || !chatConfigured()) return { message: fitReply(fallback), usedAi: false };
  const messages: ChatMessage[] = [
    {
      role: 'system',
      content: [
        `You write the public reply of the business "${values.business_name}" (location "${values.location_name}") to a customer review posted on ${values.source}.`,
        'Write two or three sentences, warm and professional, in the language of the review.',
        values.first_name
          ? 'Thank the reviewer by first name.'
          : 'The reviewer\'s name is not known: thank them without a name, and do not call them "user", "customer" or "reviewer".',
        'For a rating of 3 or less, acknowledge the problem without arguing and invite them to get in touch.',
        'Do not invent facts, offers, discounts or contact details. Answer with the reply text only, without quotes.',
        rule.template ? `Follow the tone and content of this example reply: ${fallback}` : '',
      ]
        .filter(Boolean)
        .join(' '),
    },
    {
      role: 'user',
      content: JSON.stringify({ reviewer_first_name: values.first_name || null, rating: review.rating, title: review.title, text: review.message }),
    },
  ];
  try {
    const text = (await chatComplete(messages, { maxTokens: 400, temperature: 0.4 })).replace(/^["“](.*)["”]$/s, '$1');
    return { message: fitReply(text), usedAi: true };
  } catch (e) {
    if (!(e instanceof ChatError)) throw e;
    log().warn({ err: e.message, kind: e.kind }, 'chat API failed; the template reply is used');
    return { message: fitReply(fallback), usedAi: false };
  }
}

/** Titles before a first name, skipped when finding it (compared without the dot, in any letter case). */
const TITLES = new Set(['dr', 'mr', 'mrs', 'ms', 'mx', 'prof']);
/** The authors the platform clients store for reviewers without a name: there is no first name to greet. */
const ANONYMOUS_AUTHORS = new Set([GOOGLE_ANONYMOUS_AUTHOR, FACEBOOK_ANONYMOUS_AUTHOR, 'anonymous'].map((a) => a.toLowerCase()));

/**
 * The first name to greet a reviewer by (`{first_name}`), or '' when none is known: the first word of the author
 * after any title (`Dr. Jane Roe`: Jane); a title with a single name is kept whole (`Dr. Smith`: "Dr. Smith", not
 * "Smith"); an anonymous reviewer (`A Google user`, `A Facebook user`), an empty author or a bare title have none, and
 * the reply is written without a name (renderTemplate drops an empty placeholder).
 */
export function firstNameOf(author: string | null | undefined): string {
  const name = (author ?? '').trim().replace(/\s+/g, ' ');
  if (!name || ANONYMOUS_AUTHORS.has(name.toLowerCase())) return '';
  const words = name.split(' ');
  let i = 0;
  while (i < words.length && TITLES.has(words[i].replace(/\.$/, '').toLowerCase())) i++;
  if (i === words.length) return '';
  if (i > 0 && i === words.length - 1) return name;
  return words[i];
}

async function templateValues(review: Review, transaction?: Transaction): Promise<TemplateValues> {
  const [org, location, integration] = await Promise.all([
    Organization.findByPk(review.organizationId, { attributes: ['id', 'name'], transaction }),
    Location.findByPk(review.locationId, { attributes: ['id', 'name'], transaction }),
    Integration.findByPk(review.integrationId, { attributes: ['id', 'name'], transaction }),
  ]);
  return {
    author: review.author,
    first_name: firstNameOf(review.author),
    rating: String(review.rating),
    business_name: org?.name ?? '',
    location_name: location?.name ?? '',
    source: integration?.name ?? '',
  };
}

/** Activity: re-checks a pending run and composes its reply, or marks it skipped and says why. */
export async function prepareAutoResponse(reviewId: number): Promise<AutoResponsePlan> {
  const run = await AutoRespondRun.findOne({ where: { reviewId } });
  if (!run) return { action: 'skip', reason: 'no_run' };
  if (run.status !== 'pending') return { action: 'skip', reason: `already_${run.status}` };
  const reason = await skipReason(run);
  if (reason) {
    await AutoRespondRun.update({ status: 'skipped', reason }, { where: { id: run.id, status: 'pending' } });
    return { action: 'skip', reason };
  }
  const [rule, review] = await Promise.all([AutoRespondRule.findByPk(run.ruleId!), Review.findByPk(reviewId)]);
  if (!rule || !review) {
    // Deleted since the check above: stored skipped like any other skip, or the sweep would start the run again for good.
    const gone = rule ? 'review_deleted' : 'rule_deleted';
    await AutoRespondRun.update({ status: 'skipped', reason: gone }, { where: { id: run.id, status: 'pending' } });
    return { action: 'skip', reason: gone };
  }
  const { message, usedAi } = await composeReply(rule, await templateValues(review), review);
  return { action: 'reply', message, usedAi };
}

/**
 * The outcome of a run that must not reply now (recorded `skipped` in the transaction when it is pending), or null
 * when it may. `rule` as for skipReason.
 */
async function settledOutcome(run: AutoRespondRun, transaction: Transaction, rule?: AutoRespondRule | null): Promise<AutoRespondOutcome | null> {
  if (run.status !== 'pending') return { status: run.status, reason: run.reason };
  const reason = await skipReason(run, transaction, rule);
  if (!reason) return null;
  await AutoRespondRun.update({ status: 'skipped', reason }, { where: { id: run.id, status: 'pending' }, transaction });
  return { status: 'skipped', reason };
}

/**
 * Activity: publishes the reply through the reply path (the platform for synced reviews, stored for written ones)
 * and records the run as replied. No lock that a rule change or a review deletion waits for is held while the
 * platform is called (a slow Google or Facebook would otherwise hold them up to its 30 s timeout, and make them
 * fail on the lock-wait timeout). Two transactions:
 *
 * 1. The check, short: the rule read under a shared lock, so a pause or deletion being stored is waited for (its own
 *    short transaction) and seen; then the run and the other reasons to skip (a rule paused or deleted, a plan
 *    downgraded, a subscription paused, a review deleted or replied to), a skip recorded here.
 * 2. The publish: the review row locked first (the reply path's lock, which keeps replies to one review one at a
 *    time), the same reasons checked again without locks (a pause stored while this waited for the review is seen),
 *    the platform called (or a written review's reply stored), and the run recorded `replied` in the same
 *    transaction, after the call. Only the review row is locked during the call; the run row is written after it.
 *
 * So a pause or deletion stored before the publish's last check skips the run (`rule_paused`, `rule_deleted`), and
 * one stored after it answers at once and does not recall the reply already on its way: that reply is published and
 * recorded `replied` (with `rule_id` null after a deletion). Lock orders: the check takes the rule, then the run (as
 * deleteRule: the rule, then its runs through ON DELETE SET NULL) and reads the review without a lock; the publish
 * takes the review, then the run, as deleting a review does (the review, then its run through ON DELETE CASCADE),
 * so neither deadlocks with the other. A review deleted meanwhile is `review_deleted` (its run went with it).
 *
 * Platform errors propagate (the activity maps them to retry or stop) and leave the run pending: the reply and the
 * run's `replied` commit together or not at all. A retry after a platform call whose answer was lost (or a worker
 * killed before the commit) publishes nothing twice: the reply path records the reply an earlier attempt left on
 * Google or Facebook (same text) instead of publishing again; a platform reply with another text (the owner answered
 * there) skips the run as `already_replied`.
 */
export async function publishAutoResponse(
  input: PublishAutoResponseInput,
  opts: ServiceOptions & Pick<ReplyOptions, 'platformClient'> = {},
): Promise<AutoRespondOutcome> {
  const clock = clockOf(opts);
  // The rule to lock, read before the transaction: a plain read in it would fix its snapshot before the wait for the
  // rule's lock (the run's rule only ever changes to null, which the reads after the lock see).
  const found = await AutoRespondRun.findOne({ where: { reviewId: input.reviewId }, attributes: ['id', 'ruleId'], transaction: opts.transaction });
  if (!found) return { status: 'skipped', reason: 'no_run' };

  const checked = await inTransaction(opts, async (transaction): Promise<AutoRespondOutcome | null> => {
    const rule = found.ruleId === null ? null : await AutoRespondRule.findByPk(found.ruleId, { transaction, lock: transaction.LOCK.SHARE });
    const run = await AutoRespondRun.findByPk(found.id, { transaction });
    return run ? settledOutcome(run, transaction, rule) : { status: 'skipped', reason: 'no_run' };
  });
  if (checked) return checked;

  try {
    return await inTransaction(opts, async (transaction): Promise<AutoRespondOutcome> => {
      // Locked before any plain read, so those read what was committed while this waited for the review.
      const review = await Review.findByPk(input.reviewId, { attributes: ['id'], transaction, lock: transaction.LOCK.UPDATE });
      if (!review) return { status: 'skipped', reason: 'review_deleted' };
      const run = await AutoRespondRun.findByPk(found.id, { transaction });
      if (!run) return { status: 'skipped', reason: 'no_run' };
      const settled = await settledOutcome(run, transaction);
      if (settled) return settled;
      await reply(systemPrincipal(run.tenantId, run.customerId), input.reviewId, input.message, { transaction, clock, platformClient: opts.platformClient });
      // The reply is out: recorded whatever happened to the run's rule meanwhile.
      await AutoRespondRun.update({ status: 'replied', reason: null, reply: input.message, usedAi: input.usedAi }, { where: { id: run.id }, transaction });
      return { status: 'replied', reason: null };
    });
  } catch (e) {
    if (e instanceof Conflict && e.reason === 'already_replied') {
      await AutoRespondRun.update({ status: 'skipped', reason: 'already_replied' }, { where: { id: found.id, status: 'pending' }, transaction: opts.transaction });
      return { status: 'skipped', reason: 'already_replied' };
    }
    throw e;
  }
}

/** Activity: the run ends without a reply (a refusal of the reply path, or retries exhausted). */
export async function failAutoResponse(reviewId: number, reason: string): Promise<void> {
  await AutoRespondRun.update({ status: 'failed', reason: reason.slice(0, 1000) }, { where: { reviewId, status: 'pending' } });
}
