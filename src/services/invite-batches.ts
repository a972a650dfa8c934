import { randomUUID } from 'node:crypto';
import { Op, type Transaction } from 'sequelize';
import { Validation, type FieldErrors } from '../domain/errors';
import { MAX_BATCH_INVITES } from '../domain/limits';
import { idsByUuid, insertRows } from '../db/write';
import { Contact, Invite, type Campaign } from '../models';
import { ACTIVITY_COLUMNS, type ActivityType } from '../models/contact-activity.model';
import { nudgeInviteDispatcher } from '../../workflows/client';
import { clockOf } from './common';
import { optedOut } from './opt-outs';
import {
  cleanContactDetails,
  detailsToSave,
  inReadCommitted,
  INVITE_WORDS,
  isRace,
  listOfOrganization,
  markOptedOut,
  requestInvite,
  sendAfterHoursProblem,
  sendTimeFor,
  type CleanContactDetails,
  type ContactDetails,
  type InviteOutcome,
  type RequestInviteOptions,
} from './invites.service';

/**
 * Many invites for one campaign in one request (docs/decisions/review-requests.md "Invites in batches"): each
 * contact gets exactly what `requestInvite` would give it, sent one after another in the same order (rules 2-7,
 * the waiting-resubmission and duplicate-window rules, unsubscribes, a paused campaign), but the batch is read and
 * written set-wise: one look-up of the list's contacts by the batch's emails and phones, one of their waiting
 * invites, one of their sends within the duplicate window, and multi-row inserts of the new contacts, invites and
 * activities, in one transaction. A contact that shares an email or a phone (or, through the list, a stored
 * contact) with an earlier one of the batch is applied after the set-wise part by `requestInvite`, in order, in the
 * same transaction, so a later entry for one person sees the earlier's effect as consecutive requests would.
 */

const HOUR_MS = 60 * 60 * 1000;
const DAY_MS = 24 * HOUR_MS;

export interface BatchInviteInput extends ContactDetails {
  sendAfterHours?: number | null;
}

/** What a batch answers per entry: the contact (its id and keys), the waiting invite if any, the outcome. */
export interface BatchInviteResult {
  contact: { id: number; uuid: string; email: string | null; phone: string | null };
  invite: { id: number } | null;
  outcome: InviteOutcome;
}

/** The stored facts of a contact the batch reads and writes (a matched row or one it inserted). */
interface ContactRow {
  id: number;
  uuid: string;
  email: string | null;
  phone: string | null;
  unsubscribedAt: Date | null;
}

export interface BatchInviteOptions {
  source: RequestInviteOptions['source'];
  clock?: RequestInviteOptions['clock'];
}

interface Entry {
  details: CleanContactDetails;
  hours: number;
  /** The stored contact the details match before the batch (email first, then phone), if any. */
  match: Contact | null;
  /** The stored contact holding the phone when the email matched another (the phone then stays where it is). */
  phoneHolder: Contact | null;
  contact?: ContactRow;
  outcome?: InviteOutcome;
  /** The waiting invite moved (rescheduled) or the one stored (scheduled). */
  invite?: { id: number } | null;
  sendAt?: Date;
  /** For a duplicate: the last send within the window. */
  duplicateOf?: Date;
}

/**
 * Validates every entry first (a 422 names `contacts.<i>.<field>` and nothing is stored), then applies them. Returns
 * one result per entry, in the order given.
 */
export async function requestInvites(campaign: Campaign, inputs: BatchInviteInput[], opts: BatchInviteOptions): Promise<BatchInviteResult[]> {
  if (inputs.length === 0) throw new Validation({ contacts: ['The contacts must hold at least one contact.'] });
  if (inputs.length > MAX_BATCH_INVITES) throw new Validation({ contacts: [`The contacts may not hold more than ${MAX_BATCH_INVITES} contacts.`] });
  const entries = validate(campaign, inputs);

  for (let tries = 1; ; tries++) {
    try {
      const results = await inReadCommitted((transaction) => apply(campaign, entries, opts, transaction));
      if (results.some((r) => r.outcome === 'scheduled' || r.outcome === 'rescheduled')) void nudgeInviteDispatcher().catch(() => undefined);
      return results;
    } catch (e) {
      // A concurrent request created one of the batch's new people first (or a deadlock on the look-ups' locks): the
      // whole batch is applied again and finds that contact, as a single request does.
      if (!isRace(e) || tries >= 3) throw e;
    }
  }
}

