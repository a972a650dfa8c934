import { randomUUID } from 'node:crypto';
import { fixedClock } from '../../src/domain/clock';
import { unsubscribeTokenOf } from '../../src/messaging/links';
import { unsubscribeByToken } from '../../src/services/unsubscribe.service';
import { claimDueSteps, sendDueSteps } from '../../src/messaging/send-queue';
import { configureInviteDelivery, resetInviteDelivery } from '../../src/messaging/settings';
import { Contact, Invite, type Campaign } from '../../src/models';
import { useApp } from '../support/app';
import { useEnv } from '../support/env';
import { makeOrganization, makeWorld } from '../support/factories';
import { useSmtpServer } from '../support/providers/smtp';
import { makeCampaign } from '../campaigns/factories';
import { giveCredits, phoneNumber } from './fixtures';

/**
 * An unsubscribe holds for the business the page names (the organisation), not only for the contact record of the
 * link: each new campaign gets a contact list of its own, so the same person is another contact in the next campaign.
 * End to end as a user meets it: invites through the REST API, the dispatcher's batch sending through a real SMTP
 * server on loopback, the unsubscribe link taken from the mail and posted to the app.
 */
const PUBLIC_URL = 'https://reviews.agency.test';
const HOUR = 3_600_000;
const UNSUBSCRIBED = 'Contact is unsubscribed.';

