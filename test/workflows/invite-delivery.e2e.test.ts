import { encryptSecret } from '../../src/crypto/secrets';
import { reviewLinkOf, unsubscribeLinkOf, unsubscribeTokenOf } from '../../src/messaging/links';
import { configureInviteDelivery } from '../../src/messaging/settings';
import { Campaign, ContactActivity, CreditConsumption, Invite, InviteMessage, MessagingSetting } from '../../src/models';
import type { Contact } from '../../src/models';
import { creditBalance } from '../../src/services/credits.service';
import { temporal } from '../../workflows/client';
import { inviteWorkflowId, scheduleInviteDelivery } from '../../workflows/invites/client';
import type { InviteDeliveryResult } from '../../workflows/invites/delivery.workflow';
import { ensureInviteRedispatchSchedule, removeInviteRedispatchSchedule } from '../../workflows/invites/schedule';
import { useApp } from '../support/app';
import { makeWorld } from '../support/factories';
import { startSmtpServer, useSmtpServer } from '../support/smtp';
import { recordHistory } from '../support/temporal';
import { startTwilioServer, type TwilioSink } from '../support/twilio';
import { waitUntil } from '../support/wait';
import { EMAIL_STEP, giveCredits, makeCampaign, makeContact, makeInvite, phoneNumber, rawHeader, SMS_STEP, type World } from '../invites/fixtures';
import { useInviteWorker } from '../invites/worker';

/**
 * Review-request delivery end to end: the `inviteDelivery` workflow on the real Temporal dev server, its activities
 * on the real database, email through a real SMTP server on loopback and SMS through a local server speaking the
 * Twilio wire format. Time is shortened by configuration: a campaign "hour" is one second here.
 */
jest.setTimeout(90_000);

const PUBLIC_URL = 'https://reviews.agency.test';

