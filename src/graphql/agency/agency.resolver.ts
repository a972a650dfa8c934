import { Arg, Args, Authorized, Ctx, Float, Int, Mutation, Query, Resolver } from 'type-graphql';
import type { Context } from '../../context';
import { Validation } from '../../domain/errors';
import { mailLogger } from '../../providers/smtp/platform-mailer';
import type { NfcOrder } from '../../models';
import * as agency from '../../services/agency.service';
import * as orders from '../../services/orders.service';
import { AGENCY } from '../auth-checker';
import { AddCreditsInput, AgencyCustomerListArgs, CreateCustomerInput } from './agency.input';
import {
  AgencyCustomerPage,
  AgencyCustomerType,
  AgencyMessageType,
  CreditsAddedType,
  CustomPlanType,
  NfcOrderType,
} from './agency.type';

/** The agency area (REST `/api/agency/v1`): agency tokens of tenant owners only, acting for their tenant. */
@Authorized(AGENCY)
@Resolver()
export class AgencyResolver {
  @Query(() => AgencyCustomerPage, { description: 'Customer accounts of the agency, newest first.' })
  agencyCustomers(@Args() args: AgencyCustomerListArgs, @Ctx() ctx: Context) {
    return agency.listCustomers(ctx.principal!, args);
  }

  @Query(() => AgencyCustomerType)
  agencyCustomer(@Arg('id', () => Int) id: number, @Ctx() ctx: Context) {
    return agency.getCustomer(ctx.principal!, id);
  }

  @Query(() => Float, { description: 'Unexpired credits of a type (`email` or `sms`) the customer can still spend: a whole number, beyond 32 bits too.' })
  agencyCustomerCredits(@Arg('id', () => Int) id: number, @Arg('type') type: string, @Ctx() ctx: Context) {
    if (type !== 'email' && type !== 'sms') throw new Validation({ type: ['The selected type is invalid (email or sms).'] });
    return agency.balanceOf(ctx.principal!, id, type, { clock: ctx.clock });
  }

  @Mutation(() => AgencyCustomerType, {
    description: 'Opens a customer account with its owner, plan, limits and organisation; optionally e-mails login details and connect links.',
  })
  createCustomer(@Arg('input') input: CreateCustomerInput, @Ctx() ctx: Context) {
    return agency.createCustomer(ctx.principal!, input, {
      clock: ctx.clock,
      baseUrl: ctx.baseUrl,
      logger: mailLogger().child({ reqId: ctx.requestId }),
    });
  }

  @Mutation(() => AgencyCustomerType, { description: 'Moves the customer to another custom plan (and, with `language`, sets its language).' })
  changeCustomerPlan(
    @Arg('id', () => Int) id: number,
    @Arg('customPlanId') customPlanId: string,
    @Ctx() ctx: Context,
    @Arg('language', () => String, { nullable: true, description: 'ISO 639-1: en, es, fr, de, pt or it.' }) language?: string | null,
  ) {
    return agency.changePlan(ctx.principal!, id, customPlanId, { clock: ctx.clock, language });
  }

  @Mutation(() => AgencyMessageType, { description: "Sets the account's own location limit (0 = unlimited)." })
  async setCustomerLocationLimit(@Arg('id', () => Int) id: number, @Arg('locationLimit', () => Int) limit: number, @Ctx() ctx: Context) {
    await agency.setLimit(ctx.principal!, id, 'location', limit, { clock: ctx.clock });
    return { message: 'Location limit updated successfully.' };
  }

  @Mutation(() => AgencyMessageType, { description: "Sets the account's own member limit (0 = unlimited)." })
  async setCustomerMemberLimit(@Arg('id', () => Int) id: number, @Arg('memberLimit', () => Int) limit: number, @Ctx() ctx: Context) {
    await agency.setLimit(ctx.principal!, id, 'member', limit, { clock: ctx.clock });
    return { message: 'Member limit updated successfully.' };
  }

