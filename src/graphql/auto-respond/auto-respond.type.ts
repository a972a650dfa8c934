import { Field, GraphQLISODateTime, Int, ObjectType } from 'type-graphql';
import { Paginated } from '../common';

@ObjectType('AutoRespondRule', {
  description:
    'A rule that answers new reviews by itself. The first matching unpaused rule (lowest priority, then oldest) answers; rules are chosen when a review arrives.',
})
export class AutoRespondRuleType {
  @Field(() => Int)
  id!: number;

  @Field(() => Int)
  organizationId!: number;

  @Field(() => Int, { nullable: true, description: 'Null: every location of the organisation.' })
  locationId!: number | null;

  @Field()
  name!: string;

  @Field(() => [Int], { description: 'Ratings (1-5) the rule answers.' })
  ratings!: number[];

  @Field(() => [String], { description: 'Source names (the integration names, any letter case); empty: every source.' })
  sourceNames!: string[];

  @Field(() => [String], { description: 'Words or phrases matched as whole words in the title and message, any letter case.' })
  keywords!: string[];

  @Field({ description: '`any`: answer when a keyword occurs; `none`: answer when none occurs. Ignored without keywords.' })
  keywordMatch!: string;

  @Field({ description: 'Write the reply with the chat API (the template, if any, is its example and its fallback).' })
  useAi!: boolean;

  @Field(() => String, {
    nullable: true,
    description: 'Reply text with placeholders {author}, {first_name}, {rating}, {business_name}, {location_name}, {source}.',
  })
  template!: string | null;

  @Field({ description: 'A paused rule answers nothing, not even reviews that arrived while it was paused once it resumes.' })
  paused!: boolean;

  @Field(() => Int, { description: 'Lower is evaluated first; ties by creation.' })
  priority!: number;

  @Field(() => GraphQLISODateTime)
  createdAt!: Date;

  @Field(() => GraphQLISODateTime)
  updatedAt!: Date;
}

@ObjectType()
export class AutoRespondRulePage extends Paginated(AutoRespondRuleType, 'AutoRespondRule') {}
