import { Arg, Args, Authorized, Ctx, FieldResolver, GraphQLISODateTime, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import type { Context } from '../../context';
import type { WebhookAttempt, WebhookDelivery, WebhookEndpoint } from '../../models';
import * as webhooks from '../../services/webhooks.service';
import { Deleted } from '../common';
import { CreateWebhookEndpointInput, UpdateWebhookEndpointInput, WebhookDeliveryListArgs, WebhookEndpointListArgs } from './webhook.input';
import {
  WebhookAttemptType,
  WebhookDeliveryPage,
  WebhookDeliveryType,
  WebhookEndpointPage,
  WebhookEndpointType,
  WebhookEndpointWithSecretType,
  WebhookHeaderType,
  WebhookTestResultType,
} from './webhook.type';

/**
 * Outbound webhooks ("API and webhooks" settings). Token permissions: reading needs `organizations:read`,
 * changing (and revealing a secret, or redelivering) `organizations:update`; both also need `reviews:read`, since a
 * receiver gets, and the delivery log shows, reviews and private feedback with the customer's contact details. The
 * service lets only account owners in (team members: FORBIDDEN).
 */
export const WEBHOOK_READ = ['organizations:read', 'reviews:read'] as const;
export const WEBHOOK_WRITE = ['organizations:update', 'reviews:read'] as const;

@Authorized()
@Resolver(() => WebhookEndpointType)
export class WebhookEndpointResolver {
  @Authorized(...WEBHOOK_READ)
  @Query(() => WebhookEndpointPage, { description: "The account's webhook receivers, in creation order." })
  webhookEndpoints(@Args() args: WebhookEndpointListArgs, @Ctx() ctx: Context) {
    return webhooks.listEndpoints(ctx.principal!, args);
  }

  @Authorized(...WEBHOOK_READ)
  @Query(() => WebhookEndpointType)
  webhookEndpoint(@Arg('id', () => Int) id: number, @Ctx() ctx: Context) {
    return webhooks.getEndpoint(ctx.principal!, id);
  }

  @Authorized(...WEBHOOK_WRITE)
  @Query(() => String, { description: 'The current signing secret (account owners, with the write permission).' })
  webhookEndpointSecret(@Arg('id', () => Int) id: number, @Ctx() ctx: Context) {
    return webhooks.revealSecret(ctx.principal!, id);
  }

  @Authorized(...WEBHOOK_WRITE)
  @Mutation(() => WebhookEndpointWithSecretType, { description: 'Adds a receiver; the answer carries its signing secret.' })
  createWebhookEndpoint(@Arg('input') input: CreateWebhookEndpointInput, @Ctx() ctx: Context) {
    return webhooks.createEndpoint(ctx.principal!, input, { clock: ctx.clock });
  }

  @Authorized(...WEBHOOK_WRITE)
  @Mutation(() => WebhookEndpointType)
  updateWebhookEndpoint(@Arg('id', () => Int) id: number, @Arg('input') input: UpdateWebhookEndpointInput, @Ctx() ctx: Context) {
    return webhooks.updateEndpoint(ctx.principal!, id, input, { clock: ctx.clock });
  }

  @Authorized(...WEBHOOK_WRITE)
  @Mutation(() => Deleted, { description: 'Deletes the receiver and its delivery log.' })
  async deleteWebhookEndpoint(@Arg('id', () => Int) id: number, @Ctx() ctx: Context): Promise<Deleted> {
    await webhooks.deleteEndpoint(ctx.principal!, id, { clock: ctx.clock });
    return { id, message: 'Webhook deleted successfully.' };
  }

  @Authorized(...WEBHOOK_WRITE)
  @Mutation(() => WebhookEndpointWithSecretType, { description: 'A new secret; the previous one keeps signing for 24 hours.' })
  rotateWebhookSecret(@Arg('id', () => Int) id: number, @Ctx() ctx: Context) {
    return webhooks.rotateSecret(ctx.principal!, id, { clock: ctx.clock });
  }

  @Authorized(...WEBHOOK_WRITE)
  @Mutation(() => WebhookTestResultType, { description: "Sends the receiver a signed `ping` now and answers what it said." })
  testWebhookEndpoint(@Arg('id', () => Int) id: number, @Ctx() ctx: Context) {
    return webhooks.sendTestEvent(ctx.principal!, id, { clock: ctx.clock });
  }

  @FieldResolver(() => GraphQLISODateTime, { nullable: true })
  previousSecretExpiresAt(@Root() endpoint: WebhookEndpoint, @Ctx() ctx: Context): Date | null {
    const at = endpoint.previousSecretExpiresAt;
    return at && at.getTime() > ctx.clock.now().getTime() ? at : null;
  }
}

@Authorized()
@Resolver(() => WebhookDeliveryType)
export class WebhookDeliveryResolver {
  @Authorized(...WEBHOOK_READ)
  @Query(() => WebhookDeliveryPage, { description: "The account's webhook deliveries, newest first." })
  webhookDeliveries(@Args() args: WebhookDeliveryListArgs, @Ctx() ctx: Context) {
    return webhooks.listDeliveries(ctx.principal!, args);
  }

  @Authorized(...WEBHOOK_READ)
  @Query(() => WebhookDeliveryType)
  webhookDelivery(@Arg('id') id: string, @Ctx() ctx: Context) {
    return webhooks.getDelivery(ctx.principal!, id);
  }

  @Authorized(...WEBHOOK_WRITE)
  @Mutation(() => WebhookDeliveryType, { description: 'Sends the delivery again, with the same id and body.' })
  redeliverWebhook(@Arg('id') id: string, @Ctx() ctx: Context) {
    return webhooks.redeliver(ctx.principal!, id, { clock: ctx.clock });
  }

  @FieldResolver(() => Int)
  attemptCount(@Root() delivery: WebhookDelivery): number {
    return delivery.attempts;
  }

  @FieldResolver(() => [WebhookAttemptType])
  attempts(@Root() delivery: WebhookDelivery, @Ctx() ctx: Context): Promise<WebhookAttempt[]> {
    return ctx.loaders.webhookAttempts.load(delivery.id);
  }
}

const headerList = (headers: Record<string, string> | null): WebhookHeaderType[] | null =>
  headers && Object.entries(headers).map(([name, value]) => ({ name, value }));

/** A logged attempt's headers, stored as one object per attempt, as name/value lists. */
@Authorized()
@Resolver(() => WebhookAttemptType)
export class WebhookAttemptResolver {
  @FieldResolver(() => [WebhookHeaderType], { nullable: true })
  requestHeaders(@Root() attempt: WebhookAttempt): WebhookHeaderType[] | null {
    return headerList(attempt.requestHeaders);
  }

  @FieldResolver(() => [WebhookHeaderType], { nullable: true })
  responseHeaders(@Root() attempt: WebhookAttempt): WebhookHeaderType[] | null {
    return headerList(attempt.responseHeaders);
  }
}
