import { encryptSecret } from '../../src/crypto/secrets';
import { reviewLinkOf, unsubscribeLinkOf, unsubscribeTokenOf } from '../../src/messaging/links';
import { Campaign, ContactActivity, CreditConsumption, Invite, InviteMessage, MessagingSetting } from '../../src/models';
import type { Contact } from '../../src/models';
import { creditBalance } from '../../src/services/credits.service';
import { Customer } from '../../src/models';
import { WorkflowNotFoundError } from '@temporalio/client';
import { inviteDispatcherWorkflowId, nudgeInviteDispatcher, temporal } from '../../workflows/client';
import { inviteWorkflowId } from '../../workflows/invites/client';
import { useApp } from '../support/app';
import { makeWorld } from '../support/factories';
import { startSmtpServer, useSmtpServer } from '../support/providers/smtp';
import { startTwilioServer, type TwilioSink } from '../support/providers/twilio';
import { useEnv } from '../support/env';
import { waitUntil } from '../support/wait';
import { EMAIL_STEP, giveCredits, makeCampaign, makeContact, makeInvite, phoneNumber, rawHeader, SMS_STEP, useOwnSmtp, type World } from '../invites/fixtures';
import { useInviteWorker } from '../invites/worker';
import { startWorkerProcess, type WorkerProcess } from '../support/worker-process';

/**
 * Review-request delivery end to end: the invite dispatcher (`dispatchInvites`) on the real Temporal dev server
 * sending from the invites table of the real database, email through a real SMTP server on loopback and SMS through
 * a local server speaking the Twilio wire format. Time is shortened by configuration: a campaign "hour" is one
 * second here, the in-flight grace half a second.
 */
jest.setTimeout(90_000);

const PUBLIC_URL = 'https://reviews.agency.test';

