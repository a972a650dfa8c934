import { Op, type WhereOptions } from 'sequelize';
import { Conflict, Forbidden, NotFound, Validation } from '../domain/errors';
import { charCount } from '../domain/limits';
import { canSeeLocated } from '../domain/permissions';
import type { Principal } from '../domain/principal';
import { ReplyDraft, Review } from '../models';
import type { ReplyDraftState } from '../models/reply-draft.model';
import { clockOf, inTransaction, locationScoped, offset, type Page, type PageArgs, type ServiceOptions } from './common';
import { MAX_REPLY_CHARS, reply, supersedePendingDrafts } from './replies.service';

/**
 * Reply drafts and their approvals queue (spec: MCP draft_review_response). A draft is never sent by itself: it
 * waits in the queue until a person approves it, which publishes it through the ordinary reply path (the platform
 * for synced reviews, stored for testimonials and custom ones), or rejects it, which keeps the row as `rejected`
 * with who decided and why. AI tokens may draft but never decide.
 */
export const MAX_DRAFT_CHARS = 8000;
export const MAX_REJECTION_REASON_CHARS = 1000;

function cleanDraftMessage(message: string | null | undefined): string {
  const text = (message ?? '').trim();
  if (!text) throw new Validation({ message: ['The message field is required.'] });
  if (charCount(text) > MAX_DRAFT_CHARS) throw new Validation({ message: [`The message may not be greater than ${MAX_DRAFT_CHARS} characters.`] });
  return text;
}

/** Who may decide: a person's token (customer or agency), never an AI token, so nothing drafted by an assistant goes out on its own. */
function assertHumanApprover(p: Principal): void {
  if (p.tokenKind === 'ai') {
    throw new Forbidden('Reply drafts are approved or rejected by a person: an AI token cannot decide them.', 'human_approval_required');
  }
}

export interface CreateDraftInput {
  reviewId: number;
  message: string;
}

/**
 * Holds a reply to a visible review for approval; a review that has a reply already is 409 `already_replied`. The
 * review row is read under a shared lock, so a reply being stored meanwhile (which supersedes the review's pending
 * drafts) is waited for and seen, and no draft is left pending on a replied review.
 */
export async function createDraft(p: Principal, input: CreateDraftInput, opts: ServiceOptions = {}): Promise<ReplyDraft> {
  const message = cleanDraftMessage(input.message);
  return inTransaction(opts, async (transaction) => {
    const review = await Review.findByPk(input.reviewId, { transaction, lock: transaction.LOCK.SHARE });
    if (!review || review.removedAt || !canSeeLocated(p, review)) throw new NotFound('Review');
    if (review.reply) throw new Conflict('This review has already been replied to.', 'already_replied');
    return ReplyDraft.create(
      {
        tenantId: review.tenantId,
        customerId: review.customerId,
        organizationId: review.organizationId,
        locationId: review.locationId,
        reviewId: review.id,
        message,
        status: 'pending',
        createdByUserId: p.userId || null,
        createdVia: p.tokenKind,
      },
      { transaction },
    );
  });
}

export interface DraftFilter extends PageArgs {
  /** Null: every state. */
  status?: ReplyDraftState | null;
  organizationId?: number | null;
  locationId?: number | null;
  reviewId?: number | null;
}

/** The queue: drafts at locations the caller sees, oldest first (the order they are worked through). */
export async function listDrafts(p: Principal, f: DraftFilter): Promise<Page<ReplyDraft>> {
  const where: WhereOptions = { ...locationScoped(p) };
  const filters: Record<string, unknown> = {};
  if (f.status) filters.status = f.status;
  if (f.organizationId != null) filters.organizationId = f.organizationId;
  if (f.locationId != null) filters.locationId = f.locationId;
  if (f.reviewId != null) filters.reviewId = f.reviewId;
  const { rows, count } = await ReplyDraft.findAndCountAll({
    where: { [Op.and]: [where, filters] },
    order: [['createdAt', 'ASC'], ['id', 'ASC']],
    ...offset(f),
  });
  return { items: rows, total: count, page: f.page, perPage: f.perPage };
}

export async function getDraft(p: Principal, id: number, opts: ServiceOptions = {}): Promise<ReplyDraft> {
  const draft = await ReplyDraft.findByPk(id, { transaction: opts.transaction });
  if (!draft || !canSeeLocated(p, draft)) throw new NotFound('Reply draft');
  return draft;
}

