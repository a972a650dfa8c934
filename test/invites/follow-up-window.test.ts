import { fixedClock } from '../../src/domain/clock';
import { sendInviteStep } from '../../src/messaging/delivery';
import { sendDueSteps, type DueStep, type Run } from '../../src/messaging/send-queue';
import { configureInviteDelivery, resetInviteDelivery } from '../../src/messaging/settings';
import { Invite } from '../../src/models';
import { useDatabase } from '../support/db';
import { makeWorld } from '../support/factories';
import { recordingSender } from '../support/recording-sender';
import { EMAIL_STEP, giveCredits, makeCampaign, makeContact, makeInvite } from './fixtures';

/**
 * Spec rule 7 for follow-up steps: the campaign's send window (UTC) holds for every step, not only the first. A
 * follow-up whose time (the first message plus its delay) falls outside the window is stored for the start of the
 * next window; the steps after it keep their distance to it. The stored due times are asserted at fixed clocks: no
 * waiting.
 */
describe('follow-up steps and the campaign send window', () => {
  useDatabase();
  beforeAll(() => configureInviteDelivery({ hourMs: 3_600_000, inFlightGraceMs: 60_000 }));
  afterAll(() => resetInviteDelivery());

  const run: Run = (work) => work();
  const at = (iso: string) => new Date(iso);
  const STEPS = [EMAIL_STEP, { ...EMAIL_STEP, subject: 'Reminder', delayHours: 3 }, { ...EMAIL_STEP, subject: 'Last reminder', delayHours: 4 }];

  async function windowed() {
    const w = await makeWorld();
    await giveCredits(w, 'email', 20);
    return makeCampaign(w, { steps: STEPS, window: ['14:00', '22:00'] });
  }

  it('stores a follow-up that would fall after the window closes for the start of the next window (the batch claim)', async () => {
    const campaign = await windowed();
    const invite = await makeInvite(campaign, await makeContact(campaign), at('2026-03-02T21:30:00Z'));
    const { sent, senderFor } = recordingSender();
    const first: DueStep = { inviteId: invite.id, stepIndex: null, kind: 'first' };

    expect(await sendDueSteps([first], run, { clock: fixedClock(at('2026-03-02T21:30:00Z')), senderFor })).toEqual([{ status: 'fulfilled', value: 'sent' }]);
    // Step 2 is 3 hours after 21:30, 00:30 the next day, outside 14:00-22:00: due at 14:00 the next day.
    expect(await Invite.findByPk(invite.id)).toMatchObject({ status: 'sent', nextStepIndex: 1, nextStepAt: at('2026-03-03T14:00:00Z') });

    // Sent at 14:00; step 3 (4 hours after the first message: 01:30) keeps its hour after step 2 instead of going with it.
    const second: DueStep = { inviteId: invite.id, stepIndex: 1, kind: 'follow-up' };
    expect(await sendDueSteps([second], run, { clock: fixedClock(at('2026-03-03T14:00:00Z')), senderFor })).toEqual([{ status: 'fulfilled', value: 'sent' }]);
    expect(await Invite.findByPk(invite.id)).toMatchObject({ nextStepIndex: 2, nextStepAt: at('2026-03-03T15:00:00Z') });
    expect(sent.map((m) => m.subject)).toEqual([expect.stringContaining('How did we do'), 'Reminder']);
  });

  it('does the same on the one-at-a-time claim, and leaves follow-ups inside the window at their own distance', async () => {
    const campaign = await windowed();
    const { senderFor } = recordingSender();
    const late = await makeInvite(campaign, await makeContact(campaign), at('2026-03-02T21:30:00Z'));
    await sendInviteStep({ inviteId: late.id, stepIndex: 0, first: true }, { clock: fixedClock(at('2026-03-02T21:30:00Z')), senderFor });
    expect(await Invite.findByPk(late.id)).toMatchObject({ nextStepIndex: 1, nextStepAt: at('2026-03-03T14:00:00Z') });

    const early = await makeInvite(campaign, await makeContact(campaign), at('2026-03-02T14:30:00Z'));
    await sendInviteStep({ inviteId: early.id, stepIndex: 0, first: true }, { clock: fixedClock(at('2026-03-02T14:30:00Z')), senderFor });
    expect(await Invite.findByPk(early.id)).toMatchObject({ nextStepIndex: 1, nextStepAt: at('2026-03-02T17:30:00Z') });
  });

  it('moves a follow-up found long after its time while the window is closed to the next window start, sending nothing', async () => {
    const campaign = await windowed();
    const { sent, senderFor } = recordingSender();
    const invite = await makeInvite(campaign, await makeContact(campaign), at('2026-03-02T18:00:00Z'));
    await sendInviteStep({ inviteId: invite.id, stepIndex: 0, first: true }, { clock: fixedClock(at('2026-03-02T18:00:00Z')), senderFor });
    expect(await Invite.findByPk(invite.id)).toMatchObject({ nextStepIndex: 1, nextStepAt: at('2026-03-02T21:00:00Z') });

    // The dispatcher was down: the reminder due at 21:00 is found at 23:00, after the window closed.
    const due: DueStep = { inviteId: invite.id, stepIndex: 1, kind: 'follow-up' };
    expect(await sendDueSteps([due], run, { clock: fixedClock(at('2026-03-02T23:00:00Z')), senderFor })).toEqual([{ status: 'fulfilled', value: 'not_due' }]);
    expect(await Invite.findByPk(invite.id)).toMatchObject({ nextStepIndex: 1, nextStepAt: at('2026-03-03T14:00:00Z') });
    expect(sent).toHaveLength(1);
  });
});