describe('inviteDelivery on Temporal', () => {
  const t = useApp();
  const sink = useSmtpServer();
  const worker = useInviteWorker();
  let twilio: TwilioSink;
  const saved = { PUBLIC_URL: process.env.PUBLIC_URL, SMS_SIMULATOR: process.env.SMS_SIMULATOR };

  beforeAll(async () => {
    twilio = await startTwilioServer();
    process.env.PUBLIC_URL = PUBLIC_URL;
    process.env.SMS_SIMULATOR = 'false';
  });
  afterAll(async () => {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
    await twilio.close();
  });

  const inSeconds = (s: number) => new Date(Date.now() + s * 1000);
  const handleOf = (campaign: Campaign, contact: Contact) => temporal().client.workflow.getHandle(inviteWorkflowId(campaign.uuid, contact.uuid));
  const schedule = (campaign: Campaign, contact: Contact, invite: Invite) =>
    scheduleInviteDelivery({ inviteId: invite.id, campaignUuid: campaign.uuid, contactUuid: contact.uuid, sendAt: invite.sendAt! });
  const resultOf = (campaign: Campaign, contact: Contact) => handleOf(campaign, contact).result() as Promise<InviteDeliveryResult>;
  const mailsTo = (contact: Contact) => sink().to(contact.email!);
  const activities = (invite: Invite) => ContactActivity.findAll({ where: { inviteId: invite.id }, order: [['id', 'ASC']] });
  const smsAccount = (w: World) =>
    MessagingSetting.create({
      tenantId: w.org.tenantId,
      customerId: w.org.customerId,
      channel: 'sms',
      config: { accountSid: 'AC0123456789abcdef0123456789abcdef', fromNumber: '+15005550006', baseUrl: twilio.url },
      secretEncrypted: encryptSecret('auth-token'),
    });

  it('sends a scheduled invite at its send time with the review link, a visible unsubscribe link and the one-click headers', async () => {
    const w = await makeWorld();
    await giveCredits(w, 'email', 5);
    const campaign = await makeCampaign(w);
    const contact = await makeContact(campaign, { firstName: 'Grace' });
    const invite = await makeInvite(campaign, contact, inSeconds(2));
    await schedule(campaign, contact, invite);

    await waitUntil(async () => mailsTo(contact).length > 0, 20_000, 20);
    expect(Date.now()).toBeGreaterThanOrEqual(invite.sendAt!.getTime() - 50);
    const [mail] = mailsTo(contact);
    expect(mail.subject).toBe('How did we do, Grace?');
    expect(mail.from?.value[0].name).toBe(w.org.name);
    expect(mail.text).toContain(`Hi Grace, please rate ${w.org.name}: ${reviewLinkOf(invite.uuid)}`);
    expect(mail.text).toContain(`Unsubscribe: ${unsubscribeLinkOf(contact.uuid)}`);
    expect(mail.html).toContain(`<a href="${unsubscribeLinkOf(contact.uuid)}">Unsubscribe</a>`);
    expect(rawHeader(mail, 'List-Unsubscribe')).toBe(`<${PUBLIC_URL}/u/${unsubscribeTokenOf(contact.uuid)}>`);
    expect(rawHeader(mail, 'List-Unsubscribe-Post')).toBe('List-Unsubscribe=One-Click');

    const result = await resultOf(campaign, contact);
    expect(result).toEqual({ inviteId: invite.id, outcome: 'sent', steps: [{ index: 0, outcome: 'sent', reason: null }] });
    const stored = (await Invite.findByPk(invite.id))!;
    expect(stored.status).toBe('sent');
    expect(stored.sentAt!.getTime()).toBeGreaterThanOrEqual(invite.sendAt!.getTime() - 1_000);
    const messages = await InviteMessage.findAll({ where: { inviteId: invite.id } });
    expect(messages.map((m) => [m.stepIndex, m.channel, m.status, m.recipient])).toEqual([[0, 'email', 'sent', contact.email]]);
    expect(messages[0].providerMessageId).toBeTruthy();
    expect((await activities(invite)).map((a) => [a.type, a.channel])).toEqual([['sent', 'email']]);
    expect(await creditBalance(w.org.customerId, 'email')).toBe(4);
    expect(await CreditConsumption.count({ where: { customerId: w.org.customerId, reference: `invite:${invite.uuid}:step:0` } })).toBe(1);
    await recordHistory(inviteWorkflowId(campaign.uuid, contact.uuid), 'invite-delivery-sent');
  });

  it('moves the send time when the invite is rescheduled while it waits', async () => {
    const w = await makeWorld();
    await giveCredits(w, 'email', 5);
    const campaign = await makeCampaign(w);
    const contact = await makeContact(campaign);
    const invite = await makeInvite(campaign, contact, inSeconds(2));
    await schedule(campaign, contact, invite);
    // The contact is submitted again: the stored send time moves and the workflow is signalled.
    const later = inSeconds(5);
    await invite.update({ sendAt: later });
    await schedule(campaign, contact, invite);

    await new Promise((r) => setTimeout(r, 3_500));
    expect(mailsTo(contact)).toHaveLength(0);
    await waitUntil(async () => mailsTo(contact).length > 0, 20_000, 20);
    expect(Date.now()).toBeGreaterThanOrEqual(later.getTime() - 50);
    expect((await resultOf(campaign, contact)).outcome).toBe('sent');
    expect(mailsTo(contact)).toHaveLength(1);
    await recordHistory(inviteWorkflowId(campaign.uuid, contact.uuid), 'invite-delivery-rescheduled');
  });

  it('sends the email, then the SMS follow-up its delay later, and stops follow-ups once the review link was clicked', async () => {
    const w = await makeWorld();
    await giveCredits(w, 'email', 5);
    await giveCredits(w, 'sms', 5);
    await smsAccount(w);
    const campaign = await makeCampaign(w, { steps: [EMAIL_STEP, SMS_STEP(2)] });
    const ada = await makeContact(campaign, { phone: phoneNumber(), firstName: 'Ada' });
    const bob = await makeContact(campaign, { phone: phoneNumber(), firstName: 'Bob' });
    const adaInvite = await makeInvite(campaign, ada, inSeconds(1));
    const bobInvite = await makeInvite(campaign, bob, inSeconds(1));
    await schedule(campaign, ada, adaInvite);
    await schedule(campaign, bob, bobInvite);

    await waitUntil(async () => mailsTo(ada).length > 0 && mailsTo(bob).length > 0, 20_000, 20);
    const emailAt = Date.now();
    // Bob opens the review link (the feedback page stamps clicked_at).
    await bobInvite.update({ clickedAt: new Date() });

    await waitUntil(async () => twilio.to(ada.phone!).length > 0, 20_000, 20);
    expect(Date.now() - emailAt).toBeGreaterThanOrEqual(1_500);
    const [sms] = twilio.to(ada.phone!);
    expect(sms.from).toBe('+15005550006');
    expect(sms.body).toContain(`Hi Ada, a quick review for ${w.org.name}? ${reviewLinkOf(adaInvite.uuid)}`);
    expect(sms.body).toContain(`Reply STOP to opt out or unsubscribe: ${unsubscribeLinkOf(ada.uuid)}`);

    expect(await resultOf(campaign, ada)).toEqual({
      inviteId: adaInvite.id,
      outcome: 'sent',
      steps: [
        { index: 0, outcome: 'sent', reason: null },
        { index: 1, outcome: 'sent', reason: null },
      ],
    });
    expect(await resultOf(campaign, bob)).toEqual({
      inviteId: bobInvite.id,
      outcome: 'sent',
      steps: [
        { index: 0, outcome: 'sent', reason: null },
        { index: 1, outcome: 'stopped', reason: 'clicked' },
      ],
    });
    expect(twilio.to(bob.phone!)).toHaveLength(0);
    expect((await activities(adaInvite)).map((a) => [a.type, a.channel])).toEqual([
      ['sent', 'email'],
      ['sent', 'sms'],
    ]);
    expect(await creditBalance(w.org.customerId, 'sms')).toBe(4);
    expect(await creditBalance(w.org.customerId, 'email')).toBe(3);
    await recordHistory(inviteWorkflowId(campaign.uuid, ada.uuid), 'invite-delivery-multistep');
    await recordHistory(inviteWorkflowId(campaign.uuid, bob.uuid), 'invite-delivery-clicked');
  });

  it('an unsubscribe that reaches the run together with its start ends it canceled at once, without waiting', async () => {
    const w = await makeWorld();
    await giveCredits(w, 'email', 5);
    const campaign = await makeCampaign(w);
    const contact = await makeContact(campaign);
    const invite = await makeInvite(campaign, contact, inSeconds(30));
    // With the worker stopped, the start's signal and the cancel wait together and reach the run's first task together.
    await worker.stop();
    try {
      await schedule(campaign, contact, invite);
      expect((await t.http().post(`/u/${unsubscribeTokenOf(contact.uuid)}`).type('form').send({ confirm: '1' })).status).toBe(200);
    } finally {
      await worker.start();
    }
    expect(await resultOf(campaign, contact)).toEqual({ inviteId: invite.id, outcome: 'canceled', steps: [] });
    const events = (await handleOf(campaign, contact).fetchHistory()).events ?? [];
    expect(events.filter((e) => e.timerStartedEventAttributes)).toEqual([]); // it did not wait for another signal
    expect((await Invite.findByPk(invite.id))!.status).toBe('canceled');
    expect(mailsTo(contact)).toHaveLength(0);
  });

  it('sends an SMS-only contact the SMS step at the send time when the campaign starts with email', async () => {
    const w = await makeWorld();
    await giveCredits(w, 'sms', 1);
    await smsAccount(w);
    const campaign = await makeCampaign(w, { steps: [EMAIL_STEP, SMS_STEP(24)] });
    const contact = await makeContact(campaign, { email: null, phone: phoneNumber() });
    const invite = await makeInvite(campaign, contact, inSeconds(1));
    await schedule(campaign, contact, invite);
    expect(await resultOf(campaign, contact)).toEqual({ inviteId: invite.id, outcome: 'sent', steps: [{ index: 1, outcome: 'sent', reason: null }] });
    expect(twilio.to(contact.phone!)).toHaveLength(1);
  });

  it('cancels a waiting invite when the contact unsubscribes through the link', async () => {
    const w = await makeWorld();
    await giveCredits(w, 'email', 5);
    const campaign = await makeCampaign(w);
    const contact = await makeContact(campaign);
    const invite = await makeInvite(campaign, contact, inSeconds(30));
    await schedule(campaign, contact, invite);

    const res = await t.http().post(`/u/${unsubscribeTokenOf(contact.uuid)}`).type('form').send({ confirm: '1' });
    expect(res.status).toBe(200);
    const started = Date.now();
    expect(await resultOf(campaign, contact)).toEqual({ inviteId: invite.id, outcome: 'canceled', steps: [] });
    expect(Date.now() - started).toBeLessThan(20_000); // the signal ended the wait, not the send time
    const stored = (await Invite.findByPk(invite.id))!;
    expect(stored.status).toBe('canceled');
    expect(stored.reason).toBe('The contact unsubscribed.');
    expect(await ContactActivity.count({ where: { contactId: contact.id, type: 'unsubscribed' } })).toBe(1);
    expect(mailsTo(contact)).toHaveLength(0);
    expect(await creditBalance(w.org.customerId, 'email')).toBe(5);
    await recordHistory(inviteWorkflowId(campaign.uuid, contact.uuid), 'invite-delivery-canceled');
  });

  it('fails the invite with insufficient_credits, logs the reason, and sends nothing', async () => {
    const w = await makeWorld();
    const campaign = await makeCampaign(w);
    const contact = await makeContact(campaign);
    const invite = await makeInvite(campaign, contact, inSeconds(1));
    await schedule(campaign, contact, invite);

    const result = await resultOf(campaign, contact);
    expect(result.outcome).toBe('failed');
    expect(result.steps[0].reason).toMatch(/^insufficient_credits: Not enough email credits: 1 needed, 0 left\.$/);
    const stored = (await Invite.findByPk(invite.id))!;
    expect(stored).toMatchObject({ status: 'failed', sentAt: null });
    expect(stored.reason).toMatch(/^insufficient_credits: /);
    expect(stored.failedAt).not.toBeNull();
    const logged = await activities(invite);
    expect(logged.map((a) => [a.type, a.channel])).toEqual([['failed', 'email']]);
    expect(logged[0].detail).toMatch(/insufficient_credits/);
    expect(mailsTo(contact)).toHaveLength(0);
    expect((await InviteMessage.findOne({ where: { inviteId: invite.id } }))!.status).toBe('failed');
    await recordHistory(inviteWorkflowId(campaign.uuid, contact.uuid), 'invite-delivery-no-credits');
  });

  it("fails the invite when the account's SMTP server refuses the message, and gives the credit back", async () => {
    const refusing = await startSmtpServer({ reject: true });
    try {
      const w = await makeWorld();
      await giveCredits(w, 'email', 1);
      await MessagingSetting.create({
        tenantId: w.org.tenantId,
        customerId: w.org.customerId,
        channel: 'email',
        config: { host: '127.0.0.1', port: refusing.port, secure: false, username: null, fromEmail: 'reviews@smiles.test', fromName: null },
        secretEncrypted: null,
      });
      const campaign = await makeCampaign(w);
      const contact = await makeContact(campaign);
      const invite = await makeInvite(campaign, contact, inSeconds(1));
      await schedule(campaign, contact, invite);

      expect((await resultOf(campaign, contact)).outcome).toBe('failed');
      const stored = (await Invite.findByPk(invite.id))!;
      expect(stored.status).toBe('failed');
      expect(stored.reason).toMatch(/^provider_rejected: The mail server refused the message \(550\)/);
      expect(await creditBalance(w.org.customerId, 'email')).toBe(1);
      expect(await CreditConsumption.count({ where: { customerId: w.org.customerId } })).toBe(0);
      expect((await activities(invite)).map((a) => a.type)).toEqual(['failed']);
    } finally {
      await refusing.close();
    }
  });

  it('fails an SMS step with sms_not_configured when the account has no SMS settings and the simulator is off', async () => {
    const w = await makeWorld();
    await giveCredits(w, 'sms', 1);
    const campaign = await makeCampaign(w, { steps: [SMS_STEP(0)] });
    const contact = await makeContact(campaign, { phone: phoneNumber() });
    const invite = await makeInvite(campaign, contact, inSeconds(1));
    await schedule(campaign, contact, invite);

    expect((await resultOf(campaign, contact)).outcome).toBe('failed');
    expect((await Invite.findByPk(invite.id))!.reason).toMatch(/^sms_not_configured: /);
    expect(await creditBalance(w.org.customerId, 'sms')).toBe(1);
  });

  it('sends a step at most once when the attempt dies right after the provider took the message', async () => {
    const w = await makeWorld();
    await giveCredits(w, 'email', 5);
    const campaign = await makeCampaign(w);
    const contact = await makeContact(campaign);
    const invite = await makeInvite(campaign, contact, inSeconds(1));
    let crashes = 0;
    worker.hooks.afterProviderAccepted = () => {
      crashes += 1;
      if (crashes === 1) throw new Error('worker died after the SMTP server accepted the message');
    };
    try {
      await schedule(campaign, contact, invite);
      const result = await resultOf(campaign, contact);
      expect(result.outcome).toBe('sent');
    } finally {
      worker.hooks.afterProviderAccepted = undefined;
    }
    expect(crashes).toBe(1); // the retry did not reach the provider again
    await new Promise((r) => setTimeout(r, 300));
    expect(mailsTo(contact)).toHaveLength(1);
    const [message] = await InviteMessage.findAll({ where: { inviteId: invite.id } });
    expect(message.status).toBe('sent');
    expect(message.error).toMatch(/^Outcome unknown/);
    expect((await Invite.findByPk(invite.id))!.status).toBe('sent');
    expect(await creditBalance(w.org.customerId, 'email')).toBe(4);
    await recordHistory(inviteWorkflowId(campaign.uuid, contact.uuid), 'invite-delivery-crash-retried');
  });

  it('hands a new invite of the pair that arrives during the follow-up wait to a fresh run (continue-as-new)', async () => {
    const w = await makeWorld();
    await giveCredits(w, 'email', 5);
    await giveCredits(w, 'sms', 5);
    await smsAccount(w);
    const campaign = await makeCampaign(w, { steps: [EMAIL_STEP, SMS_STEP(4)] });
    const contact = await makeContact(campaign, { phone: phoneNumber() });
    const first = await makeInvite(campaign, contact, inSeconds(1));
    await schedule(campaign, contact, first);
    await waitUntil(async () => mailsTo(contact).length === 1, 20_000, 20);
    const firstRun = (await handleOf(campaign, contact).describe()).runId;

    // A new request after the duplicate window: a new invite, signalled while the first one waits for its follow-up.
    const second = await makeInvite(campaign, contact, inSeconds(1));
    await schedule(campaign, contact, second);
    await waitUntil(async () => mailsTo(contact).length === 2, 20_000, 20);
    const result = await resultOf(campaign, contact); // follows the continued runs
    expect(result.inviteId).toBe(second.id);
    expect(result.outcome).toBe('sent');
    expect((await handleOf(campaign, contact).describe()).runId).not.toBe(firstRun);
    expect(mailsTo(contact)[1].text).toContain(reviewLinkOf(second.uuid));
    // The first invite's follow-up gave way to the new invite.
    expect((await InviteMessage.findAll({ where: { inviteId: first.id } })).map((m) => m.stepIndex)).toEqual([0]);
    expect(twilio.to(contact.phone!)).toHaveLength(1);
    expect(twilio.to(contact.phone!)[0].body).toContain(reviewLinkOf(second.uuid));
  });

  it('re-dispatches stored scheduled invites whose workflow is missing or closed (every 6 hours; seconds here)', async () => {
    const w = await makeWorld();
    await giveCredits(w, 'email', 5);
    const campaign = await makeCampaign(w);
    // Temporal never heard of this one (it was down when the invite was stored).
    const lost = await makeContact(campaign);
    const lostInvite = await makeInvite(campaign, lost, new Date(Date.now() - 1_000));
    // This one's send time came while the campaign was paused: its run ended, the invite stayed scheduled.
    const paused = await makeCampaign(w, { pausedAt: new Date() });
    const held = await makeContact(paused);
    const heldInvite = await makeInvite(paused, held, inSeconds(1));
    await schedule(paused, held, heldInvite);
    expect((await resultOf(paused, held)).outcome).toBe('held');
    await recordHistory(inviteWorkflowId(paused.uuid, held.uuid), 'invite-delivery-held');
    expect((await Invite.findByPk(heldInvite.id))!.status).toBe('scheduled');
    await paused.update({ pausedAt: null });

    configureInviteDelivery({ redispatchEveryMs: 2_000 });
    expect(await ensureInviteRedispatchSchedule()).toBe(true);
    try {
      const described = await temporal().client.schedule.getHandle(`invite-redispatch:${worker.settings().taskQueue}`).describe();
      expect(described.action).toMatchObject({ workflowType: 'redispatchInvites', taskQueue: worker.settings().taskQueue });
      expect(described.policies.overlap).toBe('SKIP');
      await waitUntil(async () => mailsTo(lost).length > 0 && mailsTo(held).length > 0, 40_000, 50);
    } finally {
      await removeInviteRedispatchSchedule();
    }
    expect((await Invite.findByPk(lostInvite.id))!.status).toBe('sent');
    expect((await Invite.findByPk(heldInvite.id))!.status).toBe('sent');
    expect(mailsTo(lost)[0].text).toContain(reviewLinkOf(lostInvite.uuid));
  });
});
