import { condition, continueAsNew, defineSignal, proxyActivities, setHandler } from '@temporalio/workflow';
import type { InviteActivities } from '../activities/invites';

export const inviteNudgeSignal = defineSignal('nudge');

export interface DispatchInvitesInput {
  /** How long the workflow waits between activities when nobody nudges it. */
  pollMs: number;
  /** Due steps claimed per kind and batch. */
  batchSize: number;
}

/**
 * The invite dispatcher (workflow id `invite-dispatcher:<task queue>`): sends review requests from the invites table,
 * which is their queue (src/messaging/send-queue.ts), instead of one workflow per invite. Each round is one activity
 * that sends batch after batch while steps are due; between rounds it waits for a nudge (an invite committed) or its
 * poll. Being a workflow, it outlives any process: the activity is retried elsewhere and finds the claims as stored.
 * It continues as new after 200 rounds to keep its history short.
 */
export async function dispatchInvites(input: DispatchInvitesInput): Promise<void> {
  const { sendDueInvites } = proxyActivities<InviteActivities>({
    startToCloseTimeout: '2 minutes',
    heartbeatTimeout: '10s',
    retry: { initialInterval: '1s', maximumInterval: '30s' },
  });
  let nudged = false;
  setHandler(inviteNudgeSignal, () => {
    nudged = true;
  });
  for (let round = 0; round < 200; round++) {
    nudged = false;
    const handled = await sendDueInvites.executeWithOptions({ summary: `Send due review requests (up to ${input.batchSize} a batch)` }, [input.batchSize]);
    if (handled >= input.batchSize) continue;
    await condition(() => nudged, input.pollMs);
  }
  await continueAsNew<typeof dispatchInvites>(input);
}
