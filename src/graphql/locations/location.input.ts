import { MinLength } from 'class-validator';
import { ArgsType, Field, InputType, Int } from 'type-graphql';
import { PageArgs, perPageField } from '../common';
import { MaxChars, msg } from '../validation';

@ArgsType()
export class LocationListArgs extends PageArgs {
  @perPageField(25)
  perPage!: number;

  @Field(() => Int, { nullable: true })
  organizationId?: number | null;

  @Field(() => String, { nullable: true, description: 'Free text over location and organisation names.' })
  search?: string | null;
}

@InputType()
export class CreateLocationInput {
  @Field(() => Int)
  organizationId!: number;

  @Field()
  @MinLength(1, msg.required('name'))
  @MaxChars(255, 'name')
  name!: string;
}

@InputType()
export class UpdateLocationInput {
  @Field()
  @MinLength(1, msg.required('name'))
  @MaxChars(255, 'name')
  name!: string;
}
