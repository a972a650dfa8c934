import { ArrayMaxSize, IsIn, IsInt, IsOptional, Matches, Max, Min, MinLength } from 'class-validator';
import { ArgsType, Field, InputType, Int, registerEnumType } from 'type-graphql';
import { ASPECTS, SENTIMENTS } from '../../analytics/sentiment';
import { ReviewSort } from '../../services/reviews.service';
import { FileInput, PageArgs, perPageField, ScopedPageArgs } from '../common';
import { MaxChars, msg } from '../validation';

const DATE = /^\d{4}-\d{2}-\d{2}$/;

registerEnumType(ReviewSort, {
  name: 'ReviewSort',
  description: 'Order of a reviews list.',
  valuesConfig: {
    NEWEST_FIRST: { description: 'Newest publication first (the default).' },
    OLDEST_FIRST: { description: 'Oldest publication first.' },
    HIGHEST_RATING_FIRST: { description: '5 stars first; within a rating, newest first.' },
    LOWEST_RATING_FIRST: { description: '1 star first; within a rating, newest first.' },
  },
});

@ArgsType()
export class ReviewListArgs extends PageArgs {
  @perPageField(10)
  perPage!: number;

  @Field(() => Int, { nullable: true })
  @IsOptional()
  @IsIn([1, 2, 3, 4, 5], { message: 'The rating must be between 1 and 5.' })
  rating?: number | null;

  @Field(() => Int, { nullable: true })
  organizationId?: number | null;

  @Field(() => Int, { nullable: true })
  locationId?: number | null;

  @Field(() => [String], { nullable: true, description: 'At most 100 source names.' })
  @IsOptional()
  @ArrayMaxSize(100, { message: 'The source names may not have more than 100 items.' })
  sourceNames?: string[] | null;

  @Field(() => [String], { nullable: true, description: 'Reviews carrying at least one of these tags (any letter case); at most 100.' })
  @IsOptional()
  @ArrayMaxSize(100, { message: 'The tags may not have more than 100 items.' })
  tags?: string[] | null;

  @Field(() => [Int], { nullable: true, description: 'Any of these ratings (1-5); combines with `rating` (both apply).' })
  @IsOptional()
  @IsIn([1, 2, 3, 4, 5], { each: true, message: 'Each rating must be between 1 and 5.' })
  ratings?: number[] | null;

  @Field(() => String, { nullable: true, description: 'Y-m-d, inclusive: published on or after this UTC day.' })
  @IsOptional()
  @Matches(DATE, msg.date('date from'))
  dateFrom?: string | null;

  @Field(() => String, { nullable: true, description: 'Y-m-d, inclusive: published on or before this UTC day.' })
  @IsOptional()
  @Matches(DATE, msg.date('date to'))
  dateTo?: string | null;

  @Field(() => String, { nullable: true, description: '`positive`, `neutral` or `negative`.' })
  @IsOptional()
  @IsIn([...SENTIMENTS], { message: `The selected sentiment is invalid: use one of ${SENTIMENTS.join(', ')}.` })
  sentiment?: (typeof SENTIMENTS)[number] | null;

  @Field(() => String, {
    nullable: true,
    description: 'Reviews that talk about this aspect: `staff`, `price`, `wait_time`, `cleanliness`, `quality` or `communication`.',
  })
  @IsOptional()
  @IsIn([...ASPECTS], { message: `The selected aspect is invalid: use one of ${ASPECTS.join(', ')}.` })
  aspect?: (typeof ASPECTS)[number] | null;

  @Field(() => String, { nullable: true, description: 'With `aspect`: only reviews where that aspect has this tone (`positive`, `neutral`, `negative`).' })
  @IsOptional()
  @IsIn([...SENTIMENTS], { message: `The selected aspect sentiment is invalid: use one of ${SENTIMENTS.join(', ')}.` })
  aspectSentiment?: (typeof SENTIMENTS)[number] | null;

  @Field(() => Boolean, { nullable: true, description: 'true: only reviews with a reply; false: only unanswered ones.' })
  responded?: boolean | null;

  @Field(() => Boolean, { nullable: true })
  verified?: boolean | null;

  @Field(() => String, {
    nullable: true,
    description: 'Every word must occur in the author, message or reply (any letter case); words of 3 or more letters match as word prefixes. At most 255 characters.',
  })
  @IsOptional()
  @MaxChars(255, 'query')
  query?: string | null;

  @Field(() => Int, { nullable: true, description: 'Only messages of at least this many characters.' })
  @IsOptional()
  @IsInt()
  @Min(0, msg.min('min message length', 0))
  minMessageLength?: number | null;

  @Field(() => ReviewSort, { nullable: true, defaultValue: ReviewSort.NEWEST_FIRST })
  sortBy?: ReviewSort | null;
}

@ArgsType()
export class WritableSourceArgs extends ScopedPageArgs {}

/** What creating and editing a written review both take (each optional; a base class: not emitted). */
@InputType('ReviewTextBaseInput')
abstract class ReviewTextInput {
  @Field(() => String, { nullable: true })
  @IsOptional()
  message?: string | null;

  @Field(() => String, { nullable: true })
  @IsOptional()
  @MaxChars(255, 'title')
  title?: string | null;

  @Field(() => FileInput, { nullable: true })
  avatar?: FileInput | null;
}

@InputType()
export class CreateReviewInput extends ReviewTextInput {
  @Field()
  @MinLength(1, msg.required('author'))
  @MaxChars(255, 'author')
  author!: string;

  @Field(() => Int)
  @IsInt()
  @Min(1, msg.between('rating', 1, 5))
  @Max(5, msg.between('rating', 1, 5))
  rating!: number;

  @Field({ description: 'Y-m-d' })
  @Matches(DATE, msg.date('published on'))
  publishedOn!: string;

  @Field(() => Int)
  organizationId!: number;

  @Field(() => Int)
  locationId!: number;

  @Field(() => Int, { description: 'Integration id from the writable sources list.' })
  source!: number;
}

@InputType({ description: 'Only the fields that are set change.' })
export class UpdateReviewInput extends ReviewTextInput {
  @Field(() => String, { nullable: true })
  @IsOptional()
  @MinLength(1, msg.required('author'))
  @MaxChars(255, 'author')
  author?: string | null;

  @Field(() => Int, { nullable: true })
  @IsOptional()
  @IsInt()
  @Min(1, msg.between('rating', 1, 5))
  @Max(5, msg.between('rating', 1, 5))
  rating?: number | null;

  @Field(() => String, { nullable: true })
  @IsOptional()
  @Matches(DATE, msg.date('published on'))
  publishedOn?: string | null;
}
