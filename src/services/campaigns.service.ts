import { randomUUID } from 'node:crypto';
import { Op, QueryTypes, type Transaction } from 'sequelize';
import { Conflict, Forbidden, NotFound, Validation, type FieldErrors } from '../domain/errors';
import { charCount } from '../domain/limits';
import { canSeeLocated, canSeeOrganization, inAccount, isRestricted, isTeamMember, isTenantOwner, restrictedLocationsSql } from '../domain/permissions';
import type { Principal } from '../domain/principal';
import { Campaign, Contact, ContactList, Invite, Location, Organization } from '../models';
import { CHANNELS, type CampaignStep, type Channel } from '../models/campaign.model';
import type { ActivityType } from '../models/contact-activity.model';
import { cleanName, clockOf, escape, inTransaction, offset, type Page, type PageArgs, parseDate, scopeSql, type ServiceOptions, tenantScoped } from './common';
import { MAX_SEND_AFTER_HOURS, minutesOf, requestInvite, type ContactDetails, type InviteRequestResult } from './invites.service';
import { requestInvites, type BatchInviteResult } from './invite-batches';
import { containsPattern } from '../db/like';
import { SMS_BODY_MAX_CHARS, SMS_LINK_CHARS, SMS_MAX_CHARS, textLengthOf } from '../messaging/templates';
import { UUID } from '../domain/ids';

/**
 * Review-request campaigns, contact lists and contacts (spec: Campaign, Contact, Endpoints > Campaigns and
 * invites, MCP list_campaigns / list_contacts / get_contact_activity). Visibility follows the dashboard: a tenant
 * owner sees the tenant, an organisation owner their account, a team member the campaigns of their assigned
 * locations (and the lists and contacts of those campaigns). Managing campaigns and lists is for owners.
 */

export const CAMPAIGN_LIMITS = {
  steps: { min: 1, max: 5 },
  emailBodyChars: 2000,
  /** SMS / messaging app: 1,600 (the provider's limit) less what every text gets added, as textLengthOf counts (templates.ts). */
  textBodyChars: SMS_BODY_MAX_CHARS,
  subjectChars: 255,
  delayHours: { min: 0, max: 720 },
  sendAfterHours: { min: 0, max: MAX_SEND_AFTER_HOURS },
  duplicateWindowDays: { min: 0, max: 365, default: 14 },
  feedbackThreshold: { min: 1, max: 4, default: 3 },
  reviewUrlChars: 2048,
  activityLimit: { min: 1, max: 100, default: 25 },
} as const;

// ---- permissions ----------------------------------------------------------------------------------------

interface Owned {
  tenantId: number;
  customerId: number;
}

/** Campaigns and contact lists are managed by the account's owners (tenant owner, organisation owner). */
export function canManageCampaigns(p: Principal, row: Owned): boolean {
  return inAccount(p, row) && !isTeamMember(p);
}

/**
 * "The token owner can edit the campaign's location" (invite rule 10): the location is in the caller's account
 * and, for a team member, assigned to them (the dashboard lets them work on exactly those locations).
 */
export function canEditCampaignLocation(p: Principal, campaign: Owned & { locationId: number }): boolean {
  return canSeeLocated(p, campaign);
}

function assertManager(p: Principal, row: Owned): void {
  if (!canManageCampaigns(p, row)) {
    throw new Forbidden('Only the account owner can manage review-request campaigns and contact lists.', 'campaign_management_denied');
  }
}

// ---- lookups --------------------------------------------------------------------------------------------

/**
 * A campaign by its UUID: malformed, unknown or another account's is 404; a team member's unassigned location
 * is 403 `location_access_denied`.
 */
export async function findVisible(p: Principal, uuid: string, opts: { transaction?: Transaction; lock?: boolean } = {}): Promise<Campaign> {
  if (typeof uuid !== 'string' || !UUID.test(uuid)) throw new NotFound('Campaign');
  const campaign = await Campaign.findOne({
    where: { uuid: uuid.toLowerCase(), ...tenantScoped(p) },
    transaction: opts.transaction,
    lock: opts.lock && opts.transaction ? opts.transaction.LOCK.UPDATE : undefined,
  });
  if (!campaign || !inAccount(p, campaign)) throw new NotFound('Campaign');
  if (!canEditCampaignLocation(p, campaign)) throw new Forbidden('You do not have access to this location.', 'location_access_denied');
  return campaign;
}

async function managedCampaign(p: Principal, uuid: string, transaction: Transaction): Promise<Campaign> {
  const campaign = await findVisible(p, uuid, { transaction, lock: true });
  assertManager(p, campaign);
  return campaign;
}

