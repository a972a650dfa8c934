import { ArgsType, Field, InputType, Int } from 'type-graphql';
import { PageArgs, perPageField } from '../common';

/**
 * Inputs of the agency area. Their rules (lengths, E.164, plan of the tenant, tax fields) are checked by the
 * agency service in one pass, so a 422 names every offending field at once rather than the first kind found.
 */

@ArgsType()
export class AgencyCustomerListArgs extends PageArgs {
  @perPageField(10)
  perPage!: number;

  @Field(() => String, { nullable: true, description: 'Substring of the name or the e-mail.' })
  search?: string | null;
}

@InputType()
export class CreateCustomerInput {
  @Field() name!: string;
  @Field({ description: 'Name of the organisation created with the account.' }) company!: string;
  @Field({ description: 'Login e-mail.' }) email!: string;
  @Field({ description: 'At least 8 characters; stored hashed.' }) password!: string;
  @Field({ description: 'Id of one of the agency custom plans.' }) customPlanId!: string;
  @Field(() => String, { nullable: true, description: 'E.164.' }) phone?: string | null;
  @Field(() => Int, { nullable: true, description: 'Overrides the plan; 0 = unlimited.' }) locationLimit?: number | null;
  @Field(() => Int, { nullable: true, description: 'Overrides the plan; 0 = unlimited.' }) memberLimit?: number | null;
  @Field(() => Boolean, { nullable: true, description: 'E-mail the login details (never the password).' }) sendInvite?: boolean | null;
  @Field(() => Boolean, { nullable: true }) sendGoogleConnectLink?: boolean | null;
  @Field(() => Boolean, { nullable: true }) sendFacebookConnectLink?: boolean | null;
  @Field(() => String, { nullable: true, description: 'ISO 3166-1 alpha-2; required when tax calculation is enabled.' })
  country?: string | null;
  @Field(() => String, { nullable: true, description: 'Required for US and CA when tax calculation is enabled.' })
  postalCode?: string | null;
  @Field(() => String, {
    nullable: true,
    description: 'ISO 639-1 language of the pages and mail the account and its customers read: en, es, fr, de, pt or it (default: the agency\'s).',
  })
  language?: string | null;
}

@InputType()
export class AddCreditsInput {
  @Field({ description: '`email` or `sms`.' }) type!: string;
  @Field(() => Int, { description: 'At least 1.' }) credits!: number;
  @Field(() => String, { nullable: true, description: 'Y-m-d; the credits are valid through that day (UTC).' })
  expiresAt?: string | null;
  @Field(() => String, { nullable: true, description: 'Shown to the customer.' }) notes?: string | null;
}
