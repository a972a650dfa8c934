import { randomUUID } from 'node:crypto';
import { fixedClock } from '../../../src/domain/clock';
import { Invite } from '../../../src/models';
import { connectTemporal, disconnectTemporal, temporal } from '../../../workflows/client';
import { inviteWorkflowId } from '../../../workflows/invites/client';
import { useApp } from '../../support/app';
import { makeWorld } from '../../support/factories';
import { makeCampaign } from '../../campaigns/factories';

process.env.LOG_LEVEL ??= 'silent';

const NOW = new Date('2026-03-02T12:00:00Z');
const HOUR = 3_600_000;

/**
 * The hand-off of POST .../invite to Temporal, on the run's real dev server. No worker polls this file's task
 * queue, so the workflow is started and signalled but never runs: the test reads what the API gave Temporal
 * (the business-key workflow id and the `reschedule` signals), independently of the delivery workflow's code.
 */
describe('POST /api/v1/request-reviews/campaigns/{campaign}/invite hands the invite to Temporal', () => {
  const clock = fixedClock(NOW);
  const t = useApp({ clock });
  const started: string[] = [];

  beforeAll(async () => {
    const address = process.env.REVIEWGRID_TEST_TEMPORAL;
    if (!address) throw new Error('no Temporal dev server: global setup sets REVIEWGRID_TEST_TEMPORAL');
    await connectTemporal({
      address,
      namespace: 'default',
      taskQueue: `test-campaigns-${randomUUID().slice(0, 8)}`,
      webhookRetry: { maximumAttempts: 1, initialIntervalMs: 10, maximumIntervalMs: 10, timeoutMs: 1000 },
      dispatcher: { pollMs: 1000, batchSize: 10 },
    });
  }, 60_000);

  async function cleanUp(): Promise<void> {
    const { client } = temporal();
    for (const id of started.splice(0)) await client.workflow.getHandle(id).terminate('test finished').catch(() => undefined);
    await disconnectTemporal();
  }

  afterAll(async () => {
    await cleanUp().catch(() => undefined); // the last test disconnected already
  });

  /** The `reschedule` signals the workflow received, in order. */
  async function signals(workflowId: string): Promise<Array<{ inviteId: number; sendAt: string }>> {
    const history = await temporal().client.workflow.getHandle(workflowId).fetchHistory();
    const { defaultPayloadConverter } = await import('@temporalio/common');
    return (history.events ?? [])
      .filter((e) => e.workflowExecutionSignaledEventAttributes?.signalName === 'reschedule')
      .map((e) => defaultPayloadConverter.fromPayload(e.workflowExecutionSignaledEventAttributes!.input!.payloads![0]) as { inviteId: number; sendAt: string });
  }

  it('starts invite:<campaign>:<contact> with the send time and signals the moved time on resubmission', async () => {
    const w = await makeWorld();
    const campaign = await makeCampaign(w.orgOwner, w.org, { sendAfterHours: 1 });
    const first = await t.as(w.tokens.orgOwner).post(`/api/v1/request-reviews/campaigns/${campaign.uuid}/invite`).send({ email: 'temporal@example.com' });
    expect(first.status).toBe(202);
    const workflowId = inviteWorkflowId(campaign.uuid, first.body.id);
    started.push(workflowId);
    const [invite] = await Invite.findAll({ where: { campaignId: campaign.id } });
    const description = await temporal().client.workflow.getHandle(workflowId).describe();
    expect(description.type).toBe('inviteDelivery');
    expect(await signals(workflowId)).toEqual([{ inviteId: Number(invite.id), sendAt: new Date(NOW.getTime() + HOUR).toISOString() }]);

    clock.advance(2 * HOUR);
    const again = await t.as(w.tokens.orgOwner).post(`/api/v1/request-reviews/campaigns/${campaign.uuid}/invite`).send({ email: 'temporal@example.com', send_after_hours: 5 });
    expect(again.status).toBe(202);
    expect(await signals(workflowId)).toEqual([
      { inviteId: Number(invite.id), sendAt: new Date(NOW.getTime() + HOUR).toISOString() },
      { inviteId: Number(invite.id), sendAt: new Date(NOW.getTime() + 7 * HOUR).toISOString() },
    ]);
  });

  it('still answers 202 with the invite stored as scheduled when Temporal cannot be reached', async () => {
    await cleanUp();
    const w = await makeWorld();
    const campaign = await makeCampaign(w.orgOwner, w.org);
    const res = await t.as(w.tokens.orgOwner).post(`/api/v1/request-reviews/campaigns/${campaign.uuid}/invite`).send({ email: 'offline@example.com' });
    expect(res.status).toBe(202);
    expect(res.body.message).toBe('Invites sent successfully.');
    const invites = await Invite.findAll({ where: { campaignId: campaign.id } });
    expect(invites.map((i) => i.status)).toEqual(['scheduled']);
  });
});