async function visibleList(p: Principal, id: number, transaction?: Transaction): Promise<ContactList> {
  const list = await ContactList.findByPk(id, { transaction });
  if (!list || !inAccount(p, list)) throw new NotFound('Contact list');
  if (isRestricted(p)) {
    const used = await Campaign.count({ where: { contactListId: list.id, locationId: { [Op.in]: [...p.assignedLocationIds, -1] } }, transaction });
    if (!used) throw new NotFound('Contact list');
  }
  return list;
}

// ---- input rules ----------------------------------------------------------------------------------------

export interface CampaignStepInput {
  channel: string;
  delayHours?: number | null;
  subject?: string | null;
  body: string;
}

export interface CampaignSettingsInput {
  name?: string;
  locationId?: number;
  contactListId?: number | null;
  newContactListName?: string | null;
  sendWindowStart?: string | null;
  sendWindowEnd?: string | null;
  sendAfterHours?: number | null;
  duplicateWindowDays?: number | null;
  steps?: CampaignStepInput[];
  reviewUrl?: string | null;
  feedbackThreshold?: number | null;
}

export interface CreateCampaignInput extends CampaignSettingsInput {
  organizationId: number;
  locationId: number;
  name: string;
  steps: CampaignStepInput[];
}

function intIn(value: number, min: number, max: number): boolean {
  return Number.isInteger(value) && value >= min && value <= max;
}

/**
 * Control characters other than tab and line breaks, and lone UTF-16 surrogates. Each is one character to the limits
 * but six bytes in the stored JSON (`\u0001`): five email steps of them came to 67,650 bytes, past the steps column
 * (TEXT, 65,535 bytes), a 500 after validation passed. Without them a character is at most 4 bytes (tab and line
 * breaks 2), so 5 × (255 + 2,000) characters stay under 46,000. A subject is one line (a mail header): none at all.
 */
const BODY_CONTROL = /\p{Cs}|(?![\t\n\r])\p{Cc}/u;
const SUBJECT_CONTROL = /[\p{Cc}\p{Cs}]/u;

export function cleanSteps(steps: readonly CampaignStepInput[], fields: FieldErrors): CampaignStep[] {
  const { min, max } = CAMPAIGN_LIMITS.steps;
  if (!Array.isArray(steps) || steps.length < min || steps.length > max) {
    fields.steps = [`A campaign needs between ${min} and ${max} steps.`];
    return [];
  }
  return steps.map((s, i) => {
    const key = (f: string) => `steps.${i}.${f}`;
    const channel = s.channel as Channel;
    if (!(CHANNELS as readonly string[]).includes(s.channel)) fields[key('channel')] = ['The channel must be one of email, sms, messaging.'];
    const delayHours = s.delayHours ?? 0;
    if (!intIn(delayHours, CAMPAIGN_LIMITS.delayHours.min, CAMPAIGN_LIMITS.delayHours.max)) {
      fields[key('delay_hours')] = [`The delay hours must be an integer between ${CAMPAIGN_LIMITS.delayHours.min} and ${CAMPAIGN_LIMITS.delayHours.max}.`];
    }
    const body = typeof s.body === 'string' ? s.body.trim() : '';
    const bodyMax = channel === 'email' ? CAMPAIGN_LIMITS.emailBodyChars : CAMPAIGN_LIMITS.textBodyChars;
    if (!body) fields[key('body')] = ['The body field is required.'];
    else if (BODY_CONTROL.test(body)) fields[key('body')] = ['The body may not contain control characters (tabs and line breaks are allowed).'];
    else if (channel === 'email' && charCount(body) > bodyMax) fields[key('body')] = [`The body may not be greater than ${bodyMax} characters.`];
    else if (channel !== 'email' && textLengthOf(body) > bodyMax) {
      // The sent text also carries the review link and the opt-out line, and the provider refuses more than 1,600.
      fields[key('body')] = [
        `The body may not be greater than ${bodyMax} characters (an emoji counts as 2, {review_link} and {unsubscribe_link} as ${SMS_LINK_CHARS} each): ` +
          `the review link and the opt-out line are added, and a text message may not exceed ${SMS_MAX_CHARS}.`,
      ];
    }
    const subject = typeof s.subject === 'string' && s.subject.trim() ? s.subject.trim() : null;
    if (channel === 'email' && !subject) fields[key('subject')] = ['The subject field is required for an email step.'];
    else if (subject && SUBJECT_CONTROL.test(subject)) fields[key('subject')] = ['The subject may not contain control characters.'];
    else if (subject && charCount(subject) > CAMPAIGN_LIMITS.subjectChars) {
      fields[key('subject')] = [`The subject may not be greater than ${CAMPAIGN_LIMITS.subjectChars} characters.`];
    }
    return { channel, delayHours, subject: channel === 'email' ? subject : null, body };
  });
}

