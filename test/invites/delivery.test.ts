import { failInviteStep, planInvite, sendInviteStep, StepInFlight } from '../../src/messaging/delivery';
import { configureInviteDelivery, resetInviteDelivery } from '../../src/messaging/settings';
import { MessagingRejected, MessagingUnavailable } from '../../src/messaging/types';
import { CATALOGUES } from '../../src/i18n';
import { fixedClock } from '../../src/domain/clock';
import { Customer, Invite, InviteMessage } from '../../src/models';
import { creditBalance } from '../../src/services/credits.service';
import { useDatabase } from '../support/db';
import { makeWorld } from '../support/factories';
import { recordingSender } from '../support/recording-sender';
import { EMAIL_STEP, giveCredits, makeCampaign, makeContact, makeInvite, phoneNumber, SMS_STEP } from './fixtures';

/**
 * The delivery rules the workflow's activities apply, called directly on the real database with a recording
 * sender: the plan, at-most-once steps (a retry or a concurrent attempt never sends twice), refusals and credits.
 */
describe('invite delivery rules', () => {
  useDatabase();
  beforeAll(() => configureInviteDelivery({ hourMs: 1_000, inFlightGraceMs: 60_000 }));
  afterAll(() => resetInviteDelivery());

  const past = () => new Date(Date.now() - 1_000);

  it('plans the steps that can reach the contact, the first at the send time and the rest at their distance', async () => {
    const w = await makeWorld();
    const campaign = await makeCampaign(w, { steps: [EMAIL_STEP, SMS_STEP(24), { ...EMAIL_STEP, delayHours: 48 }] });
    const both = await makeContact(campaign, { phone: phoneNumber() });
    const phoneOnly = await makeContact(campaign, { email: null, phone: phoneNumber() });
    const a = await makeInvite(campaign, both, past());
    const b = await makeInvite(campaign, phoneOnly, past());
    expect(await planInvite(a.id)).toMatchObject({
      action: 'send',
      steps: [
        { index: 0, channel: 'email', offsetMs: 0 },
        { index: 1, channel: 'sms', offsetMs: 24_000 },
        { index: 2, channel: 'email', offsetMs: 48_000 },
      ],
    });
    expect(await planInvite(b.id)).toMatchObject({ action: 'send', steps: [{ index: 1, channel: 'sms', offsetMs: 0 }] });
  });

  it('waits for a later stored send time, holds invites of paused campaigns or accounts, and fails unreachable contacts', async () => {
    const w = await makeWorld();
    const campaign = await makeCampaign(w);
    const later = new Date(Date.now() + 60_000);
    const waiting = await makeInvite(campaign, await makeContact(campaign), later);
    expect(await planInvite(waiting.id)).toEqual({ action: 'wait', inviteId: waiting.id, sendAt: later.toISOString() });

    const paused = await makeCampaign(w, { pausedAt: new Date() });
    const held = await makeInvite(paused, await makeContact(paused), past());
    expect(await planInvite(held.id)).toMatchObject({ action: 'done', outcome: 'held', detail: 'campaign_paused' });
    await Customer.update({ subscriptionStatus: 'paused' }, { where: { id: w.org.customerId } });
    const accountHeld = await makeInvite(campaign, await makeContact(campaign), past());
    expect(await planInvite(accountHeld.id)).toMatchObject({ action: 'done', outcome: 'held', detail: 'account_paused' });
    expect((await Invite.findByPk(accountHeld.id))!.status).toBe('scheduled');
    await Customer.update({ subscriptionStatus: 'active' }, { where: { id: w.org.customerId } });

    const nobody = await makeInvite(campaign, await makeContact(campaign, { email: null, phone: phoneNumber() }), past());
    expect(await planInvite(nobody.id)).toMatchObject({ action: 'done', outcome: 'failed', detail: 'no_recipient' });
    expect((await Invite.findByPk(nobody.id))!.reason).toMatch(/^no_recipient: /);
  });

  it('moves an invite found long after its send time into the campaign send window', async () => {
    const w = await makeWorld();
    const now = new Date();
    const hour = (h: number) => `${String((now.getUTCHours() + h + 24) % 24).padStart(2, '0')}:00`;
    // A window that opens two hours from now: the current time is outside it.
    const campaign = await makeCampaign(w, { window: [hour(2), hour(4)] });
    const late = await makeInvite(campaign, await makeContact(campaign), new Date(now.getTime() - 3 * 3_600_000));
    const plan = await planInvite(late.id);
    expect(plan.action).toBe('wait');
    const at = new Date((plan as { sendAt: string }).sendAt);
    expect(at.getUTCHours()).toBe((now.getUTCHours() + 2) % 24);
    expect(at.getUTCMinutes()).toBe(0);
    expect((await Invite.findByPk(late.id))!.sendAt!.toISOString()).toBe(at.toISOString());
  });

  it('sends a step once: a retried call answers the recorded outcome, and a concurrent attempt finds the claim', async () => {
    const w = await makeWorld();
    await giveCredits(w, 'email', 3);
    const campaign = await makeCampaign(w);
    const invite = await makeInvite(campaign, await makeContact(campaign), past());
    const slow = recordingSender({ answer: () => new Promise((r) => setTimeout(r, 300)) });
    const input = { inviteId: invite.id, stepIndex: 0, first: true };
    const [one, two] = await Promise.allSettled([sendInviteStep(input, { senderFor: slow.senderFor }), sendInviteStep(input, { senderFor: slow.senderFor })]);
    const outcomes = [one, two].map((r) => (r.status === 'fulfilled' ? r.value.outcome : r.reason instanceof StepInFlight ? 'in_flight' : String(r.reason)));
    expect(outcomes.sort()).toEqual(['in_flight', 'sent']);
    expect(await sendInviteStep(input, { senderFor: slow.senderFor })).toEqual({ outcome: 'sent', reason: null, sendAt: null });
    expect(slow.sent).toHaveLength(1);
    expect(await InviteMessage.count({ where: { inviteId: invite.id } })).toBe(1);
    expect(await creditBalance(w.org.customerId, 'email')).toBe(2);
  });

  /**
   * A sender whose first call waits until `release` and then answers as `outcome` says (an attempt that stalled past
   * the in-flight grace with its send still open), and whose later calls are recorded and accepted.
   */
  function stallingSender(outcome: 'unavailable' | 'rejected' | 'accepted') {
    let release!: () => void;
    const released = new Promise<void>((r) => (release = r));
    let stalling!: () => void;
    const stalled = new Promise<void>((r) => (stalling = r));
    const { sent, senderFor } = recordingSender({
      label: 'stalling',
      async answer(_message, call) {
        if (call > 1) return;
        stalling();
        await released;
        if (outcome === 'unavailable') throw new MessagingUnavailable('The mail server could not be reached (ECONNECTION)');
        if (outcome === 'rejected') throw new MessagingRejected('Mailbox unavailable', 550);
      },
    });
    return { sent, stalled, release, senderFor };
  }

  describe('a claim taken over while its attempt stalled stays the take-over\'s', () => {
    /** A first step whose attempt has claimed it and is stalled in its send (`attempt`, settled once released). */
    async function stalledAttempt(outcome: 'unavailable' | 'rejected' | 'accepted', credits = 1) {
      const w = await makeWorld();
      await giveCredits(w, 'email', credits);
      const campaign = await makeCampaign(w);
      const invite = await makeInvite(campaign, await makeContact(campaign), past());
      const input = { inviteId: invite.id, stepIndex: 0, first: true };
      const stall = stallingSender(outcome);
      const attempt = sendInviteStep(input, { senderFor: stall.senderFor });
      await stall.stalled;
      return { w, campaign, invite, input, stall, attempt };
    }

    async function stalledThenTakenOver(outcome: 'unavailable' | 'rejected') {
      const { w, invite, input, stall, attempt } = await stalledAttempt(outcome, 3);
      const claim = await InviteMessage.findOne({ where: { inviteId: invite.id } });
      // Past the grace (60 s here): the queue's stale kind takes the claim over and sends the email again, same Message-ID.
      const later = fixedClock(new Date(Date.now() + 61_000));
      expect(await sendInviteStep(input, { senderFor: stall.senderFor, clock: later })).toEqual({ outcome: 'sent', reason: null, sendAt: null });
      stall.release();
      return { w, invite, input, stall, first: attempt, claim: claim! };
    }

    it('the stalled attempt failing as not sent neither removes the claim nor puts the invite back for a third send', async () => {
      const { w, invite, input, stall, first, claim } = await stalledThenTakenOver('unavailable');
      await expect(first).rejects.toBeInstanceOf(StepInFlight);
      const row = (await InviteMessage.findOne({ where: { inviteId: invite.id } }))!;
      expect(row).toMatchObject({ status: 'sent', providerMessageId: 'id-2' });
      expect(row.claimToken).toMatch(/^[0-9a-f-]{36}$/);
      expect(row.claimToken).not.toBe(claim.claimToken);
      expect(await Invite.findByPk(invite.id)).toMatchObject({ status: 'sent' });
      expect(await creditBalance(w.org.customerId, 'email')).toBe(2);
      // A later attempt answers what the row says and sends nothing.
      expect(await sendInviteStep(input, { senderFor: stall.senderFor })).toEqual({ outcome: 'sent', reason: null, sendAt: null });
      expect(stall.sent).toHaveLength(1);
      expect(stall.sent[0].messageId).toBeTruthy();
    });

    it('the stalled attempt refused by the provider leaves the step sent and its credit taken', async () => {
      const { w, invite, stall, first } = await stalledThenTakenOver('rejected');
      await expect(first).rejects.toBeInstanceOf(StepInFlight);
      expect(await InviteMessage.findOne({ where: { inviteId: invite.id } })).toMatchObject({ status: 'sent', providerMessageId: 'id-2', error: null });
      expect(await Invite.findByPk(invite.id)).toMatchObject({ status: 'sent', reason: null });
      expect(await creditBalance(w.org.customerId, 'email')).toBe(2);
      expect(stall.sent).toHaveLength(1);
    });

    it("a stalled attempt's settle waits for the invite's lock, so a take-over under that lock reads the row as last committed", async () => {
      const { invite, stall, attempt } = await stalledAttempt('accepted');
      const sequelize = Invite.sequelize!;
      // A transaction holding the invite's lock, as a take-over does from its first statement.
      const holder = await sequelize.transaction();
      try {
        await Invite.findByPk(invite.id, { transaction: holder, lock: holder.LOCK.UPDATE });
        stall.release();
        // The attempt's settle (the upsert of the step's row: its foreign key check on the invite) waits for that lock:
        // its statement is seen still running after half a second (it takes milliseconds otherwise).
        const waiting = async () => {
          const [rows] = (await sequelize.query(
            "SELECT COUNT(*) AS n FROM information_schema.PROCESSLIST WHERE INFO LIKE 'INSERT INTO `invite_messages`%' AND TIME_MS > 500",
          )) as [Array<{ n: number }>, unknown];
          return Number(rows[0].n) > 0;
        };
        let seen = false;
        for (let i = 0; i < 100 && !seen; i++) {
          seen = await waiting();
          if (!seen) await new Promise((r) => setTimeout(r, 50));
        }
        expect(seen).toBe(true);
        expect(await InviteMessage.findOne({ where: { inviteId: invite.id } })).toMatchObject({ status: 'sending' });
      } finally {
        await holder.commit();
      }
      await expect(attempt).resolves.toMatchObject({ outcome: 'sent' });
      expect(await InviteMessage.findOne({ where: { inviteId: invite.id } })).toMatchObject({ status: 'sent', providerMessageId: 'id-1' });
    });

    it('a stalled attempt failing while its take-over holds the invite waits for it (one lock order, no deadlock)', async () => {
      const { w, invite, input, stall, attempt } = await stalledAttempt('unavailable', 3);
      const sequelize = Invite.sequelize!;
      // In the take-over's transaction, after it locked the invite and before it touches the step's row: the stalled
      // attempt gets its "not sent" and starts its undo, which must wait for the invite before it takes the row.
      let once = true;
      const undoWaits = async () => {
        if (!once) return;
        once = false;
        stall.release();
        for (let i = 0; i < 100; i++) {
          const [rows] = (await sequelize.query(
            "SELECT COUNT(*) AS n FROM information_schema.PROCESSLIST WHERE INFO LIKE '%`invites`%' AND TIME_MS > 300",
          )) as [Array<{ n: number }>, unknown];
          if (Number(rows[0].n) > 0) return;
          await new Promise((r) => setTimeout(r, 50));
        }
        throw new Error('The stalled attempt never waited for the invite.');
      };
      InviteMessage.addHook('beforeFind', 'undo-waits', undoWaits);
      try {
        const later = fixedClock(new Date(Date.now() + 61_000));
        expect(await sendInviteStep(input, { senderFor: stall.senderFor, clock: later })).toEqual({ outcome: 'sent', reason: null, sendAt: null });
      } finally {
        InviteMessage.removeHook('beforeFind', 'undo-waits');
      }
      expect(once).toBe(false);
      await expect(attempt).rejects.toBeInstanceOf(StepInFlight);
      expect(await InviteMessage.findOne({ where: { inviteId: invite.id } })).toMatchObject({ status: 'sent', providerMessageId: 'id-2' });
      expect(await Invite.findByPk(invite.id)).toMatchObject({ status: 'sent' });
      expect(await creditBalance(w.org.customerId, 'email')).toBe(2);
      expect(stall.sent).toHaveLength(1);
    });

    it('recording the step failed after its last attempt waits for another attempt\'s claim still in flight', async () => {
      const { campaign, invite, stall, attempt } = await stalledAttempt('accepted');
      const failing = { inviteId: invite.id, stepIndex: 0, first: true, reason: 'The mail server could not be reached (ECONNECTION)' };
      await expect(failInviteStep(failing)).rejects.toBeInstanceOf(StepInFlight);
      stall.release();
      await expect(attempt).resolves.toMatchObject({ outcome: 'sent' });
      expect(await Invite.findByPk(invite.id)).toMatchObject({ status: 'sent', reason: null });
      // A claim left past its grace (the attempt died) is still recorded failed, as before.
      const stale = await makeInvite(campaign, await makeContact(campaign), past());
      await InviteMessage.create({ tenantId: stale.tenantId, inviteId: stale.id, stepIndex: 0, channel: 'email', status: 'sending', recipient: 'x@example.test', sentAt: new Date(Date.now() - 120_000) });
      expect(await failInviteStep({ ...failing, inviteId: stale.id })).toMatchObject({ outcome: 'failed' });
    });

    it('an attempt that still holds its claim undoes it when nothing was sent', async () => {
      const { w, invite, stall, attempt } = await stalledAttempt('unavailable');
      stall.release();
      await expect(attempt).rejects.toBeInstanceOf(MessagingUnavailable);
      expect(await InviteMessage.count({ where: { inviteId: invite.id } })).toBe(0);
      expect(await Invite.findByPk(invite.id)).toMatchObject({ status: 'scheduled', sentAt: null });
      expect(await creditBalance(w.org.customerId, 'email')).toBe(1);
    });
  });

  it("writes a step without its own text in the account's language (issue 19): default subject and body, footer, SMS opt-out", async () => {
    const w = await makeWorld();
    await Customer.update({ language: 'es' }, { where: { id: w.org.customerId } });
    await giveCredits(w, 'email', 1);
    await giveCredits(w, 'sms', 1);
    const campaign = await makeCampaign(w, { steps: [{ channel: 'email', delayHours: 0, subject: '', body: '' }, { channel: 'sms', delayHours: 1, body: '' }] });
    const invite = await makeInvite(campaign, await makeContact(campaign, { phone: phoneNumber(), firstName: 'Lucía' }), past());
    const rec = recordingSender();
    expect((await sendInviteStep({ inviteId: invite.id, stepIndex: 0, first: true }, { senderFor: rec.senderFor })).outcome).toBe('sent');
    expect((await sendInviteStep({ inviteId: invite.id, stepIndex: 1, first: false }, { senderFor: rec.senderFor })).outcome).toBe('sent');
    const [mail, sms] = rec.sent;
    const es = CATALOGUES.es.invite;
    expect(mail.subject).toBe(es.subject.replace('{business_name}', w.org.name));
    expect(mail.body).toContain(es.body.split(',')[0].replace('{first_name}', 'Lucía'));
    expect(mail.body).toContain(es.textFooter.replace('{{link}}', ''));
    expect(mail.html).toContain('<html lang="es">');
    expect(sms.body).toContain(es.smsStop.split(':')[0]);
  });

  it('gives the credit back and fails the invite when the provider refuses; a later follow-up failure leaves it sent', async () => {
    const w = await makeWorld();
    await giveCredits(w, 'email', 2);
    await giveCredits(w, 'sms', 1);
    const campaign = await makeCampaign(w, { steps: [EMAIL_STEP, SMS_STEP(1)] });
    const refused = await makeInvite(campaign, await makeContact(campaign), past());
    const refusing = recordingSender({
      answer: () => {
        throw new MessagingRejected('Mailbox unavailable', 550);
      },
    });
    expect(await sendInviteStep({ inviteId: refused.id, stepIndex: 0, first: true }, { senderFor: refusing.senderFor })).toMatchObject({
      outcome: 'failed',
      reason: 'provider_rejected: Mailbox unavailable',
    });
    expect(await Invite.findByPk(refused.id)).toMatchObject({ status: 'failed', reason: 'provider_rejected: Mailbox unavailable', sentAt: null });
    expect(await creditBalance(w.org.customerId, 'email')).toBe(2);

    const ok = recordingSender();
    const contact = await makeContact(campaign); // no phone: the SMS follow-up cannot go
    const invite = await makeInvite(campaign, contact, past());
    expect((await sendInviteStep({ inviteId: invite.id, stepIndex: 0, first: true }, { senderFor: ok.senderFor })).outcome).toBe('sent');
    expect(await sendInviteStep({ inviteId: invite.id, stepIndex: 1, first: false }, { senderFor: ok.senderFor })).toMatchObject({ outcome: 'failed', reason: expect.stringMatching(/^no_phone_number: /) });
    expect((await Invite.findByPk(invite.id))!.status).toBe('sent');
    expect(await creditBalance(w.org.customerId, 'sms')).toBe(1);
  });

  it('records a step failed once the provider stayed unavailable through every retry', async () => {
    const w = await makeWorld();
    const campaign = await makeCampaign(w);
    const invite = await makeInvite(campaign, await makeContact(campaign), past());
    const result = await failInviteStep({ inviteId: invite.id, stepIndex: 0, first: true, reason: 'The mail server could not be reached (ECONNECTION)' });
    expect(result.outcome).toBe('failed');
    expect((await Invite.findByPk(invite.id))!.reason).toBe('provider_unavailable: The mail server could not be reached (ECONNECTION)');
  });
});
