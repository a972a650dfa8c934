import { randomUUID } from 'node:crypto';
import { Op, type Transaction } from 'sequelize';
import { systemClock, type Clock } from '../domain/clock';
import { DomainError } from '../domain/errors';
import { Campaign, Contact, ContactActivity, CreditConsumption, CreditGrant, Customer, Invite, InviteMessage, Organization } from '../models';
import { subscriptionHeld } from '../models/customer.model';
import { ACTIVITY_COLUMNS } from '../models/contact-activity.model';
import type { InferAttrs } from '../models/attributes';
import type { CampaignStep, Channel } from '../models/campaign.model';
import { tenantScoped } from '../services/common';
import { consumeCredits } from '../services/credits.service';
import { sendTimeFor } from '../services/invites.service';
import { optedOutFor } from '../services/opt-outs';
import { senderFor } from '../services/messaging-settings.service';
import { publicBaseUrl } from '../config';
import { messageIdOf, reviewLinkOf, unsubscribeLinkOf } from './links';
import { tenantLinkBase } from '../services/link-domain.service';
import { insertRows } from '../db/write';
import { inviteDeliverySettings } from './settings';
import { render } from './templates';
import { ChannelNotConfigured, MessagingRejected, MessagingUnavailable, type ChannelSender } from './types';
import { invitesFailed, invitesSent } from '../observability/metrics';

/**
 * Invite delivery: the rules the `inviteDelivery` workflow's activities apply. The stored invite is the truth:
 * every call re-reads it, so a workflow that acts on an old signal, a replay, or a retried activity never does
 * more than the row allows.
 *
 * Exactly-once per campaign step, as far as a provider allows: a step is *claimed* first, in one transaction
 * that locks the invite row, takes the credit and writes its `(invite_id, step_index)` row as `sending` (the
 * unique key makes a second claim impossible). Only then is the provider called, and its answer settles the row
 * (`sent`, or `failed` with the credit given back). A retried attempt finds the row and answers what it says;
 * one that finds it still `sending` waits out `inFlightGraceMs` (another attempt may still be talking to the
 * provider) and then counts it as sent: the worker died between the provider call and the settle, and the
 * provider most likely has the message. So a step is sent at most once, and a crash in that window can at
 * worst lose it while it is recorded as sent (the delivery log says "outcome unknown"). The claim carries a token
 * of its own (replaced by a take-over), and an attempt undoes its claim or records a refusal only while the row is
 * still `sending` under that token: one that stalled past the grace and was taken over leaves the step alone.
 */

export const REASONS = {
  insufficientCredits: 'insufficient_credits',
  providerRejected: 'provider_rejected',
  providerUnavailable: 'provider_unavailable',
  noEmail: 'no_email_address',
  noPhone: 'no_phone_number',
  noRecipient: 'no_recipient',
  noSteps: 'no_steps',
} as const;

/** A campaign step of the plan: its index in `campaign.steps`, and when it goes relative to the first one. */
export interface PlannedStep {
  index: number;
  channel: Channel;
  offsetMs: number;
}

export type InvitePlan =
  | { action: 'send'; inviteId: number; sendAt: string; steps: PlannedStep[] }
  | { action: 'wait'; inviteId: number; sendAt: string }
  | { action: 'done'; inviteId: number; outcome: 'missing' | 'not_scheduled' | 'held' | 'canceled' | 'failed'; detail: string | null };

export interface StepInput {
  inviteId: number;
  stepIndex: number;
  /** The invite's first message: it decides `sent` or `failed`. */
  first: boolean;
}

export interface StepResult {
  outcome: 'sent' | 'failed' | 'stopped' | 'not_due';
  /** Failed or stopped: why (`insufficient_credits: ...`, `clicked`, ...). */
  reason: string | null;
  /** not_due: the stored send time to wait for. */
  sendAt: string | null;
}

/** Another attempt holds the step's claim (it may still be talking to the provider): retry later. */
export class StepInFlight extends Error {
  constructor(inviteId: number, stepIndex: number) {
    super(`Step ${stepIndex} of invite ${inviteId} is being sent by another attempt.`);
    this.name = 'StepInFlight';
  }
}

export interface DeliveryOptions {
  clock?: Clock;
  /** Test seam: the sender of a channel (default: the account's settings, else the embedded default). */
  senderFor?: (customerId: number, channel: Channel, opts: { fromName: string | null; transaction?: Transaction }) => Promise<ChannelSender>;
  /** Test seam: runs after the provider accepted a message and before the answer is recorded (crash tests). */
  afterProviderAccepted?: (input: StepInput) => void | Promise<void>;
}

/** How close to the send time counts as due (timers and the database clock may differ a little). */
export const DUE_TOLERANCE_MS = 1_000;

const db = () => {
  const s = Invite.sequelize;
  if (!s) throw new Error('Database not initialised');
  return s;
};

