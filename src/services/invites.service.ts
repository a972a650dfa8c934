import { randomUUID } from 'node:crypto';
import { driverErrorCode, isLockConflict } from '../db/errors';
import { parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js/max';
import { Op, Transaction, UniqueConstraintError } from 'sequelize';
import type { Clock } from '../domain/clock';
import { Validation, type FieldErrors } from '../domain/errors';
import { charCount, MAX_NAME_CHARS } from '../domain/limits';
import { Contact, ContactActivity, ContactList, Invite, type Campaign } from '../models';
import type { Channel } from '../models/campaign.model';
import type { ActivityType } from '../models/contact-activity.model';
import type { InviteSource } from '../models/invite.model';
import { nudgeInviteDispatcher } from '../../workflows/client';
import { clockOf, plainText } from './common';
import { optedOutFor } from './opt-outs';

/**
 * Review-request invites (spec: Endpoints > Campaigns and invites, rules 2-7; States > Review-request invite).
 * `requestInvite` is the one entry for the REST invite endpoint, the inbound contact webhook and the dashboard:
 * it matches or creates the contact, applies the unsubscribe, waiting-resubmission and duplicate-window rules,
 * stores the invite and, after commit, hands it to the durable delivery workflow.
 */

export interface ContactDetails {
  email?: string | null;
  phone?: string | null;
  firstName?: string | null;
  lastName?: string | null;
}

/**
 * What happened to a request. `ignored_paused` (an addition to the shared contract): the campaign is paused,
 * the details are saved and an `ignored` activity is logged, nothing is scheduled.
 */
export type InviteOutcome = 'scheduled' | 'rescheduled' | 'ignored_duplicate' | 'ignored_unsubscribed' | 'ignored_paused';

export interface RequestInviteOptions {
  /** null/undefined = the campaign's default. */
  sendAfterHours?: number | null;
  /** Inbound timing: the earliest send time before the window rule; default = now. */
  notBefore?: Date;
  source: InviteSource;
  inboundSubmissionId?: number | null;
  transaction?: Transaction;
  clock?: Clock;
}

export interface InviteRequestResult {
  contact: Contact;
  /** The scheduled invite; null when the request was ignored (an `ignored` invite row records why). */
  invite: Invite | null;
  outcome: InviteOutcome;
}

export const INVITE_LIMITS = { nameChars: MAX_NAME_CHARS, emailChars: 255 } as const;

const HOUR_MS = 60 * 60 * 1000;
const DAY_MS = 24 * HOUR_MS;
const MINUTES_PER_DAY = 24 * 60;

// ---- contact details ------------------------------------------------------------------------------------

const EMAIL = /^[^\s@<>()[\]\\,;:"]+@[^\s@<>()[\]\\,;:"]+\.[^\s@<>()[\]\\,;:"]+$/;
const E164 = /^\+[1-9]\d{1,14}$/;

/**
 * A phone number in strict E.164 (`+` and up to 15 digits, no spaces) that libphonenumber-js (full metadata)
 * knows as a valid number; returns the canonical E.164 form or null.
 */
export function parseE164(raw: string): string | null {
  const value = raw.trim();
  if (!E164.test(value)) return null;
  const parsed = parsePhoneNumberFromString(value);
  return parsed && parsed.isValid() ? parsed.number : null;
}

/**
 * Lenient variant for sources that send formatted numbers (the inbound webhook): spaces, dashes, dots and
 * parentheses are allowed, national numbers need `defaultCountry`. Returns E.164 or null.
 */
export function toE164(raw: string, defaultCountry?: CountryCode): string | null {
  const parsed = parsePhoneNumberFromString(raw.trim(), defaultCountry ? { defaultCountry } : undefined);
  return parsed && parsed.isValid() ? parsed.number : null;
}

export interface CleanContactDetails {
  email: string | null;
  phone: string | null;
  firstName: string | null;
  lastName: string | null;
}

function optionalString(v: unknown): string | null {
  if (v == null) return null;
  if (typeof v !== 'string') return null;
  const t = v.trim();
  return t === '' ? null : t;
}

/** Control characters and lone UTF-16 surrogates, as `plainText` (src/services/common.ts) refuses them in names. */
const NAME_NOISE = /[\p{Cc}\p{Cs}]+/gu;

/**
 * A name of an inbound submission with control characters and lone surrogates taken out (a run of them becomes one
 * space): a sender's data is not the sender's fault, so the name is cleaned rather than the submission skipped.
 */
function withoutControlCharacters(name: string | null | undefined): string | null | undefined {
  return typeof name === 'string' ? name.replace(NAME_NOISE, ' ').replace(/ {2,}/g, ' ') : name;
}

/**
 * The invite rules on contact details (spec: invite body): email required when phone is absent and vice versa,
 * email format (stored lower-cased), E.164 phone, first/last name at most 255 characters and one line of text (no
 * control characters or lone UTF-16 surrogates, as every other name: `plainText`). Empty strings count as absent.
 * Throws Validation with snake_case field names. `names: 'clean'` (inbound submissions) takes those characters out
 * of the names instead of refusing them.
 */
export function cleanContactDetails(details: ContactDetails, opts: { names?: 'refuse' | 'clean' } = {}): CleanContactDetails {
  const fields: FieldErrors = {};
  const email = optionalString(details.email)?.toLowerCase() ?? null;
  const rawPhone = optionalString(details.phone);
  const clean = opts.names === 'clean';
  const firstName = optionalString(clean ? withoutControlCharacters(details.firstName) : details.firstName);
  const lastName = optionalString(clean ? withoutControlCharacters(details.lastName) : details.lastName);
  if (!email && !rawPhone) {
    fields.email = ['The email field is required when phone is not present.'];
    fields.phone = ['The phone field is required when email is not present.'];
  }
  if (email && (charCount(email) > INVITE_LIMITS.emailChars || !EMAIL.test(email))) {
    fields.email = ['The email must be a valid email address.'];
  }
  let phone: string | null = null;
  if (rawPhone) {
    phone = parseE164(rawPhone);
    if (!phone) fields.phone = ['The phone must be a valid phone number in E.164 format (for example +14155552671).'];
  }
  for (const [field, name] of [['first_name', firstName], ['last_name', lastName]] as const) {
    if (!name) continue;
    try {
      plainText(name, field);
    } catch (e) {
      if (!(e instanceof Validation) || !e.fields) throw e;
      Object.assign(fields, e.fields);
      continue;
    }
    if (charCount(name) > INVITE_LIMITS.nameChars) {
      fields[field] = [`The ${field.replace('_', ' ')} may not be greater than ${INVITE_LIMITS.nameChars} characters.`];
    }
  }
  if (Object.keys(fields).length) throw new Validation(fields);
  return { email, phone, firstName, lastName };
}

// ---- send window ----------------------------------------------------------------------------------------

const HHMM = /^([01]\d|2[0-3]):([0-5]\d)$/;

/** `HH:MM` → minutes after midnight, or null when it is not a 24-hour time. */
export function minutesOf(hhmm: string): number | null {
  const m = HHMM.exec(hhmm);
  return m ? Number(m[1]) * 60 + Number(m[2]) : null;
}

/**
 * The send time for an invite whose earliest possible send is `earliest`: `earliest` itself when it falls in
 * the campaign's UTC send window, otherwise the start of the next window. The window is `[start, end)`; an end
 * before the start wraps past midnight (22:00-06:00); no window (both null) means any time.
 */
export function sendTimeFor(campaign: Pick<Campaign, 'sendWindowStart' | 'sendWindowEnd'>, earliest: Date): Date {
  if (!campaign.sendWindowStart || !campaign.sendWindowEnd) return new Date(earliest);
  const start = minutesOf(campaign.sendWindowStart);
  const end = minutesOf(campaign.sendWindowEnd);
  if (start === null || end === null || start === end) return new Date(earliest);
  const dayStart = Date.UTC(earliest.getUTCFullYear(), earliest.getUTCMonth(), earliest.getUTCDate());
  const minute = (earliest.getTime() - dayStart) / 60_000; // fractional: 08:59:30 is before a 09:00 start
  const inside = start < end ? minute >= start && minute < end : minute >= start || minute < end;
  if (inside) return new Date(earliest);
  // Outside: the next time of day `start`, today when still ahead, else tomorrow.
  const today = dayStart + start * 60_000;
  return new Date(minute < start ? today : today + MINUTES_PER_DAY * 60_000);
}

// ---- what the timeline and the ignored rows say ---------------------------------------------------------

/** The words of an invite request's outcome, shared by the single invite and the batch (src/services/invite-batches.ts). */
export const INVITE_WORDS = {
  unsubscribed: 'Contact is unsubscribed.',
  paused: 'Campaign is paused.',
  duplicate: (sentAt: Date, days: number) => `Duplicate: an invite was sent ${sentAt.toISOString()}, within the ${days}-day duplicate window.`,
  scheduled: (sendAt: Date) => `Scheduled for ${sendAt.toISOString()}.`,
  moved: (sendAt: Date) => `Send time moved to ${sendAt.toISOString()}.`,
};

/**
 * The details a request saves on the contact it matched: the names and email sent, and the phone sent unless another
 * contact of the list holds it (`phoneHeldElsewhere`: the email matched one contact, the phone another).
 */
export function detailsToSave(d: CleanContactDetails, phoneHeldElsewhere: boolean): Partial<CleanContactDetails> {
  const changes: Partial<CleanContactDetails> = {};
  if (d.firstName) changes.firstName = d.firstName;
  if (d.lastName) changes.lastName = d.lastName;
  if (d.email) changes.email = d.email; // matched by email (same) or by phone (the email is nobody's in the list)
  if (d.phone && !phoneHeldElsewhere) changes.phone = d.phone;
  return changes;
}

// ---- activities -----------------------------------------------------------------------------------------

export interface ActivityRow {
  tenantId: number;
  customerId: number;
  contactId?: number | null;
  campaignId?: number | null;
  inviteId?: number | null;
  inboundConnectionId?: number | null;
  type: ActivityType;
  channel?: Channel | null;
  detail?: string | null;
  occurredAt?: Date;
}

/** Appends one row to a contact's timeline (or an inbound connection's, for `skipped`). */
export async function logActivity(row: ActivityRow, opts: { transaction?: Transaction; clock?: Clock } = {}): Promise<void> {
  await ContactActivity.create(
    {
      tenantId: row.tenantId,
      customerId: row.customerId,
      contactId: row.contactId ?? null,
      campaignId: row.campaignId ?? null,
      inviteId: row.inviteId ?? null,
      inboundConnectionId: row.inboundConnectionId ?? null,
      type: row.type,
      channel: row.channel ?? null,
      detail: row.detail ? row.detail.slice(0, 500) : null,
      occurredAt: row.occurredAt ?? clockOf(opts).now(),
    },
    { transaction: opts.transaction },
  );
}

// ---- the request ----------------------------------------------------------------------------------------

/**
 * Finds the person in the campaign's contact list (email first, then phone) and saves the sent details, or
 * creates them. When the email and the phone match two different contacts, the email match wins and keeps its
 * own phone (the phone stays with the contact that holds it: the list's unique phone rule, and we never move
 * one person's number onto another). The row is locked for the rest of the transaction so that two requests
 * for the same person are serialised.
 */
async function matchContact(campaign: Campaign, d: CleanContactDetails, now: Date, transaction: Transaction): Promise<Contact> {
  const lock = transaction.LOCK.UPDATE;
  const byEmail = d.email ? await Contact.findOne({ where: { contactListId: campaign.contactListId, email: d.email }, transaction, lock }) : null;
  const byPhone =
    d.phone && (!byEmail || byEmail.phone !== d.phone)
      ? await Contact.findOne({ where: { contactListId: campaign.contactListId, phone: d.phone }, transaction, lock })
      : null;
  const match = byEmail ?? byPhone;
  if (!match) {
    return Contact.create(
      {
        uuid: randomUUID(),
        tenantId: campaign.tenantId,
        customerId: campaign.customerId,
        contactListId: campaign.contactListId,
        email: d.email,
        phone: d.phone,
        firstName: d.firstName,
        lastName: d.lastName,
        createdAt: now,
        updatedAt: now,
      },
      { transaction },
    );
  }
  match.set(detailsToSave(d, Boolean(byEmail && byPhone && byPhone.id !== byEmail.id)));
  if (match.changed()) await match.save({ transaction });
  return match;
}

/** A non-failed invite of this contact (any campaign sharing it, any channel) sent within the window. */
async function sentWithin(contact: Contact, days: number, now: Date, transaction: Transaction): Promise<Invite | null> {
  if (days <= 0) return null;
  return Invite.findOne({
    where: {
      contactId: contact.id,
      status: { [Op.notIn]: ['failed', 'canceled', 'ignored'] },
      sentAt: { [Op.gte]: new Date(now.getTime() - days * DAY_MS) },
    },
    order: [['sentAt', 'DESC']],
    transaction,
  });
}

async function storeIgnored(
  campaign: Campaign,
  contact: Contact,
  reason: string,
  opts: RequestInviteOptions,
  now: Date,
  transaction: Transaction,
): Promise<void> {
  const row = await Invite.create(
    {
      uuid: randomUUID(),
      tenantId: campaign.tenantId,
      customerId: campaign.customerId,
      campaignId: campaign.id,
      contactId: contact.id,
      status: 'ignored',
      source: opts.source,
      requestedAt: now,
      sendAt: null,
      reason,
      inboundSubmissionId: opts.inboundSubmissionId ?? null,
    },
    { transaction },
  );
  await logActivity(
    { tenantId: campaign.tenantId, customerId: campaign.customerId, contactId: contact.id, campaignId: campaign.id, inviteId: row.id, type: 'ignored', detail: reason },
    { transaction, clock: opts.clock },
  );
}

/** Whether the campaign's contact list belongs to its organisation (a list of none serves every organisation). */
export async function listOfOrganization(campaign: Campaign, transaction: Transaction): Promise<boolean> {
  const list = await ContactList.findByPk(campaign.contactListId, { attributes: ['id', 'organizationId'], transaction });
  return list?.organizationId === campaign.organizationId;
}

/**
 * Marks contacts unsubscribed whom an opt-out of the organisation covers (the same person unsubscribed through the
 * link of another list), as `requestInvite` marks the one it ignores for that reason (a batch's, with one statement).
 */
export async function markOptedOut(contactIds: number[], customerId: number, now: Date, transaction: Transaction): Promise<void> {
  if (contactIds.length === 0) return;
  await Contact.update({ unsubscribedAt: now }, { where: { id: contactIds, customerId, unsubscribedAt: null }, transaction });
}

/** The longest `send_after_hours` (a year): an invite's and a campaign's default alike. */
export const MAX_SEND_AFTER_HOURS = 8760;

/** Why a `send_after_hours` cannot be used, or null. */
export function sendAfterHoursProblem(hours: number): string | null {
  return Number.isInteger(hours) && hours >= 0 && hours <= MAX_SEND_AFTER_HOURS
    ? null
    : `The send after hours must be an integer between 0 and ${MAX_SEND_AFTER_HOURS}.`;
}

/**
 * Rules 2-7 for one request: match/update the contact; a paused campaign or an unsubscribed contact is ignored;
 * a waiting invite of the same (campaign, contact) is moved to the time computed from this request; otherwise a
 * non-failed invite sent within the campaign's duplicate window makes it a duplicate (ignored); otherwise a new
 * invite is scheduled. Ignored requests still save the details and store an `ignored` invite row with the reason
 * and an `ignored` activity. Everything is stored in one transaction; the stored `scheduled` invite is the
 * invite dispatcher's work (src/messaging/send-queue.ts), which is nudged after commit.
 */
export async function requestInvite(campaign: Campaign, details: ContactDetails, opts: RequestInviteOptions): Promise<InviteRequestResult> {
  const clean = cleanContactDetails(details, { names: opts.source === 'inbound' ? 'clean' : 'refuse' });
  const hours = opts.sendAfterHours ?? campaign.sendAfterHours;
  const problem = sendAfterHoursProblem(hours);
  if (problem) throw new Validation({ send_after_hours: [problem] });

  const attempt = () =>
    requestTransaction(opts, async (transaction) => {
      const now = clockOf(opts).now();
      const contact = await matchContact(campaign, clean, now, transaction);
      const activity = (type: ActivityType, inviteId: number, detail: string) =>
        logActivity(
          { tenantId: campaign.tenantId, customerId: campaign.customerId, contactId: contact.id, campaignId: campaign.id, inviteId, type, detail },
          { transaction, clock: opts.clock },
        );

      if (contact.unsubscribedAt || (await optedOutFor(campaign, contact, transaction))) {
        // Opted out through another list's link: a contact of the organisation's own list is marked as well.
        if (!contact.unsubscribedAt && (await listOfOrganization(campaign, transaction))) await contact.update({ unsubscribedAt: now }, { transaction });
        await storeIgnored(campaign, contact, INVITE_WORDS.unsubscribed, opts, now, transaction);
        return { contact, invite: null, outcome: 'ignored_unsubscribed' as const };
      }
      if (campaign.pausedAt) {
        await storeIgnored(campaign, contact, INVITE_WORDS.paused, opts, now, transaction);
        return { contact, invite: null, outcome: 'ignored_paused' as const };
      }

      const earliest = new Date(Math.max(now.getTime() + hours * HOUR_MS, opts.notBefore?.getTime() ?? 0));
      const sendAt = sendTimeFor(campaign, earliest);
      const waiting = await Invite.findOne({
        where: { campaignId: campaign.id, contactId: contact.id, status: 'scheduled' },
        order: [['id', 'DESC']],
        transaction,
        lock: transaction.LOCK.UPDATE,
      });
      if (waiting) {
        waiting.set({ requestedAt: now, sendAt, source: opts.source, inboundSubmissionId: opts.inboundSubmissionId ?? waiting.inboundSubmissionId });
        await waiting.save({ transaction });
        await activity('rescheduled', waiting.id, INVITE_WORDS.moved(sendAt));
        return { contact, invite: waiting, outcome: 'rescheduled' as const };
      }

      const previous = await sentWithin(contact, campaign.duplicateWindowDays, now, transaction);
      if (previous) {
        await storeIgnored(
          campaign,
          contact,
          INVITE_WORDS.duplicate(previous.sentAt!, campaign.duplicateWindowDays),
          opts,
          now,
          transaction,
        );
        return { contact, invite: null, outcome: 'ignored_duplicate' as const };
      }

      const invite = await Invite.create(
        {
          uuid: randomUUID(),
          tenantId: campaign.tenantId,
          customerId: campaign.customerId,
          campaignId: campaign.id,
          contactId: contact.id,
          status: 'scheduled',
          source: opts.source,
          requestedAt: now,
          sendAt,
          inboundSubmissionId: opts.inboundSubmissionId ?? null,
        },
        { transaction },
      );
      await activity('scheduled', invite.id, INVITE_WORDS.scheduled(sendAt));
      // The new invite takes over: follow-ups still due of the pair's earlier invites stop.
      await Invite.update(
        { nextStepIndex: null, nextStepAt: null },
        { where: { campaignId: campaign.id, contactId: contact.id, status: 'sent', nextStepIndex: { [Op.ne]: null } }, transaction },
      );
      return { contact, invite, outcome: 'scheduled' as const };
    }).then(async (result: InviteRequestResult) => {
      // Not awaited: the request does not wait for the signal (a nudge may wait its spacing behind others').
      if (!opts.transaction) void dispatch(result);
      return result;
    });

  let result: InviteRequestResult;
  for (let tries = 1; ; tries++) {
    try {
      result = await attempt();
      break;
    } catch (e) {
      // Two first requests for the same new person race on the list's unique email/phone (or deadlock on the
      // gap locks of the lookup): the loser retries and finds the winner's contact. Inside a caller's
      // transaction the caller decides.
      if (!isRace(e) || opts.transaction || tries >= 3) throw e;
    }
  }
  if (opts.transaction) {
    const t = opts.transaction;
    t.afterCommit(() => void dispatch(result));
  }
  return result;
}

/**
 * The request's own transaction runs at READ COMMITTED: the contact and waiting-invite look-ups lock the rows they
 * find (two requests for one person queue on the contact row) but no index gaps, so simultaneous first requests for
 * different new people no longer deadlock on each other's gap locks (REPEATABLE READ made most of 32 concurrent
 * invites fail). Two first requests for the same new person still meet on the list's unique email/phone: the loser
 * retries (`isRace`). A caller's transaction keeps its own level.
 */
function requestTransaction<T>(opts: RequestInviteOptions, fn: (t: Transaction) => Promise<T>): Promise<T> {
  return opts.transaction ? fn(opts.transaction) : inReadCommitted(fn);
}

/** A transaction at READ COMMITTED (see above); callers that hand it to `requestInvite` get the same behaviour. */
export function inReadCommitted<T>(fn: (t: Transaction) => Promise<T>): Promise<T> {
  const sequelize = Invite.sequelize;
  if (!sequelize) throw new Error('Database not initialised');
  return sequelize.transaction({ isolationLevel: Transaction.ISOLATION_LEVELS.READ_COMMITTED }, fn);
}

/** A lost race between two first requests for one person: the loser may retry and find the winner's contact. */
export function isRace(e: unknown): boolean {
  return e instanceof UniqueConstraintError || driverErrorCode(e) === 'ER_DUP_ENTRY' || isLockConflict(e);
}

/**
 * Wakes the invite dispatcher for a scheduled or moved invite, so one due now leaves at once rather than at its next
 * poll. Never throws and needs nothing else: the stored row is the queue, and the dispatcher polls it anyway.
 */
async function dispatch(result: InviteRequestResult): Promise<void> {
  const { invite, outcome } = result;
  if (!invite || (outcome !== 'scheduled' && outcome !== 'rescheduled')) return;
  await nudgeInviteDispatcher().catch(() => undefined);
}
