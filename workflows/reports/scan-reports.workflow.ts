import { continueAsNew, proxyActivities } from '@temporalio/workflow';
import type { ScanReportActivities } from '../activities/reports';
import type { ScanReportRecipient } from '../../src/jobs/scan-report-mail';
import { mailMonth, PAGE_ACTIVITY, SEND_ACTIVITY, type MonthlyMailInput, type MonthlyMailResult } from './mail-run';

export type MonthlyScanReportsInput = MonthlyMailInput<ScanReportRecipient>;
export type MonthlyScanReportsResult = MonthlyMailResult;

const { pendingMonthlyScanReportRecipients } = proxyActivities<ScanReportActivities>({ ...PAGE_ACTIVITY, summary: 'agency owners still to mail a scan report to' });
const { sendMonthlyScanReport } = proxyActivities<ScanReportActivities>({ ...SEND_ACTIVITY, summary: 'mail one scan report' });

/**
 * The monthly scan report mail (Temporal Schedule `monthly-scan-reports`, the 1st of each month at the hour of
 * `monthly-reports`): mails last month's report of every scan with a snapshot in that month to its agency's owners,
 * a page of recipients at a time, a few mails in flight, as the organisation mail (workflows/reports/mail-run.ts). Each
 * mail is idempotent by scan, month and owner (src/jobs/scan-report-mail.ts). A workflow of its own rather than a phase of
 * `sendMonthlyReports`: the runs recorded of that one replay as they were, and either mail can be run again alone.
 */
export async function sendMonthlyScanReports(input: MonthlyScanReportsInput = {}): Promise<MonthlyScanReportsResult> {
  return mailMonth(input, {
    pending: pendingMonthlyScanReportRecipients,
    send: sendMonthlyScanReport,
    failedMessage: 'scan report not mailed after every retry',
    continueAsNew: (next) => continueAsNew<typeof sendMonthlyScanReports>(next),
  });
}