export const creditTypeOf = (channel: Channel): 'email' | 'sms' => (channel === 'email' ? 'email' : 'sms');
export const creditReference = (invite: Invite, stepIndex: number) => `invite:${invite.uuid}:step:${stepIndex}`;
export const isPaused = (campaign: Campaign, customer: Customer | null) => campaign.pausedAt !== null || (customer !== null && subscriptionHeld(customer.subscriptionStatus));
export const recipientOf = (channel: Channel, contact: Contact): string | null => (channel === 'email' ? contact.email : contact.phone);
const missingRecipient = (channel: Channel) =>
  channel === 'email'
    ? `${REASONS.noEmail}: The contact has no email address for the email step.`
    : `${REASONS.noPhone}: The contact has no phone number for the ${channel === 'sms' ? 'SMS' : 'messaging-app'} step.`;
export const clip = (s: string, n = 500) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

export interface Loaded {
  invite: Invite;
  campaign: Campaign;
  contact: Contact;
  customer: Customer | null;
  /** The contact's email or phone opted out of the campaign's organisation (through another list's link). */
  optedOut: boolean;
}

/** The contact may not be sent to: it unsubscribed, or the same person did through another list (src/services/opt-outs.ts). */
export const unsubscribed = (l: Loaded): boolean => l.contact.unsubscribedAt !== null || l.optedOut;

async function load(inviteId: number, transaction?: Transaction, lock = false): Promise<Loaded | null> {
  const invite = await Invite.findByPk(inviteId, { transaction, lock: lock && transaction ? transaction.LOCK.UPDATE : undefined });
  if (!invite) return null;
  const [campaign, contact, customer] = await Promise.all([
    Campaign.findByPk(invite.campaignId, { transaction }),
    Contact.findByPk(invite.contactId, { transaction }),
    Customer.findByPk(invite.customerId, { transaction }),
  ]);
  if (!campaign || !contact) return null;
  const optedOut = !contact.unsubscribedAt && (await optedOutFor(campaign, contact, transaction));
  return { invite, campaign, contact, customer, optedOut };
}

/**
 * The steps that can reach the contact, in sending order, each with its distance from the first (steps whose channel
 * has no address for the contact are left out; the first remaining one goes at the send time).
 */
export function plannedSteps(campaign: Campaign, contact: Contact): PlannedStep[] {
  const reachable = orderedSteps(campaign).filter((s) => recipientOf(s.channel, contact));
  const base = reachable[0]?.delayHours ?? 0;
  const hourMs = inviteDeliverySettings().hourMs;
  return reachable.map((s) => ({ index: s.index, channel: s.channel, offsetMs: Math.max(0, (s.delayHours - base) * hourMs) }));
}

/**
 * The step a sent invite sends after `stepIndex`, and when; null when none is left. The send queue claims it at that
 * time (`next_step_*`). A step goes at its distance from the first message (sent at `firstSentAt`), moved, as every
 * send time, to the start of the campaign's next send window when that falls outside it (spec rule 7). A step the
 * window moved keeps the steps after it at their distance from it (the times are worked out step by step from the
 * plan), so a window never makes two steps go together; without a window every step is at its own distance.
 */
export function followingStep(l: Loaded, stepIndex: number, firstSentAt: Date): { nextStepIndex: number | null; nextStepAt: Date | null } {
  const steps = plannedSteps(l.campaign, l.contact);
  const at = steps.findIndex((s) => s.index === stepIndex);
  const next = at >= 0 ? steps[at + 1] : undefined;
  if (!next) return { nextStepIndex: null, nextStepAt: null };
  let time = firstSentAt.getTime();
  for (let k = 1; k <= at + 1; k++) {
    const earliest = Math.max(firstSentAt.getTime() + steps[k].offsetMs, time + steps[k].offsetMs - steps[k - 1].offsetMs);
    time = sendTimeFor(l.campaign, new Date(earliest)).getTime();
  }
  return { nextStepIndex: next.index, nextStepAt: new Date(time) };
}

/** The steps in sending order (by delay, then position), each with its index in `campaign.steps`. */
function orderedSteps(campaign: Campaign): Array<CampaignStep & { index: number }> {
  return (campaign.steps ?? []).map((s, index) => ({ ...s, index })).sort((a, b) => a.delayHours - b.delayHours || a.index - b.index);
}

/** A timeline row of the invite's contact. */
function activityRow(l: Loaded, type: 'sent' | 'failed', channel: Channel | null, detail: string, clock: Clock) {
  return {
    tenantId: l.invite.tenantId,
    customerId: l.invite.customerId,
    contactId: l.contact.id,
    campaignId: l.campaign.id,
    inviteId: l.invite.id,
    inboundConnectionId: null,
    type,
    channel,
    detail: clip(detail),
    occurredAt: clock.now(),
  };
}

const MESSAGE_COLUMNS = ['tenant_id', 'invite_id', 'step_index', 'channel', 'status', 'recipient', 'provider_message_id', 'error', 'sent_at', 'created_at', 'updated_at'] as const;

async function activity(l: Loaded, type: 'sent' | 'failed', channel: Channel | null, detail: string, transaction: Transaction, clock: Clock) {
  await ContactActivity.create(activityRow(l, type, channel, detail, clock), { transaction });
}

