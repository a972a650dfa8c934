import { ArgsType, Field, Int } from 'type-graphql';

/**
 * Mirrors the MCP tool tag_reviews: review_ids (1-50), attach_tags (each 1-64 characters; `__flag__` is reserved),
 * detach_tags. Bounds are checked by the service, for every caller.
 */
@ArgsType()
export class TagReviewsArgs {
  @Field(() => [Int], { description: '1 to 50 review ids.' })
  reviewIds!: number[];

  @Field(() => [String], { nullable: true, description: 'At most 20 tags, each 1-64 characters; `__flag__` is reserved.' })
  attachTags?: string[] | null;

  @Field(() => [String], { nullable: true, description: 'At most 20 tags.' })
  detachTags?: string[] | null;
}
