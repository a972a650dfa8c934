import { createHash } from 'node:crypto';
import { mailTransport, type MailTransport } from './mail-thread';
import { closePlatformMailers, mailLogger, platformMailer, SMTP_LIMITS, smtpPoolOptions, smtpTimeoutOptions, type SmtpLimits } from './platform-mailer';
import { MessagingRejected, MessagingUnavailable, type ChannelSender, type OutgoingMessage, type SendReceipt } from '../../messaging/types';

/** The account's own SMTP server (`messaging_settings`, channel `email`). */
export interface SmtpAccount {
  host: string;
  port: number;
  /** TLS from the first byte (port 465); false: plain, upgraded with STARTTLS when the server offers it. */
  secure: boolean;
  username: string | null;
  password: string | null;
  fromEmail: string;
  fromName: string | null;
  /** The checked address to connect to (resolved once by the caller); unset: `host` is resolved by the transport. */
  connectTo?: string;
}

/** A display name that cannot become a second address (quotes, commas and line breaks removed). */
export function fromHeader(address: string, name: string | null | undefined): string {
  const clean = (name ?? '').replace(/["\\\r\n]/g, '').trim();
  return clean ? `"${clean}" <${address}>` : address;
}

/** Network failures before the server accepted anything: the message may be offered again. */
const NOT_ACCEPTED_CODES = new Set(['ECONNECTION', 'ETIMEDOUT', 'ESOCKET', 'EDNS', 'ECONNREFUSED', 'ECONNRESET', 'ETLS', 'EHOSTUNREACH', 'ENOTFOUND', 'EPROTOCOL']);

/**
 * Sorts a nodemailer failure: an SMTP 5xx reply (unknown recipient, relay denied, bad credentials) is a refusal;
 * a 4xx reply ("try again later") and connection failures mean nothing was accepted. A send that ran out of its
 * deadline (`EABORT`, SMTP_SEND_DEADLINE_MS) is a server that did not answer in time, as a timeout is, not a refusal:
 * the message may be offered again.
 */
export function classifySmtpError(err: unknown, opts: { platform?: boolean } = {}): MessagingRejected | MessagingUnavailable {
  const e = err as { message?: string; code?: string; responseCode?: number; response?: string };
  // The platform's own relay: its address and the client library's words about reaching it are the operator's
  // business, not the customer's (they are logged); an SMTP reply is the server's own answer and is kept.
  const hidden = opts.platform && typeof e.responseCode !== 'number';
  const text = hidden ? 'details are in the platform log' : (e.response ?? e.message ?? String(err)).replace(/\s+/g, ' ').trim().slice(0, 300);
  if (typeof e.responseCode === 'number') {
    if (e.responseCode >= 500) return new MessagingRejected(`The mail server refused the message (${e.responseCode}): ${text}`, e.responseCode);
    if (e.responseCode >= 400) return new MessagingUnavailable(`The mail server deferred the message (${e.responseCode}): ${text}`);
  }
  if (e.code === 'EAUTH') return new MessagingRejected(`The mail server refused the sign-in: ${text}`, 'EAUTH');
  if (e.code === 'EABORT') return new MessagingUnavailable(`The mail server did not take the message in time (EABORT): ${text}`);
  if (e.code && NOT_ACCEPTED_CODES.has(e.code)) return new MessagingUnavailable(`The mail server could not be reached (${e.code}): ${text}`);
  // nodemailer's pool, closed with messages still queued (its settings changed, or it was evicted): none was sent.
  if (!e.code && e.message === 'Connection pool was closed') return new MessagingUnavailable(`The mail server connection was closed before sending: ${text}`);
  return new MessagingRejected(`The mail server refused the message: ${text}`, e.code ?? null);
}

function mailOf(message: OutgoingMessage, from: string) {
  return { from, to: message.to, subject: message.subject ?? '', text: message.body, html: message.html, headers: message.headers, ...(message.messageId ? { messageId: message.messageId } : {}) };
}

/** Pooled transports of account SMTP servers, by connection settings (the password by its hash), least recently used last. */
const transports = new Map<string, MailTransport>();
const MAX_TRANSPORTS = 200;

function transportKey(account: SmtpAccount, limits: SmtpLimits): string {
  const secret = createHash('sha256').update(account.password ?? '').digest('base64url');
  const timeouts = Object.values(smtpTimeoutOptions(limits));
  return JSON.stringify([account.host, account.connectTo ?? null, account.port, account.secure, account.username, secret, timeouts]);
}

/**
 * The pooled transport of an account's SMTP server (`SMTP_POOL_SIZE` connections, kept open between messages): a
 * campaign's messages share connections instead of a TCP, TLS and AUTH handshake each. The least recently used of
 * more than 200 servers is closed. A settings change is a new key, so it takes effect at the next message.
 */
function pooledTransport(account: SmtpAccount, limits: SmtpLimits): MailTransport {
  const key = transportKey(account, limits);
  const found = transports.get(key);
  if (found) {
    transports.delete(key);
    transports.set(key, found);
    return found;
  }
  const transport = mailTransport({
    host: account.connectTo ?? account.host,
    ...(account.connectTo && account.connectTo !== account.host ? { tls: { servername: account.host } } : {}),
    port: account.port,
    secure: account.secure,
    auth: account.username ? { user: account.username, pass: account.password ?? '' } : undefined,
    ...smtpTimeoutOptions(limits),
    ...smtpPoolOptions(),
  });
  transports.set(key, transport);
  if (transports.size > MAX_TRANSPORTS) {
    const [oldestKey, oldest] = transports.entries().next().value as [string, MailTransport];
    transports.delete(oldestKey);
    oldest.close();
  }
  return transport;
}

/** Closes every pooled SMTP connection, the accounts' and the platform's (shutdown, tests). */
export function closeSmtpPools(): void {
  for (const t of transports.values()) t.close();
  transports.clear();
  closePlatformMailers();
}

/** What the delivery log calls the account's own SMTP server. */
export const ACCOUNT_SMTP_LABEL = 'account SMTP';

/**
 * Email through the account's own SMTP server with nodemailer, over its pooled transport, under the platform mailer's
 * bounds (SMTP_LIMITS, src/providers/smtp/platform-mailer.ts): the timeouts of each phase, and a deadline on the whole
 * send (SMTP_SEND_DEADLINE_MS, 2 min), after which it fails as MessagingUnavailable. `limits` is for tests.
 *
 * The deadline is below the invite dispatcher's in-flight grace (`inFlightGraceMs`, 3 min, src/messaging/settings.ts),
 * after which a step's claim still `sending` is settled as the work of an attempt that died. The claim is renewed
 * when its send starts and while it is open (`sendClaimed`, src/messaging/delivery.ts), so the grace counts from the
 * last renewal; the deadline keeps a send that outlives its process's renewals (a frozen worker) short as well.
 * test/invites/senders.test.ts keeps the deadline below the grace.
 */
export function smtpSender(account: SmtpAccount, limits: SmtpLimits = SMTP_LIMITS): ChannelSender {
  const transport = pooledTransport(account, limits);
  const from = fromHeader(account.fromEmail, account.fromName);
  return {
    label: ACCOUNT_SMTP_LABEL,
    async send(message): Promise<SendReceipt> {
      try {
        const info = await transport.sendMail(mailOf(message, from), limits.sendDeadlineMs);
        return { providerMessageId: info.messageId, status: 'accepted' };
      } catch (err) {
        throw classifySmtpError(err);
      }
    },
  };
}

/**
 * The embedded default for accounts without SMTP settings: the installation's own mailer (`SMTP_URL`, or .eml
 * files under DATA_DIR/mail), sending from `MAIL_FROM` with the business as the display name.
 */
export function platformEmailSender(fromName: string | null): ChannelSender {
  return {
    label: 'platform mail',
    async send(message): Promise<SendReceipt> {
      try {
        const sent = await platformMailer().send({
          to: message.to,
          subject: message.subject ?? '',
          text: message.body,
          html: message.html,
          fromName: fromName ?? undefined,
          kind: 'review-request',
          headers: message.headers,
          messageId: message.messageId,
        });
        return { providerMessageId: sent.messageId, status: sent.file ? 'written' : 'accepted' };
      } catch (err) {
        if (typeof (err as { responseCode?: unknown }).responseCode !== 'number') mailLogger().warn({ err }, 'platform mail failed');
        throw classifySmtpError(err, { platform: true });
      }
    },
  };
}
