import { ArgsType, Field, InputType, Int } from 'type-graphql';
import { ScopedPageArgs } from '../common';

/** Dates and ratings are checked by the service (one answer names every bad field). */
@ArgsType()
export class PrivateFeedbackListArgs extends ScopedPageArgs {
  @Field(() => String, { nullable: true, description: 'Y-m-d, inclusive (UTC).' })
  dateFrom?: string | null;

  @Field(() => String, { nullable: true, description: 'Y-m-d, inclusive (UTC).' })
  dateTo?: string | null;

  @Field(() => [Int], { nullable: true, description: 'Any of these ratings (1-5).' })
  ratings?: number[] | null;

  @Field(() => Boolean, { nullable: true, description: 'true: replied to; false: not yet.' })
  responded?: boolean | null;
}

@InputType()
export class ReplyToPrivateFeedbackInput {
  @Field({ description: '1-4096 characters; replaces an earlier reply.' })
  message!: string;
}

@InputType({ description: 'Only the fields that are set change.' })
export class UpdatePrivateFeedbackInput {
  @Field(() => Int, { nullable: true })
  rating?: number | null;

  @Field(() => String, { nullable: true })
  message?: string | null;
}
