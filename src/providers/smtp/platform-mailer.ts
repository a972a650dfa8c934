import { randomUUID } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { createTransport } from 'nodemailer';
import pino, { type Logger } from 'pino';
import { loadConfig } from '../../config';
import { mailTransport } from './mail-thread';
import { LOG_REDACTION } from '../../observability/log-redaction';

/**
 * Platform mail (customer invitations, connect links). With `SMTP_URL` set, messages go through that SMTP
 * server (a nodemailer connection URL); unset (the embedded default) each message is written as an .eml file
 * under `${DATA_DIR}/mail/` and its path is logged, so a developer can open what would have been sent.
 *
 * Sending is never part of a business transaction: callers send after their commit and treat a failure as
 * something to log (see `sendSafely`).
 */

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
  /** Display name of the sender: the tenant's brand name (the address is `MAIL_FROM`). */
  fromName?: string;
  /** Header `X-Mail-Kind`, so logs and receivers can tell the messages apart (`customer-invite`, ...). */
  kind?: string;
  /** More headers (review requests: `List-Unsubscribe`, `List-Unsubscribe-Post`). */
  headers?: Record<string, string>;
  /** The Message-ID to send under (review requests: one per step); absent: nodemailer makes one. */
  messageId?: string;
  /** Files sent with the message (the monthly report's PDF). */
  attachments?: Array<{ filename: string; content: Buffer; contentType: string }>;
}

export interface SentMail {
  messageId: string;
  /** Where the message was written when no SMTP server is configured. */
  file?: string;
}

export interface Mailer {
  send(message: MailMessage): Promise<SentMail>;
  /** Closes pooled connections (shutdown, tests); absent where there are none. */
  close?(): void;
}

/**
 * Bounds on a slow or silent server, so a send that cannot succeed gives up in seconds, not minutes: connecting (DNS
 * and TCP) 10 s, the server's greeting 10 s, then 20 s of silence on the socket at any point (nodemailer's defaults
 * are 2 min, 30 s and 10 min). Each bounds a phase or a silence, not a whole send: see SMTP_SEND_DEADLINE_MS. Every
 * SMTP transport of the platform has them: the platform mailer's and the accounts' own servers'
 * (src/providers/smtp/account-sender.ts), through SMTP_LIMITS.
 */
export const SMTP_TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 20_000 } as const;

/**
 * The most one SMTP send may take, all told, the platform mailer's and an account server's alike (the `deadlineMs` of
 * `MailTransport.sendMail`, src/providers/smtp/mail-thread.ts): an AbortSignal on the message, on which nodemailer
 * drops it from the pool's queue or closes the connection that carries it, and the send fails (`EABORT`). The
 * timeouts above do not bound a send: it may wait in the pool's queue behind other messages, be requeued on a fresh
 * connection (up to five times) when one closes before the greeting, or be kept alive by a server that trickles its
 * replies; and a `socketTimeout` in `SMTP_URL`'s query would override the one above. A send that gave up may still
 * have been accepted by the server (nodemailer cannot tell), as with any timeout.
 *
 * The monthly report mail's claim counts on this bound: its stale window (STALE_CLAIM_MS, src/jobs/report-deliveries.ts)
 * is at least four times as long, so an attempt still sending is never taken over (test/jobs/report-deliveries.test.ts
 * checks the relation). So does the invite dispatcher's in-flight grace (`inFlightGraceMs`, 3 min,
 * src/messaging/settings.ts), after which a review request step still `sending` is taken for the work of an attempt
 * that died: it must stay above this deadline (test/invites/senders.test.ts checks). Raise this and both with it.
 */
export const SMTP_SEND_DEADLINE_MS = 2 * 60_000;

/** What bounds an SMTP send: the transport's timeouts (ms) and the deadline of each send. */
export interface SmtpLimits {
  connectionTimeout: number;
  greetingTimeout: number;
  socketTimeout: number;
  sendDeadlineMs: number;
}

/** The bounds of every SMTP send, the platform mailer's and the accounts' servers'; other limits are for tests. */
export const SMTP_LIMITS: SmtpLimits = { ...SMTP_TIMEOUTS, sendDeadlineMs: SMTP_SEND_DEADLINE_MS };

/** The transport options that bound each phase of a connection: the timeouts of `limits`. */
export function smtpTimeoutOptions(limits: SmtpLimits = SMTP_LIMITS): { connectionTimeout: number; greetingTimeout: number; socketTimeout: number } {
  const { connectionTimeout, greetingTimeout, socketTimeout } = limits;
  return { connectionTimeout, greetingTimeout, socketTimeout };
}

/**
 * Pooled SMTP: at most `SMTP_POOL_SIZE` connections per server (8 by default), each used for up to 100 messages
 * before it is renewed; an idle connection closes on the socket timeout (20 s).
 */
export function smtpPoolOptions(env: NodeJS.ProcessEnv = process.env): { pool: true; maxConnections: number; maxMessages: number } {
  return { pool: true, maxConnections: loadConfig(env).SMTP_POOL_SIZE, maxMessages: 100 };
}

function fromHeader(address: string, name?: string): string {
  if (!name) return address;
  // A quoted display name: a brand with a comma or quote in it must not become a second address.
  return `"${name.replace(/["\\\r\n]/g, '')}" <${address}>`;
}

