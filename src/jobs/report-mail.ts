import { ALL_PERMISSIONS } from '../domain/permissions';
import { Organization, User } from '../models';
import { logoImage } from '../reports/logo';
import { reportMail } from '../reports/mail';
import { reportContent, reportPdf, type ReportContent } from '../reports/monthly';
import type { MonthlyReport } from '../reports/types';
import { principalFor } from '../services/auth.service';
import type { ServiceOptions } from '../services/common';
import { organizationReport } from '../services/monthly-report.service';
import { mailOnce, pendingPairs, type ReportMailOutcome } from './report-deliveries';

/**
 * The monthly report by mail (issue 19, item 5): on the first of each month the `sendMonthlyReports` workflow mails
 * last month's report, as a PDF with a summary in the body, to the owners of every active account that has it on
 * (`customers.report_emails`) for each of its organisations with reviews up to the month's end, in the account's
 * language and the agency's brand. One `report_deliveries` row per organisation, month and owner, claimed before the
 * send and marked sent after it (src/jobs/report-deliveries.ts), makes a retried, concurrent or re-run month mail
 * nobody twice.
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
  const rows = await pendingPairs(
    'organization_id',
    `FROM organizations x
       JOIN customers c ON c.id = x.customer_id AND c.report_emails = 1 AND c.subscription_status = 'active'
       JOIN users u ON u.customer_id = x.customer_id AND u.role IN ('organization_owner', 'tenant_owner')
      WHERE EXISTS (SELECT 1 FROM reviews r WHERE r.organization_id = x.id AND r.published_at < :end AND r.removed_at IS NULL)`,
    month,
    after && { reportId: after.organizationId, userId: after.userId },
    limit,
    opts,
  );
  return rows.map((r) => ({ organizationId: r.reportId, userId: r.userId }));
}

/** The mail's body: the report's headline figures and what changed, with the PDF attached (text and HTML alike). */
export function reportMailBody(report: MonthlyReport, name: string, content: ReportContent = reportContent(report)): { subject: string; text: string; html: string } {
  const { tr } = content;
  const vars = { business: report.organizationName, month: content.monthName, brand: report.brandName };
  return reportMail({
    language: tr.language,
    subject: tr.t('reportMail.subject', vars),
    brand: { name: report.brandName, color: report.brandColor },
    paragraphs: [tr.t('reportMail.greeting', { name }), tr.t('reportMail.intro', vars)],
    figures: { title: tr.t('reportMail.figures'), kpis: content.kpis },
    lists: [{ title: tr.t('reportMail.changes', { month: content.previousMonthName }), items: content.changes, empty: tr.t('report.noData') }],
    why: tr.t('reportMail.why', vars),
  });
}

/**
 * Mails `month`'s report of one organisation to one owner, unless it went already (`already_sent`) or the owner or
 * organisation is gone (`gone`). The report is read as the owner: what they see through the API is what they get.
 * Exactly once by `mailOnce` (src/jobs/report-deliveries.ts): claimed before the send, marked sent after it, a
 * concurrent attempt retried later (ReportMailInFlight), a failed send released, a stale claim taken over and the mail
 * sent again under the same Message-ID.
 */
export async function sendReportMail(recipient: ReportRecipient, month: string, opts: ServiceOptions = {}): Promise<ReportMailOutcome> {
  const { organizationId, userId } = recipient;
  return mailOnce({ subject: { organizationId }, userId, month }, async () => {
    const [user, org] = await Promise.all([User.findByPk(userId, { transaction: opts.transaction }), Organization.findByPk(organizationId, { transaction: opts.transaction })]);
    if (!user || !org || user.customerId !== org.customerId) return null;
    const reader = await principalFor(user, { id: 0, kind: 'customer', permissions: [...ALL_PERMISSIONS] });
    const report = await organizationReport(reader, organizationId, month, opts);
    const content = reportContent(report);
    return {
      tenantId: org.tenantId,
      to: user.email,
      body: reportMailBody(report, user.name, content),
      fromName: report.brandName,
      kind: 'monthly-report',
      messageKey: `report.${organizationId}.${month}.${userId}`,
      pdf: { filename: `report-${organizationId}-${month}.pdf`, content: await reportPdf(report, content, { logo: await logoImage(report.brandLogoUrl) }) },
    };
  }, opts);
}
