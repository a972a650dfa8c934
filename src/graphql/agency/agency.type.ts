import { Field, Float, GraphQLISODateTime, Int, ObjectType } from 'type-graphql';
import { Paginated } from '../common';

@ObjectType('CustomPlanRef')
export class CustomPlanRefType {
  @Field(() => Int) id!: number;
  @Field() name!: string;
}

@ObjectType('OrganizationRef')
export class OrganizationRefType {
  @Field(() => Int) id!: number;
  @Field() name!: string;
}

@ObjectType('AgencyCustomer', { description: 'A customer account of the agency (spec: Customer (agency)).' })
export class AgencyCustomerType {
  @Field(() => Int) id!: number;
  @Field() name!: string;
  @Field({ description: 'The login e-mail of the account owner.' }) email!: string;
  @Field(() => String, { nullable: true, description: 'E.164.' }) phone!: string | null;
  @Field() language!: string;
  @Field(() => GraphQLISODateTime, { nullable: true }) trialEndsAt!: Date | null;
  @Field(() => GraphQLISODateTime) createdAt!: Date;
  @Field(() => GraphQLISODateTime) updatedAt!: Date;
  @Field({ description: '`active`, `paused` or `canceled`.' }) subscriptionStatus!: string;
  @Field(() => Int, { nullable: true, description: "The account's own location limit (null: the plan's; 0 = unlimited)." })
  locationLimit!: number | null;
  @Field(() => Int, { nullable: true, description: "The account's own member limit (null: the plan's; 0 = unlimited)." })
  memberLimit!: number | null;
  @Field(() => String, { nullable: true, description: 'ISO 3166-1 alpha-2.' }) country!: string | null;
  @Field(() => String, { nullable: true }) postalCode!: string | null;
  @Field(() => CustomPlanRefType, { nullable: true }) customPlan!: CustomPlanRefType | null;
  @Field(() => [OrganizationRefType]) organizations!: OrganizationRefType[];
}

@ObjectType()
export class AgencyCustomerPage extends Paginated(AgencyCustomerType, 'AgencyCustomer') {}

@ObjectType('CustomPlan', { description: 'A plan of the agency (spec: Custom plan (agency)).' })
export class CustomPlanType {
  @Field(() => Int) id!: number;
  @Field({ description: 'Payment-provider price id; empty string when unlinked.' }) billingMonthlyId!: string;
  @Field({ description: 'Payment-provider price id; empty string when unlinked.' }) billingYearlyId!: string;
  @Field() name!: string;
  @Field() isDefault!: boolean;
  @Field() isHidden!: boolean;
  @Field() isFree!: boolean;
  @Field(() => Int, { description: '0 = unlimited.' }) locationLimit!: number;
  @Field(() => Int, { description: '0 = unlimited.' }) memberLimit!: number;
  @Field(() => GraphQLISODateTime) createdAt!: Date;
  @Field(() => GraphQLISODateTime) updatedAt!: Date;
}

@ObjectType('NfcOrderShipping')
export class NfcOrderShippingType {
  @Field() name!: string;
  @Field() address!: string;
  @Field() city!: string;
  @Field({ description: 'ISO 3166-1 alpha-2.' }) country!: string;
  @Field(() => String, { nullable: true }) trackingUrl!: string | null;
}

@ObjectType('NfcOrderItem')
export class NfcOrderItemType {
  @Field() productName!: string;
  @Field(() => Int) quantity!: number;
  @Field(() => Float, { description: 'In the currency of the order (major units).' }) unitPrice!: number;
  @Field(() => [String]) nfcUrls!: string[];
}

@ObjectType('NfcOrder', { description: 'An NFC product order (spec: NFC order).' })
export class NfcOrderType {
  @Field() id!: string;
  @Field() orderNumber!: string;
  @Field() email!: string;
  @Field(() => Float, { description: 'Major units of the currency.' }) total!: number;
  @Field({ description: 'Lower-case ISO 4217 code.' }) currency!: string;
  @Field({ description: '`pending`, `shipped`, `completed` or `canceled`.' }) status!: string;
  @Field(() => NfcOrderShippingType) shipping!: NfcOrderShippingType;
  @Field(() => [NfcOrderItemType]) items!: NfcOrderItemType[];
  @Field(() => GraphQLISODateTime, { nullable: true }) shippedAt!: Date | null;
  @Field(() => GraphQLISODateTime, { nullable: true }) completedAt!: Date | null;
  @Field(() => GraphQLISODateTime, { nullable: true }) canceledAt!: Date | null;
  @Field(() => GraphQLISODateTime) createdAt!: Date;
  @Field(() => GraphQLISODateTime) updatedAt!: Date;
}

@ObjectType('AgencyMessage')
export class AgencyMessageType {
  @Field() message!: string;
}

@ObjectType('CreditsAdded')
export class CreditsAddedType {
  @Field() message!: string;
  @Field({ description: '`email` or `sms`.' }) type!: string;
  // Float: a whole number that may pass GraphQL's 32-bit Int (grants add up without bound; an Int answered 500 after
  // the grant was committed, and a client retrying on 500 granted again). JSON carries it as the same number.
  @Field(() => Float, { description: 'Unexpired credits of that type left after the grant: a whole number, beyond 32 bits too.' }) balance!: number;
}
