import { randomUUID } from 'node:crypto';
import { Campaign, Contact, ContactList, Invite, MessagingSetting } from '../../src/models';
import type { CampaignStep } from '../../src/models/campaign.model';
import { grantCredits } from '../../src/services/credits.service';
import { makeWorld } from '../support/factories';

/** Test data of review requests: a world with a campaign, contacts and invites, stored directly. */

export type World = Awaited<ReturnType<typeof makeWorld>>;

export const EMAIL_STEP: CampaignStep = { channel: 'email', delayHours: 0, subject: 'How did we do, {first_name}?', body: 'Hi {first_name}, please rate {business_name}: {review_link}' };
export const SMS_STEP = (delayHours: number): CampaignStep => ({ channel: 'sms', delayHours, body: 'Hi {first_name}, a quick review for {business_name}? {review_link}' });

export async function makeCampaign(w: World, opts: { steps?: CampaignStep[]; pausedAt?: Date | null; window?: [string, string] | null } = {}): Promise<Campaign> {
  const list = await ContactList.create({
    uuid: randomUUID(),
    tenantId: w.org.tenantId,
    customerId: w.org.customerId,
    organizationId: w.org.id,
    name: 'Customers',
  });
  return Campaign.create({
    uuid: randomUUID(),
    tenantId: w.org.tenantId,
    customerId: w.org.customerId,
    organizationId: w.org.id,
    locationId: w.home.id,
    contactListId: list.id,
    name: 'After visit',
    sendWindowStart: opts.window?.[0] ?? null,
    sendWindowEnd: opts.window?.[1] ?? null,
    sendAfterHours: 0,
    duplicateWindowDays: 14,
    steps: opts.steps ?? [EMAIL_STEP],
    reviewUrl: 'https://g.page/r/example/review',
    pausedAt: opts.pausedAt ?? null,
  });
}

let seq = 0;

export async function makeContact(campaign: Campaign, opts: { email?: string | null; phone?: string | null; firstName?: string } = {}): Promise<Contact> {
  seq += 1;
  return Contact.create({
    uuid: randomUUID(),
    tenantId: campaign.tenantId,
    customerId: campaign.customerId,
    contactListId: campaign.contactListId,
    firstName: opts.firstName ?? 'Ada',
    lastName: 'Lovelace',
    email: opts.email === undefined ? `ada-${seq}-${randomUUID().slice(0, 6)}@example.test` : opts.email,
    phone: opts.phone ?? null,
  });
}

export async function makeInvite(campaign: Campaign, contact: Contact, sendAt: Date): Promise<Invite> {
  return Invite.create({
    uuid: randomUUID(),
    tenantId: campaign.tenantId,
    customerId: campaign.customerId,
    campaignId: campaign.id,
    contactId: contact.id,
    status: 'scheduled',
    source: 'api',
    requestedAt: new Date(),
    sendAt,
  });
}

export async function giveCredits(w: World, type: 'email' | 'sms', credits: number): Promise<void> {
  await grantCredits({ id: w.org.customerId, tenantId: w.org.tenantId }, { type, credits, expiresAt: null, notes: 'test' });
}

/** The account's own SMTP server for email (plain SMTP on `host`:`port`, no login), as its settings page saves it. */
export async function useOwnSmtp(w: World, host: string, port: number, fromEmail = 'reviews@example.test'): Promise<void> {
  await MessagingSetting.create({
    tenantId: w.org.tenantId,
    customerId: w.org.customerId,
    channel: 'email',
    config: { host, port, secure: false, username: null, fromEmail, fromName: null },
    secretEncrypted: null,
  });
}

/** A free E.164 number (US 415 range, valid for libphonenumber). */
export const phoneNumber = (): string => `+1415555${String(1000 + (Math.floor(Math.random() * 9000) % 9000)).padStart(4, '0')}`;

/** A header of a received mail as sent (mailparser folds List-* headers into a structure of its own). */
export function rawHeader(mail: { headerLines: ReadonlyArray<{ key: string; line: string }> }, name: string): string | null {
  const line = mail.headerLines.find((h) => h.key === name.toLowerCase())?.line;
  return line ? line.slice(line.indexOf(':') + 1).replace(/\r?\n\s+/g, ' ').trim() : null;
}
