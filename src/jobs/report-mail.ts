import { QueryTypes, UniqueConstraintError } from 'sequelize';
import { escapeHtml as esc } from '../domain/html';
import { ALL_PERMISSIONS } from '../domain/permissions';
import { platformMailer } from '../providers/smtp/platform-mailer';
import { platformMessageId } from '../messaging/links';
import { Organization, ReportDelivery, User } from '../models';
import { brandColors } from '../reports/brand';
import { logoImage } from '../reports/logo';
import { reportContent, reportPdf, type ReportContent } from '../reports/monthly';
import type { MonthlyReport } from '../reports/types';
import { principalFor } from '../services/auth.service';
import type { ServiceOptions } from '../services/common';
import { monthPeriod, organizationReport } from '../services/monthly-report.service';

/**
 * The monthly report by mail (issue 19, item 5): on the first of each month the `sendMonthlyReports` workflow mails
 * last month's report, as a PDF with a summary in the body, to the owners of every active account that has it on
 * (`customers.report_emails`) for each of its organisations with reviews up to the month's end, in the account's
 * language and the agency's brand. One `report_deliveries` row per organisation, month and owner, claimed before the
 * send and marked sent after it, makes a retried, concurrent or re-run month mail nobody twice.
 */

export interface ReportRecipient {
  organizationId: number;
  userId: number;
}

/**
 * Owners still to mail `month`'s report to, after `after` in (organisation, user) order: owners (the account's
 * organisation owner, or the agency owner for its own account) of active accounts with report mail on, for
 * organisations with at least one review published before the month ended, not yet mailed.
 */
export async function pendingReportRecipients(month: string, after: ReportRecipient | null, limit: number, opts: ServiceOptions = {}): Promise<ReportRecipient[]> {
  const period = monthPeriod(month);
  const sequelize = Organization.sequelize!;
  const rows = await sequelize.query<{ organizationId: number; userId: number }>(
    `SELECT o.id AS organizationId, u.id AS userId
       FROM organizations o
       JOIN customers c ON c.id = o.customer_id AND c.report_emails = 1 AND c.subscription_status = 'active'
       JOIN users u ON u.customer_id = o.customer_id AND u.role IN ('organization_owner', 'tenant_owner')
      WHERE EXISTS (SELECT 1 FROM reviews r WHERE r.organization_id = o.id AND r.published_at < :end)
        AND NOT EXISTS (SELECT 1 FROM report_deliveries d WHERE d.organization_id = o.id AND d.month = :month AND d.user_id = u.id AND d.status = 'sent')
        AND (o.id > :afterOrg OR (o.id = :afterOrg AND u.id > :afterUser))
      ORDER BY o.id, u.id
      LIMIT :limit`,
    {
      type: QueryTypes.SELECT,
      replacements: { end: new Date((period.toDay + 1) * 86_400_000), month, afterOrg: after?.organizationId ?? 0, afterUser: after?.userId ?? 0, limit },
      transaction: opts.transaction,
    },
  );
  return rows.map((r) => ({ organizationId: Number(r.organizationId), userId: Number(r.userId) }));
}

export type ReportMailOutcome = 'sent' | 'already_sent' | 'gone';

/** The mail's body: the report's headline figures and what changed, with the PDF attached (text and HTML alike). */
export function reportMailBody(report: MonthlyReport, name: string, content: ReportContent = reportContent(report)): { subject: string; text: string; html: string } {
  const { tr } = content;
  const vars = { business: report.organizationName, month: content.monthName, brand: report.brandName };
  const subject = tr.t('reportMail.subject', vars);
  const greeting = tr.t('reportMail.greeting', { name });
  const intro = tr.t('reportMail.intro', vars);
  const changesTitle = tr.t('reportMail.changes', { month: content.previousMonthName });
  const why = tr.t('reportMail.why', vars);
  const noData = tr.t('report.noData');
  const text = [
    greeting,
    '',
    intro,
    '',
    tr.t('reportMail.figures'),
    ...content.kpis.map((k) => `- ${k.label}: ${k.value} (${k.previous})`),
    '',
    changesTitle,
    ...(content.changes.length ? content.changes.map((c) => `- ${c}`) : [noData]),
    '',
    '--',
    why,
  ].join('\n');
  const band = brandColors(report.brandColor);
  const kpis = content.kpis
    .map((k) => `<tr><th scope="row" style="text-align:left;padding:4px 12px 4px 0;font-weight:normal;color:#5b6470">${esc(k.label)}</th><td style="padding:4px 12px 4px 0;font-weight:bold">${esc(k.value)}</td><td style="color:#5b6470">${esc(k.previous)}</td></tr>`)
    .join('');
  const html = `<!doctype html><html lang="${tr.language}"><head><meta charset="utf-8"><title>${esc(subject)}</title></head>
<body style="margin:0;font-family:Helvetica,Arial,sans-serif;color:#1f2328;line-height:1.5">
<div style="background:${band.band};color:${band.onBand};padding:16px 24px;font-weight:bold">${esc(report.brandName)}</div>
<div style="padding:16px 24px;max-width:640px">
<p>${esc(greeting)}</p><p>${esc(intro)}</p>
<h2 style="font-size:16px">${esc(tr.t('reportMail.figures'))}</h2><table>${kpis}</table>
<h2 style="font-size:16px">${esc(changesTitle)}</h2>
${content.changes.length ? `<ul>${content.changes.map((c) => `<li>${esc(c)}</li>`).join('')}</ul>` : `<p>${esc(noData)}</p>`}
<p style="color:#5b6470;font-size:12px;border-top:1px solid #e3e5e8;padding-top:8px">${esc(why)}</p>
</div></body></html>`;
  return { subject, text, html };
}