async function failInvite(l: Loaded, reason: string, channel: Channel | null, transaction: Transaction, clock: Clock): Promise<void> {
  // By id, not through the instance: a batch's claim updates its invites together (their instances are as read).
  await Invite.update(
    { status: 'failed', failedAt: clock.now(), sentAt: null, reason: clip(reason), nextStepIndex: null, nextStepAt: null, retryAt: null },
    { where: { id: l.invite.id }, transaction },
  );
  await activity(l, 'failed', channel, `The invite could not be sent: ${reason}`, transaction, clock);
}

/**
 * What to do with an invite at (or after) its send time: send the plan's steps, wait for a later stored send
 * time, or nothing (gone, no longer scheduled, canceled, held because the campaign or account is paused, or
 * failed because no step can reach the contact).
 *
 * Steps whose channel has no address for the contact (an email step for a phone-only contact) are left out; the
 * first remaining step goes at the send time and the others keep their distance to it.
 */
export async function planInvite(inviteId: number, opts: DeliveryOptions = {}): Promise<InvitePlan> {
  const clock = opts.clock ?? systemClock;
  const settings = inviteDeliverySettings();
  return db().transaction(async (transaction) => {
    const l = await load(inviteId, transaction, true);
    if (!l) return { action: 'done', inviteId, outcome: 'missing', detail: null };
    const { invite, campaign, contact } = l;
    if (invite.status !== 'scheduled') return { action: 'done', inviteId, outcome: 'not_scheduled', detail: invite.status };
    if (unsubscribed(l)) {
      await invite.update({ status: 'canceled', reason: 'The contact unsubscribed.' }, { transaction });
      return { action: 'done', inviteId, outcome: 'canceled', detail: 'unsubscribed' };
    }
    // Paused campaign or account: the invite stays scheduled; the re-dispatch sends it once they are active again.
    if (isPaused(campaign, l.customer)) return { action: 'done', inviteId, outcome: 'held', detail: campaign.pausedAt ? 'campaign_paused' : 'account_paused' };
    const now = clock.now();
    const sendAt = invite.sendAt ?? invite.requestedAt;
    if (sendAt.getTime() > now.getTime() + DUE_TOLERANCE_MS) return { action: 'wait', inviteId, sendAt: sendAt.toISOString() };
    // Much later than planned (held, re-dispatched, Temporal was down): never outside the campaign's send window.
    if (now.getTime() - sendAt.getTime() > settings.lateAfterMs) {
      const next = sendTimeFor(campaign, now);
      if (next.getTime() > now.getTime() + DUE_TOLERANCE_MS) {
        await invite.update({ sendAt: next }, { transaction });
        return { action: 'wait', inviteId, sendAt: next.toISOString() };
      }
    }
    const steps = orderedSteps(campaign);
    if (steps.length === 0) {
      await failInvite(l, `${REASONS.noSteps}: The campaign has no steps.`, null, transaction, clock);
      return { action: 'done', inviteId, outcome: 'failed', detail: REASONS.noSteps };
    }
    const reachable = steps.filter((s) => recipientOf(s.channel, contact));
    if (reachable.length === 0) {
      await failInvite(l, `${REASONS.noRecipient}: The contact has no address for any channel of the campaign (${[...new Set(steps.map((s) => s.channel))].join(', ')}).`, steps[0].channel, transaction, clock);
      return { action: 'done', inviteId, outcome: 'failed', detail: REASONS.noRecipient };
    }
    return { action: 'send', inviteId, sendAt: sendAt.toISOString(), steps: plannedSteps(campaign, contact) };
  });
}

/** Gives a step's credit back: the consumption is removed and the unit returns to the grant it most likely came from. */
async function refundCredit(invite: Invite, stepIndex: number, type: 'email' | 'sms', transaction: Transaction, now: Date): Promise<void> {
  const consumption = await CreditConsumption.findOne({ where: { customerId: invite.customerId, type, reference: creditReference(invite, stepIndex) }, transaction });
  if (!consumption) return;
  await consumption.destroy({ transaction });
  // The consumption drew from the soonest-expiring grants first; the unit goes back to the first of those with room.
  const grant = await CreditGrant.findOne({
    where: {
      customerId: invite.customerId,
      type,
      remaining: { [Op.lt]: db().col('credits') },
      [Op.or]: [{ expiresAt: null }, { expiresAt: { [Op.gt]: now } }],
    },
    order: [[db().literal('expires_at IS NULL'), 'ASC'], ['expiresAt', 'ASC'], ['id', 'ASC']],
    transaction,
    lock: transaction.LOCK.UPDATE,
  });
  if (grant) await grant.update({ remaining: grant.remaining + consumption.credits }, { transaction });
}

type SenderResolver = NonNullable<DeliveryOptions['senderFor']>;

/**
 * A claim's sender resolver: the test seam's, else the account's settings (else the embedded default). An account's
 * SMTP host is resolved by its sender when the message is sent (src/services/messaging-settings.service.ts), after the
 * claim committed and in the send's own slot: a slow or failing DNS answer neither holds the claim's row locks nor
 * makes any other account's steps wait for it.
 */
