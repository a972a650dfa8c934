import { createHash, createHmac, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import type { CountryCode } from 'libphonenumber-js';
import { Op, type Transaction } from 'sequelize';
import { publicBaseUrl } from '../config';
import { decryptSecret, encryptSecret } from '../crypto/secrets';
import { Forbidden, NotFound, Validation, type FieldErrors } from '../domain/errors';
import { charCount, MAX_NAME_CHARS } from '../domain/limits';
import { inAccount, isTeamMember } from '../domain/permissions';
import type { Principal } from '../domain/principal';
import { Campaign, Contact, Customer, InboundConnection, InboundSubmission, TenantDomain } from '../models';
import { subscriptionHeld } from '../models/customer.model';
import type { InboundMapping, InboundTiming } from '../models/inbound-connection.model';
import type { InboundOutcome } from '../models/inbound-submission.model';
import { clockOf, inTransaction, offset, tenantScoped, type Page, type PageArgs, type ServiceOptions } from './common';
import {
  anchorZoneOf,
  cleanMapping,
  cleanTiming,
  earliestSendTime,
  leafPaths,
  parseAnchorDate,
  scalarAt,
  splitFullName,
  type MappingInput,
  type TimingInput,
} from './inbound-mapping';
import { cleanContactDetails, inReadCommitted, isRace, logActivity, requestInvite, toE164, type ContactDetails } from './invites.service';
import { UUID } from '../domain/ids';
import { linkBaseOf } from './link-domain.service';

/**
 * The inbound contact webhook (spec: Inbound contact webhook; Authentication > Inbound contact webhook).
 *
 * Management (GraphQL, account owners only: the tenant owner or the organisation owner of the campaign's account;
 * team members are FORBIDDEN): connections of a campaign with their payload mapping and timing, the endpoint
 * token (regenerable: the old URL is dead at once), the optional signing secret (shown once, stored encrypted),
 * and the recent submissions.
 *
 * Receiving (`POST /api/webhooks/inbound/<token>`, facades/inbound/webhook.ts): no principal, the token is the
 * credential. Every submission that passes the token, size, signature and parse checks is stored in
 * `inbound_submissions` with its outcome: accepted (an invite through `requestInvite`), duplicate (the same raw
 * body within 5 minutes, or a signed request with the same timestamp and body received again: a replay),
 * skipped (neither email nor phone) or ignored (unsubscribed, duplicate window, paused).
 */

/** Identical raw bodies within this window are a double fire (spec: Limits > Inbound replay window). */
export const DOUBLE_FIRE_WINDOW_MS = 5 * 60 * 1000;
/** Accepted distance of `X-Webhook-Timestamp` from the server clock. */
export const TIMESTAMP_TOLERANCE_MS = 5 * 60 * 1000;
/**
 * How long a signed, timestamped request is remembered as received: its timestamp is valid from 5 minutes before it
 * to 5 minutes after it, so the same request can arrive up to 10 minutes after the first copy. The double-fire window
 * (5 minutes from the first copy) left a replay in the second half of that span processed again.
 */
export const REPLAY_WINDOW_MS = 2 * TIMESTAMP_TOLERANCE_MS;
export const INBOUND_PATH = '/api/webhooks/inbound';

const TOKEN = /^[0-9a-f]{64}$/;
const SIGNATURE = /^[0-9a-f]{64}$/i;
const MIN_SECRET_CHARS = 16;
const MAX_SECRET_CHARS = 255;

export const newEndpointToken = (): string => randomBytes(32).toString('hex');

// ---------------------------------------------------------------------------------------------------------
// URLs

/**
 * `{inbound_base}`: the tenant's white-label domain (its first one) when it has one, PUBLIC_URL with that host (its
 * scheme, port and path kept, as the links' base: `linkBaseOf`), else PUBLIC_URL itself. A path in PUBLIC_URL means
 * the API is served under it (behind a proxy at https://x.example/reviews), so the webhook is there on every host.
 */
export async function inboundBaseFor(tenantId: number, opts: { transaction?: Transaction } = {}): Promise<string> {
  const domain = await TenantDomain.findOne({ where: { tenantId }, order: [['id', 'ASC']], transaction: opts.transaction });
  return linkBaseOf(domain?.domain ?? null, publicBaseUrl());
}

export const endpointUrlOf = (base: string, token: string): string => `${base.replace(/\/+$/, '')}${INBOUND_PATH}/${token}`;

// ---------------------------------------------------------------------------------------------------------
// Management (principal)

/** What the schema shows of a connection (no secret, ever; the campaign by its UUID). */
export interface ConnectionView {
  id: string;
  campaignId: string;
  name: string;
  endpointUrl: string;
  signed: boolean;
  mapping: InboundMapping;
  timing: InboundTiming;
  createdAt: Date;
  updatedAt: Date;
}

export interface ConnectionWithSecret {
  connection: ConnectionView;
  secret: string;
}

function assertOwner(p: Principal): void {
  if (isTeamMember(p)) throw new Forbidden('Only account owners can manage inbound connections.');
}

async function campaignOf(p: Principal, uuid: string, transaction?: Transaction): Promise<Campaign> {
  assertOwner(p);
  if (!UUID.test(uuid)) throw new NotFound('Campaign');
  const campaign = await Campaign.findOne({ where: { uuid: uuid.toLowerCase(), ...tenantScoped(p) }, transaction });
  if (!campaign || !inAccount(p, campaign)) throw new NotFound('Campaign');
  return campaign;
}

async function connectionOf(p: Principal, uuid: string, transaction?: Transaction, lock = false): Promise<InboundConnection> {
  assertOwner(p);
  if (!UUID.test(uuid)) throw new NotFound('Inbound connection');
  const connection = await InboundConnection.findOne({
    where: { uuid: uuid.toLowerCase(), ...tenantScoped(p) },
    transaction,
    lock: lock && transaction ? transaction.LOCK.UPDATE : undefined,
  });
  if (!connection || !inAccount(p, connection)) throw new NotFound('Inbound connection');
  return connection;
}

async function viewsOf(rows: InboundConnection[], tenantId: number, transaction?: Transaction): Promise<ConnectionView[]> {
  if (rows.length === 0) return [];
  const [base, campaigns] = await Promise.all([
    inboundBaseFor(tenantId, { transaction }),
    Campaign.findAll({ where: { id: { [Op.in]: [...new Set(rows.map((r) => r.campaignId))] } }, attributes: ['id', 'uuid'], transaction }),
  ]);
  const uuidOf = new Map(campaigns.map((c) => [c.id, c.uuid]));
  return rows.map((r) => ({
    id: r.uuid,
    campaignId: uuidOf.get(r.campaignId) ?? '',
    name: r.name,
    endpointUrl: endpointUrlOf(base, r.endpointToken),
    signed: Boolean(r.signingSecretEncrypted),
    mapping: r.mapping,
    timing: r.timing,
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
  }));
}

const viewOf = async (row: InboundConnection, transaction?: Transaction): Promise<ConnectionView> => (await viewsOf([row], row.tenantId, transaction))[0];

function cleanConnectionName(name: string | null | undefined, errors: FieldErrors): string {
  const trimmed = (name ?? '').trim();
  if (!trimmed) errors.name = ['The name field is required.'];
  else if (charCount(trimmed) > MAX_NAME_CHARS) errors.name = [`The name may not be greater than ${MAX_NAME_CHARS} characters.`];
  return trimmed;
}

export interface ConnectionFilter extends PageArgs {
  /** Campaign UUID. */
  campaignId?: string | null;
}

/** The caller's connections (every account of the tenant for a tenant owner), newest first. */
export async function listConnections(p: Principal, f: ConnectionFilter, opts: ServiceOptions = {}): Promise<Page<ConnectionView>> {
  assertOwner(p);
  const where: Record<string, unknown> = tenantScoped(p);
  if (p.role !== 'tenant_owner') where.customerId = p.customerId ?? -1;
  if (f.campaignId != null) where.campaignId = (await campaignOf(p, f.campaignId, opts.transaction)).id;
  const { rows, count } = await InboundConnection.findAndCountAll({
    where,
    order: [
      ['createdAt', 'DESC'],
      ['id', 'DESC'],
    ],
    transaction: opts.transaction,
    ...offset(f),
  });
  return { items: await viewsOf(rows, p.tenantId, opts.transaction), total: count, page: f.page, perPage: f.perPage };
}

export async function getConnection(p: Principal, uuid: string, opts: ServiceOptions = {}): Promise<ConnectionView> {
  return viewOf(await connectionOf(p, uuid, opts.transaction), opts.transaction);
}

export interface CreateConnectionInput {
  /** Campaign UUID. */
  campaignId: string;
  name: string;
  mapping: MappingInput;
  timing: TimingInput;
}

/** A new connection with a fresh endpoint token and no signing secret (set one with `setSigningSecret`). */
export async function createConnection(p: Principal, input: CreateConnectionInput, opts: ServiceOptions = {}): Promise<ConnectionView> {
  const campaign = await campaignOf(p, input.campaignId, opts.transaction);
  const errors: FieldErrors = {};
  const name = cleanConnectionName(input.name, errors);
  const mapping = cleanMapping(input.mapping, errors);
  const timing = cleanTiming(input.timing, errors);
  if (Object.keys(errors).length) throw new Validation(errors);
  return inTransaction(opts, async (transaction) => {
    const row = await InboundConnection.create(
      {
        uuid: randomUUID(),
        tenantId: campaign.tenantId,
        customerId: campaign.customerId,
        campaignId: campaign.id,
        name,
        endpointToken: newEndpointToken(),
        signingSecretEncrypted: null,
        mapping,
        timing,
      },
      { transaction },
    );
    return viewOf(row, transaction);
  });
}

export interface UpdateConnectionInput {
  name?: string | null;
  mapping?: MappingInput | null;
  timing?: TimingInput | null;
}

/** Changes what is given; a mapping or a timing is replaced as a whole. */
export async function updateConnection(p: Principal, uuid: string, input: UpdateConnectionInput, opts: ServiceOptions = {}): Promise<ConnectionView> {
  return inTransaction(opts, async (transaction) => {
    const row = await connectionOf(p, uuid, transaction, true);
    const errors: FieldErrors = {};
    const patch: Partial<Pick<InboundConnection, 'name' | 'mapping' | 'timing'>> = {};
    if (input.name != null) patch.name = cleanConnectionName(input.name, errors);
    if (input.mapping != null) patch.mapping = cleanMapping(input.mapping, errors);
    if (input.timing != null) patch.timing = cleanTiming(input.timing, errors);
    if (Object.keys(errors).length) throw new Validation(errors);
    row.set(patch);
    if (row.changed()) await row.save({ transaction });
    return viewOf(row, transaction);
  });
}

/** Deletes the connection and its submission log; its URL answers 404 from then on. */
export async function deleteConnection(p: Principal, uuid: string, opts: ServiceOptions = {}): Promise<void> {
  await inTransaction(opts, async (transaction) => {
    const row = await connectionOf(p, uuid, transaction, true);
    await row.destroy({ transaction });
  });
}

/** A new endpoint token: the old URL is dead from this commit on (lookups are by the current token only). */
export async function regenerateToken(p: Principal, uuid: string, opts: ServiceOptions = {}): Promise<ConnectionView> {
  return inTransaction(opts, async (transaction) => {
    const row = await connectionOf(p, uuid, transaction, true);
    await row.update({ endpointToken: newEndpointToken() }, { transaction });
    return viewOf(row, transaction);
  });
}

/**
 * Sets the signing secret: the one given (16-255 characters without spaces, for senders that make their own) or
 * a generated one (64 hex characters). Answered this once; stored encrypted under the app key. The HMAC key is
 * the secret's text as UTF-8 bytes.
 */
export async function setSigningSecret(p: Principal, uuid: string, input: { secret?: string | null }, opts: ServiceOptions = {}): Promise<ConnectionWithSecret> {
  let secret = input.secret ?? null;
  if (secret !== null) {
    const n = charCount(secret);
    if (n < MIN_SECRET_CHARS || n > MAX_SECRET_CHARS || /\s/.test(secret)) {
      throw new Validation({ secret: [`The secret must be ${MIN_SECRET_CHARS} to ${MAX_SECRET_CHARS} characters without spaces.`] });
    }
  }
  secret ??= randomBytes(32).toString('hex');
  const chosen = secret;
  return inTransaction(opts, async (transaction) => {
    const row = await connectionOf(p, uuid, transaction, true);
    await row.update({ signingSecretEncrypted: encryptSecret(chosen) }, { transaction });
    return { connection: await viewOf(row, transaction), secret: chosen };
  });
}

/** Removes the signing secret: submissions are then accepted without a signature. */
export async function clearSigningSecret(p: Principal, uuid: string, opts: ServiceOptions = {}): Promise<ConnectionView> {
  return inTransaction(opts, async (transaction) => {
    const row = await connectionOf(p, uuid, transaction, true);
    if (row.signingSecretEncrypted !== null) await row.update({ signingSecretEncrypted: null }, { transaction });
    return viewOf(row, transaction);
  });
}

export interface SubmissionView {
  id: number;
  outcome: InboundOutcome;
  reason: string | null;
  /** Contact UUID, when one was matched or created. */
  contactId: string | null;
  sendAt: Date | null;
  receivedAt: Date;
}

/** The connection's submissions, newest first. */
export async function listSubmissions(p: Principal, uuid: string, f: PageArgs, opts: ServiceOptions = {}): Promise<Page<SubmissionView>> {
  const connection = await connectionOf(p, uuid, opts.transaction);
  const { rows, count } = await InboundSubmission.findAndCountAll({
    where: { ...tenantScoped(p), connectionId: connection.id },
    order: [['id', 'DESC']],
    transaction: opts.transaction,
    ...offset(f),
  });
  const contactIds = [...new Set(rows.map((r) => r.contactId).filter((id): id is number => id !== null))];
  const contacts = contactIds.length
    ? await Contact.findAll({ where: { id: { [Op.in]: contactIds } }, attributes: ['id', 'uuid'], transaction: opts.transaction })
    : [];
  const uuidOf = new Map(contacts.map((c) => [c.id, c.uuid]));
  return {
    items: rows.map((r) => ({
      id: Number(r.id),
      outcome: r.outcome,
      reason: r.reason,
      contactId: r.contactId !== null ? (uuidOf.get(r.contactId) ?? null) : null,
      sendAt: r.sendAt,
      receivedAt: r.receivedAt,
    })),
    total: count,
    page: f.page,
    perPage: f.perPage,
  };
}

// ---------------------------------------------------------------------------------------------------------
// Receiving (no principal: the endpoint token is the credential)

/** The connection behind an endpoint token, or null (unknown, malformed or regenerated away). */
export async function connectionByToken(token: string): Promise<InboundConnection | null> {
  if (!TOKEN.test(token)) return null;
  return InboundConnection.findOne({ where: { endpointToken: token } });
}

export type SignatureProblem = 'signature_required' | 'invalid_signature' | 'invalid_timestamp' | 'stale_timestamp';

/**
 * The signing rule: with a secret set, `X-Webhook-Signature` must be the lower-case hex HMAC-SHA256 (any letter
 * case is read) of the raw body, or of `<timestamp>.<body>` when `X-Webhook-Timestamp` (Unix seconds, at most 5
 * minutes from our clock either way) is sent. Compared in constant time. Without a secret, nothing is checked.
 */
export function checkSignature(
  connection: Pick<InboundConnection, 'signingSecretEncrypted'>,
  raw: Buffer,
  headers: { signature?: string | null; timestamp?: string | null },
  now: Date,
): SignatureProblem | null {
  if (!connection.signingSecretEncrypted) return null;
  const signature = headers.signature?.trim() ?? '';
  const timestamp = headers.timestamp?.trim() ?? null;
  if (!signature) return 'signature_required';
  if (timestamp !== null) {
    if (!/^\d{1,12}$/.test(timestamp)) return 'invalid_timestamp';
    if (Math.abs(now.getTime() - Number(timestamp) * 1000) > TIMESTAMP_TOLERANCE_MS) return 'stale_timestamp';
  }
  if (!SIGNATURE.test(signature)) return 'invalid_signature';
  const secret = decryptSecret(connection.signingSecretEncrypted);
  const hmac = createHmac('sha256', Buffer.from(secret, 'utf8'));
  if (timestamp !== null) hmac.update(`${timestamp}.`);
  const expected = hmac.update(raw).digest();
  const given = Buffer.from(signature, 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected) ? null : 'invalid_signature';
}

export type IgnoredReason = 'unsubscribed' | 'duplicate_window' | 'campaign_paused' | 'account_paused';

export type SubmissionResult =
  | { status: 'accepted'; submissionId: number; contactId: string; sendAt: Date; rescheduled: boolean }
  | { status: 'ignored'; submissionId: number; contactId: string | null; reason: IgnoredReason }
  | { status: 'skipped'; submissionId: number; reason: string }
  | { status: 'duplicate'; submissionId: number; duplicateOf: number; replay: boolean };

export interface ReceiveOptions {
  clock?: ServiceOptions['clock'];
  /**
   * `X-Webhook-Timestamp` (Unix seconds) of a request whose signature covered it (`checkSignature` passed with a
   * timestamp on a connection with a secret); null or absent otherwise.
   */
  signedTimestamp?: number | null;
}

const clip = (s: string, max: number): string => ([...s].length > max ? `${[...s].slice(0, max - 1).join('')}…` : s);

interface Extracted {
  details: ContactDetails;
  anchor: Date | null;
  /** Why a value that was present could not be used (shown in the submission's reason). */
  notes: string[];
}

/** Reads the mapped fields; values that cannot be used are dropped with a note. */
/** How far after its arrival a submission's anchor date may lie; one further ahead is a data error, not a plan. */
export const ANCHOR_MAX_AHEAD_DAYS = 366;

function extract(connection: InboundConnection, payload: unknown, country: CountryCode | undefined, now: Date): Extracted {
  const m = connection.mapping;
  const notes: string[] = [];
  const text = (path: string | null | undefined): string | null => {
    const v = scalarAt(payload, path);
    return v === undefined ? null : String(v);
  };
  // Mapped first/last names win; a missing one comes from the split full name.
  const split = m.fullName ? splitFullName(text(m.fullName) ?? '') : { firstName: null, lastName: null };
  let firstName = text(m.firstName) ?? split.firstName;
  let lastName = text(m.lastName) ?? split.lastName;
  // Longer names are cut to the column (a sender's data is not the sender's fault).
  firstName = firstName ? clip(firstName, MAX_NAME_CHARS) : null;
  lastName = lastName ? clip(lastName, MAX_NAME_CHARS) : null;

  let email = text(m.email);
  if (email) {
    try {
      email = cleanContactDetails({ email }).email;
    } catch {
      notes.push('the email is not a valid address');
      email = null;
    }
  }
  const rawPhone = text(m.phone);
  let phone: string | null = null;
  if (rawPhone) {
    phone = toE164(rawPhone, country);
    if (!phone) notes.push(country ? 'the phone is not a valid number' : 'the phone is not a valid international number (+ and country code)');
  }
  const rawAnchor = scalarAt(payload, m.anchorDate);
  let anchor = parseAnchorDate(rawAnchor, anchorZoneOf(connection.timing));
  if (rawAnchor !== undefined && !anchor) notes.push('the date could not be read, the arrival time was used');
  if (anchor && anchor.getTime() > now.getTime() + ANCHOR_MAX_AHEAD_DAYS * 86_400_000) {
    anchor = null;
    notes.push('the date is more than a year ahead, the arrival time was used');
  }
  return { details: { email, phone, firstName, lastName }, anchor, notes };
}

const IGNORED: Record<string, IgnoredReason> = {
  ignored_unsubscribed: 'unsubscribed',
  ignored_duplicate: 'duplicate_window',
  ignored_paused: 'campaign_paused',
};

/**
 * Handles one verified, parsed submission. Submissions of one connection are serialised on its row, so a double
 * fire arriving twice at once is still seen as one. A second identical raw body within 5 minutes of a processed
 * one is stored as `duplicate` and changes nothing; the window counts from the processed copy, so a sender
 * repeating itself every minute gets through again five minutes after the first.
 *
 * A signed request with a timestamp is valid for up to 10 minutes (5 either side of our clock), longer than the
 * double-fire window: the same timestamp and body arriving again within `REPLAY_WINDOW_MS` of an earlier copy (any
 * outcome, duplicates included) is a replay, stored as `duplicate` (`replay: true`). A sender's own new request
 * carries a new timestamp, so this never holds back a genuine submission; one signed without a timestamp can only
 * be told from a double fire by the 5-minute window (the spec makes the timestamp optional).
 */
export async function receiveSubmission(connection: InboundConnection, raw: Buffer, payload: unknown, opts: ReceiveOptions = {}): Promise<SubmissionResult> {
  const clock = clockOf(opts);
  const payloadHash = createHash('sha256').update(raw).digest('hex');
  const signedTimestamp = opts.signedTimestamp ?? null;
  const attempt = () =>
    // READ COMMITTED like the invite API's own requests: no gap-lock deadlocks between different new contacts.
    inReadCommitted(async (transaction): Promise<SubmissionResult> => {
      const now = clock.now();
      const conn = await InboundConnection.findByPk(connection.id, { transaction, lock: transaction.LOCK.UPDATE });
      if (!conn) throw new NotFound('Inbound connection');
      const store = (row: Pick<InboundSubmission, 'outcome' | 'reason'>) =>
        InboundSubmission.create(
          {
            tenantId: conn.tenantId,
            connectionId: conn.id,
            customerId: conn.customerId,
            payloadHash,
            signedTimestamp,
            receivedAt: now,
            contactId: null,
            inviteId: null,
            sendAt: null,
            ...row,
          },
          { transaction },
        );

      if (signedTimestamp !== null) {
        // The first copy of this signed request (its timestamp and body), whatever became of it: a replay of a copy
        // that was itself a double fire is still a replay. Looked for first, so that every repeat of one signed
        // request is told as such (the facade does not charge those to the endpoint's budget).
        const first = await InboundSubmission.findOne({
          where: { connectionId: conn.id, payloadHash, signedTimestamp, receivedAt: { [Op.gte]: new Date(now.getTime() - REPLAY_WINDOW_MS) } },
          order: [['id', 'ASC']],
          transaction,
        });
        if (first) {
          const row = await store({ outcome: 'duplicate', reason: `Replay of submission ${first.id}: the same signed request (timestamp ${signedTimestamp}) was received before.` });
          return { status: 'duplicate', submissionId: Number(row.id), duplicateOf: Number(first.id), replay: true };
        }
      }
      const original = await InboundSubmission.findOne({
        where: {
          connectionId: conn.id,
          payloadHash,
          outcome: { [Op.ne]: 'duplicate' },
          receivedAt: { [Op.gte]: new Date(now.getTime() - DOUBLE_FIRE_WINDOW_MS) },
        },
        order: [['id', 'DESC']],
        transaction,
      });
      if (original) {
        const row = await store({ outcome: 'duplicate', reason: `Identical to submission ${original.id} received less than 5 minutes earlier.` });
        return { status: 'duplicate', submissionId: Number(row.id), duplicateOf: Number(original.id), replay: false };
      }

      const [campaign, customer] = await Promise.all([
        Campaign.findByPk(conn.campaignId, { transaction }),
        Customer.findByPk(conn.customerId, { transaction }),
      ]);
      if (!campaign || !customer) throw new NotFound('Campaign');
      // Any account that is not active (paused or canceled) sends nothing: the dispatcher holds its invites.
      if (subscriptionHeld(customer.subscriptionStatus)) {
        const row = await store({ outcome: 'ignored', reason: `The account is ${customer.subscriptionStatus}.` });
        return { status: 'ignored', submissionId: Number(row.id), contactId: null, reason: 'account_paused' };
      }

      const country = customer.country ? (customer.country.toUpperCase() as CountryCode) : undefined;
      const { details, anchor, notes } = extract(conn, payload, country, now);
      if (!details.email && !details.phone) {
        const found = leafPaths(payload, 12);
        const reason = clip(
          `No usable email or phone${notes.length ? ` (${notes.join('; ')})` : ''}. Mapped: email ${conn.mapping.email ?? '-'}, phone ${conn.mapping.phone ?? '-'}; received: ${found.join(', ') || 'nothing'}.`,
          255,
        );
        const row = await store({ outcome: 'skipped', reason });
        await logActivity(
          { tenantId: conn.tenantId, customerId: conn.customerId, campaignId: campaign.id, inboundConnectionId: conn.id, type: 'skipped', detail: reason },
          { transaction, clock },
        );
        return { status: 'skipped', submissionId: Number(row.id), reason };
      }

      const submission = await store({ outcome: 'accepted', reason: notes.length ? clip(`Accepted; ${notes.join('; ')}.`, 255) : null });
      const notBefore = earliestSendTime(conn.timing, anchor, now);
      let result: Awaited<ReturnType<typeof requestInvite>>;
      try {
        result = await requestInvite(campaign, details, {
          notBefore,
          sendAfterHours: 0,
          source: 'inbound',
          inboundSubmissionId: Number(submission.id),
          transaction,
          clock,
        });
      } catch (e) {
        // The details are checked above as the invite rules check them (before anything is written), so this is
        // a safety net: a rule we did not foresee skips the submission instead of failing the sender.
        if (!(e instanceof Validation)) throw e;
        const reason = clip(`Skipped: ${e.message}`, 255);
        await submission.update({ outcome: 'skipped', reason }, { transaction });
        return { status: 'skipped', submissionId: Number(submission.id), reason };
      }
      const ignored = IGNORED[result.outcome];
      if (ignored || !result.invite) {
        const reason = ignored ?? 'duplicate_window';
        await submission.update({ outcome: 'ignored', reason: clip(`Ignored: ${reason.replace('_', ' ')}.`, 255), contactId: result.contact.id }, { transaction });
        return { status: 'ignored', submissionId: Number(submission.id), contactId: result.contact.uuid, reason };
      }
      await submission.update({ contactId: result.contact.id, inviteId: Number(result.invite.id), sendAt: result.invite.sendAt }, { transaction });
      return {
        status: 'accepted',
        submissionId: Number(submission.id),
        contactId: result.contact.uuid,
        sendAt: result.invite.sendAt!,
        rescheduled: result.outcome === 'rescheduled',
      };
    });
  try {
    return await attempt();
  } catch (e) {
    // A request elsewhere (the REST API, another connection of the list) created the same person a moment
    // earlier (a unique-key clash or a deadlock on the lookup's gap locks): once more finds that contact.
    if (isRace(e)) return attempt();
    throw e;
  }
}
