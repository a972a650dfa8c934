import { Field, Float, GraphQLISODateTime, Int, ObjectType } from 'type-graphql';
import { Paginated } from '../common';

@ObjectType('InboundMapping', { description: 'Payload paths (dot notation: `contact.email`, `items.0.phone`) of the fields read; null = unmapped.' })
export class InboundMappingType {
  @Field(() => String, { nullable: true })
  firstName!: string | null;

  @Field(() => String, { nullable: true })
  lastName!: string | null;

  @Field(() => String, { nullable: true, description: 'Split into first name (first word) and last name (the rest) where those are missing.' })
  fullName!: string | null;

  @Field(() => String, { nullable: true })
  email!: string | null;

  @Field(() => String, { nullable: true })
  phone!: string | null;

  @Field(() => String, { nullable: true, description: 'Appointment or order date: the timing anchor (arrival time when unmapped or missing).' })
  anchorDate!: string | null;
}

@ObjectType('InboundTiming', {
  description:
    'When to send: `immediate`, `delay` (delayMinutes after the anchor; anchor dates without an offset read in timezone, UTC when null) or `next_morning` (time in timezone, the day after the anchor, else the next one after arrival).',
})
export class InboundTimingType {
  @Field()
  mode!: string;

  @Field(() => Int, { nullable: true })
  delayMinutes!: number | null;

  @Field(() => String, { nullable: true, description: 'HH:MM, 24 hours.' })
  time!: string | null;

  @Field(() => String, { nullable: true, description: 'IANA time zone (next_morning: required; delay: optional, the zone of anchor dates without an offset).' })
  timezone!: string | null;
}

@ObjectType('InboundConnection', { description: "An inbound contact webhook of a campaign: any app that can POST adds contacts to it." })
export class InboundConnectionType {
  @Field({ description: 'UUID.' })
  id!: string;

  @Field({ description: 'The campaign (UUID).' })
  campaignId!: string;

  @Field()
  name!: string;

  @Field({ description: '`{inbound_base}/api/webhooks/inbound/<token>`: the URL to give the sending app.' })
  endpointUrl!: string;

  @Field({ description: 'Whether a signing secret is set (submissions must then carry X-Webhook-Signature).' })
  signed!: boolean;

  @Field(() => InboundMappingType)
  mapping!: InboundMappingType;

  @Field(() => InboundTimingType)
  timing!: InboundTimingType;

  @Field(() => GraphQLISODateTime)
  createdAt!: Date;

  @Field(() => GraphQLISODateTime)
  updatedAt!: Date;
}

@ObjectType()
export class InboundConnectionPage extends Paginated(InboundConnectionType, 'InboundConnection') {}

@ObjectType('InboundConnectionWithSecret', { description: 'A connection with its signing secret, shown this once.' })
export class InboundConnectionWithSecretType {
  @Field(() => InboundConnectionType)
  connection!: InboundConnectionType;

  @Field({ description: 'HMAC-SHA256 key (its UTF-8 bytes) of X-Webhook-Signature.' })
  secret!: string;
}

@ObjectType('InboundSubmission', { description: 'One POST the endpoint processed.' })
export class InboundSubmissionType {
  // Float: the row id is a BIGINT (one row per POST), past GraphQL's 32-bit Int in time.
  @Field(() => Float, { description: 'The submission id: a whole number, beyond 32 bits too.' })
  id!: number;

  @Field({ description: '`accepted`, `duplicate`, `skipped` or `ignored`.' })
  outcome!: string;

  @Field(() => String, { nullable: true })
  reason!: string | null;

  @Field(() => String, { nullable: true, description: 'Contact UUID.' })
  contactId!: string | null;

  @Field(() => GraphQLISODateTime, { nullable: true, description: 'When the review request is scheduled (accepted only).' })
  sendAt!: Date | null;

  @Field(() => GraphQLISODateTime)
  receivedAt!: Date;
}

@ObjectType()
export class InboundSubmissionPage extends Paginated(InboundSubmissionType, 'InboundSubmission') {}

@ObjectType('DeletedInboundConnection')
export class DeletedInboundConnection {
  @Field()
  id!: string;

  @Field()
  message!: string;
}
