import { accountLanguage } from './page-language';
import type { CountryCode } from 'libphonenumber-js';
import { Op, type Transaction, type WhereOptions } from 'sequelize';
import { NotFound, Validation, type FieldErrors } from '../domain/errors';
import { charCount, MAX_FEEDBACK_MESSAGE_CHARS, MAX_NAME_CHARS } from '../domain/limits';
import { canSeeLocated } from '../domain/permissions';
import type { Principal } from '../domain/principal';
import { Campaign, Contact, Customer, Invite, InviteMessage, Location, Organization, PrivateFeedback, Tenant } from '../models';
import { CHANNELS, type Channel } from '../models/campaign.model';
import { privateFeedbackPayload } from '../outbox/payloads';
import { writeEvent } from '../outbox/writer';
import { clockOf, inTransaction, locationScoped, offset, parseDate, tenantScoped, type Page, type PageArgs, type ServiceOptions } from './common';
import { cleanContactDetails, logActivity, toE164 } from './invites.service';
import { UUID } from '../domain/ids';

/**
 * Private feedback (spec: Events > private-feedback-*): what a customer who rates at or below the campaign's
 * `feedback_threshold` writes on the public feedback page (`/r/<invite uuid>`, facades/pages/feedback.tsx), and
 * what the account does with it through GraphQL (list, reply, edit). Every change writes its event in the same
 * transaction (the outbox): `private-feedback-created` on submission, `private-feedback-updated` on a reply or
 * an edit that changes something.
 */

export const MAX_MESSAGE_CHARS = MAX_FEEDBACK_MESSAGE_CHARS;
export const MAX_REPLY_CHARS = 4096;
const DAY_MS = 24 * 60 * 60 * 1000;

// ---------------------------------------------------------------------------------------------------------
// The public page (no principal: the invite's random UUID in the link is the key)

export interface FeedbackPage {
  invite: Invite;
  campaign: Campaign;
  contact: Contact;
  organization: Organization;
  location: Location;
  /** The agency's brand, and the language of the account (else the agency's) the page speaks. */
  brand: { name: string; logoUrl: string | null; language: string };
  /** The account's country (phone numbers without + are read in it). */
  country: CountryCode | undefined;
  /** Feedback already sent through this invite (one per invite). */
  existing: PrivateFeedback | null;
}

/** Everything the page shows for an invite, or null for an unknown or malformed UUID. */
export async function feedbackPageOf(inviteUuid: string, opts: ServiceOptions = {}): Promise<FeedbackPage | null> {
  if (!UUID.test(inviteUuid)) return null;
  const t = opts.transaction;
  const invite = await Invite.findOne({ where: { uuid: inviteUuid.toLowerCase() }, transaction: t, lock: t ? t.LOCK.UPDATE : undefined });
  if (!invite) return null;
  const [campaign, contact, tenant, customer, existing] = await Promise.all([
    Campaign.findByPk(invite.campaignId, { transaction: t }),
    Contact.findByPk(invite.contactId, { transaction: t }),
    Tenant.findByPk(invite.tenantId, { transaction: t }),
    Customer.findByPk(invite.customerId, { transaction: t }),
    PrivateFeedback.findOne({ where: { inviteId: invite.id }, order: [['id', 'ASC']], transaction: t }),
  ]);
  if (!campaign || !contact || !tenant) return null;
  const [organization, location] = await Promise.all([
    Organization.findByPk(campaign.organizationId, { transaction: t }),
    Location.findByPk(campaign.locationId, { transaction: t }),
  ]);
  if (!organization || !location) return null;
  return {
    invite,
    campaign,
    contact,
    organization,
    location,
    brand: { name: tenant.brandName || tenant.name, logoUrl: tenant.logoUrl, language: accountLanguage(customer, tenant) },
    country: customer?.country ? (customer.country.toUpperCase() as CountryCode) : undefined,
    existing,
  };
}

/**
 * The person acted on the review link: `clicked_at` and a `clicked` activity, once per invite (it stops the invite's
 * follow-ups and counts in `clicks`). Called for a POST only, a star chosen or the feedback form stored: mail security
 * scanners fetch every link of a message, and of the page behind it, with GET or HEAD, so a visit counts nothing.
 */
