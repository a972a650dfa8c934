import { ArgsType, Field, InputType, Int } from 'type-graphql';
import { PageArgs, perPageField } from '../common';

@ArgsType()
export class InboundConnectionListArgs extends PageArgs {
  @perPageField(20)
  perPage!: number;

  @Field(() => String, { nullable: true, description: 'Connections of this campaign (UUID) only.' })
  campaignId?: string | null;
}

@ArgsType()
export class InboundSubmissionListArgs extends PageArgs {
  @perPageField(20)
  perPage!: number;

  @Field({ description: 'Connection UUID.' })
  connectionId!: string;
}

@InputType({ description: 'Dot paths into the payload; null or empty = unmapped. The email or the phone must be mapped.' })
export class InboundMappingInput {
  @Field(() => String, { nullable: true })
  firstName?: string | null;

  @Field(() => String, { nullable: true })
  lastName?: string | null;

  @Field(() => String, { nullable: true })
  fullName?: string | null;

  @Field(() => String, { nullable: true })
  email?: string | null;

  @Field(() => String, { nullable: true })
  phone?: string | null;

  @Field(() => String, { nullable: true })
  anchorDate?: string | null;
}

@InputType({
  description:
    '`immediate`; `delay` with delayMinutes 15-10080 and optionally timezone (IANA; anchor dates without an offset are read in it, else UTC); `next_morning` with time (HH:MM) and timezone (IANA).',
})
export class InboundTimingInput {
  @Field()
  mode!: string;

  @Field(() => Int, { nullable: true })
  delayMinutes?: number | null;

  @Field(() => String, { nullable: true })
  time?: string | null;

  @Field(() => String, { nullable: true })
  timezone?: string | null;
}

@InputType()
export class CreateInboundConnectionInput {
  @Field({ description: 'Campaign UUID.' })
  campaignId!: string;

  @Field()
  name!: string;

  @Field(() => InboundMappingInput)
  mapping!: InboundMappingInput;

  @Field(() => InboundTimingInput, { nullable: true, description: 'Default: immediate.' })
  timing?: InboundTimingInput | null;
}

@InputType({ description: 'Only the fields that are set change; a mapping or timing replaces the old one as a whole.' })
export class UpdateInboundConnectionInput {
  @Field(() => String, { nullable: true })
  name?: string | null;

  @Field(() => InboundMappingInput, { nullable: true })
  mapping?: InboundMappingInput | null;

  @Field(() => InboundTimingInput, { nullable: true })
  timing?: InboundTimingInput | null;
}
