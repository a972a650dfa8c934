import { claimBatch } from '../../src/messaging/batch';
import { sendClaimed, sendInviteStep, settleSent } from '../../src/messaging/delivery';
import { deferDueStep, sendDueStep, sendDueSteps, type DueStep, type Run } from '../../src/messaging/send-queue';
import { configureInviteDelivery, resetInviteDelivery } from '../../src/messaging/settings';
import { MessagingUnavailable, type ChannelSender } from '../../src/messaging/types';
import { ContactActivity, Invite, InviteMessage } from '../../src/models';
import { creditBalance } from '../../src/services/credits.service';
import { useDatabase } from '../support/db';
import { makeWorld } from '../support/factories';
import { recordingSender } from '../support/recording-sender';
import { giveCredits, makeCampaign, makeContact, makeInvite } from './fixtures';

/**
 * What the send queue promises when sends are slow or keep failing (review findings M1, M2, L2), on the real database
 * with senders that wait or fail as told: a step goes at most once whoever picks it up, what a provider took is
 * recorded as soon as it is taken, and a step that keeps failing ends after its last attempt.
 */
describe('the send queue with slow and failing sends', () => {
  useDatabase();
  afterEach(() => resetInviteDelivery());

  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
  const until = (at: number) => sleep(Math.max(0, at - Date.now()));
  const past = () => new Date(Date.now() - 1_000);
  const run: Run = (work) => work();
  const first = (inviteId: number): DueStep => ({ inviteId, stepIndex: null, kind: 'first' });

  async function oneInvite(credits = 3) {
    const w = await makeWorld();
    await giveCredits(w, 'email', credits);
    const campaign = await makeCampaign(w);
    const invite = await makeInvite(campaign, await makeContact(campaign), past());
    return { w, campaign, invite };
  }

  describe('a claim is renewed while its step is sent (M1)', () => {
    it('a step claimed long before its send starts is not sent again by the stale path while the send is open', async () => {
      configureInviteDelivery({ inFlightGraceMs: 1_000 });
      const { invite } = await oneInvite();
      const { sent, senderFor } = recordingSender({ answer: () => sleep(800) });
      const batch = await claimBatch([first(invite.id)], { senderFor });
      expect(batch.claimed).toHaveLength(1);
      const { claim, input } = batch.claimed[0];
      const claimedAt = claim.message.sentAt.getTime();

      // The step waited 600 ms for a send slot; its send takes 800 ms, so it is on the wire when its claim is a grace old.
      await until(claimedAt + 600);
      const sending = sendClaimed(claim, input, { senderFor });
      await until(claimedAt + 1_050);
      expect(await sendDueStep({ inviteId: invite.id, stepIndex: 0, kind: 'stale' }, { senderFor })).toBe('in_flight');

      const result = await sending;
      expect('providerMessageId' in result).toBe(true);
      await settleSent([result as Exclude<typeof result, { outcome: unknown }>]);
      expect(sent).toHaveLength(1);
      expect(await InviteMessage.findOne({ where: { inviteId: invite.id } })).toMatchObject({ status: 'sent', providerMessageId: 'id-1' });
    });

    it('a send longer than the grace keeps its claim: the stale path finds it in flight each time it looks', async () => {
      configureInviteDelivery({ inFlightGraceMs: 1_000 });
      const { w, invite } = await oneInvite();
      const { sent, senderFor } = recordingSender({ answer: () => sleep(2_500) });
      const started = Date.now();
      const sending = sendInviteStep({ inviteId: invite.id, stepIndex: 0, first: true }, { senderFor });
      for (const at of [1_300, 2_100]) {
        await until(started + at);
        expect(await sendDueStep({ inviteId: invite.id, stepIndex: 0, kind: 'stale' }, { senderFor })).toBe('in_flight');
      }
      expect(await sending).toEqual({ outcome: 'sent', reason: null, sendAt: null });
      expect(sent).toHaveLength(1);
      expect(await creditBalance(w.org.customerId, 'email')).toBe(2);
    });

    it('a claim taken over while it waited for a send slot is not sent by the attempt that claimed it', async () => {
      configureInviteDelivery({ inFlightGraceMs: 1_000 });
      const { invite } = await oneInvite();
      const { sent, senderFor } = recordingSender();
      const batch = await claimBatch([first(invite.id)], { senderFor });
      const { claim, input } = batch.claimed[0];
      await until(claim.message.sentAt.getTime() + 1_100);
      // The stale path takes it over and sends it (same Message-ID); the attempt that claimed it then finds it taken.
      expect(await sendDueStep({ inviteId: invite.id, stepIndex: 0, kind: 'stale' }, { senderFor })).toBe('sent');
      await expect(sendClaimed(claim, input, { senderFor })).rejects.toMatchObject({ name: 'StepInFlight' });
      expect(sent).toHaveLength(1);
    });
  });

  it('records each step of a batch as soon as its provider took it, while a slow one of the batch is still sending (M2)', async () => {
    configureInviteDelivery({ inFlightGraceMs: 60_000 });
    const slow = await oneInvite(1);
    const fast = await makeWorld();
    await giveCredits(fast, 'email', 10);
    const campaign = await makeCampaign(fast);
    const others = await Promise.all(Array.from({ length: 10 }, async () => makeInvite(campaign, await makeContact(campaign), past())));
    let release!: () => void;
    const released = new Promise<void>((r) => (release = r));
    const senderFor = async (customerId: number): Promise<ChannelSender> => ({
      label: 'recorder',
      async send() {
        if (customerId === slow.w.org.customerId) await released;
        return { providerMessageId: `id-${customerId}` };
      },
    });
    const ids = others.map((i) => i.id);

    const delivering = sendDueSteps([...others, slow.invite].map((i) => first(i.id)), run, { senderFor });
    try {
      // A crash now would leave only the slow step to the stale path: the others are recorded.
      const deadline = Date.now() + 5_000;
      while ((await InviteMessage.count({ where: { inviteId: ids, status: 'sent' } })) < 10 && Date.now() < deadline) await sleep(20);
      expect(await InviteMessage.count({ where: { inviteId: ids, status: 'sent' } })).toBe(10);
      expect(await ContactActivity.count({ where: { inviteId: ids, type: 'sent' } })).toBe(10);
      expect(await InviteMessage.findOne({ where: { inviteId: slow.invite.id } })).toMatchObject({ status: 'sending' });
    } finally {
      release();
    }
    expect((await delivering).map((o) => (o.status === 'fulfilled' ? o.value : o.reason))).toEqual(Array(11).fill('sent'));
    expect(await InviteMessage.findOne({ where: { inviteId: slow.invite.id } })).toMatchObject({ status: 'sent' });
  });

  it('records the steps its providers take close together in one group: one statement for their rows, one for their timeline', async () => {
    const w = await makeWorld();
    await giveCredits(w, 'email', 12);
    const campaign = await makeCampaign(w);
    const invites = await Promise.all(Array.from({ length: 12 }, async () => makeInvite(campaign, await makeContact(campaign), past())));
    const ids = invites.map((i) => i.id);
    const { sent, senderFor } = recordingSender();
    const sequelize = Invite.sequelize!;
    const statements: string[] = [];
    sequelize.addHook('beforeQuery', 'settle-groups', (_options, query) => void statements.push((query as unknown as { sql?: string }).sql ?? ''));
    let outcomes;
    try {
      // Every provider answers at once: all twelve are taken within SETTLE_LINGER_MS of the first.
      outcomes = await sendDueSteps(ids.map(first), run, { senderFor });
    } finally {
      sequelize.removeHook('beforeQuery', 'settle-groups');
    }
    expect(outcomes.map((o) => (o.status === 'fulfilled' ? o.value : o.reason))).toEqual(Array(12).fill('sent'));
    expect(sent).toHaveLength(12);
    // Recorded as one group (before, each step taken while a group committed went into the next: two groups or more).
    expect(statements.filter((sql) => /^INSERT INTO `invite_messages`.* ON DUPLICATE KEY UPDATE/s.test(sql))).toHaveLength(1);
    expect(statements.filter((sql) => sql.startsWith('INSERT INTO `contact_activities`'))).toHaveLength(1);
    expect(await InviteMessage.count({ where: { inviteId: ids, status: 'sent' } })).toBe(12);
    expect(await ContactActivity.count({ where: { inviteId: ids, type: 'sent' } })).toBe(12);
  });

  it('counts the attempts of a step whose provider stays unavailable, backs off, and records it failed after the last', async () => {
    configureInviteDelivery({ inFlightGraceMs: 60_000 });
    const { w, invite } = await oneInvite(1);
    const { senderFor } = recordingSender({
      answer: () => {
        throw new MessagingUnavailable('The mail server did not take the message in time (EABORT)');
      },
    });
    const outcomes: unknown[] = [];
    for (let attempt = 1; attempt <= 12; attempt++) {
      await Invite.update({ retryAt: null }, { where: { id: invite.id } }); // due again now, not after its backoff
      const before = Date.now();
      const [outcome] = await sendDueSteps([first(invite.id)], run, { senderFor });
      outcomes.push(outcome.status === 'fulfilled' ? outcome.value : outcome.reason);
      const row = (await Invite.findByPk(invite.id))!;
      if (attempt === 2) {
        // The second attempt: 2 s doubled.
        expect(row.sendAttempts).toBe(2);
        expect(row.retryAt!.getTime()).toBeGreaterThanOrEqual(before + 4_000);
      }
    }
    expect(outcomes).toEqual([...Array(11).fill('retry'), 'failed']);
    expect(await Invite.findByPk(invite.id)).toMatchObject({ status: 'failed', reason: expect.stringMatching(/^provider_unavailable: /) });
    expect(await creditBalance(w.org.customerId, 'email')).toBe(1);
  });

  it('records a first step that keeps failing unexpectedly as failed after its last attempt (L2)', async () => {
    const { invite } = await oneInvite();
    const boom = new Error('a rule tripped over this row');
    const outcomes: unknown[] = [];
    for (let attempt = 1; attempt <= 12; attempt++) outcomes.push(await deferDueStep(first(invite.id), boom));
    expect(outcomes).toEqual([...Array(11).fill('retry'), 'failed']);
    expect(await Invite.findByPk(invite.id)).toMatchObject({ status: 'failed', reason: 'internal_error: a rule tripped over this row', retryAt: null });
    expect(await ContactActivity.findOne({ where: { inviteId: invite.id, type: 'failed' } })).toMatchObject({ detail: expect.stringContaining('internal_error') });
    // Once failed, it is not due any more.
    expect(await deferDueStep(first(invite.id), boom)).toBe('done');
  });
});
