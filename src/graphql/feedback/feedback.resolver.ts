import { Arg, Args, Authorized, Ctx, FieldResolver, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import type { Context } from '../../context';
import * as feedback from '../../services/private-feedback.service';
import type { FeedbackView } from '../../services/private-feedback.service';
import { PrivateFeedbackListArgs, ReplyToPrivateFeedbackInput, UpdatePrivateFeedbackInput } from './feedback.input';
import { PrivateFeedbackPage, PrivateFeedbackType } from './feedback.type';

const principal = (ctx: Context) => ctx.principal!; // @Authorized guarantees it

/**
 * Private feedback, scoped like reviews (a team member sees their assigned locations). Reading needs
 * `reviews:read`; replying and editing `reviews:read` + `reviews:update`. Changes emit private-feedback-updated.
 */
@Authorized()
@Resolver(() => PrivateFeedbackType)
export class PrivateFeedbackResolver {
  @Authorized('reviews:read')
  @Query(() => PrivateFeedbackPage, { description: 'Private feedback the caller can see, newest first.' })
  privateFeedbacks(@Args() args: PrivateFeedbackListArgs, @Ctx() ctx: Context) {
    return feedback.list(principal(ctx), args);
  }

  @Authorized('reviews:read')
  @Query(() => PrivateFeedbackType)
  privateFeedback(@Arg('id', () => Int) id: number, @Ctx() ctx: Context) {
    return feedback.get(principal(ctx), id);
  }

  @Authorized('reviews:read', 'reviews:update')
  @Mutation(() => PrivateFeedbackType, { description: 'Sets (or replaces) the reply and its date.' })
  replyToPrivateFeedback(@Arg('id', () => Int) id: number, @Arg('input') input: ReplyToPrivateFeedbackInput, @Ctx() ctx: Context) {
    return feedback.reply(principal(ctx), id, input, { clock: ctx.clock });
  }

  @Authorized('reviews:read', 'reviews:update')
  @Mutation(() => PrivateFeedbackType, { description: 'Edits the rating and/or the message.' })
  updatePrivateFeedback(@Arg('id', () => Int) id: number, @Arg('input') input: UpdatePrivateFeedbackInput, @Ctx() ctx: Context) {
    return feedback.update(principal(ctx), id, input, { clock: ctx.clock });
  }

  @FieldResolver(() => Boolean)
  replied(@Root() row: FeedbackView): boolean {
    return row.reply !== null && row.reply !== '';
  }

  @FieldResolver(() => String)
  meta(@Root() row: FeedbackView): string {
    return JSON.stringify(row.meta ?? {});
  }
}
