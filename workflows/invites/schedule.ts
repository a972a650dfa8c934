import { deleteSchedule } from '../client';

/**
 * The re-dispatch schedule of the workflow-per-invite design (`invite-redispatch`): the invite dispatcher reads the
 * invites table itself, so nothing can go missing; boot removes a schedule left from before.
 */
export const INVITE_REDISPATCH_SCHEDULE = 'invite-redispatch';

/** Removes the schedule of the design before the invite dispatcher (an upgraded installation no longer needs it). */
export async function removeInviteRedispatchSchedule(): Promise<void> {
  await deleteSchedule(INVITE_REDISPATCH_SCHEDULE);
}