function validate(campaign: Campaign, inputs: BatchInviteInput[]): Entry[] {
  const fields: FieldErrors = {};
  const entries: Entry[] = [];
  inputs.forEach((input, index) => {
    const hours = input.sendAfterHours ?? campaign.sendAfterHours;
    const problem = sendAfterHoursProblem(hours);
    if (problem) fields[`contacts.${index}.send_after_hours`] = [problem];
    try {
      entries.push({ details: cleanContactDetails(input), hours, match: null, phoneHolder: null });
    } catch (e) {
      if (!(e instanceof Validation) || !e.fields) throw e;
      for (const [field, messages] of Object.entries(e.fields)) fields[`contacts.${index}.${field}`] = messages;
    }
  });
  if (Object.keys(fields).length) throw new Validation(fields);
  return entries;
}

async function apply(campaign: Campaign, all: Entry[], opts: BatchInviteOptions, transaction: Transaction): Promise<BatchInviteResult[]> {
  const now = clockOf(opts).now();
  const entries: Entry[] = all.map(({ details, hours }) => ({ details, hours, match: null, phoneHolder: null }));
  const exact = (await matchStored(campaign, entries, transaction)) && entries.every((e) => !e.details.email || PRINTABLE_ASCII.test(e.details.email));

  // Keys equal only by the column's collation (see PRINTABLE_ASCII): every entry one by one.
  const { set, later } = exact ? partition(entries) : { set: [], later: entries };

  await saveContacts(campaign, set, now, transaction);
  await decide(campaign, set, now, transaction);
  await store(campaign, set, opts, now, transaction);

  for (const e of later) {
    const result = await requestInvite(campaign, e.details, { sendAfterHours: e.hours, source: opts.source, clock: opts.clock, transaction });
    Object.assign(e, { contact: result.contact, invite: result.invite, outcome: result.outcome });
  }
  return entries.map(({ contact: c, invite, outcome }) => ({
    contact: { id: c!.id, uuid: c!.uuid, email: c!.email, phone: c!.phone },
    invite: invite ? { id: Number(invite.id) } : null,
    outcome: outcome!,
  }));
}

/** Set-wise: the entries that touch nobody an earlier entry touches. The rest follow, in order, one by one. */
function partition(entries: Entry[]): { set: Entry[]; later: Entry[] } {
  const set: Entry[] = [];
  const later: Entry[] = [];
  const emails = new Set<string>();
  const phones = new Set<string>();
  const contacts = new Set<number>();
  for (const e of entries) {
    const { email, phone } = e.details;
    const touched = [e.match?.id, e.phoneHolder?.id].filter((id): id is number => id !== undefined);
    const overlaps = (email && emails.has(email)) || (phone && phones.has(phone)) || touched.some((id) => contacts.has(id));
    (overlaps ? later : set).push(e);
    if (email) emails.add(email);
    if (phone) phones.add(phone);
    touched.forEach((id) => contacts.add(id));
  }
  return { set, later };
}

/**
 * Emails the set-wise part may compare as strings. The contacts' columns compare by utf8mb4_unicode_ci, under which
 * `andré` is `andre` and `straße` is `strasse`, and `requestInvite`'s look-ups match that way; for printable ASCII
 * (lower-cased, as stored) that collation's equality is the strings' own. A batch naming any other email goes through
 * `requestInvite` entry by entry (rare: the batch is then as fast as single requests, and as exact).
 */
const PRINTABLE_ASCII = /^[\x21-\x7e]+$/;

/**
 * One look-up per key of the list's contacts the batch names, locked for the transaction (as `matchContact` does).
 * False when a stored contact came back that no entry names exactly (it matched by the collation only).
 */
async function matchStored(campaign: Campaign, entries: Entry[], transaction: Transaction): Promise<boolean> {
  const emails = [...new Set(entries.flatMap((e) => (e.details.email ? [e.details.email] : [])))];
  const phones = [...new Set(entries.flatMap((e) => (e.details.phone ? [e.details.phone] : [])))];
  const lock = transaction.LOCK.UPDATE;
  const where = { contactListId: campaign.contactListId };
  const byEmail = new Map((emails.length ? await Contact.findAll({ where: { ...where, email: emails }, transaction, lock }) : []).map((c) => [c.email!, c]));
  const byPhone = new Map((phones.length ? await Contact.findAll({ where: { ...where, phone: phones }, transaction, lock }) : []).map((c) => [c.phone!, c]));
  for (const e of entries) {
    const email = e.details.email ? byEmail.get(e.details.email) : undefined;
    const phone = e.details.phone ? byPhone.get(e.details.phone) : undefined;
    e.match = email ?? phone ?? null;
    e.phoneHolder = email && phone && phone.id !== email.id ? phone : null;
  }
  const named = new Set(emails);
  const dialled = new Set(phones);
  return [...byEmail.keys()].every((k) => named.has(k)) && [...byPhone.keys()].every((k) => dialled.has(k));
}

/**
 * Creates the new people with one insert and saves the sent details of the matched ones (`matchContact`'s rule) with
 * another, an upsert on their ids that only the changed rows take part in.
 */
