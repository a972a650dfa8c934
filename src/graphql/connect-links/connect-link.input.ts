import { IsIn, IsInt, IsOptional, Max, Min } from 'class-validator';
import { ArgsType, Field, InputType, Int } from 'type-graphql';
import { SIGN_IN_PROVIDERS } from '../../providers/types';
import { PageArgs, perPageField } from '../common';
import { msg } from '../validation';

const providerMessage = { message: 'The selected provider is invalid. It must be google or facebook.' };

@ArgsType()
export class ConnectLinkListArgs extends PageArgs {
  @perPageField(20)
  perPage!: number;

  @Field(() => Int, { nullable: true })
  locationId?: number | null;

  @Field(() => String, { nullable: true, description: '`google` or `facebook`.' })
  @IsOptional()
  @IsIn([...SIGN_IN_PROVIDERS], providerMessage)
  provider?: string | null;

  @Field(() => Boolean, { nullable: true, description: 'true: only usable links; false: only used, revoked or expired ones.' })
  active?: boolean | null;
}

@InputType()
export class CreateConnectLinkInput {
  @Field({ description: '`google` or `facebook`.' })
  @IsIn([...SIGN_IN_PROVIDERS], providerMessage)
  provider!: string;

  @Field(() => Int, { description: 'A location of the tenant.' })
  locationId!: number;

  @Field(() => Int, { nullable: true, description: 'Days until the link expires: 1-30, default 7.' })
  @IsOptional()
  @IsInt()
  @Min(1, msg.between('ttl days', 1, 30))
  @Max(30, msg.between('ttl days', 1, 30))
  ttlDays?: number | null;
}
