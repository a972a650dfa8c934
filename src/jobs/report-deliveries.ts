import { randomUUID } from 'node:crypto';
import { QueryTypes, UniqueConstraintError } from 'sequelize';
import { ReportDelivery } from '../models';
import { platformMessageId } from '../messaging/links';
import { platformMailer } from '../providers/smtp/platform-mailer';
import type { ServiceOptions } from '../services/common';
import { monthEnd, monthStart } from '../analytics/periods';

/**
 * Once per report, month and owner: the `report_deliveries` rule both monthly mails share (the organisation's,
 * src/jobs/report-mail.ts, and the scan's, src/jobs/scan-report-mail.ts). The mail is claimed before the send (a
 * `sending` row under the unique key) and marked `sent` after it; a concurrent attempt finds the claim and is retried
 * later; a send that fails releases the claim; a claim an attempt left by dying mid-send is taken over after
 * STALE_CLAIM_MS and the mail sent again (under the same Message-ID, which the caller derives from the key).
 *
 * A claim carries a token of its own (`claim_token`, a random UUID): set by the claim, and replaced by a take-over in
 * the very statement that finds the claim stale. The attempt that claimed releases the row (deletes it) and marks it
 * sent only by its id and its token, so an attempt whose claim was taken over never deletes the take-over's claim when
 * its own send fails (which would let a third attempt claim and send beside the take-over).
 *
 * An attempt whose send succeeded but whose claim was taken over meanwhile (its token gone: the mark matched nothing)
 * marks the key's row `sent` anyway, whoever holds it, or inserts a `sent` row when the take-over released it: the
 * mail went, so the row must say so, and a take-over whose send then fails leaves it `sent` (its release is of a
 * `sending` row with its token only). A take-over that succeeds has sent a second copy, under the same Message-ID
 * (which lets a receiver that deduplicates by it drop the copy): the claim makes that rare, and cannot exclude it
 * without an idempotent submission, which SMTP has not. Rare, because a take-over waits STALE_CLAIM_MS, five times
 * the longest an SMTP send may take (SMTP_SEND_DEADLINE_MS, src/providers/smtp/platform-mailer.ts, after which the
 * send fails and its claim is released): a live attempt's send has ended, one way or the other, long before its
 * claim looks stale.
 * What is left is an attempt that stalls between its claim and its mark longer than the window (a frozen process, a
 * mark that cannot reach the database), one that dies after the server accepted the mail and before the mark, and a
 * send that timed out though the server had accepted the mail (its claim released, the retry sends again).
 */

/** What a mail is the report of: an organisation or a scan (a row has exactly one, checked by the table). */
export type ReportSubject = { organizationId: number; scanId?: undefined } | { scanId: number; organizationId?: undefined };

export interface DeliveryKey {
  subject: ReportSubject;
  userId: number;
  /** `YYYY-MM`. */
  month: string;
}

/** What a monthly report mail came to: sent now, sent before, or nothing to send (the owner or the report is gone). */
export type ReportMailOutcome = 'sent' | 'already_sent' | 'gone';

/**
 * A claim older than this is taken to be left by an attempt that died (a send takes seconds): it is taken over. It
 * must stay well above the longest a send may take, SMTP_SEND_DEADLINE_MS (2 min; each phase of a send is bounded
 * by SMTP_TIMEOUTS, 10 s to connect, 10 s for the greeting, 20 s of silence): five times it now, at least four times
 * it always (test/jobs/report-deliveries.test.ts checks), so a live attempt is never taken over mid-send.
 */
export const STALE_CLAIM_MS = 10 * 60_000;

const subjectName = (subject: ReportSubject): string => (subject.scanId !== undefined ? `scan ${subject.scanId}` : `organisation ${subject.organizationId}`);

/** Another attempt holds the claim and may be sending right now: retry later (the activity's retry policy does). */
export class ReportMailInFlight extends Error {
  constructor(readonly key: DeliveryKey) {
    super(`The report of ${subjectName(key.subject)} for ${key.month} is being sent to user ${key.userId} by another attempt.`);
    this.name = 'ReportMailInFlight';
  }
}

const rowOf = ({ subject, userId, month }: DeliveryKey) =>
  subject.scanId !== undefined ? { scanId: subject.scanId, userId, month } : { organizationId: subject.organizationId, userId, month };

/**
 * A page of (report, owner) pairs still to mail `month`'s report to, in (report, user) order after `after`: the pairs
 * `eligible` selects (SQL from FROM to WHERE over the report's row as `x` and the owner as `u`; `:start` and `:end`
 * are the month's bounds, UTC, `:start` in it and `:end` not), less those mailed already.
 */
export async function pendingPairs(
  column: 'organization_id' | 'scan_id',
  eligible: string,
  month: string,
  after: { reportId: number; userId: number } | null,
  limit: number,
  opts: ServiceOptions = {},
): Promise<Array<{ reportId: number; userId: number }>> {
  const rows = await ReportDelivery.sequelize!.query<{ reportId: number; userId: number }>(
    `SELECT x.id AS reportId, u.id AS userId
       ${eligible}
        AND NOT EXISTS (SELECT 1 FROM report_deliveries d WHERE d.${column} = x.id AND d.month = :month AND d.user_id = u.id AND d.status = 'sent')
        AND (x.id > :afterReport OR (x.id = :afterReport AND u.id > :afterUser))
      ORDER BY x.id, u.id
      LIMIT :limit`,
    {
      type: QueryTypes.SELECT,
      replacements: { start: monthStart(month), end: monthEnd(month), month, afterReport: after?.reportId ?? 0, afterUser: after?.userId ?? 0, limit },
      transaction: opts.transaction,
    },
  );
  return rows.map((r) => ({ reportId: Number(r.reportId), userId: Number(r.userId) }));
}