function cleanWindow(start: string | null, end: string | null, fields: FieldErrors): void {
  if ((start === null) !== (end === null)) {
    fields.send_window = ['The send window needs both a start and an end (HH:MM, UTC), or neither.'];
    return;
  }
  if (start === null || end === null) return;
  if (minutesOf(start) === null) fields.send_window_start = ['The send window start must be a time HH:MM (UTC).'];
  if (minutesOf(end) === null) fields.send_window_end = ['The send window end must be a time HH:MM (UTC).'];
  if (!fields.send_window_start && !fields.send_window_end && start === end) {
    fields.send_window = ['The send window start and end must differ (leave both empty for any time).'];
  }
}

function cleanReviewUrl(url: string | null, fields: FieldErrors): string | null {
  if (url === null || url.trim() === '') return null;
  const value = url.trim();
  let ok = charCount(value) <= CAMPAIGN_LIMITS.reviewUrlChars;
  try {
    const u = new URL(value);
    ok &&= u.protocol === 'https:' || u.protocol === 'http:';
  } catch {
    ok = false;
  }
  if (!ok) fields.review_url = ['The review url must be a valid http(s) URL of at most 2048 characters.'];
  return value;
}

/** Validates the settings present in `input` on top of `base` (the current values, or the defaults). */
function settings(input: CampaignSettingsInput, base: Partial<Campaign>, fields: FieldErrors): Partial<Campaign> {
  const out: Partial<Campaign> = {};
  if (input.name !== undefined) {
    try {
      out.name = cleanName(input.name ?? '');
    } catch (e) {
      if (e instanceof Validation) Object.assign(fields, e.fields);
      else throw e;
    }
  }
  const start = input.sendWindowStart !== undefined ? input.sendWindowStart || null : (base.sendWindowStart ?? null);
  const end = input.sendWindowEnd !== undefined ? input.sendWindowEnd || null : (base.sendWindowEnd ?? null);
  if (input.sendWindowStart !== undefined || input.sendWindowEnd !== undefined) {
    cleanWindow(start, end, fields);
    out.sendWindowStart = start;
    out.sendWindowEnd = end;
  }
  if (input.sendAfterHours !== undefined) {
    const v = input.sendAfterHours ?? 0;
    const { min, max } = CAMPAIGN_LIMITS.sendAfterHours;
    if (!intIn(v, min, max)) fields.send_after_hours = [`The send after hours must be an integer between ${min} and ${max}.`];
    out.sendAfterHours = v;
  }
  if (input.duplicateWindowDays !== undefined) {
    const { min, max } = CAMPAIGN_LIMITS.duplicateWindowDays;
    const v = input.duplicateWindowDays ?? CAMPAIGN_LIMITS.duplicateWindowDays.default;
    if (!intIn(v, min, max)) fields.duplicate_window_days = [`The duplicate window days must be an integer between ${min} and ${max}.`];
    out.duplicateWindowDays = v;
  }
  if (input.feedbackThreshold !== undefined) {
    const { min, max } = CAMPAIGN_LIMITS.feedbackThreshold;
    const v = input.feedbackThreshold ?? CAMPAIGN_LIMITS.feedbackThreshold.default;
    if (!intIn(v, min, max)) fields.feedback_threshold = [`The feedback threshold must be an integer between ${min} and ${max}.`];
    out.feedbackThreshold = v;
  }
  if (input.reviewUrl !== undefined) out.reviewUrl = cleanReviewUrl(input.reviewUrl, fields);
  if (input.steps !== undefined) out.steps = cleanSteps(input.steps, fields);
  return out;
}

/** The campaign's contact list: an existing list of the same account (and organisation, when the list has one) or a new one. */
async function resolveList(
  p: Principal,
  org: Organization,
  input: CampaignSettingsInput,
  now: Date,
  fields: FieldErrors,
  transaction: Transaction,
): Promise<ContactList | null> {
  if (input.contactListId != null) {
    const list = await ContactList.findByPk(input.contactListId, { transaction });
    if (!list || !inAccount(p, list) || list.customerId !== org.customerId || (list.organizationId !== null && list.organizationId !== org.id)) {
      fields.contact_list_id = ['The selected contact list is invalid (it must belong to the same account and organisation).'];
      return null;
    }
    return list;
  }
  if (input.newContactListName != null) {
    let name: string;
    try {
      name = cleanName(input.newContactListName, 'new_contact_list_name');
    } catch (e) {
      if (e instanceof Validation) Object.assign(fields, e.fields);
      return null;
    }
    if (Object.keys(fields).length) return null;
    return ContactList.create(
      { uuid: randomUUID(), tenantId: org.tenantId, customerId: org.customerId, organizationId: org.id, name, createdAt: now, updatedAt: now },
      { transaction },
    );
  }
  return null;
}