export async function recordClick(page: Pick<FeedbackPage, 'invite'>, opts: ServiceOptions = {}): Promise<boolean> {
  const now = clockOf(opts).now();
  return inTransaction(opts, async (transaction) => {
    const [changed] = await Invite.update({ clickedAt: now }, { where: { id: page.invite.id, clickedAt: null }, transaction });
    if (!changed) return false;
    await logActivity(
      {
        tenantId: page.invite.tenantId,
        customerId: page.invite.customerId,
        contactId: page.invite.contactId,
        campaignId: page.invite.campaignId,
        inviteId: page.invite.id,
        type: 'clicked',
        detail: 'Opened the review link.',
        occurredAt: now,
      },
      { transaction },
    );
    return true;
  });
}

export type Gate = { kind: 'review'; url: string } | { kind: 'thanks' } | { kind: 'feedback' };

/** Above the threshold: the public review site (or thanks, when the campaign has none); at or below: the form. */
export function gateFor(campaign: Pick<Campaign, 'feedbackThreshold' | 'reviewUrl'>, rating: number): Gate {
  if (rating > campaign.feedbackThreshold) {
    const url = campaign.reviewUrl?.trim();
    return url && /^https?:\/\//i.test(url) ? { kind: 'review', url } : { kind: 'thanks' };
  }
  return { kind: 'feedback' };
}

/** The form as the browser sent it (every value text; absent fields are empty). */
export interface FeedbackForm {
  name: string;
  email: string;
  phone: string;
  message: string;
  rating: string;
}

/** How the customer reached the form: the channel of the invite's latest message sent, else `link`. */
async function sourceOf(invite: Pick<Invite, 'id' | 'tenantId'>, transaction: Transaction): Promise<string> {
  const message = await InviteMessage.findOne({ where: { ...tenantScoped(invite), inviteId: invite.id, status: 'sent' }, order: [['sentAt', 'DESC'], ['id', 'DESC']], transaction });
  return message && (CHANNELS as readonly string[]).includes(message.channel) ? message.channel : 'link';
}

/**
 * Validates and stores the form: rating 1-5 and a message (1-5000 characters) are required; the name (at most
 * 255), the email (a valid address) and the phone (E.164 after reading it in the account's country) are
 * optional. One feedback per invite: a second submission (a double click, a reload) stores nothing and returns
 * the first. Writes the row, a `feedback` activity and `private-feedback-created` in one transaction.
 */
export async function submitFeedback(inviteUuid: string, form: FeedbackForm, opts: ServiceOptions = {}): Promise<{ feedback: PrivateFeedback; created: boolean }> {
  const clock = clockOf(opts);
  return inTransaction(opts, async (transaction) => {
    const page = await feedbackPageOf(inviteUuid, { transaction });
    if (!page) throw new NotFound('Invite');
    if (page.existing) return { feedback: page.existing, created: false };

    const errors: FieldErrors = {};
    const rating = /^[1-5]$/.test(form.rating.trim()) ? Number(form.rating.trim()) : null;
    if (rating === null) errors.rating = ['Choose a rating from 1 to 5 stars.'];
    const message = form.message.trim();
    if (!message) errors.message = ['Please tell us what happened.'];
    else if (charCount(message) > MAX_MESSAGE_CHARS) errors.message = [`The message may not be greater than ${MAX_MESSAGE_CHARS} characters.`];
    const author = form.name.trim();
    if (charCount(author) > MAX_NAME_CHARS) errors.name = [`The name may not be greater than ${MAX_NAME_CHARS} characters.`];
    let email = '';
    if (form.email.trim()) {
      try {
        email = cleanContactDetails({ email: form.email }).email ?? '';
      } catch {
        errors.email = ['Enter a valid email address, or leave it empty.'];
      }
    }
    let phone = '';
    if (form.phone.trim()) {
      phone = toE164(form.phone, page.country) ?? '';
      if (!phone) errors.phone = ['Enter a valid phone number (with the country code, e.g. +1 415 555 2671), or leave it empty.'];
    }
    if (Object.keys(errors).length) throw new Validation(errors);

    const now = clock.now();
    // Sending the form is a person's act too: it counts as the click when no star was chosen by POST (the form reached
    // through a star link of a page served before, `/r/<uuid>/rate/<n>`, which counts nothing).
    await recordClick(page, { transaction, clock });
    const source = await sourceOf(page.invite, transaction);
    const feedback = await PrivateFeedback.create(
      {
        tenantId: page.invite.tenantId,
        customerId: page.invite.customerId,
        organizationId: page.campaign.organizationId,
        locationId: page.campaign.locationId,
        campaignId: page.campaign.id,
        contactId: page.contact.id,
        inviteId: page.invite.id,
        rating: rating!,
        author,
        email,
        phone,
        message,
        reply: null,
        replyDate: null,
        source,
        sourceName: page.campaign.name,
        // The form as submitted (each value as validated: trimmed, so within the limits checked above and the TEXT
        // column's 64 KB whatever padding the 100 KB form body carried), plus where it came from (the spec's observed keys).
        meta: {
          name: author,
          email: form.email.trim(),
          phone: form.phone.trim(),
          message,
          rating: form.rating.trim(),
          source,
          source_id: page.campaign.uuid,
          source_name: page.campaign.name,
        },
        createdAt: now,
        updatedAt: now,
      },
      // The injected clock's time for both stamps (silent keeps Sequelize from overwriting updated_at).
      { transaction, silent: true },
    );
    await logActivity(
      {
        tenantId: page.invite.tenantId,
        customerId: page.invite.customerId,
        contactId: page.contact.id,
        campaignId: page.campaign.id,
        inviteId: page.invite.id,
        type: 'feedback',
        channel: (CHANNELS as readonly string[]).includes(source) ? (source as Channel) : null,
        detail: `Rated ${rating} of 5 and sent private feedback #${feedback.id}.`,
        occurredAt: now,
      },
      { transaction },
    );
    await writeEvent(
      transaction,
      {
        tenantId: feedback.tenantId,
        customerId: feedback.customerId,
        event: 'private-feedback-created',
        aggregateType: 'private_feedback',
        aggregateId: feedback.id,
        payload: privateFeedbackPayload(feedback),
      },
      { clock },
    );
    return { feedback, created: true };
  });
}