export function claimResolver(opts: DeliveryOptions): SenderResolver {
  return opts.senderFor ?? senderFor;
}

/** A step's sender and message, ready to send. */
export interface PreparedStep {
  sender: ChannelSender;
  rendered: ReturnType<typeof render> & { messageId?: string };
}

/**
 * Why a follow-up may not go now, or null: its step was removed, the invite is no longer `sent`, its review link was
 * clicked (or feedback left), the contact unsubscribed, or the campaign or account is paused. One rule for the
 * one-at-a-time claim and the batch's (src/messaging/batch.ts).
 */
export function followUpStop(l: Loaded, step: CampaignStep | undefined): string | null {
  if (!step) return 'step_removed';
  if (l.invite.status !== 'sent') return `invite_${l.invite.status}`;
  if (l.invite.clickedAt) return 'clicked';
  if (unsubscribed(l)) return 'unsubscribed';
  if (isPaused(l.campaign, l.customer)) return 'paused';
  return null;
}

/**
 * When a follow-up goes instead of now, or null when it goes now: its stored time has not come (a run of the earlier
 * per-invite workflow waits by its own timers, not by the stored time), or it is found much later than planned
 * (Temporal or the workers were down) while the campaign's send window is closed: then it moves to the window's next
 * start (`moved`), as a late first step does (`planInvite`).
 */
export function followUpLater(l: Loaded, now: Date): { at: Date; moved: boolean } | null {
  const due = l.invite.nextStepAt;
  if (due && due.getTime() > now.getTime() + DUE_TOLERANCE_MS) return { at: due, moved: false };
  if (due && now.getTime() - due.getTime() > inviteDeliverySettings().lateAfterMs) {
    const next = sendTimeFor(l.campaign, now);
    if (next.getTime() > now.getTime() + DUE_TOLERANCE_MS) return { at: next, moved: true };
  }
  return null;
}

/**
 * The step's sender and message (in the claim's transaction: a second connection per claim starves the pool). An
 * email carries the Message-ID of (invite, step), so a repeat after an interrupted attempt is recognisable.
 */
export async function prepareStep(
  l: Loaded,
  step: CampaignStep,
  stepIndex: number,
  resolve: SenderResolver,
  transaction: Transaction,
  org?: Organization | null,
): Promise<PreparedStep> {
  const channel = step.channel;
  const organization = org === undefined ? await Organization.findByPk(l.campaign.organizationId, { transaction }) : org;
  const businessName = organization?.name ?? l.customer?.name ?? 'us';
  const sender = await resolve(l.invite.customerId, channel, { fromName: businessName, transaction });
  // The links on the agency's link domain when it has one; the Message-ID on PUBLIC_URL's host whatever it is (the
  // same message keeps its id across a change of the link domain).
  const links = await tenantLinkBase(l.invite.tenantId, { transaction });
  const rendered = render(channel, step, {
    firstName: l.contact.firstName,
    lastName: l.contact.lastName,
    businessName,
    reviewLink: reviewLinkOf(l.invite.uuid, links),
    unsubscribeLink: unsubscribeLinkOf(l.contact.uuid, links),
    language: l.customer?.language ?? 'en',
  });
  return { sender, rendered: channel === 'email' ? { ...rendered, messageId: messageIdOf(l.invite.uuid, stepIndex, publicBaseUrl()) } : rendered };
}

/**
 * The invite as its step's claim leaves it: sent (the first step), and the step after this one due at its time.
 * Written by id (`Invite.update`), so a batch can write the invites that get the same values with one statement.
 */
export function claimedInvite(l: Loaded, input: StepInput, now: Date): Partial<InferAttrs<Invite>> {
  const firstSentAt = input.first ? now : (l.invite.sentAt ?? now);
  const next = { ...followingStep(l, input.stepIndex, firstSentAt), retryAt: null, sendAttempts: 0 };
  return input.first ? { status: 'sent', sentAt: now, reason: null, ...next } : next;
}

/**
 * The step's row. Read under the invite's lock, it is the last committed one: the settle of an attempt that stalled
 * (`settleSent`, which takes no invite lock) upserts the row, and the foreign key check of that upsert waits for the
 * invite's lock, so it commits before this transaction took it or after it ends, never between.
 */
const stepRow = (invite: Invite, stepIndex: number, transaction: Transaction) =>
  InviteMessage.findOne({ where: { ...tenantScoped(invite), inviteId: invite.id, stepIndex }, transaction });

/** Locks the invite: the first lock of every transaction that writes a step's row and its invite (one order, no deadlock). */
const lockInvite = (id: number, transaction: Transaction) => Invite.findByPk(id, { attributes: ['id'], transaction, lock: transaction.LOCK.UPDATE });

const resultOf = (m: InviteMessage): StepResult =>
  m.status === 'failed' ? { outcome: 'failed', reason: m.error, sendAt: null } : { outcome: 'sent', reason: null, sendAt: null };

