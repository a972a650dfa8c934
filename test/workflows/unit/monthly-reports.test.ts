import { Context } from '@temporalio/activity';
import type { ReportMailOutcome } from '../../../src/jobs/report-deliveries';
import type { MonthlyMailInput } from '../../../workflows/reports/mail-run';
import { retryFailure, useWorkflowTestEnv, workflowId } from './support';

/**
 * The two monthly mails with mocked activities: `sendMonthlyReports` (each organisation's report to its owners) and
 * `sendMonthlyScanReports` (each scan's report to its agency's owners) share their run (workflows/reports/mail-run.ts),
 * so each is held to the same: paging, mails in flight, retries, a mail that fails every attempt, continue-as-new. The
 * e2e tests (test/workflows/monthly-reports.e2e.test.ts, monthly-scan-reports.e2e.test.ts) have the real database and
 * SMTP.
 */
jest.setTimeout(60_000);

type Recipient = { userId: number } & ({ organizationId: number } | { scanId: number });
type Input = { month: string; after: Recipient | null; limit: number };

const MAILS = [
  { workflow: 'sendMonthlyReports', pending: 'pendingMonthlyReportRecipients', send: 'sendMonthlyReport', recipient: (i: number): Recipient => ({ organizationId: i, userId: 100 + i }) },
  { workflow: 'sendMonthlyScanReports', pending: 'pendingMonthlyScanReportRecipients', send: 'sendMonthlyScanReport', recipient: (i: number): Recipient => ({ scanId: i, userId: 100 + i }) },
] as const;

/** Recipient i (1-based) of a mock's list. */
const indexOf = (r: Recipient): number => r.userId - 100;

describe.each(MAILS)('$workflow (mocked activities)', (mail) => {
  const temporal = useWorkflowTestEnv();
  const run = (taskQueue: string, input: MonthlyMailInput<Recipient>) =>
    temporal.client().workflow.execute(mail.workflow, { taskQueue, workflowId: workflowId('monthly'), args: [input] }) as Promise<unknown>;

  /** Recipients 1..n in the service's order, paged as the service pages them; `send` mocks the mail activity. */
  function activities(n: number, send: (input: { recipient: Recipient; month: string }) => Promise<ReportMailOutcome>) {
    const all = Array.from({ length: n }, (_, i) => mail.recipient(i + 1));
    const calls: (Input & { runId: string })[] = [];
    return {
      all,
      calls,
      mocks: {
        async [mail.pending](input: Input): Promise<Recipient[]> {
          calls.push({ ...input, runId: Context.current().info.workflowExecution!.runId });
          const from = input.after ? indexOf(input.after) : 0;
          return all.slice(from, from + input.limit);
        },
        [mail.send]: send,
      },
    };
  }

  it('mails every owner a page at a time, at most `concurrency` mails at once, and counts each outcome', async () => {
    const outcomes: ReportMailOutcome[] = ['sent', 'already_sent', 'sent', 'gone', 'sent', 'sent', 'already_sent'];
    let inFlight = 0;
    let most = 0;
    const mailed: number[] = [];
    const pending = activities(7, async ({ recipient, month }) => {
      expect(month).toBe('2026-10');
      inFlight += 1;
      most = Math.max(most, inFlight);
      await new Promise((r) => setTimeout(r, 50)); // a mail takes a while: the next one of the pair is sent meanwhile
      inFlight -= 1;
      mailed.push(indexOf(recipient));
      return outcomes[indexOf(recipient) - 1];
    });
    const result = await temporal.withWorker(pending.mocks, (q) => run(q, { month: '2026-10', pageSize: 3, concurrency: 2 }));
    expect(result).toEqual({ month: '2026-10', sent: 4, alreadySent: 2, gone: 1, failed: 0 });
    expect(pending.calls.map((c) => [c.after ? indexOf(c.after) : null, c.limit])).toEqual([[null, 3], [3, 3], [6, 3], [7, 3]]);
    expect(pending.calls[1].after).toEqual(pending.all[2]);
    expect(mailed.sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(most).toBe(2);
  });

  it('retries a failing mail and counts it once; an owner whose mail fails all 8 attempts is counted failed and the others are still mailed', async () => {
    const attempts = new Map<number, number>();
    const pending = activities(3, async ({ recipient }) => {
      const { attempt } = Context.current().info;
      attempts.set(indexOf(recipient), attempt);
      if (indexOf(recipient) === 1 && attempt < 3) throw retryFailure('SMTP 421, try again later');
      if (indexOf(recipient) === 2) throw retryFailure('SMTP server down');
      return 'sent';
    });
    const result = await temporal.withWorker(pending.mocks, (q) => run(q, { month: '2026-10', concurrency: 1 }));
    expect(result).toEqual({ month: '2026-10', sent: 2, alreadySent: 0, gone: 0, failed: 1 });
    expect(Object.fromEntries(attempts)).toEqual({ 1: 3, 2: 8, 3: 1 });
  });

  it("continues as new after 20 pages, carrying the month, the place and the totals; without a month it mails last month's", async () => {
    const pending = activities(25, async () => 'sent');
    const now = new Date();
    const lastMonth = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1)).toISOString().slice(0, 7);
    const result = await temporal.withWorker(pending.mocks, (q) => run(q, { pageSize: 1 }));
    expect(result).toEqual({ month: lastMonth, sent: 25, alreadySent: 0, gone: 0, failed: 0 });
    const runs = [...new Set(pending.calls.map((c) => c.runId))];
    expect(runs).toHaveLength(2);
    const second = pending.calls.filter((c) => c.runId === runs[1]);
    expect(pending.calls.length - second.length).toBe(20);
    expect(second[0].after).toEqual(pending.all[19]);
    expect(new Set(pending.calls.map((c) => c.month))).toEqual(new Set([lastMonth]));
  });
});

// Both mails page their recipients with the same activity options (workflows/reports/mail-run.ts PAGE_ACTIVITY): once,
// through the organisations' mail (each retry costs the dev server about a second).
describe('the recipient page of both mails, as sendMonthlyReports runs it (mocked activities)', () => {
  const temporal = useWorkflowTestEnv();

  it('waits for a recipient query that keeps failing (the database down for a while) instead of losing the month', async () => {
    const failures = 11; // past the 10 attempts the page once had: the schedule starts a month's run only once
    const all = [1, 2].map((i) => MAILS[0].recipient(i));
    const attempts: number[] = [];
    const mocks = {
      async pendingMonthlyReportRecipients(input: Input): Promise<Recipient[]> {
        const { attempt } = Context.current().info;
        attempts.push(attempt);
        if (!input.after && attempt <= failures) throw retryFailure('ECONNREFUSED 127.0.0.1:3306');
        const from = input.after ? indexOf(input.after) : 0;
        return all.slice(from, from + input.limit);
      },
      sendMonthlyReport: async (): Promise<ReportMailOutcome> => 'sent',
    };
    const result = await temporal.withWorker(mocks, (taskQueue) =>
      temporal.client().workflow.execute('sendMonthlyReports', { taskQueue, workflowId: workflowId('monthly'), args: [{ month: '2026-10' }] }),
    );
    expect(result).toEqual({ month: '2026-10', sent: 2, alreadySent: 0, gone: 0, failed: 0 });
    expect(attempts.slice(0, failures + 1)).toEqual(Array.from({ length: failures + 1 }, (_, i) => i + 1));
  });
});
