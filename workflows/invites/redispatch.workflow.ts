import { proxyActivities } from '@temporalio/workflow';
import type { InviteActivities } from '../activities/invites';
import type { RedispatchResult } from '../../src/messaging/delivery';

/**
 * The re-dispatch sweep (Temporal Schedule `invite-redispatch`, every INVITE_REDISPATCH_INTERVAL_MINUTES, 6 hours
 * by default): stored `scheduled` invites whose delivery workflow is missing or closed (Temporal was unreachable
 * when the invite was stored, its state was lost, or the campaign was paused at the send time and is active
 * again) are handed to `inviteDelivery` once more, with their stored send time.
 */
export async function redispatchInvites(): Promise<RedispatchResult> {
  const { redispatchInvites: sweep } = proxyActivities<InviteActivities>({
    startToCloseTimeout: '30m',
    retry: { initialInterval: '5s', backoffCoefficient: 2, maximumInterval: '5m', maximumAttempts: 5 },
  });
  return sweep.executeWithOptions({ summary: 'Hand scheduled invites without a running workflow to inviteDelivery' }, []);
}
