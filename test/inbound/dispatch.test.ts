import { randomUUID } from 'node:crypto';
import { WorkflowNotFoundError } from '@temporalio/client';
import { temporal } from '../../workflows/client';
import { inviteWorkflowId } from '../../workflows/invites/client';
import { InboundSubmission, Invite } from '../../src/models';
import { useDatabase } from '../support/db';
import { makeWorld } from '../support/factories';
import { useInviteDispatcher } from '../support/invite-dispatcher';
import { makeCampaign, makeConnection, useInboundApp } from './support';

/**
 * An inbound submission becomes an ordinary scheduled invite, the invite dispatcher's work, and the dispatcher is
 * nudged after the commit (as for the REST invite endpoint), on the run's real Temporal dev server. No worker polls
 * this file's task queue: the test looks at what Temporal holds, not at the sending (the dispatcher's tests do that).
 */
describe('inbound submissions and the invite dispatcher', () => {
  useDatabase();
  const t = useInboundApp();
  const dispatcher = useInviteDispatcher(`inbound-${randomUUID().slice(0, 8)}`);

  it('stores a scheduled invite with the send time of the connection and nudges the dispatcher; no workflow of its own', async () => {
    const w = await makeWorld();
    const campaign = await makeCampaign(w.org, w.home);
    const { path } = await makeConnection(w.orgOwner, campaign, { timing: { mode: 'delay', delayMinutes: 30 } });
    const res = await t.http().post(path).send({ email: 'durable@example.test' });
    expect(res.status).toBe(202);

    const invite = await Invite.findOne({ where: { campaignId: campaign.id } });
    expect(invite).toMatchObject({ status: 'scheduled', source: 'inbound', inboundSubmissionId: res.body.submission_id });
    expect(invite!.sendAt!.toISOString()).toBe(res.body.send_at);
    const submission = await InboundSubmission.findByPk(res.body.submission_id);
    expect(new Date(res.body.send_at).getTime() - submission!.receivedAt.getTime()).toBe(30 * 60_000);

    const history = await temporal().client.workflow.getHandle(dispatcher.workflowId).fetchHistory();
    expect((history.events ?? []).filter((e) => e.workflowExecutionSignaledEventAttributes?.signalName === 'nudge')).toHaveLength(1);
    await expect(temporal().client.workflow.getHandle(inviteWorkflowId(campaign.uuid, res.body.id)).describe()).rejects.toBeInstanceOf(WorkflowNotFoundError);
  });
});
