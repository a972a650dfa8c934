import { Field, Int, ObjectType } from 'type-graphql';

@ObjectType('ReviewTags', { description: 'A review and its tags after the change.' })
export class ReviewTagsType {
  @Field(() => Int)
  reviewId!: number;

  @Field(() => [String], { description: 'Normalised (lower case, single spaces), alphabetical.' })
  tags!: string[];
}
