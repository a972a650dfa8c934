import { MinLength } from 'class-validator';
import { ArgsType, Field, InputType, Int } from 'type-graphql';
import { PageArgs, perPageField } from '../common';
import { MaxChars, msg } from '../validation';

@ArgsType()
export class WebhookEndpointListArgs extends PageArgs {
  @perPageField(10)
  perPage!: number;
}

@ArgsType()
export class WebhookDeliveryListArgs extends PageArgs {
  @perPageField(10)
  perPage!: number;

  @Field(() => Int, { nullable: true, description: 'Deliveries to this receiver only.' })
  endpointId?: number | null;

  @Field(() => String, { nullable: true, description: 'An event name such as `review-created`.' })
  event?: string | null;

  @Field(() => String, { nullable: true, description: '`pending`, `succeeded` or `failed`.' })
  status?: string | null;
}

@InputType()
export class CreateWebhookEndpointInput {
  @Field({ description: 'http(s) URL of the receiver; private and loopback addresses are refused.' })
  @MinLength(1, msg.required('url'))
  url!: string;

  @Field(() => String, { nullable: true })
  @MaxChars(255, 'description')
  description?: string | null;

  @Field(() => Boolean, { nullable: true, description: 'Default true.' })
  enabled?: boolean | null;

  @Field(() => [String], { nullable: true, description: 'Only these events (names as in `webhook_event`); null or absent: every event.' })
  events?: string[] | null;
}

@InputType()
export class UpdateWebhookEndpointInput {
  @Field(() => String, { nullable: true })
  url?: string | null;

  @Field(() => String, { nullable: true, description: 'null clears it.' })
  @MaxChars(255, 'description')
  description?: string | null;

  @Field(() => Boolean, { nullable: true })
  enabled?: boolean | null;

  @Field(() => [String], { nullable: true, description: 'Only these events; null: every event again; absent: unchanged.' })
  events?: string[] | null;
}