function envelopeOf(message: MailMessage, from: string) {
  return {
    from: fromHeader(from, message.fromName),
    to: message.to,
    subject: message.subject,
    text: message.text,
    html: message.html,
    headers: message.kind || message.headers ? { ...message.headers, ...(message.kind ? { 'X-Mail-Kind': message.kind } : {}) } : undefined,
    ...(message.messageId ? { messageId: message.messageId } : {}),
    ...(message.attachments?.length ? { attachments: message.attachments } : {}),
  };
}

/** The nodemailer transport options of `smtpMailer`: the URL, the timeouts of `limits` and the pool's options. */
export function smtpTransportOptions(url: string, pool = smtpPoolOptions(), limits: SmtpLimits = SMTP_LIMITS) {
  return { url, ...smtpTimeoutOptions(limits), ...pool };
}

/**
 * Sends through an SMTP server given as a nodemailer connection URL, over a pool of connections kept open between
 * messages (`smtpPoolOptions`), so a campaign does not pay a TCP (and TLS, AUTH) handshake per message. Each send gives
 * up after `limits.sendDeadlineMs` (SMTP_SEND_DEADLINE_MS); `limits` is for tests, which cannot wait that long.
 */
export function smtpMailer(url: string, from: string, pool = smtpPoolOptions(), limits: SmtpLimits = SMTP_LIMITS, env: NodeJS.ProcessEnv = process.env): Mailer {
  const transport = mailTransport(smtpTransportOptions(url, pool, limits), env);
  return {
    close: () => transport.close(),
    async send(message) {
      const info = await transport.sendMail(envelopeOf(message, from), limits.sendDeadlineMs);
      return { messageId: String(info.messageId) };
    },
  };
}

/** Writes each message as `<dir>/<time>-<uuid>.eml` (RFC 822 text any mail client opens). */
export function fileMailer(dir: string, from: string, logger?: Logger): Mailer {
  const transport = createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    async send(message) {
      const info = await transport.sendMail(envelopeOf(message, from));
      await mkdir(dir, { recursive: true });
      const file = path.join(dir, `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomUUID()}.eml`);
      await writeFile(file, info.message as Buffer);
      logger?.info({ file, to: message.to, kind: message.kind }, 'mail written to file (SMTP_URL is not set)');
      return { messageId: String(info.messageId), file };
    },
  };
}

const cache = new Map<string, Mailer>();
let defaultLogger: Logger | null = null;

/** The logger mail lines go to (the process's, once `setMailLogger` ran at boot). */
export function mailLogger(): Logger {
  defaultLogger ??= pino({ level: process.env.LOG_LEVEL ?? 'info', redact: LOG_REDACTION });
  return defaultLogger;
}

/** The process's logger for mail lines (set at boot; tests leave the default). */
export function setMailLogger(logger: Logger): void {
  defaultLogger = logger;
}

/**
 * The platform mailer, from the environment as it is now (`SMTP_URL`, `MAIL_FROM`, `DATA_DIR`), so a test can
 * point it at its own SMTP server. One transport per configuration is kept.
 */
export function platformMailer(env: NodeJS.ProcessEnv = process.env): Mailer {
  const config = loadConfig(env);
  const key = `${config.SMTP_URL ?? `file:${config.DATA_DIR}`}|${config.MAIL_FROM}|${config.SMTP_SEND_THREAD}`;
  let mailer = cache.get(key);
  if (!mailer) {
    mailer = config.SMTP_URL
      ? smtpMailer(config.SMTP_URL, config.MAIL_FROM, smtpPoolOptions(env), SMTP_LIMITS, env)
      : fileMailer(path.join(config.DATA_DIR, 'mail'), config.MAIL_FROM, mailLogger());
    cache.set(key, mailer);
  }
  return mailer;
}

/** Closes the pooled connections of every platform mailer made so far (shutdown, tests). */
export function closePlatformMailers(): void {
  for (const mailer of cache.values()) mailer.close?.();
  cache.clear();
}

/** The domain of an address (`example.com`), lower-cased; what a log line may say about a recipient. */
export function recipientDomain(address: string): string {
  const at = address.lastIndexOf('@');
  const domain = at === -1 ? '' : address.slice(at + 1).replace(/[>\s].*$/s, '').toLowerCase();
  return /^[a-z0-9.-]{1,253}$/.test(domain) ? domain : '?';
}

/** A server's answer with every e-mail address in it cut to its domain (`550 5.1.1 <…@example.com>: ... rejected`). */
function withoutAddresses(text: string): string {
  return text.replace(/[^\s<>()[\]"',;:@]+@([A-Za-z0-9.-]+)/g, '…@$1');
}

/**
 * Sends and never throws: a failure is logged and answered with null, so that a mail server being down never undoes
 * or blocks the action that wanted to tell someone. The line names the recipient's domain only (`toDomain`), and the
 * server's answer has the addresses in it cut to their domain: neither the address nor the body (both personal data)
 * is logged.
 */
export async function sendSafely(message: MailMessage, logger: Logger = mailLogger()): Promise<SentMail | null> {
  try {
    return await platformMailer().send(message);
  } catch (err) {
    const e = err as { message?: string; code?: string; responseCode?: number };
    logger.error(
      {
        kind: message.kind,
        toDomain: recipientDomain(message.to),
        error: withoutAddresses(e.message ?? String(err)).slice(0, 300),
        code: e.code,
        responseCode: e.responseCode,
      },
      'mail could not be sent',
    );
    return null;
  }
}
