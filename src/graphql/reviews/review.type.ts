import { Field, Float, GraphQLISODateTime, Int, ObjectType } from 'type-graphql';
import { Paginated } from '../common';

@ObjectType('Review', { description: 'A review from any source.' })
export class ReviewType {
  @Field(() => Int)
  id!: number;

  @Field(() => Int)
  organizationId!: number;

  @Field(() => Int)
  locationId!: number;

  @Field(() => Int, { description: 'The review source integration.' })
  integrationId!: number;

  @Field()
  author!: string;

  @Field(() => GraphQLISODateTime, { description: 'Publication time; midnight UTC of published_on for written reviews.' })
  publishedAt!: Date;

  @Field(() => Int)
  rating!: number;

  @Field(() => String, { nullable: true })
  title!: string | null;

  @Field()
  message!: string;

  @Field(() => String, { nullable: true })
  reply!: string | null;

  @Field(() => GraphQLISODateTime, { nullable: true })
  replyDate!: Date | null;

  @Field()
  hidden!: boolean;

  @Field()
  verified!: boolean;

  @Field(() => String, { nullable: true, description: '`positive`, `neutral` or `negative`: sentiment of the title and message.' })
  sentiment!: string | null;

  @Field(() => Float, { nullable: true, description: 'Sentiment score in -1..1 (>= 0.05 positive, <= -0.05 negative).' })
  sentimentScore!: number | null;

  @Field(() => GraphQLISODateTime)
  createdAt!: Date;

  @Field(() => GraphQLISODateTime)
  updatedAt!: Date;
}

@ObjectType()
export class ReviewPage extends Paginated(ReviewType, 'Review') {}

@ObjectType('WritableSource', { description: 'A source reviews can be written to (testimonials or custom integration).' })
export class WritableSourceType {
  @Field(() => Int, { description: 'Send this as `source` when creating a review.' })
  id!: number;

  @Field()
  name!: string;

  @Field()
  type!: string;

  @Field(() => Int)
  organizationId!: number;

  @Field(() => Int)
  locationId!: number;
}

@ObjectType()
export class WritableSourcePage extends Paginated(WritableSourceType, 'WritableSource') {}
