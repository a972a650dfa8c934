import { ActivityFailure, continueAsNew, log, proxyActivities, workflowInfo } from '@temporalio/workflow';
import type { ReportActivities } from '../activities/reports';
import type { ReportRecipient } from '../../src/jobs/report-mail';

export interface MonthlyReportsInput {
  /** `YYYY-MM`; absent: the month before the run's start (what the schedule's run on the 1st means). */
  month?: string;
  /** Recipients per activity page (default 50). */
  pageSize?: number;
  /** Mails in flight at once (default 4: each renders a PDF). */
  concurrency?: number;
  /** Carried over continue-as-new. */
  after?: ReportRecipient | null;
  totals?: MonthlyReportsResult;
}

export interface MonthlyReportsResult {
  month: string;
  sent: number;
  alreadySent: number;
  gone: number;
  /** Mails that still failed after every retry (the owners are not mailed this month; the log says which). */
  failed: number;
}

/** Pages per run before the history is handed to a fresh run (continue-as-new). */
const PAGES_PER_RUN = 20;

const { pendingMonthlyReportRecipients } = proxyActivities<ReportActivities>({
  startToCloseTimeout: '1m',
  retry: { initialInterval: '5s', backoffCoefficient: 2, maximumInterval: '1m', maximumAttempts: 10 },
  summary: 'owners still to mail the monthly report to',
});
const { sendMonthlyReport } = proxyActivities<ReportActivities>({
  // A report (12 months of figures, charts, a PDF) and one SMTP send.
  startToCloseTimeout: '5m',
  // A mail server that is down for a while: retried over about two hours, then that owner is counted as failed.
  retry: { initialInterval: '30s', backoffCoefficient: 2, maximumInterval: '30m', maximumAttempts: 8 },
  summary: 'mail one monthly report',
});

/** The month before the one `at` falls in (UTC), `YYYY-MM`. */
export function previousMonthOf(at: Date): string {
  const d = new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() - 1, 1));
  return `${d.getUTCFullYear()}-${String(d.getUTCMonth() + 1).padStart(2, '0')}`;
}

/**
 * The monthly report mail (Temporal Schedule `monthly-reports`, the 1st of each month at 06:00 UTC): mails last
 * month's report to the owners of every organisation that has one, a page of recipients at a time, a few mails in
 * flight. Each mail is idempotent by organisation, month and owner (src/jobs/report-mail.ts), so a run
 * that is retried, replayed or started again for the same month mails nobody twice.
 */
export async function sendMonthlyReports(input: MonthlyReportsInput = {}): Promise<MonthlyReportsResult> {
  const month = input.month ?? previousMonthOf(workflowInfo().runStartTime);
  const pageSize = Math.max(1, input.pageSize ?? 50);
  const concurrency = Math.max(1, input.concurrency ?? 4);
  const totals: MonthlyReportsResult = input.totals ?? { month, sent: 0, alreadySent: 0, gone: 0, failed: 0 };
  let after = input.after ?? null;
  for (let page = 0; page < PAGES_PER_RUN; page++) {
    const recipients = await pendingMonthlyReportRecipients({ month, after, limit: pageSize });
    if (!recipients.length) return totals;
    for (let i = 0; i < recipients.length; i += concurrency) {
      await Promise.all(
        recipients.slice(i, i + concurrency).map(async (recipient) => {
          try {
            const outcome = await sendMonthlyReport({ recipient, month });
            if (outcome === 'sent') totals.sent += 1;
            else if (outcome === 'already_sent') totals.alreadySent += 1;
            else totals.gone += 1;
          } catch (e) {
            if (!(e instanceof ActivityFailure)) throw e;
            totals.failed += 1;
            log.warn('monthly report not mailed after every retry', { month, ...recipient });
          }
        }),
      );
    }
    after = recipients[recipients.length - 1];
  }
  return continueAsNew<typeof sendMonthlyReports>({ ...input, month, after, totals });
}
