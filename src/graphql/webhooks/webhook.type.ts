import { Field, GraphQLISODateTime, Int, ObjectType } from 'type-graphql';
import { Paginated } from '../common';

@ObjectType('WebhookEndpoint', { description: 'A receiver of the account\'s outbound webhooks (the events it subscribed to, by default all, go to it while enabled).' })
export class WebhookEndpointType {
  @Field(() => Int)
  id!: number;

  @Field()
  url!: string;

  @Field(() => String, { nullable: true })
  description!: string | null;

  @Field()
  enabled!: boolean;

  @Field(() => [String], { nullable: true, description: 'The events it receives; null: every event.' })
  events!: string[] | null;

  @Field(() => GraphQLISODateTime, { nullable: true, description: 'Until when the previous secret still signs (after a rotation).' })
  previousSecretExpiresAt!: Date | null;

  @Field(() => GraphQLISODateTime)
  createdAt!: Date;

  @Field(() => GraphQLISODateTime)
  updatedAt!: Date;
}

@ObjectType()
export class WebhookEndpointPage extends Paginated(WebhookEndpointType, 'WebhookEndpoint') {}

@ObjectType('WebhookEndpointWithSecret', { description: 'A receiver with its signing secret (on creation and rotation).' })
export class WebhookEndpointWithSecretType {
  @Field(() => WebhookEndpointType)
  endpoint!: WebhookEndpointType;

  @Field({ description: 'Standard Webhooks secret (`whsec_...`) to verify `webhook-signature` with.' })
  secret!: string;
}

@ObjectType('WebhookHeader', { description: 'One HTTP header of a logged webhook attempt.' })
export class WebhookHeaderType {
  @Field({ description: 'The name, in lower case.' })
  name!: string;

  @Field({ description: 'The value; a repeated header is one value joined with `, `.' })
  value!: string;
}

@ObjectType('WebhookAttempt', { description: 'One POST of a delivery.' })
export class WebhookAttemptType {
  @Field(() => Int, { description: 'Number of the attempt within its delivery run.' })
  attempt!: number;

  @Field(() => Int, { nullable: true, description: 'HTTP status of the answer; null when none came.' })
  statusCode!: number | null;

  @Field(() => Int)
  latencyMs!: number;

  @Field(() => String, { nullable: true })
  error!: string | null;

  @Field(() => String, { nullable: true, description: 'The first KB of the answer: 1024 bytes of UTF-8, cut back to a whole character.' })
  responseExcerpt!: string | null;

  @Field(() => [WebhookHeaderType], {
    nullable: true,
    description: 'The headers sent: content-type, user-agent, webhook-id, webhook-timestamp, webhook-signature. Null when no POST was made.',
  })
  requestHeaders!: WebhookHeaderType[] | null;

  @Field(() => [WebhookHeaderType], {
    nullable: true,
    description: "The receiver's answer headers, by name: at most 50, names cut to 100 and values to 500 characters. Null when no answer came.",
  })
  responseHeaders!: WebhookHeaderType[] | null;

  @Field(() => GraphQLISODateTime)
  createdAt!: Date;
}

@ObjectType('WebhookDelivery', { description: 'One event for one receiver; `id` is the `webhook-id` header.' })
export class WebhookDeliveryType {
  @Field()
  id!: string;

  @Field(() => Int)
  endpointId!: number;

  @Field()
  event!: string;

  @Field({ description: '`pending`, `succeeded` or `failed`.' })
  status!: string;

  @Field(() => Int, { description: 'Attempts made, over every run.' })
  attemptCount!: number;

  @Field(() => Int, { nullable: true })
  lastStatusCode!: number | null;

  @Field(() => String, { nullable: true })
  lastError!: string | null;

  @Field(() => GraphQLISODateTime, { nullable: true })
  deliveredAt!: Date | null;

  @Field({ description: 'The JSON body sent, as text.' })
  payload!: string;

  @Field(() => [WebhookAttemptType])
  attempts!: WebhookAttemptType[];

  @Field(() => GraphQLISODateTime)
  createdAt!: Date;

  @Field(() => GraphQLISODateTime)
  updatedAt!: Date;
}

@ObjectType()
export class WebhookDeliveryPage extends Paginated(WebhookDeliveryType, 'WebhookDelivery') {}

@ObjectType('WebhookTestResult', { description: 'What the receiver said to a signed `ping` (not retried, not in the delivery log).' })
export class WebhookTestResultType {
  @Field({ description: 'The `webhook-id` the ping was signed with.' }) webhookId!: string;
  @Field({ description: 'The receiver answered 2xx.' }) delivered!: boolean;
  @Field(() => Int, { nullable: true }) statusCode!: number | null;
  @Field(() => Int) latencyMs!: number;
  @Field(() => String, { nullable: true }) error!: string | null;
  @Field(() => String, { nullable: true, description: "The first kilobyte of the receiver's answer." }) responseExcerpt!: string | null;
  @Field(() => GraphQLISODateTime) sentAt!: Date;
}