// ---- campaigns: writes ----------------------------------------------------------------------------------

/**
 * Creates a campaign at a location of an organisation, with an existing contact list (`contactListId`, shared
 * lists allowed) or a new one (`newContactListName`; default: "<campaign name> contacts").
 */
export async function create(p: Principal, input: CreateCampaignInput, opts: ServiceOptions = {}): Promise<Campaign> {
  return inTransaction(opts, async (transaction) => {
    const now = clockOf(opts).now();
    const org = await Organization.findByPk(input.organizationId, { transaction });
    if (!org || !canSeeOrganization(p, org)) throw new NotFound('Organization');
    assertManager(p, org);
    const fields: FieldErrors = {};
    const location = await Location.findByPk(input.locationId, { transaction });
    if (!location || location.organizationId !== org.id) fields.location_id = ['The location must belong to the organization.'];
    const values = settings(
      {
        sendAfterHours: 0,
        duplicateWindowDays: null,
        feedbackThreshold: null,
        ...input,
        steps: input.steps ?? [],
      },
      {},
      fields,
    );
    if (input.contactListId == null && input.newContactListName == null && values.name) {
      input = { ...input, newContactListName: `${values.name.slice(0, 240)} contacts` };
    }
    if (Object.keys(fields).length) throw new Validation(fields);
    const list = await resolveList(p, org, input, now, fields, transaction);
    if (!list || Object.keys(fields).length) throw new Validation(fields);
    return Campaign.create(
      {
        uuid: randomUUID(),
        tenantId: org.tenantId,
        customerId: org.customerId,
        organizationId: org.id,
        locationId: location!.id,
        contactListId: list.id,
        sendWindowStart: null,
        sendWindowEnd: null,
        reviewUrl: null,
        ...values,
        // Both are required inputs of a create, and `settings` sets each one it was given that is valid.
        name: values.name!,
        steps: values.steps!,
        pausedAt: null,
        createdAt: now,
        updatedAt: now,
      },
      { transaction },
    );
  });
}

/** Changes the settings that were sent; the organisation stays (a location change stays in it). */
export async function update(p: Principal, uuid: string, input: CampaignSettingsInput, opts: ServiceOptions = {}): Promise<Campaign> {
  return inTransaction(opts, async (transaction) => {
    const now = clockOf(opts).now();
    const campaign = await managedCampaign(p, uuid, transaction);
    const fields: FieldErrors = {};
    const values = settings(input, campaign, fields);
    if (input.locationId !== undefined) {
      const location = await Location.findByPk(input.locationId, { transaction });
      if (!location || location.organizationId !== campaign.organizationId) fields.location_id = ['The location must belong to the organization.'];
      else values.locationId = location.id;
    }
    if (input.contactListId != null || input.newContactListName != null) {
      const org = await Organization.findByPk(campaign.organizationId, { transaction });
      const list = Object.keys(fields).length ? null : await resolveList(p, org!, input, now, fields, transaction);
      if (list) values.contactListId = list.id;
    }
    if (Object.keys(fields).length) throw new Validation(fields);
    campaign.set(values);
    if (campaign.changed()) await campaign.save({ transaction });
    return campaign;
  });
}

/** Cancels the waiting invites of a campaign (pause, delete): rows become `canceled` with the reason. */
async function cancelWaiting(campaign: Campaign, reason: string, transaction: Transaction): Promise<void> {
  await Invite.update({ status: 'canceled', reason }, { where: { campaignId: campaign.id, status: 'scheduled' }, transaction });
}

/**
 * Pausing stops the campaign: invites waiting to be sent are canceled, and requests while paused are answered
 * 202 with the details saved and an `ignored` activity. Idempotent.
 */
export async function pause(p: Principal, uuid: string, opts: ServiceOptions = {}): Promise<Campaign> {
  return inTransaction(opts, async (transaction) => {
    const now = clockOf(opts).now();
    const campaign = await managedCampaign(p, uuid, transaction);
    if (campaign.pausedAt) return campaign;
    await cancelWaiting(campaign, 'Campaign paused.', transaction);
    await campaign.update({ pausedAt: now }, { transaction });
    return campaign;
  });
}

/** Resuming lets new requests be scheduled again. Idempotent. */
export async function resume(p: Principal, uuid: string, opts: ServiceOptions = {}): Promise<Campaign> {
  return inTransaction(opts, async (transaction) => {
    const campaign = await managedCampaign(p, uuid, transaction);
    if (!campaign.pausedAt) return campaign;
    await campaign.update({ pausedAt: null }, { transaction });
    return campaign;
  });
}