export interface Claimed {
  loaded: Loaded;
  message: InviteMessage;
  sender: ChannelSender;
  rendered: ReturnType<typeof render> & { messageId?: string };
  recipient: string;
  channel: Channel;
  /** An email step sent again after an interrupted attempt (same Message-ID, no new claim or credit). */
  again: boolean;
}

/**
 * Sends one campaign step of an invite, at most once. The first step decides the invite: `sent` (and the
 * duplicate window starts) or `failed` with its reason. A follow-up goes only while the invite is `sent`, its
 * review link was not clicked (nor feedback left), the contact is subscribed and the campaign and account are
 * active. Throws MessagingUnavailable (nothing was sent; the claim is undone) or StepInFlight to be retried.
 */
export async function sendInviteStep(input: StepInput, opts: DeliveryOptions = {}): Promise<StepResult> {
  const clock = opts.clock ?? systemClock;
  const settings = inviteDeliverySettings();
  const resolve = claimResolver(opts);
  const claim = await db().transaction(async (transaction): Promise<StepResult | Claimed> => {
    const l = await load(input.inviteId, transaction, true);
    if (!l) return { outcome: 'stopped', reason: 'missing', sendAt: null };
    const { invite, campaign, contact, customer } = l;
    const now = clock.now();
    const existing = await stepRow(invite, input.stepIndex, transaction);
    if (existing) {
      if (existing.status !== 'sending') return resultOf(existing);
      if (existing.sentAt.getTime() + settings.inFlightGraceMs > now.getTime()) throw new StepInFlight(invite.id, input.stepIndex);
      // The attempt that claimed it died after the claim. An email goes again under the same Message-ID: a receiver
      // that had it keeps one (exactly-once effect by its idempotency key), one that had not gets it now.
      const step = campaign.steps?.[input.stepIndex];
      if (existing.channel === 'email' && step?.channel === 'email' && existing.recipient) {
        const prepared = await prepareStep(l, step, input.stepIndex, resolve, transaction).catch(() => null);
        if (prepared) {
          // The take-over's own token: the stalled attempt, should it fail later, no longer undoes this claim.
          await existing.update({ sentAt: now, claimToken: randomUUID() }, { transaction });
          return { loaded: l, message: existing, ...prepared, recipient: existing.recipient, channel: 'email', again: true };
        }
      }
      // Other channels carry no such key: counted as sent (the provider most likely took it), never sent twice.
      await existing.update({ status: 'sent', error: 'Outcome unknown: the attempt stopped while sending; counted as sent.' }, { transaction });
      await activity(l, 'sent', existing.channel, `Step ${input.stepIndex + 1} (${existing.channel}) sent (outcome unknown: the attempt stopped while sending).`, transaction, clock);
      invitesSent.inc({ channel: existing.channel });
      return { outcome: 'sent', reason: null, sendAt: null };
    }

    const step = campaign.steps?.[input.stepIndex];
    if (!step) return { outcome: 'stopped', reason: 'step_removed', sendAt: null };
    if (input.first) {
      if (invite.status !== 'scheduled') return { outcome: 'stopped', reason: `invite_${invite.status}`, sendAt: null };
      if (unsubscribed(l)) {
        await invite.update({ status: 'canceled', reason: 'The contact unsubscribed.' }, { transaction });
        return { outcome: 'stopped', reason: 'unsubscribed', sendAt: null };
      }
      if (isPaused(campaign, customer)) return { outcome: 'stopped', reason: 'paused', sendAt: null };
      const sendAt = invite.sendAt ?? invite.requestedAt;
      if (sendAt.getTime() > now.getTime() + DUE_TOLERANCE_MS) return { outcome: 'not_due', reason: null, sendAt: sendAt.toISOString() };
    } else {
      const stop = followUpStop(l, step);
      if (stop) return { outcome: 'stopped', reason: stop, sendAt: null };
      const later = followUpLater(l, now);
      if (later) {
        if (later.moved) await Invite.update({ nextStepAt: later.at }, { where: { id: invite.id }, transaction });
        return { outcome: 'not_due', reason: null, sendAt: later.at.toISOString() };
      }
    }

    const channel = step.channel;
    /** Records the step failed (`claimed`: the row this claim already wrote, turned failed). */
    const fail = async (reason: string, claimed?: InviteMessage): Promise<StepResult> => {
      if (claimed) await claimed.update({ status: 'failed', error: clip(reason) }, { transaction });
      else {
        await InviteMessage.create(
          { tenantId: invite.tenantId, inviteId: invite.id, stepIndex: input.stepIndex, channel, status: 'failed', recipient: recipientOf(channel, contact), error: clip(reason), sentAt: now },
          { transaction },
        );
      }
      if (input.first) await failInvite(l, reason, channel, transaction, clock);
      else {
        // A follow-up that cannot go does not stop the ones after it.
        await invite.update({ ...followingStep(l, input.stepIndex, invite.sentAt ?? now), retryAt: null, sendAttempts: 0 }, { transaction });
        await activity(l, 'failed', channel, `Step ${input.stepIndex + 1} (${channel}) could not be sent: ${reason}`, transaction, clock);
      }
      invitesFailed.inc({ channel });
      return { outcome: 'failed', reason, sendAt: null };
    };

    const recipient = recipientOf(channel, contact);
    if (!recipient) return fail(missingRecipient(channel));
    let prepared: PreparedStep;
    try {
      prepared = await prepareStep(l, step, input.stepIndex, resolve, transaction);
    } catch (e) {
      if (e instanceof ChannelNotConfigured) return fail(`${e.reason}: ${e.message}`);
      if (e instanceof MessagingRejected) return fail(`${REASONS.providerRejected}: ${e.message}`);
      throw e;
    }
    const message = await InviteMessage.create(
      { tenantId: invite.tenantId, inviteId: invite.id, stepIndex: input.stepIndex, channel, status: 'sending', claimToken: randomUUID(), recipient, sentAt: now },
      { transaction },
    );
    // Claimed: from here on, a resubmission sees a sent invite (duplicate window), not a waiting one; the queue's
    // next step of the invite is the one after this (set with the claim, so a crash after it cannot lose the rest).
    await Invite.update(claimedInvite(l, input, now), { where: { id: invite.id }, transaction });
    // The credit last: every claim of an account locks its credit grant until the commit, so the lock is held for
    // this statement and the commit only (bench:invites: concurrent sends of one account queue on that row).
    try {
      await consumeCredits(invite.customerId, creditTypeOf(channel), 1, transaction, { clock, reference: creditReference(invite, input.stepIndex) });
    } catch (e) {
      if (e instanceof DomainError && e.reason === REASONS.insufficientCredits) return fail(`${REASONS.insufficientCredits}: ${e.message}`, message);
      throw e;
    }
    return { loaded: l, message, ...prepared, recipient, channel, again: false };
  });
  if (!('message' in claim)) return claim;
  const sent = await sendClaimed(claim, input, opts);
  if ('outcome' in sent) return sent;
  await settleSent([sent], clock);
  return { outcome: 'sent', reason: null, sendAt: null };
}