/** A claim this attempt holds: the row and the token that makes it this attempt's. */
interface Claim {
  id: number;
  token: string;
}

/** The claim of one mail: a `sending` row under the unique key, or the take-over of a stale one. Null when it went already. */
async function claim(key: DeliveryKey, tenantId: number, messageId: string, opts: ServiceOptions): Promise<Claim | null> {
  const where = rowOf(key);
  const token = randomUUID();
  try {
    const row = await ReportDelivery.create(
      { tenantId, organizationId: null, scanId: null, ...where, messageId, status: 'sending', claimToken: token },
      { transaction: opts.transaction },
    );
    return { id: row.id, token };
  } catch (e) {
    if (!(e instanceof UniqueConstraintError)) throw e;
  }
  const held = await ReportDelivery.findOne({ where, transaction: opts.transaction });
  if (!held) throw new ReportMailInFlight(key); // released between the two statements: the next attempt claims
  if (held.status === 'sent') return null;
  const cutoff = new Date(Date.now() - STALE_CLAIM_MS);
  // The take-over: one statement finds the claim stale and makes it this attempt's (its token), so of two attempts
  // taking over at once one wins, and the attempt it was taken from can no longer release or mark it.
  const [, taken] = await ReportDelivery.sequelize!.query(
    "UPDATE report_deliveries SET claim_token = :token, updated_at = NOW(3) WHERE id = :id AND status = 'sending' AND updated_at < :cutoff",
    { type: QueryTypes.UPDATE, replacements: { id: held.id, token, cutoff }, transaction: opts.transaction },
  );
  if (!taken) throw new ReportMailInFlight(key);
  return { id: held.id, token };
}

/**
 * Marks a sent mail: its own claim by id and token; when the claim was taken over meanwhile (the token is another's,
 * or the take-over released the row), the key's row, whoever holds it, or a new `sent` row (see the top of the file).
 */
async function markSent(key: DeliveryKey, claimed: Claim, tenantId: number, messageId: string, opts: ServiceOptions): Promise<void> {
  const [marked] = await ReportDelivery.update(
    { status: 'sent' },
    { where: { id: claimed.id, claimToken: claimed.token, status: 'sending' }, transaction: opts.transaction },
  );
  if (marked) return;
  const { organizationId = null, scanId = null } = key.subject;
  await ReportDelivery.sequelize!.query(
    `INSERT INTO report_deliveries (tenant_id, organization_id, scan_id, user_id, month, message_id, status, claim_token, created_at, updated_at)
     VALUES (:tenantId, :organizationId, :scanId, :userId, :month, :messageId, 'sent', NULL, NOW(3), NOW(3))
     ON DUPLICATE KEY UPDATE status = 'sent', updated_at = NOW(3)`,
    {
      type: QueryTypes.INSERT,
      replacements: { tenantId, organizationId, scanId, userId: key.userId, month: key.month, messageId },
      transaction: opts.transaction,
    },
  );
}

/** A report mail ready to go: its owner, body, brand and PDF. */
export interface ReportMail {
  tenantId: number;
  to: string;
  body: { subject: string; text: string; html: string };
  /** The agency's brand name: the sender's display name. */
  fromName: string;
  /** `X-Mail-Kind`. */
  kind: 'monthly-report' | 'scan-report';
  /** The local part of the Message-ID, from the key: the same on every attempt (`report.{organisation}.{month}.{user}`). */
  messageKey: string;
  pdf: { filename: string; content: Buffer };
}

/**
 * Mails one report exactly once for its key: `already_sent` when it went before (checked before `prepare`, which
 * draws the report: the expensive part), `gone` when `prepare` finds nothing to send (null); else claims it, sends,
 * marks it sent. ReportMailInFlight while another attempt holds a fresh claim; a failed send releases the claim (if it
 * is still this attempt's) and throws, so the retry (or the next run) claims it again.
 */
export async function mailOnce(key: DeliveryKey, prepare: () => Promise<ReportMail | null>, opts: ServiceOptions = {}): Promise<ReportMailOutcome> {
  if (await ReportDelivery.count({ where: { ...rowOf(key), status: 'sent' }, transaction: opts.transaction })) return 'already_sent';
  const mail = await prepare();
  if (!mail) return 'gone';
  const messageId = platformMessageId(mail.messageKey);
  const claimed = await claim(key, mail.tenantId, messageId, opts);
  if (!claimed) return 'already_sent';
  try {
    await platformMailer().send({
      to: mail.to,
      ...mail.body,
      fromName: mail.fromName,
      kind: mail.kind,
      messageId,
      attachments: [{ ...mail.pdf, contentType: 'application/pdf' }],
    });
  } catch (e) {
    // Released only while it is still this attempt's claim: a take-over's stays.
    await ReportDelivery.destroy({ where: { id: claimed.id, claimToken: claimed.token, status: 'sending' }, transaction: opts.transaction });
    throw e;
  }
  await markSent(key, claimed, mail.tenantId, messageId, opts);
  return 'sent';
}