/** Deletes the campaign with its invites and inbound connections; its contact list (maybe shared) stays. */
export async function remove(p: Principal, uuid: string, opts: ServiceOptions = {}): Promise<Campaign> {
  return inTransaction(opts, async (transaction) => {
    const campaign = await managedCampaign(p, uuid, transaction);
    await cancelWaiting(campaign, 'Campaign deleted.', transaction);
    await campaign.destroy({ transaction });
    return campaign;
  });
}

// ---- invites --------------------------------------------------------------------------------------------

export interface InviteContactInput extends ContactDetails {
  sendAfterHours?: number | null;
}

/**
 * POST .../campaigns/{campaign}/invite below the schema: 404 for an unknown campaign, 403
 * `location_access_denied` when the caller cannot edit the campaign's location, then the invite rules
 * (422 on the details) of `requestInvite`. Only the listed details reach the service (rule 9).
 */
export async function inviteContact(p: Principal, uuid: string, input: InviteContactInput, opts: ServiceOptions = {}): Promise<InviteRequestResult> {
  const campaign = await findVisible(p, uuid);
  const details: ContactDetails = { email: input.email, phone: input.phone, firstName: input.firstName, lastName: input.lastName };
  return requestInvite(campaign, details, { sendAfterHours: input.sendAfterHours, source: 'api', clock: opts.clock, transaction: opts.transaction });
}

/**
 * POST .../campaigns/{campaign}/invites below the schema: the single invite's checks, then up to
 * MAX_BATCH_INVITES contacts applied as consecutive single invites would be (src/services/invite-batches.ts).
 */
export async function inviteContacts(p: Principal, uuid: string, inputs: InviteContactInput[], opts: ServiceOptions = {}): Promise<BatchInviteResult[]> {
  const campaign = await findVisible(p, uuid);
  const entries = inputs.map((i) => ({ email: i.email, phone: i.phone, firstName: i.firstName, lastName: i.lastName, sendAfterHours: i.sendAfterHours }));
  return requestInvites(campaign, entries, { source: 'api', clock: opts.clock });
}

// ---- campaigns: reads -----------------------------------------------------------------------------------

export interface CampaignMetrics {
  invitesSent: number;
  invitesFailed: number;
  invitesScheduled: number;
  clicks: number;
  feedbackCount: number;
}

export interface CampaignWithMetrics {
  campaign: Campaign;
  metrics: CampaignMetrics;
}

export interface CampaignFilter extends PageArgs {
  organizationId?: number | null;
  campaignId?: number | null;
  search?: string | null;
  /** Creation date bounds, `Y-m-d`, inclusive. */
  dateFrom?: string | null;
  dateTo?: string | null;
}

const like = containsPattern;
const DAY_MS = 24 * 60 * 60 * 1000;

function dateBounds(from: string | null | undefined, to: string | null | undefined): { from: Date | null; to: Date | null } {
  const fields: FieldErrors = {};
  const f = from ? parseDate(from) : null;
  const t = to ? parseDate(to) : null;
  if (from && !f) fields.date_from = ['The date from does not match the format Y-m-d.'];
  if (to && !t) fields.date_to = ['The date to does not match the format Y-m-d.'];
  if (f && t && f > t) fields.date_to = ['The date to must be a date after or equal to date from.'];
  if (Object.keys(fields).length) throw new Validation(fields);
  return { from: f, to: t ? new Date(t.getTime() + DAY_MS) : null };
}

/** Per-campaign counters in one statement per page (definitions in docs/decisions/review-requests.md). */
export async function metricsOf(campaignIds: readonly number[], transaction?: Transaction): Promise<Map<number, CampaignMetrics>> {
  const out = new Map<number, CampaignMetrics>();
  for (const id of campaignIds) out.set(id, { invitesSent: 0, invitesFailed: 0, invitesScheduled: 0, clicks: 0, feedbackCount: 0 });
  if (!campaignIds.length) return out;
  const sequelize = Campaign.sequelize!;
  const rows = await sequelize.query<{ id: number; sent: string; failed: string; scheduled: string; clicks: string; feedback: string }>(
    `SELECT c.id,
        (SELECT COUNT(*) FROM invites i WHERE i.campaign_id = c.id AND i.status = 'sent') AS sent,
        (SELECT COUNT(*) FROM invites i WHERE i.campaign_id = c.id AND i.status = 'failed') AS failed,
        (SELECT COUNT(*) FROM invites i WHERE i.campaign_id = c.id AND i.status = 'scheduled') AS scheduled,
        (SELECT COUNT(*) FROM invites i WHERE i.campaign_id = c.id AND i.clicked_at IS NOT NULL) AS clicks,
        (SELECT COUNT(*) FROM private_feedback f WHERE f.campaign_id = c.id) AS feedback
       FROM campaigns c WHERE c.id IN (?)`,
    { replacements: [[...campaignIds]], type: QueryTypes.SELECT, transaction },
  );
  for (const r of rows) {
    out.set(Number(r.id), {
      invitesSent: Number(r.sent),
      invitesFailed: Number(r.failed),
      invitesScheduled: Number(r.scheduled),
      clicks: Number(r.clicks),
      feedbackCount: Number(r.feedback),
    });
  }
  return out;
}