/** A claimed step the provider took: what `settleSent` records. */
export interface SentStep {
  claim: Claimed;
  input: StepInput;
  providerMessageId: string | null;
}

/**
 * The claim's row while it is still this attempt's: `sending` under its token. An attempt that stalled past the
 * in-flight grace may find it taken over (a new token) or already settled by the take-over.
 */
const ownClaim = (claim: Claimed, stepIndex: number) => ({ inviteId: claim.loaded.invite.id, stepIndex, status: 'sending' as const, claimToken: claim.message.claimToken });

/**
 * Calls the provider for a claimed step. Answers what `settleSent` records, or the step's result when the provider
 * refused it (recorded failed, the credit given back) or when an attempt sent again after an interruption failed
 * (counted as sent). Throws MessagingUnavailable (nothing was accepted: the claim is undone) or an unknown error (the
 * claim stays, so a retry never sends again: the stale claim is settled once its grace has passed).
 */
export async function sendClaimed(claim: Claimed, input: StepInput, opts: DeliveryOptions = {}): Promise<SentStep | StepResult> {
  const clock = opts.clock ?? systemClock;
  const { loaded, sender, rendered, recipient, channel, again } = claim;
  const own = ownClaim(claim, input.stepIndex);
  /** The claim was taken over while this attempt stalled: the take-over decides the step (retried later, as in flight). */
  const takenOver = () => new StepInFlight(loaded.invite.id, input.stepIndex);
  // The claim is a lease (review finding M1): a take-over waits until it is `inFlightGraceMs` old, so the attempt that
  // holds it renews it (under the invite's lock, as a take-over reads it) before it calls the provider, when it is
  // older than a third of the grace (a batch's step that waited for a send slot), and every third of the grace while
  // the provider has it. A renewal that finds the claim no longer this attempt's (taken over while it waited) sends
  // nothing. So a step is never sent by two attempts at once whatever the send takes; only an attempt whose process
  // stopped (killed, frozen) for a whole grace loses its claim.
  const renewEvery = inviteDeliverySettings().inFlightGraceMs / 3;
  if (clock.now().getTime() - claim.message.sentAt.getTime() > renewEvery && !(await renewClaim(claim, input.stepIndex, clock))) throw takenOver();
  let providerMessageId: string | null;
  try {
    const lease = keepClaim(claim, input.stepIndex, clock, renewEvery);
    try {
      const receipt = await sender.send({ to: recipient, ...rendered });
      providerMessageId = receipt.providerMessageId;
    } finally {
      await lease.stop();
    }
  } catch (e) {
    // Sent again after an interrupted attempt: the first may have arrived, so the claim and its credit stay; a
    // refusal settles the step as sent with the outcome unknown, a provider still away is tried again later.
    if (again) {
      if (e instanceof MessagingUnavailable) throw e;
      const [settled] = await InviteMessage.update({ status: 'sent', error: clip(`Outcome unknown: the attempt stopped while sending, and sending again failed: ${(e as Error).message}`) }, { where: own });
      if (settled === 0) throw takenOver();
      invitesSent.inc({ channel });
      return { outcome: 'sent', reason: null, sendAt: null };
    }
    if (e instanceof MessagingRejected) {
      const reason = `${REASONS.providerRejected}: ${e.message}`;
      const recorded = await db().transaction(async (transaction) => {
        await lockInvite(loaded.invite.id, transaction);
        const [failed] = await InviteMessage.update({ status: 'failed', error: clip(reason) }, { where: own, transaction });
        if (failed === 0) return false;
        await refundCredit(loaded.invite, input.stepIndex, creditTypeOf(channel), transaction, clock.now());
        if (input.first) await failInvite(loaded, reason, channel, transaction, clock);
        else await activity(loaded, 'failed', channel, `Step ${input.stepIndex + 1} (${channel}) could not be sent: ${reason}`, transaction, clock);
        return true;
      });
      if (!recorded) throw takenOver();
      invitesFailed.inc({ channel });
      return { outcome: 'failed', reason, sendAt: null };
    }
    if (e instanceof MessagingUnavailable) {
      // Nothing was accepted: undo the claim (and give the credit back), so the retry starts clean; a claim taken over
      // meanwhile is the take-over's (removing it would let a third attempt send the step again).
      throw (await undoClaim(claim, input, clock)) ? e : takenOver();
    }
    // Unknown: the claim stays, so a retry does not send again (it settles the step once the grace has passed).
    throw e;
  }
  await opts.afterProviderAccepted?.(input);
  return { claim, input, providerMessageId };
}

