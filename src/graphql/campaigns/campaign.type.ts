import { Field, GraphQLISODateTime, ID, Int, ObjectType } from 'type-graphql';
import { Paginated } from '../common';

@ObjectType('CampaignStep')
export class CampaignStepType {
  @Field({ description: '`email`, `sms` or `messaging`.' })
  channel!: string;

  @Field(() => Int, { description: "Hours after the invite's send time (0: at the send time)." })
  delayHours!: number;

  @Field(() => String, { nullable: true, description: 'Email steps only.' })
  subject!: string | null;

  @Field()
  body!: string;
}

@ObjectType('CampaignMetrics', { description: 'The counters listed for the MCP tool list_campaigns (definitions in docs/decisions/review-requests.md).' })
export class CampaignMetricsType {
  @Field(() => Int, { description: 'Invites whose messages went out (status sent).' })
  invitesSent!: number;

  @Field(() => Int, { description: 'Invites that failed (no credits, provider refused, ...).' })
  invitesFailed!: number;

  @Field(() => Int, { description: 'Invites waiting for their send time.' })
  invitesScheduled!: number;

  @Field(() => Int, { description: 'Invites whose review link was opened (first visit counts once per invite).' })
  clicks!: number;

  @Field(() => Int, { description: 'Private feedback submitted through this campaign.' })
  feedbackCount!: number;
}

@ObjectType('Campaign')
export class CampaignType {
  @Field({ description: 'UUID; the campaign in REST paths.' })
  id!: string;

  @Field(() => Int, { description: 'Integer id (the MCP tools name campaigns by it).' })
  internalId!: number;

  @Field()
  name!: string;

  @Field(() => Int)
  organizationId!: number;

  @Field(() => Int)
  locationId!: number;

  @Field(() => Int)
  contactListId!: number;

  @Field(() => String, { nullable: true, description: 'HH:MM UTC; null with sendWindowEnd null: any time.' })
  sendWindowStart!: string | null;

  @Field(() => String, { nullable: true, description: 'HH:MM UTC, exclusive; before the start: the window wraps past midnight.' })
  sendWindowEnd!: string | null;

  @Field(() => Int, { description: 'Default hours between the request and the send (an invite with send_after_hours null).' })
  sendAfterHours!: number;

  @Field(() => Int)
  duplicateWindowDays!: number;

  @Field(() => [CampaignStepType])
  steps!: CampaignStepType[];

  @Field(() => String, { nullable: true })
  reviewUrl!: string | null;

  @Field(() => Int, { description: 'Ratings at or below this go to the private feedback form.' })
  feedbackThreshold!: number;

  @Field()
  paused!: boolean;

  @Field(() => GraphQLISODateTime, { nullable: true })
  pausedAt!: Date | null;

  @Field(() => CampaignMetricsType)
  metrics!: CampaignMetricsType;

  @Field(() => GraphQLISODateTime)
  createdAt!: Date;

  @Field(() => GraphQLISODateTime)
  updatedAt!: Date;
}

@ObjectType()
export class CampaignPage extends Paginated(CampaignType, 'Campaign') {}

@ObjectType('CampaignDeleted')
export class CampaignDeletedType {
  @Field()
  id!: string;

  @Field()
  message!: string;
}

@ObjectType('InviteAccepted', { description: 'The invite answer: the contact id and the constant message.' })
export class InviteAcceptedType {
  @Field({ description: 'UUID of the contact record (not of an invite).' })
  id!: string;

  @Field()
  message!: string;

  @Field({ description: 'scheduled, rescheduled, ignored_duplicate, ignored_unsubscribed or ignored_paused (not on the REST wire).' })
  outcome!: string;
}

@ObjectType('ContactList')
export class ContactListType {
  @Field(() => Int)
  id!: number;

  @Field()
  uuid!: string;

  @Field()
  name!: string;

  @Field(() => Int, { nullable: true, description: 'null: shared by every organisation of the account.' })
  organizationId!: number | null;

  @Field(() => GraphQLISODateTime)
  createdAt!: Date;

  @Field(() => GraphQLISODateTime)
  updatedAt!: Date;
}

@ObjectType()
export class ContactListPage extends Paginated(ContactListType, 'ContactList') {}

@ObjectType('ContactEngagement', { description: 'The counters named for the MCP tool list_contacts.' })
export class ContactEngagementType {
  @Field(() => Int)
  invitesSent!: number;

  @Field(() => GraphQLISODateTime, { nullable: true })
  lastInvitedAt!: Date | null;

  @Field(() => Int)
  clicks!: number;

  @Field(() => Int)
  feedbackCount!: number;
}

@ObjectType('Contact')
export class ContactType {
  @Field({ description: 'UUID; the `id` of the invite answer.' })
  id!: string;

  @Field(() => Int)
  internalId!: number;

  @Field(() => Int)
  contactListId!: number;

  @Field(() => String, { nullable: true })
  firstName!: string | null;

  @Field(() => String, { nullable: true })
  lastName!: string | null;

  @Field(() => String, { nullable: true })
  email!: string | null;

  @Field(() => String, { nullable: true, description: 'E.164.' })
  phone!: string | null;

  @Field()
  subscribed!: boolean;

  @Field(() => GraphQLISODateTime, { nullable: true })
  unsubscribedAt!: Date | null;

  @Field(() => ContactEngagementType)
  engagement!: ContactEngagementType;

  @Field(() => GraphQLISODateTime)
  createdAt!: Date;

  @Field(() => GraphQLISODateTime)
  updatedAt!: Date;
}

@ObjectType()
export class ContactPage extends Paginated(ContactType, 'Contact') {}

@ObjectType('ContactActivity')
export class ContactActivityType {
  @Field(() => ID)
  id!: string;

  @Field({ description: 'scheduled, rescheduled, sent, failed, ignored, unsubscribed, skipped, clicked or feedback.' })
  type!: string;

  @Field(() => String, { nullable: true })
  channel!: string | null;

  @Field(() => String, { nullable: true })
  detail!: string | null;

  @Field(() => GraphQLISODateTime)
  occurredAt!: Date;

  @Field(() => String, { nullable: true, description: 'Campaign UUID.' })
  campaignId!: string | null;

  @Field(() => String, { nullable: true })
  campaignName!: string | null;
}