describe('invite dispatcher on Temporal', () => {
  const t = useApp();
  const sink = useSmtpServer();
  const worker = useInviteWorker();
  let twilio: TwilioSink;
  useEnv({ PUBLIC_URL, SMS_SIMULATOR: 'false' });

  beforeAll(async () => {
    twilio = await startTwilioServer();
  });
  afterAll(async () => {
    await twilio.close();
  });

  const inSeconds = (s: number) => new Date(Date.now() + s * 1000);
  /** Stores the invite as the invite endpoint does and nudges the dispatcher after the commit. */
  const invite = async (campaign: Campaign, contact: Contact, sendAt: Date) => {
    const row = await makeInvite(campaign, contact, sendAt);
    await nudgeInviteDispatcher();
    return row;
  };
  const stored = (i: Invite) => Invite.findByPk(i.id, { rejectOnEmpty: true });
  const messagesOf = (i: Invite) => InviteMessage.findAll({ where: { inviteId: i.id }, order: [['stepIndex', 'ASC']] });
  /** The invite has the status and none of its steps is still being sent (the status changes with the claim). */
  const settled = async (i: Invite, status: Invite['status'] = 'sent', timeoutMs = 20_000) => {
    await waitUntil(async () => (await stored(i)).status === status && (await messagesOf(i)).every((m) => m.status !== 'sending'), timeoutMs, 20);
    return stored(i);
  };
  const noStepsLeft = async (i: Invite) => waitUntil(async () => (await stored(i)).nextStepIndex === null, 20_000, 20);
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

  it('sends a scheduled invite at its send time with the review link, a visible unsubscribe link, the one-click headers and a Message-ID of its own', async () => {
    const w = await makeWorld();
    await giveCredits(w, 'email', 5);
    const campaign = await makeCampaign(w);
    const contact = await makeContact(campaign, { firstName: 'Grace' });
    const row = await invite(campaign, contact, inSeconds(2));

    await waitUntil(async () => mailsTo(contact).length > 0, 20_000, 20);
    expect(Date.now()).toBeGreaterThanOrEqual(row.sendAt!.getTime() - 1_000);
    const [mail] = mailsTo(contact);
    expect(mail.subject).toBe('How did we do, Grace?');
    expect(mail.from?.value[0].name).toBe(w.org.name);
    expect(mail.text).toContain(`Hi Grace, please rate ${w.org.name}: ${reviewLinkOf(row.uuid)}`);
    expect(mail.text).toContain(`Unsubscribe: ${unsubscribeLinkOf(contact.uuid)}`);
    expect(mail.html).toContain(`<a href="${unsubscribeLinkOf(contact.uuid)}">Unsubscribe</a>`);
    expect(rawHeader(mail, 'List-Unsubscribe')).toBe(`<${PUBLIC_URL}/u/${unsubscribeTokenOf(contact.uuid)}>`);
    expect(rawHeader(mail, 'List-Unsubscribe-Post')).toBe('List-Unsubscribe=One-Click');
    expect(mail.messageId).toBe(`<invite.${row.uuid}.0@reviews.agency.test>`);

    const sent = await settled(row);
    expect(sent.sentAt!.getTime()).toBeGreaterThanOrEqual(row.sendAt!.getTime() - 1_000);
    expect(sent.nextStepIndex).toBeNull();
    const messages = await messagesOf(row);
    expect(messages.map((m) => [m.stepIndex, m.channel, m.status, m.recipient])).toEqual([[0, 'email', 'sent', contact.email]]);
    expect(messages[0].providerMessageId).toBe(mail.messageId);
    expect((await activities(row)).map((a) => [a.type, a.channel])).toEqual([['sent', 'email']]);
    expect(await creditBalance(w.org.customerId, 'email')).toBe(4);
    expect(await CreditConsumption.count({ where: { customerId: w.org.customerId, reference: `invite:${row.uuid}:step:0` } })).toBe(1);
    // No workflow per invite: the dispatcher sent it.
    await expect(temporal().client.workflow.getHandle(inviteWorkflowId(campaign.uuid, contact.uuid)).describe()).rejects.toBeInstanceOf(WorkflowNotFoundError);
    const dispatcher = await temporal().client.workflow.getHandle(inviteDispatcherWorkflowId(worker.settings().taskQueue)).describe();
    expect(dispatcher.type).toBe('dispatchInvites');
    expect(dispatcher.status.name).toBe('RUNNING');
  });

  it('waits for a send time moved while the invite waits (a resubmission)', async () => {
    const w = await makeWorld();
    await giveCredits(w, 'email', 5);
    const campaign = await makeCampaign(w);
    const contact = await makeContact(campaign);
    const row = await invite(campaign, contact, inSeconds(2));
    // The contact is submitted again: the stored send time moves.
    const later = inSeconds(5);
    await row.update({ sendAt: later });
    await nudgeInviteDispatcher();

    // Not at the first send time: the first mail arrives (seen within 20 ms) at the moved one.
    await waitUntil(async () => mailsTo(contact).length > 0, 20_000, 20);
    expect(Date.now()).toBeGreaterThanOrEqual(later.getTime() - 1_000);
    const sent = await settled(row);
    expect(sent.status).toBe('sent');
    expect(sent.sentAt!.getTime()).toBeGreaterThanOrEqual(later.getTime() - 1_000);
    expect(mailsTo(contact)).toHaveLength(1);
  });

  it('sends the email, then the SMS follow-up its delay later, and stops follow-ups once the review link was clicked', async () => {
    const w = await makeWorld();
    await giveCredits(w, 'email', 5);
    await giveCredits(w, 'sms', 5);
    await smsAccount(w);
    const campaign = await makeCampaign(w, { steps: [EMAIL_STEP, SMS_STEP(2)] });
    const ada = await makeContact(campaign, { phone: phoneNumber(), firstName: 'Ada' });
    const bob = await makeContact(campaign, { phone: phoneNumber(), firstName: 'Bob' });
    const adaInvite = await invite(campaign, ada, inSeconds(1));
    const bobInvite = await invite(campaign, bob, inSeconds(1));

    await waitUntil(async () => mailsTo(ada).length > 0 && mailsTo(bob).length > 0, 20_000, 20);
    const emailAt = Date.now();
    // The follow-up is set with the first step's claim: index 1, two campaign "hours" after it.
    const adaSent = await settled(adaInvite);
    expect(adaSent.nextStepIndex).toBe(1);
    expect(adaSent.nextStepAt!.getTime() - adaSent.sentAt!.getTime()).toBe(2_000);
    // Bob opens the review link (the feedback page stamps clicked_at).
    await bobInvite.update({ clickedAt: new Date() });

    await waitUntil(async () => twilio.to(ada.phone!).length > 0, 20_000, 20);
    expect(Date.now() - emailAt).toBeGreaterThanOrEqual(1_500);
    const [sms] = twilio.to(ada.phone!);
    expect(sms.from).toBe('+15005550006');
    expect(sms.body).toContain(`Hi Ada, a quick review for ${w.org.name}? ${reviewLinkOf(adaInvite.uuid)}`);
    expect(sms.body).toContain(`Reply STOP to opt out or unsubscribe: ${unsubscribeLinkOf(ada.uuid)}`);

    await noStepsLeft(adaInvite);
    await noStepsLeft(bobInvite);
    await settled(adaInvite);
    expect((await messagesOf(adaInvite)).map((m) => [m.stepIndex, m.status])).toEqual([
      [0, 'sent'],
      [1, 'sent'],
    ]);
    expect((await messagesOf(bobInvite)).map((m) => [m.stepIndex, m.status])).toEqual([[0, 'sent']]);
    expect(twilio.to(bob.phone!)).toHaveLength(0);
    expect((await activities(adaInvite)).map((a) => [a.type, a.channel])).toEqual([
      ['sent', 'email'],
      ['sent', 'sms'],
    ]);
    expect(await creditBalance(w.org.customerId, 'sms')).toBe(4);
    expect(await creditBalance(w.org.customerId, 'email')).toBe(3);
  });

  it('sends an SMS-only contact the SMS step at the send time when the campaign starts with email', async () => {
    const w = await makeWorld();
    await giveCredits(w, 'sms', 1);
    await smsAccount(w);
    const campaign = await makeCampaign(w, { steps: [EMAIL_STEP, SMS_STEP(24)] });
    const contact = await makeContact(campaign, { email: null, phone: phoneNumber() });
    const row = await invite(campaign, contact, inSeconds(1));
    expect((await settled(row)).nextStepIndex).toBeNull();
    expect((await messagesOf(row)).map((m) => [m.stepIndex, m.channel, m.status])).toEqual([[1, 'sms', 'sent']]);
    expect(twilio.to(contact.phone!)).toHaveLength(1);
  });

  it('cancels a waiting invite, and stops the follow-ups of a sent one, when the contact unsubscribes through the link', async () => {
    const w = await makeWorld();
    await giveCredits(w, 'email', 5);
    await giveCredits(w, 'sms', 5);
    await smsAccount(w);
    const campaign = await makeCampaign(w, { steps: [EMAIL_STEP, SMS_STEP(3)] });
    const contact = await makeContact(campaign, { phone: phoneNumber() });
    const sentOne = await invite(campaign, contact, inSeconds(0));
    await settled(sentOne);
    expect((await stored(sentOne)).nextStepIndex).toBe(1);
    const row = await invite(campaign, contact, inSeconds(4));

    const res = await t.http().post(`/u/${unsubscribeTokenOf(contact.uuid)}`).type('form').send({ confirm: '1' });
    expect(res.status).toBe(200);
    const canceled = await stored(row);
    expect(canceled.status).toBe('canceled');
    expect(canceled.reason).toBe('The contact unsubscribed.');
    expect(await ContactActivity.count({ where: { contactId: contact.id, type: 'unsubscribed' } })).toBe(1);

    expect((await stored(sentOne)).nextStepIndex).toBeNull();
    // Another contact's invite due after both send times is sent: the dispatcher has been past them.
    const control = await invite(campaign, await makeContact(campaign), new Date(Math.max(row.sendAt!.getTime(), Date.now() + 3_000) + 500));
    await settled(control);
    expect(mailsTo(contact)).toHaveLength(1); // the sent invite's email, before the unsubscribe
    expect(mailsTo(contact)[0].text).toContain(reviewLinkOf(sentOne.uuid));
    expect((await stored(row)).status).toBe('canceled');
    expect(await messagesOf(row)).toHaveLength(0);
    expect(twilio.to(contact.phone!)).toHaveLength(0);
  });

  it('fails the invite with insufficient_credits, logs the reason, and sends nothing', async () => {
    const w = await makeWorld();
    const campaign = await makeCampaign(w);
    const contact = await makeContact(campaign);
    const row = await invite(campaign, contact, inSeconds(1));

    const failed = await settled(row, 'failed');
    expect(failed.sentAt).toBeNull();
    expect(failed.reason).toMatch(/^insufficient_credits: Not enough email credits: 1 needed, 0 left\.$/);
    expect(failed.failedAt).not.toBeNull();
    const logged = await activities(row);
    expect(logged.map((a) => [a.type, a.channel])).toEqual([['failed', 'email']]);
    expect(logged[0].detail).toMatch(/insufficient_credits/);
    expect(mailsTo(contact)).toHaveLength(0);
    expect((await InviteMessage.findOne({ where: { inviteId: row.id } }))!.status).toBe('failed');
  });

  it("fails the invite when the account's SMTP server refuses the message, and gives the credit back", async () => {
    const refusing = await startSmtpServer({ reject: true });
    try {
      const w = await makeWorld();
      await giveCredits(w, 'email', 1);
      await useOwnSmtp(w, '127.0.0.1', refusing.port, 'reviews@smiles.test');
      const campaign = await makeCampaign(w);
      const contact = await makeContact(campaign);
      const row = await invite(campaign, contact, inSeconds(1));

      const failed = await settled(row, 'failed');
      expect(failed.reason).toMatch(/^provider_rejected: The mail server refused the message \(550\)/);
      expect(await creditBalance(w.org.customerId, 'email')).toBe(1);
      expect(await CreditConsumption.count({ where: { customerId: w.org.customerId } })).toBe(0);
      expect((await activities(row)).map((a) => a.type)).toEqual(['failed']);
    } finally {
      await refusing.close();
    }
  });

  it('fails an SMS step with sms_not_configured when the account has no SMS settings and the simulator is off', async () => {
    const w = await makeWorld();
    await giveCredits(w, 'sms', 1);
    const campaign = await makeCampaign(w, { steps: [SMS_STEP(0)] });
    const contact = await makeContact(campaign, { phone: phoneNumber() });
    const row = await invite(campaign, contact, inSeconds(1));

    expect((await settled(row, 'failed')).reason).toMatch(/^sms_not_configured: /);
    expect(await creditBalance(w.org.customerId, 'sms')).toBe(1);
  });

  it('sends an email step again under the same Message-ID when its attempt died after the claim; an SMS step is never sent twice', async () => {
    const w = await makeWorld();
    await giveCredits(w, 'email', 5);
    await giveCredits(w, 'sms', 5);
    await smsAccount(w);
    const campaign = await makeCampaign(w);
    const contact = await makeContact(campaign);
    const smsCampaign = await makeCampaign(w, { steps: [SMS_STEP(0)] });
    const texted = await makeContact(smsCampaign, { email: null, phone: phoneNumber() });
    const crashed = new Set<string>();
    worker.hooks.afterProviderAccepted = (input) => {
      const key = `${input.inviteId}:${input.stepIndex}`;
      if (crashed.has(key)) return;
      crashed.add(key);
      throw new Error('worker died after the provider accepted the message');
    };
    let row: Invite;
    let sms: Invite;
    try {
      row = await invite(campaign, contact, inSeconds(1));
      sms = await invite(smsCampaign, texted, inSeconds(1));
      // The claim is left `sending`; past the in-flight grace the queue settles it.
      await waitUntil(async () => (await messagesOf(row)).every((m) => m.status === 'sent') && (await messagesOf(sms)).every((m) => m.status === 'sent') && crashed.size === 2, 30_000, 50);
    } finally {
      worker.hooks.afterProviderAccepted = undefined;
    }
    await waitUntil(async () => (await messagesOf(row)).length === 1 && (await messagesOf(row))[0].status === 'sent', 30_000, 50);
    // Email: twice at the server, one Message-ID (a mailbox keeps one), one claim and one credit.
    const mails = mailsTo(contact);
    expect(mails).toHaveLength(2);
    expect(new Set(mails.map((m) => m.messageId))).toEqual(new Set([`<invite.${row.uuid}.0@reviews.agency.test>`]));
    expect((await activities(row)).map((a) => a.detail)).toEqual([expect.stringMatching(/again, under the same Message-ID, after an interrupted attempt/)]);
    expect(await creditBalance(w.org.customerId, 'email')).toBe(4);
    // SMS has no such key: counted as sent, outcome unknown, never sent again.
    await waitUntil(async () => (await messagesOf(sms)).length === 1 && (await messagesOf(sms))[0].status === 'sent', 30_000, 50);
    expect(twilio.to(texted.phone!)).toHaveLength(1);
    expect((await messagesOf(sms))[0].error).toMatch(/^Outcome unknown/);
    expect(await creditBalance(w.org.customerId, 'sms')).toBe(4);
  });

  it("holds invites while the account is not active and sends them once it is again (the table is the queue: nothing to re-dispatch)", async () => {
    const w = await makeWorld();
    await giveCredits(w, 'email', 5);
    await Customer.update({ subscriptionStatus: 'paused' }, { where: { id: w.org.customerId } });
    const campaign = await makeCampaign(w);
    const contact = await makeContact(campaign);
    const row = await invite(campaign, contact, inSeconds(0));
    // An active account's invite due at the same time is sent: the dispatcher has had its chance at the held one.
    const active = await makeWorld();
    await giveCredits(active, 'email', 1);
    const activeCampaign = await makeCampaign(active);
    await settled(await invite(activeCampaign, await makeContact(activeCampaign), inSeconds(0)));
    expect((await stored(row)).status).toBe('scheduled');
    expect(mailsTo(contact)).toHaveLength(0);

    await Customer.update({ subscriptionStatus: 'active' }, { where: { id: w.org.customerId } });
    await settled(row);
    expect(mailsTo(contact)[0].text).toContain(reviewLinkOf(row.uuid));
  });

  it("ends the dispatcher's activity normally when its worker stops gracefully: the next round needs no retry", async () => {
    const w = await makeWorld();
    await giveCredits(w, 'email', 5);
    const campaign = await makeCampaign(w);
    const before = await invite(campaign, await makeContact(campaign), inSeconds(0));
    await settled(before);
    const dispatcher = temporal().client.workflow.getHandle(inviteDispatcherWorkflowId(worker.settings().taskQueue));
    const seen = ((await dispatcher.fetchHistory()).events ?? []).length;
    // A deploy: the worker stops (graceful) while the dispatcher's activity runs, an invite arrives, a worker starts.
    await worker.stop();
    const during = await invite(campaign, await makeContact(campaign), inSeconds(0));
    await worker.start();
    await settled(during);
    const events = ((await dispatcher.fetchHistory()).events ?? []).slice(seen);
    expect(events.filter((e) => e.activityTaskFailedEventAttributes || e.activityTaskTimedOutEventAttributes)).toEqual([]);
    expect(events.filter((e) => e.activityTaskCompletedEventAttributes).length).toBeGreaterThan(0);
  });

  // The burst's invites go in one POST per contact (the spec's route) or 50 a request through the batch route: the worker
  // sees the same rows either way.
  const post = {
    singles: async (campaignUuid: string, auth: Record<string, string>, BURST: number) =>
      Promise.all(
        Array.from({ length: 4 }, async (_, lane) => {
          for (let i = lane; i < BURST; i += 4) {
            const res = await t.http().post(`/api/v1/request-reviews/campaigns/${campaignUuid}/invite`).set(auth).send({ email: `burst-${i}@example.test`, send_after_hours: 0 });
            expect(res.status).toBe(202);
          }
        }),
      ),
    batches: async (campaignUuid: string, auth: Record<string, string>, BURST: number) => {
      for (let from = 0; from < BURST; from += 50) {
        const contacts = Array.from({ length: Math.min(50, BURST - from) }, (_, k) => ({ email: `burst-${from + k}@example.test`, send_after_hours: 0 }));
        const res = await t.http().post(`/api/v1/request-reviews/campaigns/${campaignUuid}/invites`).set(auth).send({ contacts });
        expect(res.status).toBe(202);
      }
    },
  };

  it.each([
    ['one POST per contact', 'singles'],
    ['the batch route, 50 contacts a request', 'batches'],
  ] as const)('sends every invite of a burst (%s) exactly once by its Message-ID when the worker is killed (SIGKILL) in the middle (issue 17)', async (_label, way) => {
    const BURST = 300;
    const w = await makeWorld();
    await giveCredits(w, 'email', BURST);
    const campaign = await makeCampaign(w);
    const auth = { Authorization: `Bearer ${w.tokens.orgOwner}` };
    await worker.stop();
    let child: WorkerProcess | undefined;
    try {
      child = await startWorkerProcess(worker.settings(), {}, { inFlightGraceMs: 500 });
      const before = sink().messages.length;
      // The burst goes on while the worker dies: it is killed once 30 messages have arrived.
      const posting = post[way](campaign.uuid, auth, BURST);
      await sink().waitFor(before + 30, 90_000);
      await child.kill();
      const atKill = sink().messages.length - before;
      // What the kill may send twice: the steps claimed and not yet recorded sent (a batch records its sends together
      // once the last of them is done, so this is up to a batch or two, not only the sends on the wire).
      const campaignInvites = (await Invite.findAll({ where: { campaignId: campaign.id }, attributes: ['id'] })).map((i) => i.id);
      const unsettled = await InviteMessage.count({ where: { inviteId: campaignInvites, status: 'sending' } });
      await posting;
      await worker.start();
      await waitUntil(
        async () => (await Invite.count({ where: { campaignId: campaign.id, status: 'sent' } })) === BURST && (await InviteMessage.count({ where: { status: 'sending' } })) === 0,
        120_000,
        200,
      );
      const invites = await Invite.findAll({ where: { campaignId: campaign.id } });
      const expected = new Set(invites.map((i) => `<invite.${i.uuid}.0@reviews.agency.test>`));
      const arrived = sink().messages.filter((m) => expected.has(m.messageId ?? ''));
      // Every invite arrived, under its one Message-ID; a copy sent again is only one of those claimed and not yet
      // recorded at the kill (one recorded sent is never sent again).
      expect(new Set(arrived.map((m) => m.messageId))).toEqual(expected);
      expect(arrived.length - BURST).toBeLessThanOrEqual(unsettled);
      expect(atKill).toBeLessThan(BURST); // the kill did land in the middle
      expect(await creditBalance(w.org.customerId, 'email')).toBe(0);
      expect(await InviteMessage.count({ where: { inviteId: invites.map((i) => i.id) } })).toBe(BURST);
    } finally {
      await child?.kill();
      if (!worker.running()) await worker.start();
    }
  }, 300_000);

});
