import { createReportActivities, createScanReportActivities, type MonthlyMailDeps } from '../../../workflows/activities/reports';
import { activityEnv } from './support';

/**
 * The activities of the two monthly mails with their jobs injected (no database, no SMTP): the organisation report's
 * (`pendingMonthlyReportRecipients`, `sendMonthlyReport`) and the scan report's (`pendingMonthlyScanReportRecipients`,
 * `sendMonthlyScanReport`).
 */
type Activities<R> = {
  pending: (input: { month: string; after: R | null; limit: number }) => Promise<R[]>;
  send: (input: { recipient: R; month: string }) => Promise<string>;
};

function describeActivities<R>(name: string, owner: R, before: R, build: (deps: MonthlyMailDeps<R>) => Activities<R>) {
  describe(`${name} activities`, () => {
    it('asks for the owners still to mail after `after`, at most `limit`, for the month', async () => {
      const calls: Parameters<MonthlyMailDeps<R>['pending']>[] = [];
      const { pending } = build({ pending: async (...args) => (calls.push(args), [owner]), send: async () => 'sent' });
      expect(await activityEnv().run(pending, { month: '2026-10', after: before, limit: 50 })).toEqual([owner]);
      expect(await activityEnv().run(pending, { month: '2026-10', after: null, limit: 1 })).toEqual([owner]);
      expect(calls).toEqual([
        ['2026-10', before, 50],
        ['2026-10', null, 1],
      ]);
    });

    it("mails one owner the month's report and answers the outcome (sent, already sent, gone)", async () => {
      const calls: Parameters<MonthlyMailDeps<R>['send']>[] = [];
      const outcomes = ['sent', 'already_sent', 'gone'] as const;
      const { send } = build({ pending: async () => [], send: async (...args) => outcomes[calls.push(args) - 1] });
      for (const outcome of outcomes) expect(await activityEnv().run(send, { recipient: owner, month: '2026-10' })).toBe(outcome);
      expect(calls).toEqual(outcomes.map(() => [owner, '2026-10']));
    });

    it('lets a failed send through, so Temporal retries it (and the workflow counts it failed after the last attempt)', async () => {
      const { send } = build({ pending: async () => [], send: async () => Promise.reject(new Error('connect ECONNREFUSED 127.0.0.1:25')) });
      await expect(activityEnv().run(send, { recipient: owner, month: '2026-10' })).rejects.toThrow('ECONNREFUSED');
    });
  });
}

describeActivities('monthly report', { organizationId: 3, userId: 14 }, { organizationId: 2, userId: 9 }, (deps) => {
  const a = createReportActivities(deps);
  return { pending: a.pendingMonthlyReportRecipients, send: a.sendMonthlyReport };
});
describeActivities('scan report', { scanId: 7, userId: 14 }, { scanId: 5, userId: 9 }, (deps) => {
  const a = createScanReportActivities(deps);
  return { pending: a.pendingMonthlyScanReportRecipients, send: a.sendMonthlyScanReport };
});
