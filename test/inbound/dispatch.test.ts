import { randomUUID } from 'node:crypto';
import { connectTemporal, disconnectTemporal, temporal } from '../../workflows/client';
import { inviteWorkflowId, INVITE_RESCHEDULE_SIGNAL } from '../../workflows/invites/client';
import { InboundSubmission, Invite } from '../../src/models';
import { useDatabase } from '../support/db';
import { makeWorld } from '../support/factories';
import { makeCampaign, makeConnection, useInboundApp } from './support';

/**
 * An inbound submission becomes an ordinary scheduled invite handed to its durable workflow (the same
 * signal-with-start as the REST invite endpoint), on the run's real Temporal dev server. No worker polls this
 * file's task queue: the test looks at the workflow Temporal holds, not at its sending (H4's tests do that).
 */
describe('inbound submissions and the invite workflow', () => {
  useDatabase();
  const t = useInboundApp();
  const taskQueue = `inbound-${randomUUID().slice(0, 8)}`;

  beforeAll(async () => {
    const address = process.env.REVIEWGRID_TEST_TEMPORAL;
    if (!address) throw new Error('no Temporal dev server: global setup sets REVIEWGRID_TEST_TEMPORAL');
    await connectTemporal({
      address,
      namespace: 'default',
      taskQueue,
      webhookRetry: { maximumAttempts: 1, initialIntervalMs: 10, maximumIntervalMs: 10, timeoutMs: 1000 },
      dispatcher: { pollMs: 1000, batchSize: 10 },
    });
  });
  afterAll(async () => {
    await disconnectTemporal();
  });

  it('signals-with-start invite:<campaign>:<contact> with the stored invite and its send time', async () => {
    const w = await makeWorld();
    const campaign = await makeCampaign(w.org, w.home);
    const { path } = await makeConnection(w.orgOwner, campaign, { timing: { mode: 'delay', delayMinutes: 30 } });
    const res = await t.http().post(path).send({ email: 'durable@example.test' });
    expect(res.status).toBe(202);

    const invite = await Invite.findOne({ where: { campaignId: campaign.id } });
    expect(invite).toMatchObject({ status: 'scheduled', source: 'inbound', inboundSubmissionId: res.body.submission_id });
    const handle = temporal().client.workflow.getHandle(inviteWorkflowId(campaign.uuid, res.body.id));
    try {
      const described = await handle.describe();
      expect(described.type).toBe('inviteDelivery');
      expect(described.taskQueue).toBe(taskQueue);
      const history = await handle.fetchHistory();
      const signals = (history.events ?? []).filter((e) => e.workflowExecutionSignaledEventAttributes?.signalName === INVITE_RESCHEDULE_SIGNAL);
      expect(signals).toHaveLength(1);
      const payload = signals[0].workflowExecutionSignaledEventAttributes!.input!.payloads![0];
      expect(JSON.parse(Buffer.from(payload.data!).toString('utf8'))).toEqual({ inviteId: Number(invite!.id), sendAt: res.body.send_at });
      const submission = await InboundSubmission.findByPk(res.body.submission_id);
      expect(new Date(res.body.send_at).getTime() - submission!.receivedAt.getTime()).toBe(30 * 60_000);
    } finally {
      await handle.terminate('test finished').catch(() => undefined);
    }
  });
});
