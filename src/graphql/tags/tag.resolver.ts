import { Args, Authorized, Ctx, FieldResolver, Mutation, Resolver, Root } from 'type-graphql';
import type { Context } from '../../context';
import * as tags from '../../services/tags.service';
import type { ReviewRow } from '../../services/reviews.service';
import { ReviewType } from '../reviews/review.type';
import { TagReviewsArgs } from './tag.input';
import { ReviewTagsType } from './tag.type';

const principal = (ctx: Context) => ctx.principal!; // @Authorized guarantees it

/**
 * Tags on reviews. The MCP permission `reviews.edit` maps to `reviews:read` + `reviews:update` (update reviews).
 */
@Authorized()
@Resolver(() => ReviewType)
export class ReviewTagResolver {
  @Authorized('reviews:read', 'reviews:update')
  @Mutation(() => [ReviewTagsType], {
    description:
      'Attaches and detaches tags on up to 50 reviews (MCP tag_reviews); attaching a tag twice changes nothing. All or nothing: an id outside the caller\'s scope is NOT_FOUND.',
  })
  tagReviews(@Args() args: TagReviewsArgs, @Ctx() ctx: Context) {
    return tags.tagReviews(principal(ctx), args, { clock: ctx.clock });
  }

  @FieldResolver(() => [String], { description: 'Tags of the review, alphabetical.' })
  tags(@Root() review: ReviewRow, @Ctx() ctx: Context): Promise<string[]> {
    return ctx.loaders.reviewTags.load(review.id);
  }
}
