import { Arg, Args, Authorized, Ctx, FieldResolver, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import type { Context } from '../../context';
import { type ReplyDraft } from '../../models';
import * as drafts from '../../services/reply-drafts.service';
import { ReviewType } from '../reviews/review.type';
import { ApproveReplyDraftInput, RejectReplyDraftInput, ReplyDraftListArgs } from './draft.input';
import { ReplyDraftPage, ReplyDraftType } from './draft.type';

const principal = (ctx: Context) => ctx.principal!; // @Authorized guarantees it

/**
 * Reply drafts and the approvals queue. The MCP permission `reviews.respond` maps to `reviews:read` +
 * `reviews:update` (the permission that publishes replies) for drafting, approving and rejecting; reading the
 * queue needs `reviews:read`. Approving and rejecting need a person's token: an AI token is FORBIDDEN
 * `human_approval_required`.
 */
@Authorized()
@Resolver(() => ReplyDraftType)
export class ReplyDraftResolver {
  @Authorized('reviews:read', 'reviews:update')
  @Mutation(() => ReplyDraftType, {
    description: 'Holds a reply (1-8000 characters) for approval; it is never sent automatically (MCP draft_review_response).',
  })
  draftReviewResponse(@Arg('reviewId', () => Int) reviewId: number, @Arg('message') message: string, @Ctx() ctx: Context) {
    return drafts.createDraft(principal(ctx), { reviewId, message }, { clock: ctx.clock });
  }

  @Authorized('reviews:read')
  @Query(() => ReplyDraftPage, { description: 'The approvals queue: drafts at locations the caller sees, oldest first.' })
  replyDrafts(@Args() args: ReplyDraftListArgs, @Ctx() ctx: Context) {
    return drafts.listDrafts(principal(ctx), args);
  }

  @Authorized('reviews:read')
  @Query(() => ReplyDraftType)
  replyDraft(@Arg('id', () => Int) id: number, @Ctx() ctx: Context) {
    return drafts.getDraft(principal(ctx), id);
  }

  @Authorized('reviews:read', 'reviews:update')
  @Mutation(() => ReplyDraftType, {
    description:
      'Publishes the draft through the reply path (as replyToReview: CONFLICT already_replied, UPSTREAM provider_*); CONFLICT draft_not_pending when decided already.',
  })
  approveReplyDraft(
    @Arg('id', () => Int) id: number,
    @Arg('input', () => ApproveReplyDraftInput, { nullable: true }) input: ApproveReplyDraftInput | null,
    @Ctx() ctx: Context,
  ) {
    return drafts.approveDraft(principal(ctx), id, { message: input?.message }, { clock: ctx.clock });
  }

  @Authorized('reviews:read', 'reviews:update')
  @Mutation(() => ReplyDraftType, { description: 'Discards the draft: nothing is sent; the draft stays as `rejected`.' })
  rejectReplyDraft(
    @Arg('id', () => Int) id: number,
    @Arg('input', () => RejectReplyDraftInput, { nullable: true }) input: RejectReplyDraftInput | null,
    @Ctx() ctx: Context,
  ) {
    return drafts.rejectDraft(principal(ctx), id, { reason: input?.reason }, { clock: ctx.clock });
  }

  @FieldResolver(() => ReviewType, { nullable: true, description: 'The review the draft answers.' })
  review(@Root() draft: ReplyDraft, @Ctx() ctx: Context) {
    return ctx.loaders.reviewById.load(draft.reviewId);
  }
}