async function withMetrics(campaigns: Campaign[]): Promise<CampaignWithMetrics[]> {
  const metrics = await metricsOf(campaigns.map((c) => c.id));
  return campaigns.map((campaign) => ({ campaign, metrics: metrics.get(campaign.id)! }));
}

/** Visible campaigns, newest first, with their metrics. */
export async function list(p: Principal, f: CampaignFilter): Promise<Page<CampaignWithMetrics>> {
  const bounds = dateBounds(f.dateFrom, f.dateTo);
  const and: unknown[] = [Campaign.sequelize!.literal(`(${scopeSql(p, '', 'location_id')})`)];
  const where: Record<string | symbol, unknown> = { [Op.and]: and };
  if (f.organizationId != null) where.organizationId = f.organizationId;
  if (f.campaignId != null) where.id = f.campaignId;
  if (f.search) where.name = { [Op.like]: like(f.search) };
  if (bounds.from || bounds.to) {
    where.createdAt = { ...(bounds.from ? { [Op.gte]: bounds.from } : {}), ...(bounds.to ? { [Op.lt]: bounds.to } : {}) };
  }
  const { rows, count } = await Campaign.findAndCountAll({
    where,
    order: [
      ['createdAt', 'DESC'],
      ['id', 'DESC'],
    ],
    ...offset(f),
  });
  return { items: await withMetrics(rows), total: count, page: f.page, perPage: f.perPage };
}

export async function get(p: Principal, uuid: string): Promise<CampaignWithMetrics> {
  const campaign = await findVisible(p, uuid);
  return (await withMetrics([campaign]))[0];
}

// ---- contact lists --------------------------------------------------------------------------------------

export interface ContactListFilter extends PageArgs {
  organizationId?: number | null;
}

export async function lists(p: Principal, f: ContactListFilter): Promise<Page<ContactList>> {
  const account = isTenantOwner(p)
    ? `tenant_id = ${escape(p.tenantId)}`
    : `tenant_id = ${escape(p.tenantId)} AND customer_id = ${escape(p.customerId ?? -1)}`;
  const and: unknown[] = [ContactList.sequelize!.literal(`(${account})`)];
  if (isRestricted(p)) {
    and.push(
      ContactList.sequelize!.literal(
        `(id IN (SELECT cp.contact_list_id FROM campaigns cp WHERE cp.location_id IN ${restrictedLocationsSql(p, (n) => escape(n))}))`,
      ),
    );
  }
  const where: Record<string | symbol, unknown> = { [Op.and]: and };
  if (f.organizationId != null) where.organizationId = f.organizationId;
  const { rows, count } = await ContactList.findAndCountAll({ where, order: [['id', 'ASC']], ...offset(f) });
  return { items: rows, total: count, page: f.page, perPage: f.perPage };
}

/** A new list in an organisation's account (or, without one, in the caller's own account, shared by all its organisations). */
export async function createList(p: Principal, input: { name: string; organizationId?: number | null }, opts: ServiceOptions = {}): Promise<ContactList> {
  const name = cleanName(input.name);
  return inTransaction(opts, async (transaction) => {
    const now = clockOf(opts).now();
    let owner: Owned;
    if (input.organizationId != null) {
      const org = await Organization.findByPk(input.organizationId, { transaction });
      if (!org || !canSeeOrganization(p, org)) throw new NotFound('Organization');
      owner = org;
    } else {
      if (p.customerId == null) throw new Forbidden('Name the organisation the contact list belongs to.');
      owner = { tenantId: p.tenantId, customerId: p.customerId };
    }
    assertManager(p, owner);
    return ContactList.create(
      { uuid: randomUUID(), tenantId: owner.tenantId, customerId: owner.customerId, organizationId: input.organizationId ?? null, name, createdAt: now, updatedAt: now },
      { transaction },
    );
  });
}

export async function updateList(p: Principal, id: number, input: { name: string }, opts: ServiceOptions = {}): Promise<ContactList> {
  const name = cleanName(input.name);
  return inTransaction(opts, async (transaction) => {
    const list = await visibleList(p, id, transaction);
    assertManager(p, list);
    if (list.name !== name) await list.update({ name }, { transaction });
    return list;
  });
}

