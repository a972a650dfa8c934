import { continueAsNew, proxyActivities } from '@temporalio/workflow';
import type { ReportActivities } from '../activities/reports';
import type { ReportRecipient } from '../../src/jobs/report-mail';
import { mailMonth, PAGE_ACTIVITY, SEND_ACTIVITY, type MonthlyMailInput, type MonthlyMailResult } from './mail-run';

export { previousMonthOf } from './mail-run';

export type MonthlyReportsInput = MonthlyMailInput<ReportRecipient>;
export type MonthlyReportsResult = MonthlyMailResult;

const { pendingMonthlyReportRecipients } = proxyActivities<ReportActivities>({ ...PAGE_ACTIVITY, summary: 'owners still to mail the monthly report to' });
const { sendMonthlyReport } = proxyActivities<ReportActivities>({ ...SEND_ACTIVITY, summary: 'mail one monthly report' });

/**
 * The monthly report mail (Temporal Schedule `monthly-reports`, the 1st of each month at 06:00 UTC): mails last
 * month's report to the owners of every organisation that has one, a page of recipients at a time, a few mails in
 * flight (workflows/reports/mail-run.ts). Each mail is idempotent by organisation, month and owner
 * (src/jobs/report-mail.ts), so a run that is retried, replayed or started again for the same month mails nobody twice.
 */
export async function sendMonthlyReports(input: MonthlyReportsInput = {}): Promise<MonthlyReportsResult> {
  return mailMonth(input, {
    pending: pendingMonthlyReportRecipients,
    send: sendMonthlyReport,
    failedMessage: 'monthly report not mailed after every retry',
    continueAsNew: (next) => continueAsNew<typeof sendMonthlyReports>(next),
  });
}
