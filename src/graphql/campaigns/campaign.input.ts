import { ArgsType, Field, ID, InputType, Int } from 'type-graphql';
import { PageArgs, perPageField } from '../common';

/** The rules (lengths, ranges, windows, steps) live in the campaigns service, so every caller gets the same 422. */

@InputType()
export class CampaignStepInput {
  @Field({ description: '`email`, `sms` or `messaging`.' })
  channel!: string;

  @Field(() => Int, { nullable: true, defaultValue: 0, description: "Hours after the invite's send time (0-720)." })
  delayHours?: number | null;

  @Field(() => String, { nullable: true, description: 'Required for email steps (max 255).' })
  subject?: string | null;

  @Field({
    description:
      'Max 2000 characters for email; 1300 for sms and messaging (UTF-16 units, {review_link} and {unsubscribe_link} counted as 100 each), leaving room for the review link and opt-out line added to the 1600-character text.',
  })
  body!: string;
}

@InputType()
export class CreateCampaignInput {
  @Field(() => Int)
  organizationId!: number;

  @Field(() => Int)
  locationId!: number;

  @Field()
  name!: string;

  @Field(() => Int, { nullable: true, description: 'An existing contact list of the account (shared lists allowed).' })
  contactListId?: number | null;

  @Field(() => String, { nullable: true, description: 'Create a new list with this name (default without a list: "<name> contacts").' })
  newContactListName?: string | null;

  @Field(() => String, { nullable: true, description: 'HH:MM UTC; with sendWindowEnd, or neither (any time).' })
  sendWindowStart?: string | null;

  @Field(() => String, { nullable: true })
  sendWindowEnd?: string | null;

  @Field(() => Int, { nullable: true, description: 'Default 0 (as soon as the window allows).' })
  sendAfterHours?: number | null;

  @Field(() => Int, { nullable: true, description: '0-365, default 14; 0 turns the duplicate rule off.' })
  duplicateWindowDays?: number | null;

  @Field(() => [CampaignStepInput], { description: '1 to 5 steps.' })
  steps!: CampaignStepInput[];

  @Field(() => String, { nullable: true })
  reviewUrl?: string | null;

  @Field(() => Int, { nullable: true, description: '1-4, default 3.' })
  feedbackThreshold?: number | null;
}

/** Only the fields sent change. */
@InputType()
export class UpdateCampaignInput {
  @Field(() => String, { nullable: true })
  name?: string;

  @Field(() => Int, { nullable: true, description: 'Another location of the same organisation.' })
  locationId?: number;

  @Field(() => Int, { nullable: true })
  contactListId?: number | null;

  @Field(() => String, { nullable: true })
  newContactListName?: string | null;

  @Field(() => String, { nullable: true })
  sendWindowStart?: string | null;

  @Field(() => String, { nullable: true })
  sendWindowEnd?: string | null;

  @Field(() => Int, { nullable: true })
  sendAfterHours?: number | null;

  @Field(() => Int, { nullable: true })
  duplicateWindowDays?: number | null;

  @Field(() => [CampaignStepInput], { nullable: true })
  steps?: CampaignStepInput[];

  @Field(() => String, { nullable: true })
  reviewUrl?: string | null;

  @Field(() => Int, { nullable: true })
  feedbackThreshold?: number | null;
}

@ArgsType()
export class CampaignListArgs extends PageArgs {
  @perPageField(10)
  perPage!: number;

  @Field(() => Int, { nullable: true })
  organizationId?: number | null;

  @Field(() => Int, { nullable: true, description: 'Integer id of one campaign (MCP list_campaigns).' })
  campaignId?: number | null;

  @Field(() => String, { nullable: true, description: 'By name.' })
  search?: string | null;

  @Field(() => String, { nullable: true, description: 'Creation date from (Y-m-d, inclusive).' })
  dateFrom?: string | null;

  @Field(() => String, { nullable: true, description: 'Creation date to (Y-m-d, inclusive).' })
  dateTo?: string | null;
}

@InputType()
export class InviteContactInput {
  @Field(() => String, { nullable: true })
  email?: string | null;

  @Field(() => String, { nullable: true, description: 'E.164.' })
  phone?: string | null;

  @Field(() => String, { nullable: true })
  firstName?: string | null;

  @Field(() => String, { nullable: true })
  lastName?: string | null;

  @Field(() => Int, { nullable: true, description: '0 = as soon as the send window allows; null = the campaign default.' })
  sendAfterHours?: number | null;
}

@ArgsType()
export class ContactListListArgs extends PageArgs {
  @perPageField(10)
  perPage!: number;

  @Field(() => Int, { nullable: true })
  organizationId?: number | null;
}

@InputType()
export class CreateContactListInput {
  @Field()
  name!: string;

  @Field(() => Int, { nullable: true, description: 'Absent: a list of the account shared by all its organisations.' })
  organizationId?: number | null;
}

@InputType()
export class UpdateContactListInput {
  @Field()
  name!: string;
}

@ArgsType()
export class ContactListArgs extends PageArgs {
  @perPageField(10)
  perPage!: number;

  @Field(() => Int, { nullable: true })
  organizationId?: number | null;

  @Field(() => Int, { nullable: true })
  contactListId?: number | null;

  @Field(() => Boolean, { nullable: true })
  subscribed?: boolean | null;

  @Field(() => String, { nullable: true, description: 'Creation date from (Y-m-d, inclusive).' })
  dateFrom?: string | null;

  @Field(() => String, { nullable: true, description: 'Creation date to (Y-m-d, inclusive).' })
  dateTo?: string | null;
}

@ArgsType()
export class ContactActivityArgs {
  @Field(() => ID, { description: 'The contact: its UUID or its integer id.' })
  contactId!: string;

  @Field(() => Int, { defaultValue: 25, description: '1-100, newest first.' })
  limit!: number;
}
