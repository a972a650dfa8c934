import { Context } from '@temporalio/activity';
import type { ReportActivities } from '../../../workflows/activities/reports';
import type { sendMonthlyReports } from '../../../workflows/reports/monthly.workflow';
import type { ReportMailOutcome, ReportRecipient } from '../../../src/jobs/report-mail';
import { retryFailure, useWorkflowTestEnv, workflowId } from './support';

/**
 * `sendMonthlyReports` with mocked activities: paging, mails in flight, retries, a mail that fails every attempt,
 * continue-as-new. The e2e test (test/workflows/monthly-reports.e2e.test.ts) has the real database and SMTP.
 */
jest.setTimeout(60_000);

type Input = { month: string; after: ReportRecipient | null; limit: number };

/** Owners 1..n (organisation i, user 100 + i) in (organisation, user) order, paged as the service pages them. */
function recipients(n: number) {
  const all: ReportRecipient[] = Array.from({ length: n }, (_, i) => ({ organizationId: i + 1, userId: 101 + i }));
  const calls: (Input & { runId: string })[] = [];
  return {
    all,
    calls,
    async pendingMonthlyReportRecipients(input: Input): Promise<ReportRecipient[]> {
      calls.push({ ...input, runId: Context.current().info.workflowExecution!.runId });
      const from = input.after ? all.findIndex((r) => r.organizationId === input.after!.organizationId) + 1 : 0;
      return all.slice(from, from + input.limit);
    },
  };
}

describe('sendMonthlyReports (mocked activities)', () => {
  const temporal = useWorkflowTestEnv();
  const run = (taskQueue: string, input: Parameters<typeof sendMonthlyReports>[0]) =>
    temporal.client().workflow.execute<typeof sendMonthlyReports>('sendMonthlyReports', { taskQueue, workflowId: workflowId('monthly'), args: [input] });

  it('mails every owner a page at a time, at most `concurrency` mails at once, and counts each outcome', async () => {
    const pending = recipients(7);
    const outcomes: ReportMailOutcome[] = ['sent', 'already_sent', 'sent', 'gone', 'sent', 'sent', 'already_sent'];
    let inFlight = 0;
    let most = 0;
    const mailed: number[] = [];
    const activities: ReportActivities = {
      pendingMonthlyReportRecipients: pending.pendingMonthlyReportRecipients,
      async sendMonthlyReport({ recipient, month }) {
        expect(month).toBe('2026-10');
        inFlight += 1;
        most = Math.max(most, inFlight);
        await new Promise((r) => setTimeout(r, 50)); // a mail takes a while: the next one of the pair is sent meanwhile
        inFlight -= 1;
        mailed.push(recipient.organizationId);
        return outcomes[recipient.organizationId - 1];
      },
    };
    const result = await temporal.withWorker(activities, (q) => run(q, { month: '2026-10', pageSize: 3, concurrency: 2 }));
    expect(result).toEqual({ month: '2026-10', sent: 4, alreadySent: 2, gone: 1, failed: 0 });
    expect(pending.calls.map((c) => [c.after?.organizationId ?? null, c.limit])).toEqual([[null, 3], [3, 3], [6, 3], [7, 3]]);
    expect(mailed.sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(most).toBe(2);
  });

  it('retries a failing mail and counts it once; an owner whose mail fails all 8 attempts is counted failed and the others are still mailed', async () => {
    const pending = recipients(3);
    const attempts = new Map<number, number>();
    const activities: ReportActivities = {
      pendingMonthlyReportRecipients: pending.pendingMonthlyReportRecipients,
      async sendMonthlyReport({ recipient }) {
        const { attempt } = Context.current().info;
        attempts.set(recipient.organizationId, attempt);
        if (recipient.organizationId === 1 && attempt < 3) throw retryFailure('SMTP 421, try again later');
        if (recipient.organizationId === 2) throw retryFailure('SMTP server down');
        return 'sent';
      },
    };
    const result = await temporal.withWorker(activities, (q) => run(q, { month: '2026-10', concurrency: 1 }));
    expect(result).toEqual({ month: '2026-10', sent: 2, alreadySent: 0, gone: 0, failed: 1 });
    expect(Object.fromEntries(attempts)).toEqual({ 1: 3, 2: 8, 3: 1 });
  });

  it("continues as new after 20 pages, carrying the month, the place and the totals; without a month it mails last month's", async () => {
    const pending = recipients(25);
    const activities: ReportActivities = {
      pendingMonthlyReportRecipients: pending.pendingMonthlyReportRecipients,
      sendMonthlyReport: async () => 'sent',
    };
    const now = new Date();
    const lastMonth = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1)).toISOString().slice(0, 7);
    const result = await temporal.withWorker(activities, (q) => run(q, { pageSize: 1 }));
    expect(result).toEqual({ month: lastMonth, sent: 25, alreadySent: 0, gone: 0, failed: 0 });
    const runs = [...new Set(pending.calls.map((c) => c.runId))];
    expect(runs).toHaveLength(2);
    const second = pending.calls.filter((c) => c.runId === runs[1]);
    expect(pending.calls.length - second.length).toBe(20);
    expect(second[0].after).toEqual(pending.all[19]);
    expect(new Set(pending.calls.map((c) => c.month))).toEqual(new Set([lastMonth]));
  });
});
