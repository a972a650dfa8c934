import { Op, type Transaction } from 'sequelize';
import { simulatorBaseUrl, smsSimulatorEnabled, webhookPrivateUrlsAllowed } from '../config';
import { decryptSecret, encryptSecret } from '../crypto/secrets';
import { Forbidden, NotFound, ruleViolation, Upstream, Validation, type FieldErrors } from '../domain/errors';
import { signInEmail } from '../domain/email';
import { charCount, MAX_NAME_CHARS } from '../domain/limits';
import { translator } from '../i18n';
import { isTeamMember } from '../domain/permissions';
import type { Principal } from '../domain/principal';
import { ACCOUNT_SMTP_LABEL, smtpSender, platformEmailSender, type SmtpAccount } from '../providers/smtp/account-sender';
import { TWILIO_API_BASE, twilioSender, type TwilioAccount } from '../providers/twilio/client';
import { ChannelNotConfigured, MessagingRejected, MessagingUnavailable, type ChannelSender } from '../messaging/types';
import { Customer, MessagingSetting, Organization, Tenant, User } from '../models';
import { CHANNELS, type Channel } from '../models/campaign.model';
import { SIMULATOR_ACCOUNT, TWILIO_SIMULATOR_PATH } from '../providers/twilio/simulator';
import { outboundResolver, resolveChecked, UnresolvableHost } from '../net/guarded-fetch';
import { assertDeliverableUrl } from '../webhooks/url';
import { inTransaction, type ServiceOptions, tenantScoped } from './common';
import { accountLanguage } from './page-language';
import { parseE164 } from './invites.service';

/**
 * An account's own sending accounts for review requests (`messaging_settings`, one row per channel):
 *
 * - `email`: an SMTP server (host, port, TLS, user name, password, sender address and name). Without one, the
 *   installation's mailer sends (SMTP_URL, or .eml files under DATA_DIR/mail) from MAIL_FROM with the business
 *   as display name: the embedded default.
 * - `sms`: a Twilio-style account (account sid, auth token, sender number, optional API base URL).
 * - `messaging`: the same for the messaging app (Twilio's WhatsApp senders: addresses get `whatsapp:`).
 *   Without SMS / messaging settings, the Twilio simulator sends while SMS_SIMULATOR is on; otherwise such steps
 *   fail with `sms_not_configured` / `messaging_not_configured`.
 *
 * Passwords and auth tokens are stored encrypted under APP_KEY and never returned (`hasPassword` only). Only the
 * account's owners (organisation owner, or a tenant owner for their own workspace account) see or change them.
 * A stored secret is kept only while it goes where it went (`SecretKeeping`): settings that point it elsewhere must
 * carry it again, or a caller who may change the settings but never saw the secret could send it to their own server.
 */

export interface EmailSettingsConfig {
  host: string;
  port: number;
  secure: boolean;
  username: string | null;
  fromEmail: string;
  fromName: string | null;
}

export interface SmsSettingsConfig {
  accountSid: string;
  fromNumber: string;
  baseUrl: string | null;
}

/** What the settings page shows of one channel (never the secret). */
export interface MessagingSettingView {
  channel: Channel;
  /** The account has its own provider for the channel. */
  configured: boolean;
  /** Who sends when it is not configured: `platform_mail`, `simulator`, or null (steps fail). */
  fallback: 'platform_mail' | 'simulator' | null;
  email: EmailSettingsConfig | null;
  sms: SmsSettingsConfig | null;
  /** A password (email) or auth token (SMS, messaging) is stored. */
  hasPassword: boolean;
  updatedAt: Date | null;
}

export interface EmailSettingsInput {
  host: string;
  port?: number | null;
  secure?: boolean | null;
  username?: string | null;
  /**
   * Absent or null: keep the stored one (refused when host, port, TLS mode or user name changes: it must be sent
   * again then); empty string: remove it.
   */
  password?: string | null;
  fromEmail: string;
  fromName?: string | null;
}

