import type { User } from '../../src/models';
import { Campaign, Contact, Invite, type Organization } from '../../src/models';
import type { Clock } from '../../src/domain/clock';
import { principalFor } from '../../src/services/auth.service';
import * as campaigns from '../../src/services/campaigns.service';
import { ALL } from '../support/factories';

/** Campaign test data, made through the service as an owner would. */

export const principalOf = (user: User, permissions: string[] = ALL) => principalFor(user, { id: 0, kind: 'customer', permissions });

export const EMAIL_STEP = { channel: 'email', delayHours: 0, subject: 'How did we do?', body: 'Hi {first_name}, tell us: {review_link}' };
export const SMS_STEP = { channel: 'sms', delayHours: 48, body: 'Review us: {review_link} Stop: {unsubscribe_link}' };

export async function makeCampaign(
  owner: User,
  org: Organization,
  overrides: Partial<campaigns.CreateCampaignInput> = {},
  opts: { clock?: Clock } = {},
): Promise<Campaign> {
  return campaigns.create(
    await principalOf(owner),
    { organizationId: org.id, locationId: org.defaultLocationId!, name: `Campaign ${Math.random().toString(36).slice(2, 8)}`, steps: [EMAIL_STEP], ...overrides },
    opts,
  );
}

/** Pretends the delivery went out at `sentAt` (what the delivery workflow records). */
export async function markSent(invite: Invite, sentAt: Date): Promise<void> {
  await Invite.update({ status: 'sent', sentAt }, { where: { id: invite.id } });
}

export const contactsOfList = (contactListId: number) => Contact.findAll({ where: { contactListId }, order: [['id', 'ASC']] });
export const invitesOf = (campaignId: number) => Invite.findAll({ where: { campaignId }, order: [['id', 'ASC']] });
