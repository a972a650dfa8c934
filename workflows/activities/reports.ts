import type { ReportMailOutcome, ReportRecipient } from '../../src/jobs/report-mail';

/** Activities of the monthly report mail (`sendMonthlyReports`), wired to src/jobs/report-mail. */
export interface ReportActivityDeps {
  pending(month: string, after: ReportRecipient | null, limit: number): Promise<ReportRecipient[]>;
  send(recipient: ReportRecipient, month: string): Promise<ReportMailOutcome>;
}

export function createReportActivities(deps: ReportActivityDeps) {
  return {
    /** The next owners (after `after`) still to mail `month`'s report to. */
    async pendingMonthlyReportRecipients(input: { month: string; after: ReportRecipient | null; limit: number }): Promise<ReportRecipient[]> {
      return deps.pending(input.month, input.after, input.limit);
    },
    /** Mails one organisation's report to one owner, unless it went already (idempotent by organisation, month and owner). */
    async sendMonthlyReport(input: { recipient: ReportRecipient; month: string }): Promise<ReportMailOutcome> {
      return deps.send(input.recipient, input.month);
    },
  };
}

export type ReportActivities = ReturnType<typeof createReportActivities>;