export interface SmsSettingsInput {
  /** `sms` (default) or `messaging`. */
  channel?: string | null;
  accountSid: string;
  /**
   * Required the first time; absent or null afterwards keeps the stored one (refused when the account sid or the
   * base URL changes: it must be sent again then).
   */
  authToken?: string | null;
  fromNumber: string;
  baseUrl?: string | null;
}

const EMAIL = /^[^\s@<>()[\]\\,;:"]+@[^\s@<>()[\]\\,;:"]+\.[^\s@<>()[\]\\,;:"]+$/;
const HOST = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$|^\[?[0-9a-f:.]+\]?$/i;
const ACCOUNT_SID = /^[A-Za-z0-9_-]{2,64}$/;
const MAX_SECRET_CHARS = 1024;
/** Longest email address taken; checked before EMAIL, whose backtracking grows with the square of the length. */
const MAX_EMAIL_CHARS = 255;

/** An email address as typed (trimmed), or why not: the length first, so the pattern only ever sees a short one. */
function emailError(value: string, field: string): string | null {
  if (charCount(value) > MAX_EMAIL_CHARS) return `The ${field} may not be greater than ${MAX_EMAIL_CHARS} characters.`;
  return EMAIL.test(value) ? null : `The ${field} must be a valid email address.`;
}

function accountOf(p: Principal): number {
  if (isTeamMember(p)) throw new Forbidden('Only account owners can manage messaging settings.');
  if (p.customerId == null) throw new NotFound('Account');
  return p.customerId;
}

function isChannel(v: string): v is Channel {
  return (CHANNELS as readonly string[]).includes(v);
}

export function checkChannel(value: string | null | undefined, allowed: readonly Channel[] = CHANNELS): Channel {
  const v = (value ?? '').trim();
  if (!isChannel(v) || !allowed.includes(v)) throw new Validation({ channel: [`The channel must be one of: ${allowed.join(', ')}.`] });
  return v;
}

const trimmed = (v: string | null | undefined): string | null => {
  const t = typeof v === 'string' ? v.trim() : '';
  return t === '' ? null : t;
};

/** The address rule of outbound webhooks (no private or loopback hosts unless allowed) for provider hosts. */
async function assertPublicHost(url: string, field: string): Promise<void> {
  try {
    await assertDeliverableUrl(url);
  } catch (e) {
    if (e instanceof Validation) throw new Validation({ [field]: (e.fields?.url ?? [e.message]).map((m) => m.replace(/^The url/, `The ${field.replace(/_/g, ' ')}`)) }, e.reason);
    throw e;
  }
}

function emailConfigOf(row: Pick<MessagingSetting, 'config'>): EmailSettingsConfig {
  const c = row.config;
  return {
    host: String(c.host ?? ''),
    port: Number(c.port ?? 587),
    secure: Boolean(c.secure),
    username: typeof c.username === 'string' ? c.username : null,
    fromEmail: String(c.fromEmail ?? ''),
    fromName: typeof c.fromName === 'string' ? c.fromName : null,
  };
}

function smsConfigOf(row: Pick<MessagingSetting, 'config'>): SmsSettingsConfig {
  const c = row.config;
  return { accountSid: String(c.accountSid ?? ''), fromNumber: String(c.fromNumber ?? ''), baseUrl: typeof c.baseUrl === 'string' ? c.baseUrl : null };
}

function viewOf(channel: Channel, row: MessagingSetting | null): MessagingSettingView {
  return {
    channel,
    configured: row !== null,
    fallback: channel === 'email' ? 'platform_mail' : smsSimulatorEnabled() ? 'simulator' : null,
    email: row && channel === 'email' ? emailConfigOf(row) : null,
    sms: row && channel !== 'email' ? smsConfigOf(row) : null,
    hasPassword: Boolean(row?.secretEncrypted),
    updatedAt: row?.updatedAt ?? null,
  };
}

export async function listMessagingSettings(p: Principal, opts: ServiceOptions = {}): Promise<MessagingSettingView[]> {
  const customerId = accountOf(p);
  const rows = await MessagingSetting.findAll({ where: { ...tenantScoped(p), customerId }, transaction: opts.transaction });
  return CHANNELS.map((channel) => viewOf(channel, rows.find((r) => r.channel === channel) ?? null));
}

/**
 * Where a channel's stored secret is sent, as one comparable value: the SMTP server it signs in to (host, port, TLS
 * mode: a plain connection lets it be read on the way) under which user name; the SMS API origin and the account sid
 * it goes with (Basic auth). Everything else (sender address, name, number) does not move it.
 */
function emailDestination(c: EmailSettingsConfig): string {
  return JSON.stringify([c.host, c.port, c.secure, c.username]);
}

function smsDestination(c: SmsSettingsConfig): string {
  return JSON.stringify([c.accountSid, c.baseUrl ?? TWILIO_API_BASE]);
}

function destinationOf(channel: Channel, config: Record<string, unknown>): string {
  return channel === 'email' ? emailDestination(emailConfigOf({ config })) : smsDestination(smsConfigOf({ config }));
}

/**
 * Keeping the stored secret (none sent): allowed while the new settings send it where the stored ones did; when they
 * would send it elsewhere, `moved` is the 422 naming the secret's field. `required`: the 422 when none is stored.
 */
interface SecretKeeping {
  keep: { moved: FieldErrors; required?: FieldErrors };
}

async function store(
  p: Principal,
  channel: Channel,
  config: Record<string, unknown>,
  secret: SecretKeeping | { value: string | null },
  opts: ServiceOptions,
): Promise<MessagingSettingView> {
  const customerId = accountOf(p);
  return inTransaction(opts, async (transaction) => {
    const row = await MessagingSetting.findOne({ where: { ...tenantScoped(p), customerId, channel }, transaction, lock: transaction.LOCK.UPDATE });
    let secretEncrypted: string | null;
    if ('keep' in secret) {
      // Decided under the row lock: the stored secret and the destination it was given for are read together.
      secretEncrypted = row?.secretEncrypted ?? null;
      if (secretEncrypted && destinationOf(channel, row!.config) !== destinationOf(channel, config)) throw new Validation(secret.keep.moved);
      if (!secretEncrypted && secret.keep.required) throw new Validation(secret.keep.required);
    } else {
      secretEncrypted = secret.value ? encryptSecret(secret.value) : null;
    }
    if (row) {
      row.set({ config, secretEncrypted });
      row.changed('config', true);
      await row.save({ transaction });
      return viewOf(channel, row);
    }
    const created = await MessagingSetting.create({ tenantId: p.tenantId, customerId, channel, config, secretEncrypted }, { transaction });
    return viewOf(channel, created);
  });
}

/** Sets the account's own SMTP server for review-request email. */
export async function setEmailSettings(p: Principal, input: EmailSettingsInput, opts: ServiceOptions = {}): Promise<MessagingSettingView> {
  accountOf(p);
  const fields: FieldErrors = {};
  const host = trimmed(input.host)?.toLowerCase() ?? null;
  if (!host) fields.host = ['The host field is required.'];
  else if (!HOST.test(host)) fields.host = ['The host must be a host name or an IP address.'];
  const secure = input.secure ?? (input.port === 465);
  const port = input.port ?? (secure ? 465 : 587);
  if (!Number.isInteger(port) || port < 1 || port > 65535) fields.port = ['The port must be between 1 and 65535.'];
  const username = trimmed(input.username);
  if (username && charCount(username) > MAX_NAME_CHARS) fields.username = [`The username may not be greater than ${MAX_NAME_CHARS} characters.`];
  if (typeof input.password === 'string' && charCount(input.password) > MAX_SECRET_CHARS) fields.password = [`The password may not be greater than ${MAX_SECRET_CHARS} characters.`];
  const fromEmail = trimmed(input.fromEmail)?.toLowerCase() ?? null;
  const fromEmailError = fromEmail ? emailError(fromEmail, 'from email') : null;
  if (!fromEmail) fields.from_email = ['The from email field is required.'];
  else if (fromEmailError) fields.from_email = [fromEmailError];
  const fromName = trimmed(input.fromName);
  if (fromName && charCount(fromName) > MAX_NAME_CHARS) fields.from_name = [`The from name may not be greater than ${MAX_NAME_CHARS} characters.`];
  if (Object.keys(fields).length) throw new Validation(fields);
  await assertPublicHost(`http://${host!.includes(':') && !host!.startsWith('[') ? `[${host}]` : host}/`, 'host');
  const config: EmailSettingsConfig = { host: host!, port, secure, username, fromEmail: fromEmail!, fromName };
  const secret: SecretKeeping | { value: string | null } =
    input.password === undefined || input.password === null
      ? { keep: { moved: { password: ['The password must be sent again when the host, port, TLS mode or username changes.'] } } }
      : { value: input.password === '' ? null : input.password };
  return store(p, 'email', { ...config }, secret, opts);
}

/** Sets the account's own Twilio-style account for SMS or the messaging app. */
export async function setSmsSettings(p: Principal, input: SmsSettingsInput, opts: ServiceOptions = {}): Promise<MessagingSettingView> {
  const customerId = accountOf(p);
  const channel = checkChannel(input.channel ?? 'sms', ['sms', 'messaging']);
  const fields: FieldErrors = {};
  const accountSid = trimmed(input.accountSid);
  if (!accountSid) fields.account_sid = ['The account sid field is required.'];
  else if (!ACCOUNT_SID.test(accountSid)) fields.account_sid = ['The account sid may only contain letters, digits, dashes and underscores (at most 64).'];
  const token = input.authToken === undefined || input.authToken === null ? null : input.authToken.trim();
  if (token !== null && charCount(token) > MAX_SECRET_CHARS) fields.auth_token = [`The auth token may not be greater than ${MAX_SECRET_CHARS} characters.`];
  const fromRaw = trimmed(input.fromNumber)?.replace(/^whatsapp:/, '') ?? null;
  const fromNumber = fromRaw ? parseE164(fromRaw) : null;
  if (!fromRaw) fields.from_number = ['The from number field is required.'];
  else if (!fromNumber) fields.from_number = ['The from number must be a valid phone number in E.164 format (for example +14155552671).'];
  const baseUrl = trimmed(input.baseUrl)?.replace(/\/+$/, '') ?? null;
  let reason: string | undefined;
  if (baseUrl) {
    try {
      await assertPublicHost(baseUrl, 'base_url');
    } catch (e) {
      if (!(e instanceof Validation)) throw e;
      Object.assign(fields, e.fields);
      reason = e.reason;
    }
  }
  if (!fields.auth_token && !token) {
    const existing = await MessagingSetting.findOne({ where: { ...tenantScoped(p), customerId, channel }, transaction: opts.transaction });
    if (!existing?.secretEncrypted) fields.auth_token = ['The auth token field is required.'];
  }
  if (Object.keys(fields).length) throw new Validation(fields, reason);
  const config: SmsSettingsConfig = { accountSid: accountSid!, fromNumber: fromNumber!, baseUrl };
  const keep: SecretKeeping = {
    keep: {
      moved: { auth_token: ['The auth token must be sent again when the account sid or the base URL changes.'] },
      required: { auth_token: ['The auth token field is required.'] },
    },
  };
  return store(p, channel, { ...config }, token ? { value: token } : keep, opts);
}

/** Removes the account's own provider of a channel (the embedded default applies again). */
export async function clearMessagingSettings(p: Principal, channel: string, opts: ServiceOptions = {}): Promise<MessagingSettingView> {
  const customerId = accountOf(p);
  const c = checkChannel(channel);
  await MessagingSetting.destroy({ where: { ...tenantScoped(p), customerId, channel: c }, transaction: opts.transaction });
  return viewOf(c, null);
}

// ---- senders --------------------------------------------------------------------------------------------

/**
 * The address an account's SMTP host resolves to, checked as a user's URL is. Refused (a private address), no such
 * name (NXDOMAIN) or a name without addresses: MessagingRejected, the step fails `provider_rejected` (the settings
 * are wrong; saving them checks the same). The DNS not answering (a timeout, SERVFAIL, a refused query): MessagingUnavailable,
 * as a mail server that cannot be reached, so the step is tried again (review finding M3: a DNS hiccup failed the
 * account's invites for good). Resolved once per sender: the transport connects to that address (TLS still names the
 * host), so a DNS answer that changes before the connection cannot lead it elsewhere.
 */
function checkedSmtpAddress(host: string): Promise<string> {
  return resolveChecked(host, { allowPrivate: webhookPrivateUrlsAllowed(), resolve: outboundResolver() }).then(
    ([first]) => first.address,
    (e: unknown) => {
      const words = e instanceof Error ? e.message : String(e);
      if (e instanceof UnresolvableHost && e.transient) {
        const code = (e.cause as { code?: unknown } | undefined)?.code;
        throw new MessagingUnavailable(`The SMTP host could not be resolved now (${typeof code === 'string' ? code : 'no answer'}): ${words}`);
      }
      throw new MessagingRejected(`The SMTP host is not allowed: ${words}`);
    },
  );
}

/**
 * An account's SMTP sender whose host is resolved and checked when it sends, not when it is made: made inside a
 * claim's transaction, it costs no DNS answer there (a slow one would hold the claim's row locks and every other
 * account's steps of the batch). The look-up is made at its first message and shared by the later ones.
 */
function resolvingSmtpSender(account: Omit<SmtpAccount, 'connectTo'>, host: string): ChannelSender {
  let address: Promise<string> | null = null;
  return {
    label: ACCOUNT_SMTP_LABEL,
    async send(message) {
      address ??= checkedSmtpAddress(host);
      return smtpSender({ ...account, connectTo: await address }).send(message);
    },
  };
}

/**
 * The sender of a channel for an account: its own provider, else the embedded default, else not configured. A caller
 * inside a transaction passes it: reading on a second pool connection while holding one starves the pool when every
 * connection is held by such a caller (the invite claim, many activities at once). `smtpHosts`: the account SMTP
 * hosts the caller resolved before its transaction; a host not among them is resolved here.
 */
export async function senderFor(
  customerId: number,
  channel: Channel,
  opts: { fromName?: string | null; transaction?: Transaction } = {},
): Promise<ChannelSender> {
  const row = await MessagingSetting.findOne({ where: { customerId, channel }, transaction: opts.transaction });
  if (channel === 'email') {
    if (!row) return platformEmailSender(opts.fromName ?? null);
    const c = emailConfigOf(row);
    return resolvingSmtpSender(
      {
        ...c,
        password: row.secretEncrypted ? decryptSecret(row.secretEncrypted) : null,
        fromName: c.fromName ?? opts.fromName ?? null,
      },
      c.host,
    );
  }
  if (!row) {
    if (!smsSimulatorEnabled()) {
      throw new ChannelNotConfigured(
        `${channel}_not_configured`,
        channel === 'sms' ? 'The account has no SMS provider settings.' : 'The account has no messaging-app provider settings.',
      );
    }
    const simulator: TwilioAccount = { ...SIMULATOR_ACCOUNT, baseUrl: `${simulatorBaseUrl()}${TWILIO_SIMULATOR_PATH}` };
    return twilioSender(simulator, channel, { label: 'SMS simulator' });
  }
  const c = smsConfigOf(row);
  if (c.baseUrl) {
    await assertPublicHost(c.baseUrl, 'base_url').catch((e: unknown) => {
      throw new MessagingRejected(`The SMS provider address is not allowed: ${e instanceof Error ? e.message : String(e)}`);
    });
  }
  if (!row.secretEncrypted) throw new ChannelNotConfigured(`${channel}_not_configured`, 'The SMS provider settings have no auth token.');
  const account: TwilioAccount = { accountSid: c.accountSid, authToken: decryptSecret(row.secretEncrypted), fromNumber: c.fromNumber, baseUrl: c.baseUrl ?? TWILIO_API_BASE };
  return twilioSender(account, channel, { guarded: true });
}

// ---- test message ---------------------------------------------------------------------------------------

export interface TestMessageResult {
  channel: Channel;
  to: string;
  /** Who sent it (`account SMTP`, `platform mail`, `SMS provider`, `SMS simulator`, ...). */
  sender: string;
  providerMessageId: string | null;
}

/** The label of the embedded default email sender (the installation's mailer). */
const PLATFORM_MAIL = platformEmailSender(null).label;

/**
 * Through the platform's own mail server a test email goes only to a user of the account (the caller, or another
 * user of the same account): it is free, and its sender name and subject carry the organisation's name, so to any
 * address it would be a relay for mail in the platform's name. The account's own SMTP server sends anywhere.
 */
async function assertOwnRecipient(p: Principal, customerId: number, to: string, opts: ServiceOptions): Promise<void> {
  const user = await User.findOne({
    attributes: ['id'],
    where: { ...tenantScoped(p), email: signInEmail(to), [Op.or]: [{ customerId }, { id: p.userId }] },
    transaction: opts.transaction,
  });
  if (!user) {
    throw new Validation({
      to: [
        "Without the account's own SMTP server, a test email can only go to a user of this account (for example your own email address). Set up the account's SMTP server to send it to other addresses.",
      ],
    });
  }
}

/**
 * Sends a fixed test message through the channel's sender, so an owner sees their settings work. It takes no
 * credits (it is not a review request). Through platform mail it goes only to a user of the account (422 otherwise,
 * `assertOwnRecipient`). Refused: 502 `provider_rejected` with the provider's words; not reachable: 502
 * `provider_unavailable`; no provider: 422 `sms_not_configured` / `messaging_not_configured`.
 */
export async function sendTestMessage(p: Principal, input: { channel: string; to: string }, opts: ServiceOptions = {}): Promise<TestMessageResult> {
  const customerId = accountOf(p);
  const channel = checkChannel(input.channel);
  const raw = trimmed(input.to) ?? '';
  let to: string | null;
  if (channel === 'email') {
    const error = raw ? emailError(raw, 'to field') : 'The to field must be a valid email address.';
    if (error) throw new Validation({ to: [error] });
    to = raw.toLowerCase();
  } else {
    to = raw ? parseE164(raw.replace(/^whatsapp:/, '')) : null;
    if (!to) throw new Validation({ to: ['The to field must be a valid phone number in E.164 format (for example +14155552671).'] });
  }
  const [customer, tenant, org] = await Promise.all([
    Customer.findByPk(customerId, { transaction: opts.transaction }),
    Tenant.findByPk(p.tenantId, { transaction: opts.transaction }),
    Organization.findOne({ where: { customerId, ...tenantScoped(p) }, order: [['id', 'ASC']], transaction: opts.transaction }),
  ]);
  if (!customer) throw new NotFound('Account');
  const name = org?.name ?? customer.name ?? tenant?.brandName ?? 'Your business';
  let sender: ChannelSender;
  try {
    sender = await senderFor(customerId, channel, { fromName: name });
  } catch (e) {
    if (e instanceof ChannelNotConfigured) throw ruleViolation(e.message, e.reason);
    if (e instanceof MessagingRejected) throw new Upstream(e.message, 'provider_rejected');
    throw e;
  }
  if (sender.label === PLATFORM_MAIL) await assertOwnRecipient(p, customerId, to, opts);
  // In the account's language, as the account's other mail (src/services/page-language.ts).
  const tr = translator(accountLanguage(customer, tenant));
  const body = tr.t(`invite.testBody.${channel}`, { business: name });
  try {
    const receipt = await sender.send(channel === 'email' ? { to, subject: tr.t('invite.testSubject', { business: name }), body } : { to, body });
    return { channel, to, sender: sender.label, providerMessageId: receipt.providerMessageId };
  } catch (e) {
    if (e instanceof MessagingRejected) throw new Upstream(e.message, 'provider_rejected');
    if (e instanceof MessagingUnavailable) throw new Upstream(e.message, 'provider_unavailable');
    throw e;
  }
}