  @Mutation(() => CreditsAddedType, { description: 'Grants email or SMS credits, optionally expiring.' })
  async addCustomerCredits(@Arg('id', () => Int) id: number, @Arg('input') input: AddCreditsInput, @Ctx() ctx: Context) {
    const balance = await agency.addCredits(ctx.principal!, id, input, { clock: ctx.clock });
    return { message: 'Credits added successfully.', type: input.type, balance };
  }

  @Mutation(() => AgencyMessageType, { description: 'Pauses the subscription (plans not linked to a payment provider only).' })
  async pauseCustomer(@Arg('id', () => Int) id: number, @Ctx() ctx: Context) {
    await agency.setPaused(ctx.principal!, id, true, { clock: ctx.clock });
    return { message: 'Subscription has been paused.' };
  }

  @Mutation(() => AgencyMessageType, { description: 'Resumes a paused subscription (plans not linked to a payment provider only).' })
  async resumeCustomer(@Arg('id', () => Int) id: number, @Ctx() ctx: Context) {
    await agency.setPaused(ctx.principal!, id, false, { clock: ctx.clock });
    return { message: 'Subscription has been resumed.' };
  }

  @Mutation(() => AgencyMessageType, { description: 'Deletes the customer account and everything in it, permanently.' })
  async deleteCustomer(@Arg('id', () => Int) id: number, @Ctx() ctx: Context) {
    await agency.deleteCustomer(ctx.principal!, id, { clock: ctx.clock });
    return { message: 'Customer deleted successfully.' };
  }

  @Query(() => [CustomPlanType], { description: 'The agency custom plans.' })
  customPlans(@Ctx() ctx: Context) {
    return agency.listPlans(ctx.principal!);
  }

  @Query(() => [NfcOrderType], { description: 'NFC product orders of the agency, newest first.' })
  async nfcOrders(@Ctx() ctx: Context) {
    return (await orders.list(ctx.principal!)).map(orderView);
  }

  @Mutation(() => NfcOrderType, { description: 'pending -> shipped, with an optional tracking URL.' })
  async shipNfcOrder(
    @Arg('id') id: string,
    @Arg('trackingUrl', () => String, { nullable: true }) trackingUrl: string | null,
    @Ctx() ctx: Context,
  ) {
    return orderView(await orders.transition(ctx.principal!, id, 'ship', { trackingUrl }, { clock: ctx.clock }));
  }

  @Mutation(() => NfcOrderType, { description: 'shipped -> completed.' })
  async completeNfcOrder(@Arg('id') id: string, @Ctx() ctx: Context) {
    return orderView(await orders.transition(ctx.principal!, id, 'complete', {}, { clock: ctx.clock }));
  }

  @Mutation(() => NfcOrderType, { description: 'pending or shipped -> canceled.' })
  async cancelNfcOrder(@Arg('id') id: string, @Ctx() ctx: Context) {
    return orderView(await orders.transition(ctx.principal!, id, 'cancel', {}, { clock: ctx.clock }));
  }
}

/** Minor units become numbers in the currency; the shipping columns become one object. */
export function orderView(o: NfcOrder): NfcOrderType {
  return {
    id: o.id,
    orderNumber: o.orderNumber,
    email: o.email,
    total: orders.fromMinor(o.totalMinor, o.currency),
    currency: o.currency,
    status: o.status,
    shipping: { name: o.shippingName, address: o.shippingAddress, city: o.shippingCity, country: o.shippingCountry, trackingUrl: o.trackingUrl },
    items: (o.items ?? []).map((i) => ({
      productName: i.productName,
      quantity: i.quantity,
      unitPrice: orders.fromMinor(i.unitPriceMinor, o.currency),
      nfcUrls: i.nfcUrls,
    })),
    shippedAt: o.shippedAt,
    completedAt: o.completedAt,
    canceledAt: o.canceledAt,
    createdAt: o.createdAt,
    updatedAt: o.updatedAt,
  };
}
