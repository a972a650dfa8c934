import { WorkflowNotFoundError } from '@temporalio/client';
import { temporal } from '../client';
import { shortId, startMetadata } from '../../src/temporal/search-attributes';

/**
 * Durable invite delivery: one workflow per (campaign, contact), id `invite:<campaign uuid>:<contact uuid>`
 * (the business key). The stored invite row is the truth; the workflow only waits for its send time and runs the
 * campaign steps through activities that re-read the row.
 */
export const inviteWorkflowId = (campaignUuid: string, contactUuid: string): string => `invite:${campaignUuid}:${contactUuid}`;

export interface InviteDeliveryRequest {
  inviteId: number;
  campaignUuid: string;
  contactUuid: string;
  sendAt: Date;
  /** Who the campaign belongs to and its name, for operators (search attributes and summary). */
  campaign?: { tenantId: number; customerId: number; organizationId: number; name: string };
}

/** Signal carrying the invite to send and its (new) send time; a resubmission while waiting moves the time. */
export const INVITE_RESCHEDULE_SIGNAL = 'reschedule';
export const INVITE_CANCEL_SIGNAL = 'cancel';

export interface InviteRescheduleSignal {
  inviteId: number;
  /** ISO 8601. */
  sendAt: string;
}

/**
 * Starts the pair's workflow, or signals the running one with the new send time (signal-with-start: one
 * round trip, no race between "is it running?" and "start it").
 */
export async function scheduleInviteDelivery(req: InviteDeliveryRequest): Promise<void> {
  const { client, settings } = temporal();
  const signal: InviteRescheduleSignal = { inviteId: req.inviteId, sendAt: req.sendAt.toISOString() };
  await client.workflow.signalWithStart('inviteDelivery', {
    workflowId: inviteWorkflowId(req.campaignUuid, req.contactUuid),
    taskQueue: settings.taskQueue,
    args: [{ campaignUuid: req.campaignUuid, contactUuid: req.contactUuid }],
    signal: INVITE_RESCHEDULE_SIGNAL,
    signalArgs: [signal],
    // Set when this call starts the workflow; a running one keeps its own. The business id is the contact's: the
    // workflow outlives single invites, and the contact id is what the invite endpoint answers with.
    ...startMetadata(
      {
        tenant: req.campaign?.tenantId,
        account: req.campaign?.customerId,
        organization: req.campaign?.organizationId,
        kind: 'invite',
        businessId: req.contactUuid,
      },
      `Invites to contact ${shortId(req.contactUuid)} for campaign ${req.campaign ? `"${req.campaign.name}"` : shortId(req.campaignUuid)}`,
    ),
  });
}

/** Tells a waiting workflow its invite was canceled (contact unsubscribed); absent workflows are fine. */
export async function cancelInviteDelivery(campaignUuid: string, contactUuid: string, inviteId: number): Promise<void> {
  const { client } = temporal();
  try {
    await client.workflow.getHandle(inviteWorkflowId(campaignUuid, contactUuid)).signal(INVITE_CANCEL_SIGNAL, { inviteId });
  } catch (e) {
    if (!(e instanceof WorkflowNotFoundError)) throw e;
  }
}