// ---------------------------------------------------------------------------------------------------------
// The account's side (principal): scoped like reviews

/** A feedback row as the schema shows it (the campaign and contact by their UUIDs). */
export interface FeedbackView {
  id: number;
  organizationId: number;
  locationId: number;
  campaignId: string | null;
  contactId: string | null;
  rating: number;
  author: string;
  email: string;
  phone: string;
  message: string;
  reply: string | null;
  replyDate: Date | null;
  source: string;
  sourceName: string;
  meta: Record<string, unknown>;
  createdAt: Date;
  updatedAt: Date;
}

export interface FeedbackFilter extends PageArgs {
  organizationId?: number | null;
  locationId?: number | null;
  /** `Y-m-d`, inclusive (UTC days of `created_at`). */
  dateFrom?: string | null;
  dateTo?: string | null;
  ratings?: number[] | null;
  /** true: replied to; false: not yet. */
  responded?: boolean | null;
}

/** One query for the page's campaigns and one for its contacts, whatever the page size. */
async function viewsOf(rows: PrivateFeedback[], transaction?: Transaction): Promise<FeedbackView[]> {
  const campaignIds = [...new Set(rows.map((r) => r.campaignId).filter((id): id is number => id !== null))];
  const contactIds = [...new Set(rows.map((r) => r.contactId).filter((id): id is number => id !== null))];
  const [campaigns, contacts] = await Promise.all([
    campaignIds.length ? Campaign.findAll({ where: { id: { [Op.in]: campaignIds } }, attributes: ['id', 'uuid'], transaction }) : [],
    contactIds.length ? Contact.findAll({ where: { id: { [Op.in]: contactIds } }, attributes: ['id', 'uuid'], transaction }) : [],
  ]);
  const campaignUuid = new Map(campaigns.map((c) => [c.id, c.uuid]));
  const contactUuid = new Map(contacts.map((c) => [c.id, c.uuid]));
  return rows.map((r) => ({
    id: r.id,
    organizationId: r.organizationId,
    locationId: r.locationId,
    campaignId: r.campaignId !== null ? (campaignUuid.get(r.campaignId) ?? null) : null,
    contactId: r.contactId !== null ? (contactUuid.get(r.contactId) ?? null) : null,
    rating: r.rating,
    author: r.author,
    email: r.email,
    phone: r.phone,
    message: r.message,
    reply: r.reply,
    replyDate: r.replyDate,
    source: r.source,
    sourceName: r.sourceName,
    meta: r.meta,
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
  }));
}

/**
 * Feedback the caller can see (tenant owner: the tenant; organisation owner: the account; team member: assigned
 * locations), newest first. Filters outside the caller's scope give an empty list, as for reviews.
 */