/**
 * Renews the claim's lease (its row's `sent_at`) while it is still this attempt's; false when it is not (taken over,
 * or settled by a take-over). Under the invite's lock, as a take-over reads the row: the two never interleave.
 */
async function renewClaim(claim: Claimed, stepIndex: number, clock: Clock): Promise<boolean> {
  const now = clock.now();
  const renewed = await db().transaction(async (transaction) => {
    await lockInvite(claim.loaded.invite.id, transaction);
    const [n] = await InviteMessage.update({ sentAt: now }, { where: ownClaim(claim, stepIndex), transaction });
    return n > 0;
  });
  if (renewed) claim.message.set('sentAt', now, { raw: true });
  return renewed;
}

/** Renews the claim every `everyMs` until stopped (a send in progress); `stop` waits for a renewal under way. */
function keepClaim(claim: Claimed, stepIndex: number, clock: Clock, everyMs: number): { stop(): Promise<void> } {
  let renewing: Promise<unknown> | null = null;
  const timer = setInterval(() => {
    // A renewal that fails (the database away for a moment) is tried again at the next tick.
    renewing ??= renewClaim(claim, stepIndex, clock)
      .catch(() => false)
      .finally(() => (renewing = null));
  }, everyMs);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await renewing;
    },
  };
}

/**
 * Undoes a claim still this attempt's: its row removed, its credit given back, the invite as the claim found it (a
 * first step `scheduled` again, a follow-up due again), its attempts so far kept (the claim resets them for the next
 * step; a claim undone is the same step again, so its count goes on). False when the claim is no longer this
 * attempt's.
 */
async function undoClaim(claim: Claimed, input: StepInput, clock: Clock): Promise<boolean> {
  const { invite } = claim.loaded;
  return db().transaction(async (transaction) => {
    await lockInvite(invite.id, transaction);
    if ((await InviteMessage.destroy({ where: ownClaim(claim, input.stepIndex), transaction })) === 0) return false;
    await refundCredit(invite, input.stepIndex, creditTypeOf(claim.channel), transaction, clock.now());
    const attempts = { sendAttempts: invite.sendAttempts };
    const undo = input.first
      ? { status: 'scheduled' as const, sentAt: null, nextStepIndex: null, nextStepAt: null, ...attempts }
      : { nextStepIndex: input.stepIndex, nextStepAt: clock.now(), ...attempts };
    await Invite.update(undo, { where: { id: invite.id }, transaction });
    return true;
  });
}

/**
 * A claimed step that was never sent (its activity ended while it waited for a send slot): the claim is undone and the
 * step is due again at once, no attempt counted. A claim taken over meanwhile is left to the take-over.
 */
export async function releaseClaim(claim: Claimed, input: StepInput, opts: DeliveryOptions = {}): Promise<void> {
  if (claim.again) return; // a take-over's claim of an interrupted attempt: the stale path settles it again later
  await undoClaim(claim, input, opts.clock ?? systemClock);
}

