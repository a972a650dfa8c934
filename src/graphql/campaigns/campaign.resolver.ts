import { Arg, Args, Authorized, Ctx, ID, Int, Mutation, Query, Resolver } from 'type-graphql';
import type { Context } from '../../context';
import type { Campaign, ContactList } from '../../models';
import * as campaigns from '../../services/campaigns.service';
import type { CampaignMetrics, ContactWithEngagement } from '../../services/campaigns.service';
import { Deleted } from '../common';
import { MAX_BATCH_INVITES } from '../../domain/limits';
import {
  CampaignListArgs,
  ContactActivityArgs,
  ContactListArgs,
  ContactListListArgs,
  CreateCampaignInput,
  CreateContactListInput,
  InviteContactInput,
  UpdateCampaignInput,
  UpdateContactListInput,
} from './campaign.input';
import {
  CampaignDeletedType,
  CampaignPage,
  CampaignType,
  ContactActivityType,
  ContactListPage,
  ContactListType,
  ContactPage,
  ContactType,
  InviteAcceptedType,
} from './campaign.type';

export const INVITE_ACCEPTED_MESSAGE = 'Invites sent successfully.';

/** Absent optional input fields stay absent (only sent fields change on update). */
const present = <T extends object>(o: T): T => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;

function campaignOut(c: Campaign, metrics: CampaignMetrics): CampaignType {
  return {
    id: c.uuid,
    internalId: c.id,
    name: c.name,
    organizationId: c.organizationId,
    locationId: c.locationId,
    contactListId: c.contactListId,
    sendWindowStart: c.sendWindowStart,
    sendWindowEnd: c.sendWindowEnd,
    sendAfterHours: c.sendAfterHours,
    duplicateWindowDays: c.duplicateWindowDays,
    steps: c.steps.map((s) => ({ channel: s.channel, delayHours: s.delayHours, subject: s.subject ?? null, body: s.body })),
    reviewUrl: c.reviewUrl,
    feedbackThreshold: c.feedbackThreshold,
    paused: c.pausedAt !== null,
    pausedAt: c.pausedAt,
    metrics,
    createdAt: c.createdAt,
    updatedAt: c.updatedAt,
  };
}

async function withMetrics(c: Campaign): Promise<CampaignType> {
  return campaignOut(c, (await campaigns.metricsOf([c.id])).get(c.id)!);
}

const listOut = (l: ContactList): ContactListType => ({
  id: l.id,
  uuid: l.uuid,
  name: l.name,
  organizationId: l.organizationId,
  createdAt: l.createdAt,
  updatedAt: l.updatedAt,
});

const contactOut = ({ contact: c, engagement }: ContactWithEngagement): ContactType => ({
  id: c.uuid,
  internalId: c.id,
  contactListId: c.contactListId,
  firstName: c.firstName,
  lastName: c.lastName,
  email: c.email,
  phone: c.phone,
  subscribed: c.unsubscribedAt === null,
  unsubscribedAt: c.unsubscribedAt,
  engagement,
  createdAt: c.createdAt,
  updatedAt: c.updatedAt,
});

/**
 * Review-request campaigns, contact lists, contacts and the invite. Reading needs `request:read`; sending an
 * invite and managing campaigns or lists need `request:read` + `request:create` (and, for management, an owner:
 * the service answers FORBIDDEN `campaign_management_denied` to team members).
 */
@Authorized()
@Resolver(() => CampaignType)
export class CampaignResolver {
  @Authorized('request:read')
  @Query(() => CampaignPage, { description: 'Visible campaigns, newest first, with their metrics.' })
  async campaigns(@Args() args: CampaignListArgs, @Ctx() ctx: Context) {
    const page = await campaigns.list(ctx.principal!, args);
    return { ...page, items: page.items.map((i) => campaignOut(i.campaign, i.metrics)) };
  }

  @Authorized('request:read')
  @Query(() => CampaignType)
  async campaign(@Arg('id', { description: 'Campaign UUID.' }) id: string, @Ctx() ctx: Context) {
    const { campaign, metrics } = await campaigns.get(ctx.principal!, id);
    return campaignOut(campaign, metrics);
  }

  @Authorized('request:read', 'request:create')
  @Mutation(() => CampaignType)
  async createCampaign(@Arg('input') input: CreateCampaignInput, @Ctx() ctx: Context) {
    return withMetrics(await campaigns.create(ctx.principal!, present(input), { clock: ctx.clock }));
  }

  @Authorized('request:read', 'request:create')
  @Mutation(() => CampaignType)
  async updateCampaign(@Arg('id') id: string, @Arg('input') input: UpdateCampaignInput, @Ctx() ctx: Context) {
    return withMetrics(await campaigns.update(ctx.principal!, id, present(input), { clock: ctx.clock }));
  }

