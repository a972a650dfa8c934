import { IsInt, Max, Min } from 'class-validator';
import { ArgsType, Field, InputType, Int } from 'type-graphql';
import { PageArgs } from '../common';
import { msg } from '../validation';

/** Mirrors the MCP tool list_auto_respond_rules: organization_id, location_id, use_ai, paused, page, per_page 1-50. */
@ArgsType()
export class AutoRespondRuleListArgs extends PageArgs {
  @Field(() => Int, { defaultValue: 25 })
  @IsInt()
  @Min(1, msg.between('per page', 1, 50))
  @Max(50, msg.between('per page', 1, 50))
  perPage!: number;

  @Field(() => Int, { nullable: true })
  organizationId?: number | null;

  @Field(() => Int, { nullable: true, description: 'The rules that apply at this location: its own and its organisation-wide ones.' })
  locationId?: number | null;

  @Field(() => Boolean, { nullable: true })
  useAi?: boolean | null;

  @Field(() => Boolean, { nullable: true })
  paused?: boolean | null;
}

/** Field rules (lengths, placeholders, the template/AI pairing) are checked by the service, for every caller. */
@InputType()
export class CreateAutoRespondRuleInput {
  @Field(() => Int)
  organizationId!: number;

  @Field(() => Int, { nullable: true, description: 'A location of the organisation; absent: organisation-wide.' })
  locationId?: number | null;

  @Field({ description: '1-255 characters.' })
  name!: string;

  @Field(() => [Int], { description: 'At least one of 1-5.' })
  ratings!: number[];

  @Field(() => [String], { nullable: true, description: 'At most 20; empty: every source.' })
  sourceNames?: string[] | null;

  @Field(() => [String], { nullable: true, description: 'At most 50, each 1-100 characters.' })
  keywords?: string[] | null;

  @Field(() => String, { nullable: true, description: '`any` (default) or `none`.' })
  keywordMatch?: string | null;

  @Field(() => Boolean, { nullable: true, description: 'Default false.' })
  useAi?: boolean | null;

  @Field(() => String, { nullable: true, description: 'Required unless useAi; at most 4096 characters.' })
  template?: string | null;

  @Field(() => Boolean, { nullable: true, description: 'Default false.' })
  paused?: boolean | null;

  @Field(() => Int, { nullable: true, description: '0-1000000, default 0.' })
  priority?: number | null;
}

@InputType({ description: 'Only the fields that are set change; `locationId: null` makes the rule organisation-wide.' })
export class UpdateAutoRespondRuleInput {
  @Field(() => Int, { nullable: true })
  locationId?: number | null;

  @Field(() => String, { nullable: true })
  name?: string | null;

  @Field(() => [Int], { nullable: true })
  ratings?: number[] | null;

  @Field(() => [String], { nullable: true })
  sourceNames?: string[] | null;

  @Field(() => [String], { nullable: true })
  keywords?: string[] | null;

  @Field(() => String, { nullable: true })
  keywordMatch?: string | null;

  @Field(() => Boolean, { nullable: true })
  useAi?: boolean | null;

  @Field(() => String, { nullable: true, description: 'null clears it (allowed for AI rules only).' })
  template?: string | null;

  @Field(() => Boolean, { nullable: true })
  paused?: boolean | null;

  @Field(() => Int, { nullable: true })
  priority?: number | null;
}