/** Records steps the provider took as sent, with their timeline rows, in one transaction. */
export async function settleSent(steps: SentStep[], clock: Clock = systemClock): Promise<void> {
  if (steps.length === 0) return;
  const sequelize = db();
  await sequelize.transaction(async (transaction) => {
    // Written as plain multi-row statements (src/db/write.ts): a model instance per row and moment.js per date made
    // these two statements a large share of a sending worker's main thread (bench:invites).
    const stamped = new Date();
    // One statement: each step's row, found by its unique (invite_id, step_index), turned sent.
    await insertRows(
      sequelize,
      'invite_messages',
      MESSAGE_COLUMNS,
      steps.map(({ claim, input, providerMessageId }) => [
        claim.loaded.invite.tenantId,
        claim.loaded.invite.id,
        input.stepIndex,
        claim.channel,
        'sent',
        claim.recipient,
        providerMessageId,
        null,
        claim.message.sentAt,
        stamped,
        stamped,
      ]),
      transaction,
      { onDuplicate: ['status', 'provider_message_id', 'error', 'updated_at'] },
    );
    await insertRows(
      sequelize,
      'contact_activities',
      ACTIVITY_COLUMNS,
      steps.map(({ claim, input }) => {
        const row = activityRow(
          claim.loaded,
          'sent',
          claim.channel,
          claim.again
            ? `Step ${input.stepIndex + 1} (${claim.channel}) sent through ${claim.sender.label} again, under the same Message-ID, after an interrupted attempt.`
            : `Step ${input.stepIndex + 1} (${claim.channel}) sent through ${claim.sender.label}.`,
          clock,
        );
        return [row.tenantId, row.customerId, row.contactId, row.campaignId, row.inviteId, row.inboundConnectionId, row.type, row.channel, row.detail, row.occurredAt];
      }),
      transaction,
    );
  });
  for (const { claim } of steps) invitesSent.inc({ channel: claim.channel });
}

/**
 * Records a step as failed after the provider stayed unavailable through every retry. A `sending` row still within
 * its grace is another attempt's claim in flight (a take-over's, say): StepInFlight, looked at again later.
 */
export async function failInviteStep(input: StepInput & { reason: string }, opts: DeliveryOptions = {}): Promise<StepResult> {
  const clock = opts.clock ?? systemClock;
  return db().transaction(async (transaction) => {
    const l = await load(input.inviteId, transaction, true);
    if (!l) return { outcome: 'stopped', reason: 'missing', sendAt: null };
    const existing = await stepRow(l.invite, input.stepIndex, transaction);
    if (existing && existing.status !== 'sending') return resultOf(existing);
    // Another attempt's claim, still within its grace: it may yet be sent (the take-over of a stalled one, say).
    if (existing && existing.sentAt.getTime() + inviteDeliverySettings().inFlightGraceMs > clock.now().getTime()) throw new StepInFlight(l.invite.id, input.stepIndex);
    const channel = l.campaign.steps?.[input.stepIndex]?.channel ?? existing?.channel ?? 'email';
    const reason = `${REASONS.providerUnavailable}: ${input.reason}`;
    if (existing) await existing.update({ status: 'failed', error: clip(reason) }, { transaction });
    else {
      await InviteMessage.create(
        { tenantId: l.invite.tenantId, inviteId: l.invite.id, stepIndex: input.stepIndex, channel, status: 'failed', recipient: recipientOf(channel, l.contact), error: clip(reason), sentAt: clock.now() },
        { transaction },
      );
    }
    if (input.first && (l.invite.status === 'scheduled' || l.invite.status === 'sent')) await failInvite(l, reason, channel, transaction, clock);
    else {
      if (l.invite.status === 'sent') {
        await l.invite.update({ ...followingStep(l, input.stepIndex, l.invite.sentAt ?? clock.now()), retryAt: null, sendAttempts: 0 }, { transaction });
      }
      await activity(l, 'failed', channel, `Step ${input.stepIndex + 1} (${channel}) could not be sent: ${reason}`, transaction, clock);
    }
    invitesFailed.inc({ channel });
    return { outcome: 'failed', reason, sendAt: null };
  });
}

/**
 * Fails an invite whose first step could not be handled after the last attempt (an unexpected error, perhaps in its
 * plan): `failed` with the reason and a timeline row, when it is still `scheduled` (a step claimed meanwhile decides
 * it). The invite is failed by id alone when its campaign or contact can no longer be read.
 */
export async function failUnplannedInvite(inviteId: number, reason: string, opts: DeliveryOptions = {}): Promise<{ outcome: 'failed' | 'done' }> {
  const clock = opts.clock ?? systemClock;
  const failedById = async () => {
    const [n] = await Invite.update(
      { status: 'failed', failedAt: clock.now(), sentAt: null, reason: clip(reason), nextStepIndex: null, nextStepAt: null, retryAt: null },
      { where: { id: inviteId, status: 'scheduled' } },
    );
    return { outcome: n > 0 ? ('failed' as const) : ('done' as const) };
  };
  let loaded: 'missing' | 'failed' | 'done';
  try {
    loaded = await db().transaction(async (transaction) => {
      const l = await load(inviteId, transaction, true);
      if (!l) return 'missing';
      if (l.invite.status !== 'scheduled') return 'done';
      await failInvite(l, reason, null, transaction, clock);
      return 'failed';
    });
  } catch {
    return failedById();
  }
  if (loaded === 'missing') return failedById();
  return { outcome: loaded };
}
