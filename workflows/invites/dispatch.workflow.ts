import { continueAsNew, proxyActivities, setHandler } from '@temporalio/workflow';
import type { InviteActivities } from '../activities/invites';
import { dispatchRounds, type DispatchRoundsInput } from '../dispatch-rounds';
import { applyDispatcherSettings, configureDispatcherSignal } from '../outbox/dispatch.workflow';

export type DispatchInvitesInput = DispatchRoundsInput;

/**
 * The invite dispatcher (workflow id `invite-dispatcher:<task queue>`): sends review requests from the invites table,
 * which is their queue (src/messaging/send-queue.ts), instead of one workflow per invite. Each round is one activity
 * that sends batch after batch while steps are due; between rounds it waits for a nudge (an invite committed) or its
 * poll. Being a workflow, it outlives any process: the activity is retried elsewhere and finds the claims as stored.
 * Like the outbox's, it takes the settings of each process that ensures it (`configure`: a changed `INVITE_POLL_MS`).
 */
export async function dispatchInvites(input: DispatchInvitesInput): Promise<void> {
  setHandler(configureDispatcherSignal, (settings) => applyDispatcherSettings(input, settings));
  // The activity's liveness is its heartbeat; its work is its budget (30 s) plus the longest send under way when the
  // budget ends (SMTP_SEND_DEADLINE_MS, 2 min, after a DNS look-up) and the release of the steps still waiting: the
  // start-to-close timeout is well above that (review finding M1: at 2 minutes it could end an attempt that was still
  // sending, and the retry ran beside it; each step's claim is now renewed while it is sent, so that is safe too).
  const { sendDueInvites } = proxyActivities<InviteActivities>({
    startToCloseTimeout: '10 minutes',
    heartbeatTimeout: '10s',
    retry: { initialInterval: '1s', maximumInterval: '30s' },
  });
  await dispatchRounds(input, () => sendDueInvites.executeWithOptions({ summary: `Send due review requests (up to ${input.batchSize} a batch)` }, [input.batchSize]));
  await continueAsNew<typeof dispatchInvites>(input);
}