async function pendingDraft(p: Principal, id: number, opts: ServiceOptions & { transaction: NonNullable<ServiceOptions['transaction']> }) {
  const draft = await ReplyDraft.findByPk(id, { transaction: opts.transaction, lock: opts.transaction.LOCK.UPDATE });
  if (!draft || !canSeeLocated(p, draft)) throw new NotFound('Reply draft');
  if (draft.status !== 'pending') throw new Conflict(`This draft has already been ${draft.status}.`, 'draft_not_pending');
  return draft;
}

/**
 * Approves a pending draft: publishes it through the reply path (so every rule of "Reply to Review" applies:
 * 409 already_replied, 502 provider_rejected / provider_unavailable, 422 reply_not_supported /
 * source_not_connected) and marks it approved in the same transaction; if publishing fails nothing changes and
 * the draft stays pending. `message`, when given, replaces the draft's text first (the approver's edit). A
 * published reply may have at most 4096 characters, so a longer draft must be shortened when approving. The
 * review's other pending drafts are rejected as superseded (by the reply path). A review found answered already
 * (409 `already_replied`: here, or on the platform) can take none of its drafts: they are all superseded, and that
 * is committed before the 409 is answered.
 *
 * Locks in the reply path's order: the review row, then the drafts (the reply path supersedes drafts under the
 * review's lock), so two approvals of one review, or an approval and a reply, wait for each other instead of
 * deadlocking; the second approval then finds its draft superseded (409 `draft_not_pending`).
 */
export async function approveDraft(p: Principal, id: number, input: { message?: string | null } = {}, opts: ServiceOptions = {}): Promise<ReplyDraft> {
  assertHumanApprover(p);
  const clock = clockOf(opts);
  const edited = input.message != null ? cleanDraftMessage(input.message) : null;
  const outcome = await inTransaction(opts, async (transaction): Promise<{ draft: ReplyDraft } | { refused: Conflict }> => {
    const found = await ReplyDraft.findByPk(id, { attributes: ['id', 'tenantId', 'customerId', 'organizationId', 'locationId', 'reviewId'], transaction });
    if (!found || !canSeeLocated(p, found)) throw new NotFound('Reply draft');
    await Review.findByPk(found.reviewId, { attributes: ['id'], transaction, lock: transaction.LOCK.UPDATE });
    const draft = await pendingDraft(p, id, { ...opts, transaction });
    const message = edited ?? draft.message;
    if (charCount(message) > MAX_REPLY_CHARS) {
      throw new Validation(
        { message: [`A published reply may not be greater than ${MAX_REPLY_CHARS} characters; approve the draft with a shortened message.`] },
        'reply_too_long',
      );
    }
    try {
      await reply(p, draft.reviewId, message, { transaction, clock, approvedDraftId: draft.id });
    } catch (e) {
      if (!(e instanceof Conflict && e.reason === 'already_replied')) throw e;
      await supersedePendingDrafts(draft.reviewId, 'Superseded: the review has already been replied to.', { transaction, now: clock.now(), decidedByUserId: p.userId });
      return { refused: e };
    }
    await draft.update({ message, status: 'approved', decidedByUserId: p.userId || null, decidedAt: clock.now() }, { transaction });
    return { draft };
  });
  if ('refused' in outcome) throw outcome.refused;
  return outcome.draft;
}

/** Rejects a pending draft: nothing is sent; the row stays, `rejected`, with the decider, the time and the reason. */
export async function rejectDraft(p: Principal, id: number, input: { reason?: string | null } = {}, opts: ServiceOptions = {}): Promise<ReplyDraft> {
  assertHumanApprover(p);
  const reason = input.reason?.trim() || null;
  if (reason && charCount(reason) > MAX_REJECTION_REASON_CHARS) {
    throw new Validation({ reason: [`The reason may not be greater than ${MAX_REJECTION_REASON_CHARS} characters.`] });
  }
  const clock = clockOf(opts);
  return inTransaction(opts, async (transaction) => {
    const draft = await pendingDraft(p, id, { ...opts, transaction });
    await draft.update({ status: 'rejected', decidedByUserId: p.userId || null, decidedAt: clock.now(), rejectionReason: reason }, { transaction });
    return draft;
  });
}
