import { Arg, Args, Authorized, Ctx, FieldResolver, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import type { Context } from '../../context';
import type { Integration } from '../../models';
import * as integrations from '../../services/integrations.service';
import * as reviews from '../../services/reviews.service';
import type { ReviewRow } from '../../services/reviews.service';
import { Deleted } from '../common';
import { fileUrl, placeholderAvatarUrl, sourceLogoUrl } from '../urls';
import { CreateReviewInput, ReviewListArgs, UpdateReviewInput, WritableSourceArgs } from './review.input';
import { ReviewAspectType, ReviewPage, ReviewType, WritableSourcePage, WritableSourceType } from './review.type';
import { aspectsOfRow } from '../../models/review.model';

const principal = (ctx: Context) => ctx.principal!; // @Authorized guarantees it

@Authorized()
@Resolver(() => ReviewType)
export class ReviewResolver {
  @Authorized('reviews:read')
  @Query(() => ReviewPage, { description: 'Reviews the caller can see, filtered, newest first unless sortBy says otherwise.' })
  async reviews(@Args() args: ReviewListArgs, @Ctx() ctx: Context) {
    const page = await reviews.list(principal(ctx), args);
    for (const r of page.items) ctx.loaders.integration.prime(r.integration.id, r.integration);
    return page;
  }

  @Authorized('reviews:read')
  @Query(() => ReviewType)
  async review(@Arg('id', () => Int) id: number, @Ctx() ctx: Context) {
    const review = await reviews.get(principal(ctx), id);
    ctx.loaders.integration.prime(review.integration.id, review.integration);
    return review;
  }

  @Authorized('reviews:read', 'reviews:create')
  @Mutation(() => ReviewType, { description: 'Creates a review on a testimonials or custom source.' })
  createReview(@Arg('input') input: CreateReviewInput, @Ctx() ctx: Context) {
    return reviews.create(principal(ctx), input, { clock: ctx.clock });
  }

  @Authorized('reviews:read', 'reviews:update')
  @Mutation(() => ReviewType, { description: 'Changes the fields that are set; synced reviews are refused.' })
  updateReview(@Arg('id', () => Int) id: number, @Arg('input') input: UpdateReviewInput, @Ctx() ctx: Context) {
    return reviews.update(principal(ctx), id, input, { clock: ctx.clock });
  }

  @Authorized('reviews:read', 'reviews:delete')
  @Mutation(() => Deleted)
  async deleteReview(@Arg('id', () => Int) id: number, @Ctx() ctx: Context): Promise<Deleted> {
    await reviews.remove(principal(ctx), id, { clock: ctx.clock });
    return { id, message: 'Review deleted successfully.' };
  }

  @FieldResolver(() => String, { description: 'Name of the source (the integration).' })
  async source(@Root() review: ReviewRow, @Ctx() ctx: Context): Promise<string> {
    return (await ctx.loaders.integration.load(review.integrationId))?.name ?? '';
  }

  @FieldResolver(() => String)
  async sourceLogo(@Root() review: ReviewRow, @Ctx() ctx: Context): Promise<string> {
    const integration = await ctx.loaders.integration.load(review.integrationId);
    const source = integration ? await ctx.loaders.source.load(integration.sourceId) : null;
    return sourceLogoUrl(ctx.baseUrl, source?.slug ?? 'custom');
  }

  @FieldResolver(() => [ReviewAspectType], { description: 'The aspects the review talks about (staff, price, wait time, cleanliness, quality, communication), each with its tone.' })
  aspects(@Root() review: ReviewRow): ReviewAspectType[] {
    return Object.entries(aspectsOfRow(review)).map(([aspect, sentiment]) => ({ aspect, sentiment }));
  }

  @FieldResolver(() => String, { description: 'Uploaded or platform avatar, else a generated placeholder.' })
  avatar(@Root() review: ReviewRow, @Ctx() ctx: Context): string {
    if (review.avatarFileId) return fileUrl(ctx.baseUrl, review.avatarFileId);
    return review.avatarUrl ?? placeholderAvatarUrl(ctx.baseUrl, review.author);
  }
}

@Authorized()
@Resolver(() => WritableSourceType)
export class WritableSourceResolver {
  @Authorized('reviews:read')
  @Query(() => WritableSourcePage, { description: 'Sources reviews can be written to (testimonials, custom).' })
  writableSources(@Args() args: WritableSourceArgs, @Ctx() ctx: Context) {
    return integrations.listWritable(principal(ctx), args);
  }

  @FieldResolver(() => String)
  async logo(@Root() integration: Integration, @Ctx() ctx: Context): Promise<string> {
    const source = await ctx.loaders.source.load(integration.sourceId);
    return sourceLogoUrl(ctx.baseUrl, source?.slug ?? 'custom');
  }
}