async function saveContacts(campaign: Campaign, entries: Entry[], now: Date, transaction: Transaction): Promise<void> {
  const sequelize = Contact.sequelize!;
  const fresh = entries.filter((e) => !e.match);
  const row = (c: { uuid: string; firstName: string | null; lastName: string | null; email: string | null; phone: string | null; createdAt: Date }, id: number | null, updatedAt: Date) => [
    id,
    c.uuid,
    campaign.tenantId,
    campaign.customerId,
    campaign.contactListId,
    c.firstName,
    c.lastName,
    c.email,
    c.phone,
    c.createdAt,
    updatedAt,
  ];
  if (fresh.length) {
    const made = fresh.map((e) => ({ uuid: randomUUID(), ...e.details, createdAt: now }));
    await insertRows(sequelize, 'contacts', CONTACT_COLUMNS, made.map((c) => row(c, null, now)), transaction);
    const ids = await idsByUuid(sequelize, 'contacts', made.map((c) => c.uuid), transaction);
    fresh.forEach((e, i) => (e.contact = { id: ids.get(made[i].uuid)!, uuid: made[i].uuid, email: made[i].email, phone: made[i].phone, unsubscribedAt: null }));
  }
  const changed = [];
  for (const e of entries.filter((x) => x.match)) {
    const { details: d, match } = e;
    const next = { uuid: match!.uuid, firstName: match!.firstName, lastName: match!.lastName, email: match!.email, phone: match!.phone, createdAt: match!.createdAt, ...detailsToSave(d, e.phoneHolder !== null) };
    // Saved as `match.save()` saves a changed contact: updated_at from the wall clock.
    if (next.firstName !== match!.firstName || next.lastName !== match!.lastName || next.email !== match!.email || next.phone !== match!.phone) changed.push(row(next, match!.id, new Date()));
    e.contact = { id: match!.id, uuid: match!.uuid, email: next.email, phone: next.phone, unsubscribedAt: match!.unsubscribedAt };
  }
  // Every unique key of a changed row (id, uuid, the list's email and phone) is that row's own: the upsert updates it.
  await insertRows(sequelize, 'contacts', CONTACT_COLUMNS, changed, transaction, { onDuplicate: ['first_name', 'last_name', 'email', 'phone', 'updated_at'] });
}

const CONTACT_COLUMNS = ['id', 'uuid', 'tenant_id', 'customer_id', 'contact_list_id', 'first_name', 'last_name', 'email', 'phone', 'created_at', 'updated_at'] as const;

/**
 * The outcome of each entry, as `requestInvite` decides it: unsubscribed, paused, a waiting invite moved (rule 4),
 * a duplicate within the window (rules 3, 5), else scheduled.
 */
async function decide(campaign: Campaign, entries: Entry[], now: Date, transaction: Transaction): Promise<void> {
  // The organisation's opt-outs (the same person unsubscribed through another list's link), one look-up for the batch.
  const out = await optedOut(
    entries.map((e) => ({ customerId: campaign.customerId, organizationId: campaign.organizationId, email: e.contact!.email, phone: e.contact!.phone })),
    transaction,
  );
  const optedOutNow = entries.filter((e, i) => !e.contact!.unsubscribedAt && out[i]);
  if (optedOutNow.length && (await listOfOrganization(campaign, transaction))) {
    await markOptedOut(optedOutNow.map((e) => e.contact!.id), campaign.customerId, now, transaction);
    for (const e of optedOutNow) e.contact!.unsubscribedAt = now;
  }
  entries.forEach((e, i) => {
    if (e.contact!.unsubscribedAt || out[i]) e.outcome = 'ignored_unsubscribed';
    else if (campaign.pausedAt) e.outcome = 'ignored_paused';
  });
  const open = entries.filter((e) => !e.outcome && e.match);
  if (open.length === 0) return;
  const ids = open.map((e) => e.contact!.id);
  // The newest waiting invite of each pair, locked as requestInvite locks it.
  const waiting = new Map<number, Invite>();
  for (const invite of await Invite.findAll({
    where: { campaignId: campaign.id, contactId: ids, status: 'scheduled' },
    order: [['id', 'DESC']],
    transaction,
    lock: transaction.LOCK.UPDATE,
  })) {
    if (!waiting.has(invite.contactId)) waiting.set(invite.contactId, invite);
  }
  for (const e of open) {
    const invite = waiting.get(e.contact!.id);
    if (invite) Object.assign(e, { outcome: 'rescheduled', invite });
  }
  if (campaign.duplicateWindowDays <= 0) return;
  const rest = open.filter((e) => !e.outcome);
  if (rest.length === 0) return;
  const sent = (await Invite.findAll({
    attributes: ['contactId', [Invite.sequelize!.fn('MAX', Invite.sequelize!.col('sent_at')), 'lastSentAt']],
    where: {
      contactId: rest.map((e) => e.contact!.id),
      status: { [Op.notIn]: ['failed', 'canceled', 'ignored'] },
      sentAt: { [Op.gte]: new Date(now.getTime() - campaign.duplicateWindowDays * DAY_MS) },
    },
    group: ['contactId'],
    raw: true,
    transaction,
  })) as unknown as { contactId: number; lastSentAt: Date | string }[];
  const lastSent = new Map(sent.map((r) => [Number(r.contactId), new Date(r.lastSentAt)]));
  for (const e of rest) {
    const at = lastSent.get(e.contact!.id);
    if (at) {
      Object.assign(e, { outcome: 'ignored_duplicate', invite: null, duplicateOf: at });
    }
  }
}

