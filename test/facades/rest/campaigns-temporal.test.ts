import { randomUUID } from 'node:crypto';
import { fixedClock } from '../../../src/domain/clock';
import { Invite } from '../../../src/models';
import { WorkflowNotFoundError } from '@temporalio/client';
import { waitUntil } from '../../support/wait';
import { temporal } from '../../../workflows/client';
import { inviteWorkflowId } from '../../../workflows/invites/client';
import { useApp } from '../../support/app';
import { makeWorld } from '../../support/factories';
import { useInviteDispatcher } from '../../support/invite-dispatcher';
import { makeCampaign } from '../../campaigns/factories';

process.env.LOG_LEVEL ??= 'silent';

const NOW = new Date('2026-03-02T12:00:00Z');
const HOUR = 3_600_000;

/**
 * The hand-off of POST .../invite to Temporal, on the run's real dev server: the stored invite is the invite
 * dispatcher's work, and the API nudges the dispatcher after the commit. No worker polls this file's task queue, so
 * the dispatcher is started but never runs: the test reads what the API gave Temporal (the `nudge` signals, and no
 * workflow of the invite's own), independently of the dispatcher's code.
 */
describe('POST /api/v1/request-reviews/campaigns/{campaign}/invite hands the invite to Temporal', () => {
  const clock = fixedClock(NOW);
  const t = useApp({ clock });
  const { workflowId: dispatcherId, stop: cleanUp } = useInviteDispatcher(`test-campaigns-${randomUUID().slice(0, 8)}`);

  /** How many `nudge` signals the dispatcher received. */
  async function nudges(): Promise<number> {
    const history = await temporal().client.workflow.getHandle(dispatcherId).fetchHistory();
    return (history.events ?? []).filter((e) => e.workflowExecutionSignaledEventAttributes?.signalName === 'nudge').length;
  }

  it('stores the invite with its send time for the invite dispatcher, nudges it after the commit, and moves the time on resubmission', async () => {
    const w = await makeWorld();
    const campaign = await makeCampaign(w.orgOwner, w.org, { sendAfterHours: 1 });
    const first = await t.as(w.tokens.orgOwner).post(`/api/v1/request-reviews/campaigns/${campaign.uuid}/invite`).send({ email: 'temporal@example.com' });
    expect(first.status).toBe(202);
    const [invite] = await Invite.findAll({ where: { campaignId: campaign.id } });
    expect(invite).toMatchObject({ status: 'scheduled', sendAt: new Date(NOW.getTime() + HOUR), nextStepIndex: null, retryAt: null, sendAttempts: 0 });
    expect(await nudges()).toBe(1);
    // No workflow of the invite's own.
    await expect(temporal().client.workflow.getHandle(inviteWorkflowId(campaign.uuid, first.body.id)).describe()).rejects.toBeInstanceOf(WorkflowNotFoundError);

    clock.advance(2 * HOUR);
    const again = await t.as(w.tokens.orgOwner).post(`/api/v1/request-reviews/campaigns/${campaign.uuid}/invite`).send({ email: 'temporal@example.com', send_after_hours: 5 });
    expect(again.status).toBe(202);
    await invite.reload();
    expect(invite.sendAt).toEqual(new Date(NOW.getTime() + 7 * HOUR));
    expect(await Invite.count({ where: { campaignId: campaign.id } })).toBe(1);
    // A second nudge within a second of the first goes when the second is up (nudges are spaced).
    await waitUntil(async () => (await nudges()) === 2, 10_000, 50);
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
