import { IsOptional, MinLength } from 'class-validator';
import { ArgsType, Field, InputType } from 'type-graphql';
import { FileInput, PageArgs, perPageField } from '../common';
import { MaxChars, msg } from '../validation';

@ArgsType()
export class OrganizationListArgs extends PageArgs {
  @perPageField(10)
  perPage!: number;

  @Field(() => String, { nullable: true })
  search?: string | null;
}

@InputType()
export class CreateOrganizationInput {
  @Field()
  @MinLength(1, msg.required('name'))
  @MaxChars(255, 'name')
  name!: string;

  @Field(() => FileInput, { nullable: true })
  logo?: FileInput | null;
}

@InputType({ description: 'Only the fields that are set change.' })
export class UpdateOrganizationInput {
  @Field(() => String, { nullable: true })
  @IsOptional()
  @MinLength(1, msg.required('name'))
  @MaxChars(255, 'name')
  name?: string | null;

  @Field(() => FileInput, { nullable: true })
  logo?: FileInput | null;
}