  @Authorized('request:read', 'request:create')
  @Mutation(() => CampaignType, { description: 'Cancels waiting invites; requests while paused are ignored. Idempotent.' })
  async pauseCampaign(@Arg('id') id: string, @Ctx() ctx: Context) {
    return withMetrics(await campaigns.pause(ctx.principal!, id, { clock: ctx.clock }));
  }

  @Authorized('request:read', 'request:create')
  @Mutation(() => CampaignType, { description: 'Idempotent.' })
  async resumeCampaign(@Arg('id') id: string, @Ctx() ctx: Context) {
    return withMetrics(await campaigns.resume(ctx.principal!, id, { clock: ctx.clock }));
  }

  @Authorized('request:read', 'request:create')
  @Mutation(() => CampaignDeletedType)
  async deleteCampaign(@Arg('id') id: string, @Ctx() ctx: Context): Promise<CampaignDeletedType> {
    const c = await campaigns.remove(ctx.principal!, id, { clock: ctx.clock });
    return { id: c.uuid, message: 'Campaign deleted successfully.' };
  }

  @Authorized('request:read', 'request:create')
  @Mutation(() => InviteAcceptedType, { description: 'Accepts a contact for the campaign (rules 1-10 of the invite endpoint).' })
  async inviteContact(@Arg('campaign', { description: 'Campaign UUID.' }) campaign: string, @Arg('input') input: InviteContactInput, @Ctx() ctx: Context) {
    const result = await campaigns.inviteContact(ctx.principal!, campaign, input, { clock: ctx.clock });
    return { id: result.contact.uuid, message: INVITE_ACCEPTED_MESSAGE, outcome: result.outcome };
  }

  @Authorized('request:read', 'request:create')
  @Mutation(() => [InviteAcceptedType], {
    description: `Accepts up to ${MAX_BATCH_INVITES} contacts for the campaign at once, each as inviteContact would, in the order given (one answer per contact, same order). A validation error in any entry stores nothing.`,
  })
  async inviteContacts(
    @Arg('campaign', { description: 'Campaign UUID.' }) campaign: string,
    @Arg('inputs', () => [InviteContactInput]) inputs: InviteContactInput[],
    @Ctx() ctx: Context,
  ): Promise<InviteAcceptedType[]> {
    const results = await campaigns.inviteContacts(ctx.principal!, campaign, inputs, { clock: ctx.clock });
    return results.map((r) => ({ id: r.contact.uuid, message: INVITE_ACCEPTED_MESSAGE, outcome: r.outcome }));
  }

  @Authorized('request:read')
  @Query(() => ContactListPage)
  async contactLists(@Args() args: ContactListListArgs, @Ctx() ctx: Context) {
    const page = await campaigns.lists(ctx.principal!, args);
    return { ...page, items: page.items.map(listOut) };
  }

  @Authorized('request:read', 'request:create')
  @Mutation(() => ContactListType)
  async createContactList(@Arg('input') input: CreateContactListInput, @Ctx() ctx: Context) {
    return listOut(await campaigns.createList(ctx.principal!, input, { clock: ctx.clock }));
  }

  @Authorized('request:read', 'request:create')
  @Mutation(() => ContactListType)
  async updateContactList(@Arg('id', () => Int) id: number, @Arg('input') input: UpdateContactListInput, @Ctx() ctx: Context) {
    return listOut(await campaigns.updateList(ctx.principal!, id, input, { clock: ctx.clock }));
  }

  @Authorized('request:read', 'request:create')
  @Mutation(() => Deleted, { description: 'Deletes the list and its contacts; 409 contact_list_in_use while a campaign uses it.' })
  async deleteContactList(@Arg('id', () => Int) id: number, @Ctx() ctx: Context): Promise<Deleted> {
    await campaigns.removeList(ctx.principal!, id, { clock: ctx.clock });
    return { id, message: 'Contact list deleted successfully.' };
  }

  @Authorized('request:read')
  @Query(() => ContactPage, { description: 'Visible contacts, newest first, with engagement counters.' })
  async contacts(@Args() args: ContactListArgs, @Ctx() ctx: Context) {
    const page = await campaigns.contacts(ctx.principal!, args);
    return { ...page, items: page.items.map(contactOut) };
  }

  @Authorized('request:read')
  @Query(() => ContactType, { description: 'One visible contact by its UUID or integer id, with engagement counters (MCP get_contact_activity).' })
  async contact(@Arg('id', () => ID, { description: 'The contact: its UUID or its integer id.' }) id: string, @Ctx() ctx: Context) {
    return contactOut(await campaigns.contact(ctx.principal!, id));
  }

  @Authorized('request:read')
  @Query(() => [ContactActivityType], { description: "A contact's activity, newest first." })
  contactActivity(@Args() args: ContactActivityArgs, @Ctx() ctx: Context) {
    return campaigns.activity(ctx.principal!, args.contactId, args.limit);
  }
}
