import type { ReportMailOutcome } from '../../src/jobs/report-deliveries';
import type { ReportRecipient } from '../../src/jobs/report-mail';
import type { ScanReportRecipient } from '../../src/jobs/scan-report-mail';

/** What a monthly mail's activities call (src/jobs/report-mail or src/jobs/scan-report-mail). */
export interface MonthlyMailDeps<R> {
  pending(month: string, after: R | null, limit: number): Promise<R[]>;
  send(recipient: R, month: string): Promise<ReportMailOutcome>;
}

/** Activities of the monthly report mail (`sendMonthlyReports`), wired to src/jobs/report-mail. */
export type ReportActivityDeps = MonthlyMailDeps<ReportRecipient>;
/** Activities of the monthly scan report mail (`sendMonthlyScanReports`), wired to src/jobs/scan-report-mail. */
export type ScanReportActivityDeps = MonthlyMailDeps<ScanReportRecipient>;

/** A monthly mail's two activities: the next recipients (after `after`) still to mail, and one mail (idempotent). */
function monthlyMailActivities<R>(deps: MonthlyMailDeps<R>) {
  return {
    pending: async (input: { month: string; after: R | null; limit: number }): Promise<R[]> => deps.pending(input.month, input.after, input.limit),
    send: async (input: { recipient: R; month: string }): Promise<ReportMailOutcome> => deps.send(input.recipient, input.month),
  };
}

export function createReportActivities(deps: ReportActivityDeps) {
  const { pending, send } = monthlyMailActivities(deps);
  return {
    /** The next owners (after `after`) still to mail `month`'s report to. */
    pendingMonthlyReportRecipients: pending,
    /** Mails one organisation's report to one owner, unless it went already (idempotent by organisation, month and owner). */
    sendMonthlyReport: send,
  };
}

export function createScanReportActivities(deps: ScanReportActivityDeps) {
  const { pending, send } = monthlyMailActivities(deps);
  return {
    /** The next agency owners (after `after`, in scan and user order) still to mail `month`'s scan report to. */
    pendingMonthlyScanReportRecipients: pending,
    /** Mails one scan's report to one agency owner, unless it went already (idempotent by scan, month and owner). */
    sendMonthlyScanReport: send,
  };
}

export type ReportActivities = ReturnType<typeof createReportActivities>;
export type ScanReportActivities = ReturnType<typeof createScanReportActivities>;