/** Deletes a list and its contacts; a list still used by a campaign is 409 `contact_list_in_use`. */
export async function removeList(p: Principal, id: number, opts: ServiceOptions = {}): Promise<ContactList> {
  return inTransaction(opts, async (transaction) => {
    const list = await visibleList(p, id, transaction);
    assertManager(p, list);
    const used = await Campaign.count({ where: { contactListId: list.id }, transaction });
    if (used) throw new Conflict('The contact list is used by a campaign; delete the campaign or move it to another list first.', 'contact_list_in_use');
    await list.destroy({ transaction });
    return list;
  });
}

// ---- contacts -------------------------------------------------------------------------------------------

export interface ContactEngagement {
  invitesSent: number;
  lastInvitedAt: Date | null;
  clicks: number;
  feedbackCount: number;
}

export interface ContactWithEngagement {
  contact: Contact;
  engagement: ContactEngagement;
}

export interface ContactFilter extends PageArgs {
  organizationId?: number | null;
  contactListId?: number | null;
  subscribed?: boolean | null;
  /** Creation date bounds, `Y-m-d`, inclusive. */
  dateFrom?: string | null;
  dateTo?: string | null;
}

/** SQL condition: the contact's list is visible to the caller (team members: lists of their campaigns). */
function contactScope(p: Principal): string {
  const base = isTenantOwner(p)
    ? `ct.tenant_id = ${escape(p.tenantId)}`
    : `ct.tenant_id = ${escape(p.tenantId)} AND ct.customer_id = ${escape(p.customerId ?? -1)}`;
  if (!isRestricted(p)) return base;
  return `${base} AND ct.contact_list_id IN (SELECT cp.contact_list_id FROM campaigns cp WHERE cp.location_id IN
    ${restrictedLocationsSql(p, (n) => escape(n))})`;
}

/**
 * Engagement counters of each contact in one statement (definitions in docs/decisions/review-requests.md). A restricted
 * caller (team member, grant to some organisations) counts what its contact timeline shows: the invites of campaigns
 * at its locations and the feedback left at them, not those of another campaign sharing the list.
 */
async function engagementOf(p: Principal, contactIds: readonly number[]): Promise<Map<number, ContactEngagement>> {
  const out = new Map<number, ContactEngagement>();
  for (const id of contactIds) out.set(id, { invitesSent: 0, lastInvitedAt: null, clicks: 0, feedbackCount: 0 });
  if (!contactIds.length) return out;
  const locations = isRestricted(p) ? restrictedLocationsSql(p, (n) => escape(n)) : null;
  const invites = locations ? `invites i JOIN campaigns cp ON cp.id = i.campaign_id AND cp.location_id IN ${locations}` : 'invites i';
  const feedback = locations ? ` AND f.location_id IN ${locations}` : '';
  const rows = await Contact.sequelize!.query<{ id: number; sent: string; last: Date | null; clicks: string; feedback: string }>(
    `SELECT ct.id,
        (SELECT COUNT(*) FROM ${invites} WHERE i.contact_id = ct.id AND i.status = 'sent') AS sent,
        (SELECT MAX(i.sent_at) FROM ${invites} WHERE i.contact_id = ct.id AND i.status = 'sent') AS last,
        (SELECT COUNT(*) FROM ${invites} WHERE i.contact_id = ct.id AND i.clicked_at IS NOT NULL) AS clicks,
        (SELECT COUNT(*) FROM private_feedback f WHERE f.contact_id = ct.id${feedback}) AS feedback
       FROM contacts ct WHERE ct.id IN (?)`,
    { replacements: [[...contactIds]], type: QueryTypes.SELECT },
  );
  for (const r of rows) {
    out.set(Number(r.id), {
      invitesSent: Number(r.sent),
      lastInvitedAt: r.last ? new Date(r.last) : null,
      clicks: Number(r.clicks),
      feedbackCount: Number(r.feedback),
    });
  }
  return out;
}

