import { sendInviteStep } from '../../src/messaging/delivery';
import { sendDueSteps, type DueStep, type Run } from '../../src/messaging/send-queue';
import { configureInviteDelivery, resetInviteDelivery } from '../../src/messaging/settings';
import { MessagingRejected, MessagingUnavailable } from '../../src/messaging/types';
import { Contact, ContactActivity, CreditConsumption, Invite, InviteMessage } from '../../src/models';
import { creditBalance } from '../../src/services/credits.service';
import { countStatements, useDatabase } from '../support/db';
import { makeWorld } from '../support/factories';
import { recordingSender, type RecordingSenderOptions } from '../support/recording-sender';
import { EMAIL_STEP, giveCredits, makeCampaign, makeContact, makeInvite, phoneNumber, SMS_STEP, type World } from './fixtures';
import { forgetLinkDomains } from '../../src/services/link-domain.service';

/**
 * A batch of due steps claimed in one transaction (`sendDueSteps`, src/messaging/batch.ts), on the real database with
 * a recording sender: each step ends as the one-at-a-time path would have ended it, whatever else is in its batch.
 */
describe('the send queue, a batch at a time', () => {
  const db = useDatabase();
  beforeAll(() => configureInviteDelivery({ hourMs: 1_000, inFlightGraceMs: 60_000 }));
  afterAll(() => resetInviteDelivery());

  const run: Run = (work) => work();
  const past = () => new Date(Date.now() - 1_000);
  const first = (inviteId: number): DueStep => ({ inviteId, stepIndex: null, kind: 'first' });

  /** A recording sender and the batch's options that send through it. */
  function recorder(answer?: RecordingSenderOptions['answer']) {
    const { sent, senderFor } = recordingSender({ answer });
    return { sent, opts: { senderFor } };
  }

  async function account(credits: number): Promise<World> {
    const w = await makeWorld();
    await giveCredits(w, 'email', credits);
    return w;
  }

  it('sends each due first step once, with its own credit, step row, invite state and timeline row', async () => {
    const w = await account(10);
    const campaign = await makeCampaign(w);
    const invites = await Promise.all(Array.from({ length: 6 }, async () => makeInvite(campaign, await makeContact(campaign), past())));
    const { sent, opts } = recorder();

    const outcomes = await sendDueSteps(invites.map((i) => first(i.id)), run, opts);

    expect(outcomes).toEqual(invites.map(() => ({ status: 'fulfilled', value: 'sent' })));
    expect(sent).toHaveLength(6);
    for (const invite of invites) {
      await invite.reload();
      expect(invite).toMatchObject({ status: 'sent', nextStepIndex: null, sendAttempts: 0 });
      expect(await InviteMessage.findAll({ where: { inviteId: invite.id } })).toEqual([expect.objectContaining({ stepIndex: 0, status: 'sent', channel: 'email' })]);
      expect(await CreditConsumption.count({ where: { reference: `invite:${invite.uuid}:step:0`, credits: 1 } })).toBe(1);
      expect(await ContactActivity.count({ where: { inviteId: invite.id, type: 'sent' } })).toBe(1);
    }
    expect(await creditBalance(w.org.customerId, 'email')).toBe(4);
    // Each message is the invite's own (its review link carries the invite's uuid).
    expect(new Set(sent.map((m) => m.to)).size).toBe(6);
    // Each claim its own token (what an attempt's undo or refusal matches, src/messaging/delivery.ts).
    const tokens = (await InviteMessage.findAll({ where: { inviteId: invites.map((i) => i.id) } })).map((m) => m.claimToken);
    expect(tokens.every((t) => /^[0-9a-f-]{36}$/.test(t ?? ''))).toBe(true);
    expect(new Set(tokens).size).toBe(6);

    // Again: nothing is due any more, nothing is sent twice.
    expect(await sendDueSteps(invites.map((i) => first(i.id)), run, opts)).toEqual(invites.map(() => ({ status: 'fulfilled', value: 'done' })));
    expect(sent).toHaveLength(6);
  });

  it('claims and settles a batch with the same number of statements whatever its size', async () => {
    const w = await account(100);
    const campaign = await makeCampaign(w);
    const make = (n: number) => Promise.all(Array.from({ length: n }, async () => makeInvite(campaign, await makeContact(campaign), past())));
    const small = await make(2);
    const large = await make(20);
    const { opts } = recorder();
    // Each batch reads the agency's link domain once (a process reads it again every 30 s): forgotten before each here.
    forgetLinkDomains();
    const few = (await countStatements(db(), () => sendDueSteps(small.map((i) => first(i.id)), run, opts))).n;
    forgetLinkDomains();
    const many = (await countStatements(db(), () => sendDueSteps(large.map((i) => first(i.id)), run, opts))).n;
    // The reads, the credit, the step rows, the invites' update (alike here), the settle and the timeline rows are one
    // statement each for the whole batch: ten times the invites, the same statements.
    expect(many).toBe(few);
  });

  it('gives the credits it has to the first steps and fails the rest with insufficient_credits, per account', async () => {
    const poor = await account(2);
    const rich = await account(5);
    const poorCampaign = await makeCampaign(poor);
    const richCampaign = await makeCampaign(rich);
    const poorInvites = await Promise.all(Array.from({ length: 4 }, async () => makeInvite(poorCampaign, await makeContact(poorCampaign), past())));
    const richInvites = await Promise.all(Array.from({ length: 3 }, async () => makeInvite(richCampaign, await makeContact(richCampaign), past())));
    const { sent, opts } = recorder();

    const outcomes = await sendDueSteps([...poorInvites, ...richInvites].map((i) => first(i.id)), run, opts);

    expect(outcomes.map((o) => (o.status === 'fulfilled' ? o.value : 'rejected'))).toEqual(['sent', 'sent', 'failed', 'failed', 'sent', 'sent', 'sent']);
    expect(sent).toHaveLength(5);
    const poorLeft = await Promise.all(poorInvites.map((i) => i.reload()));
    expect(poorLeft.map((i) => i.status)).toEqual(['sent', 'sent', 'failed', 'failed']);
    expect(poorLeft[2].reason).toMatch(/^insufficient_credits: /);
    expect(await creditBalance(poor.org.customerId, 'email')).toBe(0);
    expect(await creditBalance(rich.org.customerId, 'email')).toBe(2);
  });

  it('does not send a step taken over while it waited for a send slot (an email the take-over sent, an SMS it settled)', async () => {
    const w = await account(10);
    await giveCredits(w, 'sms', 10);
    for (const step of [EMAIL_STEP, SMS_STEP(0)]) {
      const campaign = await makeCampaign(w, { steps: [step] });
      const invite = await makeInvite(campaign, await makeContact(campaign, { phone: phoneNumber() }), past());
      const { sent, opts } = recorder();
      let shift = 0;
      const clock = { now: () => new Date(Date.now() + shift) };
      let letGo!: () => void;
      const slot = new Promise<void>((r) => (letGo = r));
      let queue!: () => void;
      const queued = new Promise<void>((r) => (queue = r));
      const slowSlots: Run = async (work) => {
        queue();
        await slot;
        return work();
      };
      const batch = sendDueSteps([first(invite.id)], slowSlots, { ...opts, clock });
      await queued;
      // Past the grace (60 s here), the claim is stale: a second attempt takes it over (the queue's stale kind).
      shift = 61_000;
      expect(await sendInviteStep({ inviteId: invite.id, stepIndex: 0, first: true }, { ...opts, clock })).toEqual({ outcome: 'sent', reason: null, sendAt: null });
      const byTakeOver = sent.length;
      expect([step.channel, byTakeOver]).toEqual([step.channel, step.channel === 'email' ? 1 : 0]);
      letGo();
      const [outcome] = await batch;
      expect(outcome.status).toBe('fulfilled');
      expect([step.channel, sent.length]).toEqual([step.channel, byTakeOver]);
      expect(await InviteMessage.findAll({ where: { inviteId: invite.id } })).toEqual([expect.objectContaining({ status: 'sent' })]);
    }
  });

  it('decides each step of a mixed batch as the rules say: held, waiting, unsubscribed, unreachable, follow-ups', async () => {
    const w = await account(20);
    const campaign = await makeCampaign(w, { steps: [EMAIL_STEP, SMS_STEP(1)] });
    const paused = await makeCampaign(w, { pausedAt: new Date() });
    const ready = await makeInvite(campaign, await makeContact(campaign), past());
    const held = await makeInvite(paused, await makeContact(paused), past());
    const later = await makeInvite(campaign, await makeContact(campaign), new Date(Date.now() + 60_000));
    const leaver = await makeContact(campaign);
    await leaver.update({ unsubscribedAt: new Date() });
    const unsubscribed = await makeInvite(campaign, leaver, past());
    const emailOnly = await makeCampaign(w);
    const unreachable = await makeInvite(emailOnly, await makeContact(emailOnly, { email: null, phone: phoneNumber() }), past());
    // Two invites whose first step went and whose SMS follow-up is due; one of them had its review link clicked.
    await giveCredits(w, 'sms', 5);
    const phones = [phoneNumber(), phoneNumber()];
    const followUps = await Promise.all(phones.map(async (phone) => makeInvite(campaign, await makeContact(campaign, { phone }), past())));
    const { sent, opts } = recorder();
    await sendDueSteps(followUps.map((i) => first(i.id)), run, opts);
    expect(sent).toHaveLength(2);
    await Invite.update({ nextStepAt: past() }, { where: { id: followUps.map((i) => i.id) } });
    await followUps[1].update({ clickedAt: new Date() });
    const followUp = (i: Invite): DueStep => ({ inviteId: i.id, stepIndex: 1, kind: 'follow-up' });

    const outcomes = await sendDueSteps(
      [first(ready.id), first(held.id), first(later.id), first(unsubscribed.id), first(unreachable.id), followUp(followUps[0]), followUp(followUps[1])],
      run,
      opts,
    );

    expect(outcomes.map((o) => (o.status === 'fulfilled' ? o.value : o.reason))).toEqual(['sent', 'done', 'waiting', 'done', 'done', 'sent', 'stopped']);
    await Promise.all([ready, held, later, unsubscribed, unreachable, ...followUps].map((i) => i.reload()));
    expect(ready.status).toBe('sent');
    expect(held.status).toBe('scheduled');
    expect(later.status).toBe('scheduled');
    expect(unsubscribed.status).toBe('canceled');
    expect(unreachable).toMatchObject({ status: 'failed', reason: expect.stringMatching(/^no_recipient: /) });
    expect(await InviteMessage.findOne({ where: { inviteId: followUps[0].id, stepIndex: 1 } })).toMatchObject({ status: 'sent', channel: 'sms' });
    expect(followUps[0]).toMatchObject({ nextStepIndex: null, nextStepAt: null });
    expect(await InviteMessage.count({ where: { inviteId: followUps[1].id, stepIndex: 1 } })).toBe(0);
    expect(followUps[1]).toMatchObject({ nextStepIndex: null, nextStepAt: null });
    // Sent in this batch: the ready invite's email and the first follow-up's SMS.
    expect(sent.slice(2).map((m) => m.to).sort()).toEqual([(await Contact.findByPk(ready.contactId))!.email!, phones[0]].sort());
  });

  it('settles a refused step as failed with its credit back, and puts an unavailable provider\'s step back, sending the others', async () => {
    const w = await account(10);
    const campaign = await makeCampaign(w);
    const [ok, refused, away] = await Promise.all([0, 1, 2].map(async () => makeInvite(campaign, await makeContact(campaign), past())));
    const refusedTo = (await Contact.findByPk(refused.contactId))!.email;
    const awayTo = (await Contact.findByPk(away.contactId))!.email;
    const { sent, opts } = recorder((m) => {
      if (m.to === refusedTo) throw new MessagingRejected('Mailbox unavailable', 550);
      if (m.to === awayTo) throw new MessagingUnavailable('Connection refused');
    });

    const outcomes = await sendDueSteps([ok, refused, away].map((i) => first(i.id)), run, opts);

    expect(outcomes.map((o) => (o.status === 'fulfilled' ? o.value : o.reason))).toEqual(['sent', 'failed', 'retry']);
    expect(sent).toHaveLength(1);
    await Promise.all([ok, refused, away].map((i) => i.reload()));
    expect(refused).toMatchObject({ status: 'failed', reason: expect.stringMatching(/^provider_rejected: /) });
    expect(away).toMatchObject({ status: 'scheduled', sendAttempts: 1 });
    expect(await InviteMessage.count({ where: { inviteId: away.id } })).toBe(0);
    // One credit spent: the refused and the unavailable steps gave theirs back.
    expect(await creditBalance(w.org.customerId, 'email')).toBe(9);
  });
});
