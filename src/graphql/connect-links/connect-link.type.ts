import { Field, GraphQLISODateTime, Int, ObjectType } from 'type-graphql';
import { Paginated } from '../common';

@ObjectType('ConnectLink', {
  description: 'A single-use, location-scoped link to the page where a customer signs in to Google or Facebook.',
})
export class ConnectLinkType {
  @Field({ description: 'UUID; identifies the link in paths.' })
  token!: string;

  @Field({ description: '`google` or `facebook`.' })
  provider!: string;

  @Field(() => Int)
  locationId!: number;

  @Field({ description: 'The customer-facing landing page, `{base_url}/connect/{token}`.' })
  connectUrl!: string;

  @Field({ description: '`active`, `used`, `expired` or `revoked`, from the timestamps and the clock.' })
  status!: string;

  @Field(() => GraphQLISODateTime)
  expiresAt!: Date;

  @Field(() => GraphQLISODateTime, { nullable: true })
  lastStartedAt!: Date | null;

  @Field(() => GraphQLISODateTime, { nullable: true })
  completedOauthAt!: Date | null;

  @Field(() => GraphQLISODateTime, { nullable: true })
  usedAt!: Date | null;

  @Field(() => GraphQLISODateTime, { nullable: true })
  revokedAt!: Date | null;

  @Field(() => GraphQLISODateTime)
  createdAt!: Date;
}

@ObjectType()
export class ConnectLinkPage extends Paginated(ConnectLinkType, 'ConnectLink') {}