/** The invites, their activities and the stopped follow-ups, each kind with one statement (moves: one per send time). */
async function store(campaign: Campaign, entries: Entry[], opts: BatchInviteOptions, now: Date, transaction: Transaction): Promise<void> {
  const sequelize = Invite.sequelize!;
  const sendAtOf = (e: Entry) => sendTimeFor(campaign, new Date(now.getTime() + e.hours * HOUR_MS));
  const activities: unknown[][] = [];
  const activity = (e: Entry, inviteId: number, type: ActivityType, detail: string) =>
    activities.push([campaign.tenantId, campaign.customerId, e.contact!.id, campaign.id, inviteId, null, type, null, detail.slice(0, 500), now]);

  // Rule 4: the waiting invites move, those to the same time with one statement.
  const moves = new Map<number, number[]>();
  for (const e of entries.filter((x) => x.outcome === 'rescheduled')) {
    const sendAt = sendAtOf(e);
    moves.set(sendAt.getTime(), [...(moves.get(sendAt.getTime()) ?? []), e.invite!.id]);
    activity(e, e.invite!.id, 'rescheduled', INVITE_WORDS.moved(sendAt));
  }
  for (const [at, ids] of moves) {
    await Invite.update({ requestedAt: now, sendAt: new Date(at), source: opts.source }, { where: { id: ids }, transaction });
  }

  const inserted = entries.filter((e) => e.outcome !== 'rescheduled');
  for (const e of inserted) e.outcome ??= 'scheduled';
  const reasonOf = (e: Entry): string | null => {
    if (e.outcome === 'ignored_unsubscribed') return INVITE_WORDS.unsubscribed;
    if (e.outcome === 'ignored_paused') return INVITE_WORDS.paused;
    if (e.outcome === 'ignored_duplicate') return INVITE_WORDS.duplicate(e.duplicateOf!, campaign.duplicateWindowDays);
    return null;
  };
  // Timestamps as Sequelize's create sets them (the wall clock); the request's times from the request's clock.
  const stamped = new Date();
  const rows = inserted.map((e) => {
    const scheduled = e.outcome === 'scheduled';
    if (scheduled) e.sendAt = sendAtOf(e);
    return [randomUUID(), campaign.tenantId, campaign.customerId, campaign.id, e.contact!.id, scheduled ? 'scheduled' : 'ignored', opts.source, now, e.sendAt ?? null, reasonOf(e), stamped, stamped];
  });
  await insertRows(sequelize, 'invites', INVITE_COLUMNS, rows, transaction);
  const ids = await idsByUuid(sequelize, 'invites', rows.map((r) => r[0] as string), transaction);
  inserted.forEach((e, i) => {
    const id = ids.get(rows[i][0] as string)!;
    if (e.outcome === 'scheduled') {
      e.invite = { id };
      activity(e, id, 'scheduled', INVITE_WORDS.scheduled(e.sendAt!));
    } else {
      e.invite = null;
      activity(e, id, 'ignored', reasonOf(e)!);
    }
  });
  await insertRows(sequelize, 'contact_activities', ACTIVITY_COLUMNS, activities, transaction);

  // The new invites take over: follow-ups still due of the pairs' earlier invites stop (requestInvite's last step).
  const scheduled = entries.filter((e) => e.outcome === 'scheduled' && e.match).map((e) => e.contact!.id);
  if (scheduled.length) {
    await Invite.update(
      { nextStepIndex: null, nextStepAt: null },
      { where: { campaignId: campaign.id, contactId: scheduled, status: 'sent', nextStepIndex: { [Op.ne]: null } }, transaction },
    );
  }
}

const INVITE_COLUMNS = ['uuid', 'tenant_id', 'customer_id', 'campaign_id', 'contact_id', 'status', 'source', 'requested_at', 'send_at', 'reason', 'created_at', 'updated_at'] as const;
