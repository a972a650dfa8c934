import { ScheduleAlreadyRunning, ScheduleNotFoundError, WorkflowNotFoundError } from '@temporalio/client';
import { inviteDeliverySettings } from '../../src/messaging/settings';
import { temporal } from '../client';
import { startMetadata } from '../../src/temporal/search-attributes';

/**
 * The re-dispatch schedule of invite delivery (`invite-redispatch`, every 6 hours by default), and the question
 * the sweep asks Temporal about each stored invite: is its workflow still running?
 */
export const INVITE_REDISPATCH_SCHEDULE = 'invite-redispatch';

export const inviteRedispatchScheduleId = (): string => {
  const scope = inviteDeliverySettings().idScope;
  return scope ? `${INVITE_REDISPATCH_SCHEDULE}:${scope}` : INVITE_REDISPATCH_SCHEDULE;
};

/** Makes sure the schedule exists (every worker start calls this; an existing one is left as it is). */
export async function ensureInviteRedispatchSchedule(): Promise<boolean> {
  const { client, settings } = temporal();
  const scheduleId = inviteRedispatchScheduleId();
  try {
    await client.schedule.create({
      scheduleId,
      spec: { intervals: [{ every: inviteDeliverySettings().redispatchEveryMs }] },
      action: {
        type: 'startWorkflow',
        workflowType: 'redispatchInvites',
        workflowId: scheduleId,
        taskQueue: settings.taskQueue,
        args: [],
        ...startMetadata({ tenant: null, kind: 'invite-redispatch', businessId: scheduleId }, 'Re-dispatches scheduled invites whose workflow is missing'),
      },
      policies: { overlap: 'SKIP', catchupWindow: '1 minute' },
    });
    return true;
  } catch (e) {
    if (!(e instanceof ScheduleAlreadyRunning)) throw e;
    return false;
  }
}

export async function removeInviteRedispatchSchedule(): Promise<void> {
  const { client } = temporal();
  try {
    await client.schedule.getHandle(inviteRedispatchScheduleId()).delete();
  } catch (e) {
    if (!(e instanceof ScheduleNotFoundError)) throw e;
  }
}

/** Whether the workflow with this id has a running execution (false: never started, or closed). */
export async function isWorkflowRunning(workflowId: string): Promise<boolean> {
  const { client } = temporal();
  try {
    const d = await client.workflow.getHandle(workflowId).describe();
    return d.status.name === 'RUNNING';
  } catch (e) {
    if (e instanceof WorkflowNotFoundError) return false;
    throw e;
  }
}