describe('an unsubscribe holds for the whole organisation', () => {
  const t = useApp();
  const sink = useSmtpServer();
  useEnv({ PUBLIC_URL, SMS_SIMULATOR: 'false' });
  beforeAll(() => configureInviteDelivery({ hourMs: HOUR, inFlightGraceMs: 60_000 }));
  afterAll(() => resetInviteDelivery());

  const FOLLOW_UP = [
    { channel: 'email', delayHours: 0, subject: 'How did we do?', body: 'Hi {first_name}, tell us: {review_link}' },
    { channel: 'email', delayHours: 2, subject: 'A reminder', body: 'Still time to tell us: {review_link}' },
  ];

  async function world() {
    const w = await makeWorld();
    await giveCredits(w, 'email', 20);
    return w;
  }
  type W = Awaited<ReturnType<typeof world>>;

  const invitePath = (c: Campaign) => `/api/v1/request-reviews/campaigns/${c.uuid}/invite`;
  const invite = async (w: W, c: Campaign, body: Record<string, unknown>) => {
    const res = await t.as(w.tokens.orgOwner).post(invitePath(c)).send(body);
    expect(res.status).toBe(202);
    return res.body as { id: string; message: string };
  };
  const invitesOf = (c: Campaign) => Invite.findAll({ where: { campaignId: c.id }, order: [['id', 'ASC']] });
  /** The dispatcher at `at`: what is due of these campaigns is claimed and sent as one batch (real SMTP). */
  const dispatch = async (at: Date, ...campaigns: Campaign[]) => {
    const ours = new Set((await Invite.findAll({ attributes: ['id'], where: { campaignId: campaigns.map((c) => c.id) } })).map((i) => i.id));
    const dues = (await claimDueSteps(100_000, at)).filter((d) => ours.has(d.inviteId));
    return sendDueSteps(dues, (work) => work(), { clock: fixedClock(at) });
  };
  const mailsTo = (email: string) => sink().to(email);
  /** Presses Unsubscribe on the page of the link in the person's first mail (the form POST). */
  async function unsubscribeFromMail(email: string) {
    const link = /Unsubscribe: (\S+)/.exec(mailsTo(email)[0].text ?? '')?.[1];
    expect(link).toMatch(new RegExp(`^${PUBLIC_URL}/u/`));
    const res = await t.http().post(new URL(link!).pathname).type('form').send({ confirm: '1' });
    expect(res.status).toBe(200);
    expect(res.text).toContain('You are unsubscribed');
  }

  it('the next campaign ignores the person (by email and by phone), and its waiting invite never goes', async () => {
    const w = await world();
    const first = await makeCampaign(w.orgOwner, w.org, { name: 'After visit' });
    const second = await makeCampaign(w.orgOwner, w.org, { name: 'After treatment' });
    expect(second.contactListId).not.toBe(first.contactListId);
    const email = `x-${randomUUID().slice(0, 8)}@y.test`;
    const phone = phoneNumber();

    await invite(w, first, { email, phone, first_name: 'Xena', send_after_hours: 0 });
    // The second campaign already has the person waiting (two hours from now).
    await invite(w, second, { email, send_after_hours: 2 });
    const [waiting] = await invitesOf(second);
    expect(waiting.status).toBe('scheduled');

    await dispatch(new Date(), first, second);
    expect(mailsTo(email)).toHaveLength(1);
    await unsubscribeFromMail(email);

    // The waiting invite of the second campaign stops, and nothing goes when its time comes.
    expect(await Invite.findByPk(waiting.id)).toMatchObject({ status: 'canceled', reason: 'The contact unsubscribed.' });
    await dispatch(new Date(Date.now() + 3 * HOUR), first, second);
    expect(mailsTo(email)).toHaveLength(1);

    // Invited again to the second campaign: 202 as always, ignored, nothing scheduled; by email, by phone alone, and
    // in a batch.
    const again = await invite(w, second, { email: email.toUpperCase(), first_name: 'Xena' });
    expect(again.message).toBe('Invites sent successfully.');
    await invite(w, second, { phone });
    const batch = await t.as(w.tokens.orgOwner).post(`/api/v1/request-reviews/campaigns/${second.uuid}/invites`).send({ contacts: [{ email }] });
    expect(batch.status).toBe(202);
    const after = await invitesOf(second);
    expect(after.map((i) => [i.status, i.reason])).toEqual([
      ['canceled', 'The contact unsubscribed.'],
      ['ignored', UNSUBSCRIBED],
      ['ignored', UNSUBSCRIBED],
      ['ignored', UNSUBSCRIBED],
    ]);
    // The person's contact in the second campaign's list shows as unsubscribed too.
    expect((await Contact.findOne({ where: { uuid: again.id } }))!.unsubscribedAt).not.toBeNull();

    // A campaign made after the unsubscribe (a list of its own, the person not in it yet): ignored as well.
    const third = await makeCampaign(w.orgOwner, w.org, { name: 'Winter offer' });
    await invite(w, third, { email });
    await t.as(w.tokens.orgOwner).post(`/api/v1/request-reviews/campaigns/${third.uuid}/invites`).send({ contacts: [{ phone }] });
    expect((await invitesOf(third)).map((i) => [i.status, i.reason])).toEqual([
      ['ignored', UNSUBSCRIBED],
      ['ignored', UNSUBSCRIBED],
    ]);
    await dispatch(new Date(Date.now() + 3 * HOUR), first, second, third);
    expect(mailsTo(email)).toHaveLength(1);

    // Another business of the same account is another business: its campaign still invites the person.
    const elsewhere = await makeCampaign(w.orgOwner, await makeOrganization(w.orgOwner), { name: 'Other practice' });
    await invite(w, elsewhere, { email });
    expect((await invitesOf(elsewhere)).map((i) => i.status)).toEqual(['scheduled']);
  });

  it("stops another campaign's pending follow-up, and what reaches the queue anyway is not sent", async () => {
    const w = await world();
    const first = await makeCampaign(w.orgOwner, w.org, { name: 'After visit' });
    const second = await makeCampaign(w.orgOwner, w.org, { name: 'After treatment', steps: FOLLOW_UP });
    const email = `x-${randomUUID().slice(0, 8)}@y.test`;

    await invite(w, first, { email, send_after_hours: 0 });
    await invite(w, second, { email, send_after_hours: 0 });
    await dispatch(new Date(), first, second);
    expect(mailsTo(email)).toHaveLength(2);
    const [followed] = await invitesOf(second);
    expect(followed).toMatchObject({ status: 'sent', nextStepIndex: 1 });

    await unsubscribeFromMail(email);
    // The second campaign's reminder is not sent when its time comes.
    await dispatch(new Date(Date.now() + 3 * HOUR), first, second);
    expect(mailsTo(email)).toHaveLength(2);
    expect((await Invite.findByPk(followed.id))!.nextStepIndex).toBeNull();

    // Rows written as a request that read before the unsubscribe committed would leave them: a waiting invite and a
    // due reminder of the second campaign, the person's contact not marked. The send checks the opt-out itself.
    const contact = await Contact.findOne({ where: { contactListId: second.contactListId } });
    await contact!.update({ unsubscribedAt: null });
    await Invite.update({ nextStepIndex: 1, nextStepAt: new Date(Date.now() - 1_000) }, { where: { id: followed.id } });
    const late = await Invite.create({
      uuid: randomUUID(),
      tenantId: second.tenantId,
      customerId: second.customerId,
      campaignId: second.id,
      contactId: contact!.id,
      status: 'scheduled',
      source: 'api',
      requestedAt: new Date(),
      sendAt: new Date(Date.now() - 1_000),
    });
    const outcomes = await dispatch(new Date(), second);
    expect(outcomes.map((o) => (o.status === 'fulfilled' ? o.value : o.reason)).sort()).toEqual(['done', 'stopped']);
    expect(mailsTo(email)).toHaveLength(2);
    expect(await Invite.findByPk(late.id)).toMatchObject({ status: 'canceled', reason: 'The contact unsubscribed.' });
    expect((await Invite.findByPk(followed.id))!.nextStepIndex).toBeNull();
  });
  it('two people of one account unsubscribing at once both succeed (no lock on the rest of the account)', async () => {
    const w = await world();
    const [a, b] = [await makeCampaign(w.orgOwner, w.org, { name: 'Spring' }), await makeCampaign(w.orgOwner, w.org, { name: 'Autumn' })];
    const people = Array.from({ length: 6 }, (_, i) => `p${i}-${randomUUID().slice(0, 6)}@example.test`);
    // Each person is a contact of both campaigns' lists: every unsubscribe looks the account through for them.
    for (const email of people) for (const c of [a, b]) await invite(w, c, { email, first_name: 'Pat' });
    const contacts = await Contact.findAll({ where: { customerId: w.org.customerId, email: people } });
    const firsts = people.map((email) => contacts.find((c) => c.email === email)!);
    const results = await Promise.allSettled(firsts.map((c) => unsubscribeByToken(unsubscribeTokenOf(c.uuid))));
    expect(results.map((r) => r.status)).toEqual(people.map(() => 'fulfilled'));
    const after = await Contact.findAll({ where: { customerId: w.org.customerId, email: people } });
    expect(after.every((c) => c.unsubscribedAt !== null)).toBe(true);
  });
});