export async function list(p: Principal, f: FeedbackFilter, opts: ServiceOptions = {}): Promise<Page<FeedbackView>> {
  const errors: FieldErrors = {};
  const from = f.dateFrom != null ? parseDate(f.dateFrom) : null;
  const to = f.dateTo != null ? parseDate(f.dateTo) : null;
  if (f.dateFrom != null && !from) errors.date_from = ['The date from does not match the format Y-m-d.'];
  if (f.dateTo != null && !to) errors.date_to = ['The date to does not match the format Y-m-d.'];
  if (from && to && from.getTime() > to.getTime()) errors.date_to = ['The date to must be a date after or equal to date from.'];
  if (f.ratings?.some((r) => !Number.isInteger(r) || r < 1 || r > 5)) errors.ratings = ['Each rating must be between 1 and 5.'];
  if (Object.keys(errors).length) throw new Validation(errors);

  const and: WhereOptions[] = [locationScoped(p)];
  if (f.organizationId != null) and.push({ organizationId: f.organizationId });
  if (f.locationId != null) and.push({ locationId: f.locationId });
  if (from) and.push({ createdAt: { [Op.gte]: from } });
  if (to) and.push({ createdAt: { [Op.lt]: new Date(to.getTime() + DAY_MS) } });
  if (f.ratings && f.ratings.length) and.push({ rating: { [Op.in]: f.ratings } });
  if (f.responded === true) and.push({ reply: { [Op.and]: [{ [Op.ne]: null }, { [Op.ne]: '' }] } });
  if (f.responded === false) and.push({ [Op.or]: [{ reply: null }, { reply: '' }] });
  const { rows, count } = await PrivateFeedback.findAndCountAll({
    where: { [Op.and]: and },
    order: [
      ['createdAt', 'DESC'],
      ['id', 'DESC'],
    ],
    transaction: opts.transaction,
    ...offset(f),
  });
  return { items: await viewsOf(rows, opts.transaction), total: count, page: f.page, perPage: f.perPage };
}

async function visible(p: Principal, id: number, transaction?: Transaction): Promise<PrivateFeedback> {
  const row = await PrivateFeedback.findByPk(id, { transaction, lock: transaction ? transaction.LOCK.UPDATE : undefined });
  if (!row || !canSeeLocated(p, row)) throw new NotFound('Private feedback');
  return row;
}

export async function get(p: Principal, id: number, opts: ServiceOptions = {}): Promise<FeedbackView> {
  return (await viewsOf([await visible(p, id, opts.transaction)], opts.transaction))[0];
}

async function saveWithEvent(row: PrivateFeedback, opts: ServiceOptions, transaction: Transaction): Promise<void> {
  if (!row.changed()) return;
  await row.save({ transaction });
  await writeEvent(
    transaction,
    {
      tenantId: row.tenantId,
      customerId: row.customerId,
      event: 'private-feedback-updated',
      aggregateType: 'private_feedback',
      aggregateId: row.id,
      payload: privateFeedbackPayload(row),
    },
    { clock: opts.clock },
  );
}

/**
 * The account's reply (1-4096 characters) with its time. A reply can be replaced (it is not published anywhere;
 * the account tells the customer by its own means); the same text again changes nothing and writes no event.
 */
export async function reply(p: Principal, id: number, input: { message: string }, opts: ServiceOptions = {}): Promise<FeedbackView> {
  const message = (input.message ?? '').trim();
  if (!message) throw new Validation({ message: ['The message field is required.'] });
  if (charCount(message) > MAX_REPLY_CHARS) throw new Validation({ message: [`The message may not be greater than ${MAX_REPLY_CHARS} characters.`] });
  return inTransaction(opts, async (transaction) => {
    const row = await visible(p, id, transaction);
    if (row.reply !== message) row.set({ reply: message, replyDate: clockOf(opts).now() });
    await saveWithEvent(row, opts, transaction);
    return (await viewsOf([row], transaction))[0];
  });
}

/** Edits the rating (1-5) and/or the message (1-5000 characters); only a real change writes the event. */
export async function update(p: Principal, id: number, input: { rating?: number | null; message?: string | null }, opts: ServiceOptions = {}): Promise<FeedbackView> {
  const errors: FieldErrors = {};
  if (input.rating != null && (!Number.isInteger(input.rating) || input.rating < 1 || input.rating > 5)) errors.rating = ['The rating must be between 1 and 5.'];
  const message = input.message != null ? input.message.trim() : null;
  if (message !== null && !message) errors.message = ['The message field is required.'];
  if (message && charCount(message) > MAX_MESSAGE_CHARS) errors.message = [`The message may not be greater than ${MAX_MESSAGE_CHARS} characters.`];
  if (Object.keys(errors).length) throw new Validation(errors);
  return inTransaction(opts, async (transaction) => {
    const row = await visible(p, id, transaction);
    if (input.rating != null) row.set({ rating: input.rating });
    if (message !== null) row.set({ message });
    await saveWithEvent(row, opts, transaction);
    return (await viewsOf([row], transaction))[0];
  });
}
