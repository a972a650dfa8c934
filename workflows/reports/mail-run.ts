import { ActivityFailure, log, workflowInfo, type ActivityOptions } from '@temporalio/workflow';
import type { ReportMailOutcome } from '../../src/jobs/report-deliveries';

/**
 * The run both monthly mails share (`sendMonthlyReports`, `sendMonthlyScanReports`; deterministic code only): the
 * recipients a page at a time, a few mails in flight, each outcome counted, continue-as-new after PAGES_PER_RUN pages.
 * Each mail is idempotent by report, month and owner (src/jobs/report-deliveries.ts), so a run that is retried,
 * replayed or started again for the same month mails nobody twice.
 */

export interface MonthlyMailInput<R> {
  /** `YYYY-MM`; absent: the month before the run's start (what the schedule's run on the 1st means). */
  month?: string;
  /** Recipients per activity page (default 50). */
  pageSize?: number;
  /** Mails in flight at once (default 4: each renders a PDF). */
  concurrency?: number;
  /** Carried over continue-as-new. */
  after?: R | null;
  totals?: MonthlyMailResult;
}

export interface MonthlyMailResult {
  month: string;
  sent: number;
  alreadySent: number;
  gone: number;
  /** Mails that still failed after every retry (the owners are not mailed this month; the log says which). */
  failed: number;
}

/** Pages per run before the history is handed to a fresh run (continue-as-new). */
export const PAGES_PER_RUN = 20;

/**
 * The page activity: a read-only query, retried until the database answers (every 5 minutes at most). A run has no
 * retry of its own (a schedule starts it once a month), so a page that gave up after a few attempts lost that month's
 * mails for everyone; an outage that lasts shows as this activity's pending attempts in the Temporal UI.
 */
export const PAGE_ACTIVITY: ActivityOptions = {
  startToCloseTimeout: '1m',
  retry: { initialInterval: '5s', backoffCoefficient: 2, maximumInterval: '5m' },
};

/** The send activity: a report (figures, charts, a PDF) and one SMTP send. */
export const SEND_ACTIVITY: ActivityOptions = {
  startToCloseTimeout: '5m',
  // A mail server that is down for a while: retried over about two hours, then that owner is counted as failed.
  retry: { initialInterval: '30s', backoffCoefficient: 2, maximumInterval: '30m', maximumAttempts: 8 },
};

/** The month before the one `at` falls in (UTC), `YYYY-MM`. */
export function previousMonthOf(at: Date): string {
  const d = new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() - 1, 1));
  return `${d.getUTCFullYear()}-${String(d.getUTCMonth() + 1).padStart(2, '0')}`;
}

export interface MonthlyMailSteps<R> {
  pending(input: { month: string; after: R | null; limit: number }): Promise<R[]>;
  send(input: { recipient: R; month: string }): Promise<ReportMailOutcome>;
  /** The log line of a mail that failed every attempt. */
  failedMessage: string;
  /** The workflow's own continue-as-new with the input of the next run. */
  continueAsNew(next: MonthlyMailInput<R>): Promise<never>;
}

export async function mailMonth<R extends object>(input: MonthlyMailInput<R>, steps: MonthlyMailSteps<R>): Promise<MonthlyMailResult> {
  const month = input.month ?? previousMonthOf(workflowInfo().runStartTime);
  const pageSize = Math.max(1, input.pageSize ?? 50);
  const concurrency = Math.max(1, input.concurrency ?? 4);
  const totals: MonthlyMailResult = input.totals ?? { month, sent: 0, alreadySent: 0, gone: 0, failed: 0 };
  let after = input.after ?? null;
  for (let page = 0; page < PAGES_PER_RUN; page++) {
    const recipients = await steps.pending({ month, after, limit: pageSize });
    if (!recipients.length) return totals;
    for (let i = 0; i < recipients.length; i += concurrency) {
      await Promise.all(
        recipients.slice(i, i + concurrency).map(async (recipient) => {
          try {
            const outcome = await steps.send({ recipient, month });
            if (outcome === 'sent') totals.sent += 1;
            else if (outcome === 'already_sent') totals.alreadySent += 1;
            else totals.gone += 1;
          } catch (e) {
            if (!(e instanceof ActivityFailure)) throw e;
            totals.failed += 1;
            log.warn(steps.failedMessage, { month, ...recipient });
          }
        }),
      );
    }
    after = recipients[recipients.length - 1];
  }
  return steps.continueAsNew({ ...input, month, after, totals });
}
