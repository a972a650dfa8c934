import { Field, Float, GraphQLISODateTime, Int, ObjectType } from 'type-graphql';
import { Paginated } from '../common';

/** What a review and a private feedback both are: a rating and a message at one location, and the reply to it (a base class: not emitted). */
@ObjectType('RatedMessageBase')
export abstract class RatedMessageFields {
  @Field(() => Int)
  id!: number;

  @Field(() => Int)
  organizationId!: number;

  @Field(() => Int)
  locationId!: number;

  @Field(() => Int)
  rating!: number;

  @Field()
  message!: string;

  @Field(() => String, { nullable: true })
  reply!: string | null;

  @Field(() => GraphQLISODateTime, { nullable: true })
  replyDate!: Date | null;

  @Field(() => GraphQLISODateTime)
  createdAt!: Date;

  @Field(() => GraphQLISODateTime)
  updatedAt!: Date;
}

@ObjectType('Review', { description: 'A review from any source.' })
export class ReviewType extends RatedMessageFields {
  @Field(() => Int, { description: 'The review source integration.' })
  integrationId!: number;

  @Field()
  author!: string;

  @Field(() => GraphQLISODateTime, { description: 'Publication time; midnight UTC of published_on for written reviews.' })
  publishedAt!: Date;

  @Field(() => String, { nullable: true })
  title!: string | null;

  @Field()
  hidden!: boolean;

  @Field()
  verified!: boolean;

  @Field(() => String, { nullable: true, description: '`positive`, `neutral` or `negative`: sentiment of the title and message.' })
  sentiment!: string | null;

  @Field(() => Float, { nullable: true, description: 'Sentiment score in -1..1 (>= 0.05 positive, <= -0.05 negative).' })
  sentimentScore!: number | null;

  @Field(() => String, {
    nullable: true,
    description: 'ISO 639-1 code of the language the text was detected in (any language; null for a review without words).',
  })
  language!: string | null;

  @Field(() => String, {
    nullable: true,
    description:
      'Why the review has its sentiment: `text` (three stars, a clear text), `rating` (no opinion words: the stars), `text_and_rating` (both lean the same way), `rating_outweighs_text` (the text leans the other way, not clearly), `text_outweighs_rating` (the text clearly says the opposite of the stars).',
  })
  sentimentReason!: string | null;

  @Field(() => String, {
    description:
      'Where the sentiment, language and aspects come from: `local` (the built-in analyser) or `ai` (the configured chat model, whose labels are taken only where valid and not contradicting the stars without reason). An edit of the text or rating makes it `local` again until the model is asked about the new text.',
  })
  sentimentSource!: string;
}

@ObjectType('ReviewAspect', { description: 'An aspect the review talks about and its tone there.' })
export class ReviewAspectType {
  @Field({ description: '`staff`, `price`, `wait_time`, `cleanliness`, `quality` or `communication`.' })
  aspect!: string;

  @Field({ description: '`positive`, `neutral` or `negative`.' })
  sentiment!: string;
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