/** Visible contacts, newest first, with their engagement counters. */
export async function contacts(p: Principal, f: ContactFilter): Promise<Page<ContactWithEngagement>> {
  const bounds = dateBounds(f.dateFrom, f.dateTo);
  const conditions = [contactScope(p)];
  const params: unknown[] = [];
  if (f.contactListId != null) {
    conditions.push('ct.contact_list_id = ?');
    params.push(f.contactListId);
  }
  if (f.organizationId != null) {
    // The list belongs to the organisation, or one of the organisation's campaigns uses it.
    conditions.push(
      `(ct.contact_list_id IN (SELECT cl.id FROM contact_lists cl WHERE cl.organization_id = ?)
        OR ct.contact_list_id IN (SELECT cp.contact_list_id FROM campaigns cp WHERE cp.organization_id = ?))`,
    );
    params.push(f.organizationId, f.organizationId);
  }
  if (f.subscribed != null) conditions.push(f.subscribed ? 'ct.unsubscribed_at IS NULL' : 'ct.unsubscribed_at IS NOT NULL');
  if (bounds.from) {
    conditions.push('ct.created_at >= ?');
    params.push(bounds.from);
  }
  if (bounds.to) {
    conditions.push('ct.created_at < ?');
    params.push(bounds.to);
  }
  const whereSql = conditions.join(' AND ');
  const sequelize = Contact.sequelize!;
  const [{ total }] = await sequelize.query<{ total: string }>(`SELECT COUNT(*) AS total FROM contacts ct WHERE ${whereSql}`, {
    replacements: params,
    type: QueryTypes.SELECT,
  });
  const { offset: skip, limit } = offset(f);
  const ids = await sequelize.query<{ id: number }>(
    `SELECT ct.id FROM contacts ct WHERE ${whereSql} ORDER BY ct.created_at DESC, ct.id DESC LIMIT ? OFFSET ?`,
    { replacements: [...params, limit, skip], type: QueryTypes.SELECT },
  );
  const idList = ids.map((r) => Number(r.id));
  const rows = idList.length ? await Contact.findAll({ where: { id: { [Op.in]: idList } } }) : [];
  const byId = new Map(rows.map((c) => [c.id, c]));
  const engagement = await engagementOf(p, idList);
  return {
    items: idList.map((id) => ({ contact: byId.get(id)!, engagement: engagement.get(id)! })),
    total: Number(total),
    page: f.page,
    perPage: f.perPage,
  };
}

export interface ActivityEntry {
  id: string;
  type: ActivityType;
  channel: Channel | null;
  detail: string | null;
  occurredAt: Date;
  campaignId: string | null;
  campaignName: string | null;
}

/** A contact by its UUID or integer id, when visible to the caller. */
async function visibleContact(p: Principal, id: string | number): Promise<Contact> {
  const key = String(id).trim();
  let where: Record<string, unknown>;
  if (UUID.test(key)) where = { uuid: key.toLowerCase() };
  else if (/^\d{1,10}$/.test(key)) where = { id: Number(key) };
  else throw new NotFound('Contact');
  const [row] = await Contact.sequelize!.query<{ id: number }>(
    `SELECT ct.id FROM contacts ct WHERE ${where.uuid ? 'ct.uuid = ?' : 'ct.id = ?'} AND ${contactScope(p)}`,
    { replacements: [where.uuid ?? where.id], type: QueryTypes.SELECT },
  );
  const contact = row ? await Contact.findByPk(Number(row.id)) : null;
  if (!contact) throw new NotFound('Contact');
  return contact;
}

/** One visible contact (by UUID or integer id) with its engagement counters; NOT_FOUND outside the scope. */
export async function contact(p: Principal, id: string | number): Promise<ContactWithEngagement> {
  const found = await visibleContact(p, id);
  return { contact: found, engagement: (await engagementOf(p, [found.id])).get(found.id)! };
}

/**
 * The contact's timeline, newest first; `limit` 1-100 (default 25). A list can serve campaigns at several locations:
 * a restricted caller (team member, grant to some organisations) sees the entries of campaigns at its locations and
 * those of no campaign (an entry of a deleted campaign keeps its invite id, and stays hidden).
 */
export async function activity(p: Principal, contactId: string | number, limit: number = CAMPAIGN_LIMITS.activityLimit.default): Promise<ActivityEntry[]> {
  const { min, max } = CAMPAIGN_LIMITS.activityLimit;
  if (!intIn(limit, min, max)) throw new Validation({ limit: [`The limit must be between ${min} and ${max}.`] });
  const contact = await visibleContact(p, contactId);
  const rows = await Contact.sequelize!.query<{
    id: number | string;
    type: ActivityType;
    channel: Channel | null;
    detail: string | null;
    occurredAt: Date;
    campaignUuid: string | null;
    campaignName: string | null;
  }>(
    `SELECT a.id, a.type, a.channel, a.detail, a.occurred_at AS occurredAt, cp.uuid AS campaignUuid, cp.name AS campaignName
       FROM contact_activities a LEFT JOIN campaigns cp ON cp.id = a.campaign_id
      WHERE a.contact_id = ?${isRestricted(p) ? ` AND ((a.campaign_id IS NULL AND a.invite_id IS NULL) OR cp.location_id IN ${restrictedLocationsSql(p, (n) => escape(n))})` : ''}
      ORDER BY a.occurred_at DESC, a.id DESC LIMIT ?`,
    { replacements: [contact.id, limit], type: QueryTypes.SELECT },
  );
  return rows.map((r) => ({
    id: String(r.id),
    type: r.type,
    channel: r.channel,
    detail: r.detail,
    occurredAt: new Date(r.occurredAt),
    campaignId: r.campaignUuid,
    campaignName: r.campaignName,
  }));
}
