import { Field, GraphQLISODateTime, Int, ObjectType } from 'type-graphql';
import { Paginated } from '../common';

@ObjectType('ReplyDraft', { description: 'A reply held in the approvals queue; it is sent only when a person approves it.' })
export class ReplyDraftType {
  @Field(() => Int)
  id!: number;

  @Field(() => Int)
  reviewId!: number;

  @Field(() => Int)
  organizationId!: number;

  @Field(() => Int)
  locationId!: number;

  @Field()
  message!: string;

  @Field({ description: '`pending`, `approved` (published) or `rejected`.' })
  status!: string;

  @Field({ description: 'Kind of token that drafted it: `customer`, `agency` or `ai`.' })
  createdVia!: string;

  @Field(() => Int, { nullable: true })
  createdByUserId!: number | null;

  @Field(() => Int, { nullable: true })
  decidedByUserId!: number | null;

  @Field(() => GraphQLISODateTime, { nullable: true })
  decidedAt!: Date | null;

  @Field(() => String, { nullable: true })
  rejectionReason!: string | null;

  @Field(() => GraphQLISODateTime)
  createdAt!: Date;

  @Field(() => GraphQLISODateTime)
  updatedAt!: Date;
}

@ObjectType()
export class ReplyDraftPage extends Paginated(ReplyDraftType, 'ReplyDraft') {}
