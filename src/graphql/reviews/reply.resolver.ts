import { MinLength } from 'class-validator';
import { Arg, Authorized, Ctx, Field, InputType, Int, Mutation, Resolver } from 'type-graphql';
import type { Context } from '../../context';
import * as replies from '../../services/replies.service';
import { MaxChars, msg } from '../validation';
import { ReviewType } from './review.type';

@InputType({ description: 'The owner\'s public reply to a review.' })
export class ReplyToReviewInput {
  @Field({ description: `1 to ${replies.MAX_REPLY_CHARS} characters (trimmed).` })
  @MinLength(1, msg.required('message'))
  @MaxChars(replies.MAX_REPLY_CHARS, 'message')
  message!: string;
}

/** "Reply to Review": publishes a reply on the review's platform (synced) or stores it (written reviews). */
@Authorized()
@Resolver(() => ReviewType)
export class ReviewReplyResolver {
  @Authorized('reviews:read', 'reviews:update')
  @Mutation(() => ReviewType, {
    description:
      'Publishes the reply: synced reviews on their platform first (PROVIDER errors: UPSTREAM provider_rejected / provider_unavailable), written reviews directly. CONFLICT already_replied when a reply exists.',
  })
  replyToReview(@Arg('id', () => Int) id: number, @Arg('input') input: ReplyToReviewInput, @Ctx() ctx: Context) {
    return replies.reply(ctx.principal!, id, input.message, { clock: ctx.clock });
  }
}