/** A claim older than this is taken to be left by an attempt that died (a send takes seconds): it is taken over. */
export const STALE_CLAIM_MS = 10 * 60_000;

/** Another attempt holds the claim and may be sending right now: retry later (the activity's retry policy does). */
export class ReportMailInFlight extends Error {
  constructor(readonly recipient: ReportRecipient, readonly month: string) {
    super(`The report of organisation ${recipient.organizationId} for ${month} is being sent to user ${recipient.userId} by another attempt.`);
    this.name = 'ReportMailInFlight';
  }
}

/**
 * The claim of one mail: a `sending` row under the unique (organisation, month, owner) key, or the take-over of a
 * stale one. Null when the mail went already.
 */
async function claim(tenantId: number, recipient: ReportRecipient, month: string, messageId: string, opts: ServiceOptions): Promise<ReportDelivery | null> {
  const { organizationId, userId } = recipient;
  try {
    return await ReportDelivery.create({ tenantId, organizationId, userId, month, messageId, status: 'sending' }, { transaction: opts.transaction });
  } catch (e) {
    if (!(e instanceof UniqueConstraintError)) throw e;
  }
  const held = await ReportDelivery.findOne({ where: { organizationId, userId, month }, transaction: opts.transaction });
  if (!held) throw new ReportMailInFlight(recipient, month); // released between the two statements: the next attempt claims
  if (held.status === 'sent') return null;
  const cutoff = new Date(Date.now() - STALE_CLAIM_MS);
  const [, taken] = await ReportDelivery.sequelize!.query(
    "UPDATE report_deliveries SET updated_at = NOW(3) WHERE id = :id AND status = 'sending' AND updated_at < :cutoff",
    { type: QueryTypes.UPDATE, replacements: { id: held.id, cutoff }, transaction: opts.transaction },
  );
  if (!taken) throw new ReportMailInFlight(recipient, month);
  return held;
}

/**
 * Mails `month`'s report of one organisation to one owner, unless it went already (`already_sent`) or the owner or
 * organisation is gone (`gone`). The report is read as the owner: what they see through the API is what they get.
 * Exactly once: the mail is claimed (a `sending` row under the unique key) before the send and marked `sent` after
 * it; a concurrent attempt finds the claim and is retried later (ReportMailInFlight); a send that fails releases the
 * claim and throws (the activity retries); a claim an attempt left by dying mid-send is taken over after
 * STALE_CLAIM_MS and the mail sent again under the same Message-ID.
 */
export async function sendReportMail(recipient: ReportRecipient, month: string, opts: ServiceOptions = {}): Promise<ReportMailOutcome> {
  const { organizationId, userId } = recipient;
  const done = await ReportDelivery.findOne({ where: { organizationId, userId, month, status: 'sent' }, transaction: opts.transaction });
  if (done) return 'already_sent';
  const [user, org] = await Promise.all([User.findByPk(userId, { transaction: opts.transaction }), Organization.findByPk(organizationId, { transaction: opts.transaction })]);
  if (!user || !org || user.customerId !== org.customerId) return 'gone';
  const reader = await principalFor(user, { id: 0, kind: 'customer', permissions: [...ALL_PERMISSIONS] });
  const report = await organizationReport(reader, organizationId, month, opts);
  const content = reportContent(report);
  const pdf = await reportPdf(report, content, { logo: await logoImage(report.brandLogoUrl) });
  const { subject, text, html } = reportMailBody(report, user.name, content);
  const messageId = platformMessageId(`report.${organizationId}.${month}.${userId}`);
  const claimed = await claim(org.tenantId, recipient, month, messageId, opts);
  if (!claimed) return 'already_sent';
  try {
    await platformMailer().send({
      to: user.email,
      subject,
      text,
      html,
      fromName: report.brandName,
      kind: 'monthly-report',
      messageId,
      attachments: [{ filename: `report-${organizationId}-${month}.pdf`, content: pdf, contentType: 'application/pdf' }],
    });
  } catch (e) {
    // Not sent: the claim goes, so the retry (or the next run) claims it again.
    await ReportDelivery.destroy({ where: { id: claimed.id, status: 'sending' }, transaction: opts.transaction });
    throw e;
  }
  await ReportDelivery.update({ status: 'sent' }, { where: { id: claimed.id }, transaction: opts.transaction });
  return 'sent';
}
