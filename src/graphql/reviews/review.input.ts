import { IsIn, IsInt, IsOptional, Matches, Max, Min, MinLength } from 'class-validator';
import { ArgsType, Field, InputType, Int } from 'type-graphql';
import { FileInput, PageArgs, perPageField } from '../common';
import { MaxChars, msg } from '../validation';

const DATE = /^\d{4}-\d{2}-\d{2}$/;

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

  @Field(() => [String], { nullable: true })
  sourceNames?: string[] | null;

  @Field(() => [String], { nullable: true, description: 'Reviews carrying at least one of these tags (any letter case).' })
  tags?: string[] | null;
}

@ArgsType()
export class WritableSourceArgs extends PageArgs {
  @perPageField(10)
  perPage!: number;

  @Field(() => Int, { nullable: true })
  organizationId?: number | null;

  @Field(() => Int, { nullable: true })
  locationId?: number | null;
}

@InputType()
export class CreateReviewInput {
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

@InputType({ description: 'Only the fields that are set change.' })
export class UpdateReviewInput {
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
  message?: string | null;

  @Field(() => String, { nullable: true })
  @IsOptional()
  @MaxChars(255, 'title')
  title?: string | null;

  @Field(() => String, { nullable: true })
  @IsOptional()
  @Matches(DATE, msg.date('published on'))
  publishedOn?: string | null;

  @Field(() => FileInput, { nullable: true })
  avatar?: FileInput | null;
}
