import { MockActivityEnvironment } from '@temporalio/testing';
import { DefaultLogger } from '@temporalio/worker';
import { createReportActivities, type ReportActivityDeps } from '../../../workflows/activities/reports';
import type { ReportRecipient } from '../../../src/jobs/report-mail';

/** The monthly report activities with their services injected (no database, no SMTP). */
describe('monthly report activities', () => {
  const owner: ReportRecipient = { organizationId: 3, userId: 14 };
  const env = () => new MockActivityEnvironment({}, { logger: new DefaultLogger('ERROR') });

  it('asks for the owners still to mail after `after`, at most `limit`, for the month', async () => {
    const calls: Parameters<ReportActivityDeps['pending']>[] = [];
    const { pendingMonthlyReportRecipients } = createReportActivities({
      pending: async (...args) => (calls.push(args), [owner]),
      send: async () => 'sent',
    });
    expect(await env().run(pendingMonthlyReportRecipients, { month: '2026-10', after: { organizationId: 2, userId: 9 }, limit: 50 })).toEqual([owner]);
    expect(await env().run(pendingMonthlyReportRecipients, { month: '2026-10', after: null, limit: 1 })).toEqual([owner]);
    expect(calls).toEqual([
      ['2026-10', { organizationId: 2, userId: 9 }, 50],
      ['2026-10', null, 1],
    ]);
  });

  it("mails one owner the month's report and answers the outcome (sent, already sent, gone)", async () => {
    const calls: Parameters<ReportActivityDeps['send']>[] = [];
    const outcomes = ['sent', 'already_sent', 'gone'] as const;
    const { sendMonthlyReport } = createReportActivities({
      pending: async () => [],
      send: async (...args) => outcomes[calls.push(args) - 1],
    });
    for (const outcome of outcomes) expect(await env().run(sendMonthlyReport, { recipient: owner, month: '2026-10' })).toBe(outcome);
    expect(calls).toEqual(outcomes.map(() => [owner, '2026-10']));
  });

  it('lets a failed send through, so Temporal retries it (and the workflow counts it failed after the last attempt)', async () => {
    const { sendMonthlyReport } = createReportActivities({
      pending: async () => [],
      send: async () => Promise.reject(new Error('connect ECONNREFUSED 127.0.0.1:25')),
    });
    await expect(env().run(sendMonthlyReport, { recipient: owner, month: '2026-10' })).rejects.toThrow('ECONNREFUSED');
  });
});
