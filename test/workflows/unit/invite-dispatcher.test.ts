import { Context } from '@temporalio/activity';
import type { InviteActivities } from '../../../workflows/activities/invites';
import { nudgeSignal } from '../../../workflows/dispatch-rounds';
import type { dispatchInvites } from '../../../workflows/invites/dispatch.workflow';
import { waitUntil } from '../../support/wait';
import { retryFailure, useWorkflowTestEnv, workflowId } from './support';

/**
 * `dispatchInvites` with a mocked activity: its rounds ask for `batchSize` steps, go on at once while a round is full,
 * wait for a nudge otherwise, and a failed round is retried (the rounds themselves are `dispatchRounds`, unit-tested
 * with the outbox dispatcher). The e2e test (test/workflows/invite-dispatch.e2e.test.ts) has the database and SMTP.
 */
jest.setTimeout(60_000);

const HOUR = 3_600_000;

describe('dispatchInvites (mocked activity)', () => {
  const temporal = useWorkflowTestEnv();

  it('asks for its batch size, goes on while rounds are full, retries a failed round, and waits for a nudge', async () => {
    const rounds: Array<{ limit: number; attempt: number }> = [];
    const handled = [25, 25, 3, 0];
    const activities: Pick<InviteActivities, 'sendDueInvites'> = {
      async sendDueInvites(limit) {
        const attempt = Context.current().info.attempt;
        rounds.push({ limit, attempt });
        if (rounds.length === 2) throw retryFailure('database restarting');
        return handled.shift() ?? 0;
      },
    };
    await temporal.withWorker(activities, async (taskQueue) => {
      const handle = await temporal.client().workflow.start<typeof dispatchInvites>('dispatchInvites', { taskQueue, workflowId: workflowId('invites'), args: [{ pollMs: HOUR, batchSize: 25 }] });
      try {
        // 25 (full: next at once), a failure retried (25, full), then 3 (not full): it waits.
        await waitUntil(async () => ((await handle.fetchHistory()).events ?? []).some((e) => e.timerStartedEventAttributes), 20_000, 50);
        expect(rounds).toEqual([
          { limit: 25, attempt: 1 },
          { limit: 25, attempt: 1 },
          { limit: 25, attempt: 2 },
          { limit: 25, attempt: 1 },
        ]);
        await handle.signal(nudgeSignal);
        await waitUntil(async () => rounds.length === 5, 20_000, 50);
      } finally {
        await handle.terminate('test finished');
      }
    });
  });
});
