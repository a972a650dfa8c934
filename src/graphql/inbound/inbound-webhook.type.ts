import { Field, Float, GraphQLISODateTime, ObjectType, registerEnumType } from 'type-graphql';

export enum InboundBodyKind {
  JSON = 'json',
  FORM = 'form',
}
registerEnumType(InboundBodyKind, { name: 'InboundBodyKind', description: 'How the body of a submission is written (the content type the sender gave).' });

export enum InboundReceiptStatus {
  ACCEPTED = 'accepted',
  IGNORED = 'ignored',
  SKIPPED = 'skipped',
  DUPLICATE = 'duplicate',
  SIGNATURE_REFUSED = 'signature_refused',
  MALFORMED_JSON = 'malformed_json',
  NOT_AN_OBJECT = 'not_an_object',
}
registerEnumType(InboundReceiptStatus, {
  name: 'InboundReceiptStatus',
  description: 'What became of a submission: stored (accepted, ignored, skipped, duplicate), or refused before anything was stored.',
});

@ObjectType('InboundEndpoint', { description: 'The connection behind an inbound endpoint token.' })
export class InboundEndpointType {
  @Field({ description: 'Connection UUID.' })
  connection!: string;

  @Field({ description: 'The connection has a signing secret: its submissions must be signed.' })
  signed!: boolean;
}

@ObjectType('InboundReceipt', { description: 'The outcome of one submission to an inbound endpoint.' })
export class InboundReceiptType {
  @Field(() => InboundReceiptStatus)
  status!: InboundReceiptStatus;

  @Field({ description: 'Connection UUID.' })
  connection!: string;

  // Float: submission ids are BIGINT; past 2^31 an Int answered 500 for a submission already stored (the sender's
  // retry then came back a duplicate, answered 500 again). The webhook's JSON carries the same number.
  @Field(() => Float, { nullable: true, description: 'The stored submission (every stored status): a whole number, beyond 32 bits too.' })
  submissionId!: number | null;

  @Field(() => String, { nullable: true, description: 'Contact UUID (accepted; ignored when a contact was found).' })
  contactId!: string | null;

  @Field(() => GraphQLISODateTime, { nullable: true, description: 'When the review request is sent (accepted).' })
  sendAt!: Date | null;

  @Field(() => Boolean, { nullable: true, description: 'A waiting review request was rescheduled (accepted).' })
  rescheduled!: boolean | null;

  @Field(() => String, {
    nullable: true,
    description: 'Why it was ignored or skipped; the signature problem when refused; `replay` for a duplicate that repeats a signed request (its timestamp and body).',
  })
  reason!: string | null;

  @Field(() => Float, { nullable: true, description: 'The submission this one repeats (duplicate): a whole number, beyond 32 bits too.' })
  duplicateOf!: number | null;
}
