/**
 * The workflow-per-invite design before the invite dispatcher (`dispatchInvites`, src/messaging/send-queue.ts):
 * one `inviteDelivery` workflow per (campaign, contact), id `invite:<campaign uuid>:<contact uuid>`. Nothing starts
 * one any more; the types stay for runs started before an upgrade (they finish on the same activities) and for the
 * replay of their histories.
 */
export const inviteWorkflowId = (campaignUuid: string, contactUuid: string): string => `invite:${campaignUuid}:${contactUuid}`;

/** What the `reschedule` signal carried: the invite to send and its (new) send time. */
export interface InviteRescheduleSignal {
  inviteId: number;
  /** ISO 8601. */
  sendAt: string;
}
