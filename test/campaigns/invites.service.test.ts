import { fixedClock } from '../../src/domain/clock';
import { Validation } from '../../src/domain/errors';
import { Contact, ContactActivity, Invite } from '../../src/models';
import { requestInvite, sendTimeFor, type InviteOutcome } from '../../src/services/invites.service';
import * as campaigns from '../../src/services/campaigns.service';
import { useDatabase } from '../support/db';
import { makeOrganization, makeOrgOwner, makeTenant } from '../support/factories';
import { contactsOfList, invitesOf, makeCampaign, markSent, principalOf, SMS_STEP } from './factories';

process.env.LOG_LEVEL ??= 'silent';

const at = (iso: string) => new Date(iso);
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

describe('sendTimeFor: the campaign send window in UTC', () => {
  const window = (start: string | null, end: string | null) => ({ sendWindowStart: start, sendWindowEnd: end });

  it('keeps the earliest time when the campaign has no window', () => {
    expect(sendTimeFor(window(null, null), at('2026-03-02T03:17:00Z'))).toEqual(at('2026-03-02T03:17:00Z'));
  });

  it('keeps a time inside the window and moves one before it to the window start of the same day', () => {
    expect(sendTimeFor(window('09:00', '17:00'), at('2026-03-02T10:30:00Z'))).toEqual(at('2026-03-02T10:30:00Z'));
    expect(sendTimeFor(window('09:00', '17:00'), at('2026-03-02T07:00:00Z'))).toEqual(at('2026-03-02T09:00:00Z'));
    expect(sendTimeFor(window('09:00', '17:00'), at('2026-03-02T08:59:30Z'))).toEqual(at('2026-03-02T09:00:00Z'));
  });

  it('moves a time after the window (the end is exclusive) to the next day window start', () => {
    expect(sendTimeFor(window('09:00', '17:00'), at('2026-03-02T18:00:00Z'))).toEqual(at('2026-03-03T09:00:00Z'));
    expect(sendTimeFor(window('09:00', '17:00'), at('2026-03-02T17:00:00Z'))).toEqual(at('2026-03-03T09:00:00Z'));
    expect(sendTimeFor(window('09:00', '17:00'), at('2026-12-31T23:30:00Z'))).toEqual(at('2027-01-01T09:00:00Z'));
  });

  it('handles a window that wraps past midnight (22:00-06:00)', () => {
    const w = window('22:00', '06:00');
    expect(sendTimeFor(w, at('2026-03-02T23:00:00Z'))).toEqual(at('2026-03-02T23:00:00Z'));
    expect(sendTimeFor(w, at('2026-03-03T03:00:00Z'))).toEqual(at('2026-03-03T03:00:00Z'));
    expect(sendTimeFor(w, at('2026-03-02T12:00:00Z'))).toEqual(at('2026-03-02T22:00:00Z'));
    expect(sendTimeFor(w, at('2026-03-02T06:00:00Z'))).toEqual(at('2026-03-02T22:00:00Z'));
  });
});

describe('requestInvite (rules 2-7 of POST .../campaigns/{campaign}/invite)', () => {
  useDatabase();
  const NOW = at('2026-03-02T12:00:00Z');

  async function world(overrides: Partial<campaigns.CreateCampaignInput> = {}) {
    const { tenant } = await makeTenant();
    const owner = await makeOrgOwner(tenant.id);
    const org = await makeOrganization(owner);
    const campaign = await makeCampaign(owner, org, overrides);
    return { owner, org, campaign };
  }

  async function activities(contactId: number) {
    return (await ContactActivity.findAll({ where: { contactId }, order: [['id', 'ASC']] })).map((a) => ({ type: a.type, inviteId: Number(a.inviteId) }));
  }

  it('creates the contact, stores a scheduled invite at now + the campaign default and logs a scheduled activity', async () => {
    const { campaign } = await world({ sendAfterHours: 2 });
    const clock = fixedClock(NOW);
    const r = await requestInvite(campaign, { email: 'Ada@Example.COM', firstName: 'Ada', lastName: 'Lovelace' }, { source: 'api', clock });
    expect(r.outcome).toBe<InviteOutcome>('scheduled');
    const contact = (await Contact.findByPk(r.contact.id))!;
    expect(contact).toMatchObject({ email: 'ada@example.com', firstName: 'Ada', lastName: 'Lovelace', phone: null, contactListId: campaign.contactListId });
    const invite = (await Invite.findByPk(r.invite!.id))!;
    expect(invite).toMatchObject({ status: 'scheduled', source: 'api', campaignId: campaign.id, contactId: contact.id });
    expect(invite.requestedAt).toEqual(NOW);
    expect(invite.sendAt).toEqual(new Date(NOW.getTime() + 2 * HOUR));
    expect(await activities(contact.id)).toEqual([{ type: 'scheduled', inviteId: Number(invite.id) }]);
  });

  it('honours send_after_hours: 0 sends as soon as possible, n adds n hours, null takes the campaign default', async () => {
    const { campaign } = await world({ sendAfterHours: 5 });
    const clock = fixedClock(NOW);
    const zero = await requestInvite(campaign, { email: 'zero@example.com' }, { source: 'api', clock, sendAfterHours: 0 });
    expect(zero.invite!.sendAt).toEqual(NOW);
    const day = await requestInvite(campaign, { email: 'day@example.com' }, { source: 'api', clock, sendAfterHours: 24 });
    expect(day.invite!.sendAt).toEqual(new Date(NOW.getTime() + DAY));
    const dflt = await requestInvite(campaign, { email: 'default@example.com' }, { source: 'api', clock, sendAfterHours: null });
    expect(dflt.invite!.sendAt).toEqual(new Date(NOW.getTime() + 5 * HOUR));
  });

  it('schedules a request outside the send window for the start of the next window', async () => {
    const { campaign } = await world({ sendWindowStart: '09:00', sendWindowEnd: '17:00' });
    const evening = fixedClock(at('2026-03-02T20:15:00Z'));
    const r = await requestInvite(campaign, { email: 'late@example.com' }, { source: 'api', clock: evening, sendAfterHours: 0 });
    expect(r.invite!.sendAt).toEqual(at('2026-03-03T09:00:00Z'));
    // The delay is added first, then the window applies: 12:00 + 6 h = 18:00, outside -> 09:00 next day.
    const noon = fixedClock(NOW);
    const delayed = await requestInvite(campaign, { email: 'delayed@example.com' }, { source: 'api', clock: noon, sendAfterHours: 6 });
    expect(delayed.invite!.sendAt).toEqual(at('2026-03-03T09:00:00Z'));
    const inside = await requestInvite(campaign, { email: 'inside@example.com' }, { source: 'api', clock: noon, sendAfterHours: 1 });
    expect(inside.invite!.sendAt).toEqual(at('2026-03-02T13:00:00Z'));
  });

  it('applies a wrapping window (22:00-06:00) to requests', async () => {
    const { campaign } = await world({ sendWindowStart: '22:00', sendWindowEnd: '06:00' });
    const r = await requestInvite(campaign, { email: 'night@example.com' }, { source: 'api', clock: fixedClock(NOW), sendAfterHours: 0 });
    expect(r.invite!.sendAt).toEqual(at('2026-03-02T22:00:00Z'));
    const early = await requestInvite(campaign, { email: 'early@example.com' }, { source: 'api', clock: fixedClock(at('2026-03-03T02:00:00Z')), sendAfterHours: 0 });
    expect(early.invite!.sendAt).toEqual(at('2026-03-03T02:00:00Z'));
  });

  it('uses notBefore (inbound timing) when it is later than the request plus the delay', async () => {
    const { campaign } = await world();
    const later = at('2026-03-04T08:30:00Z');
    const r = await requestInvite(campaign, { email: 'inbound@example.com' }, { source: 'inbound', clock: fixedClock(NOW), notBefore: later });
    expect(r.invite!.sendAt).toEqual(later);
    expect(r.invite!.source).toBe('inbound');
  });

  it('matches by email within the list and updates the details that were sent', async () => {
    const { campaign } = await world();
    const clock = fixedClock(NOW);
    const first = await requestInvite(campaign, { email: 'ann@example.com', firstName: 'Ann' }, { source: 'api', clock });
    const again = await requestInvite(campaign, { email: 'ANN@example.com', phone: '+14155552671', lastName: 'Smith' }, { source: 'api', clock });
    expect(again.contact.uuid).toBe(first.contact.uuid);
    const rows = await contactsOfList(campaign.contactListId);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ email: 'ann@example.com', phone: '+14155552671', firstName: 'Ann', lastName: 'Smith' });
  });

  it('matches by phone when no email matches, updating the names and adding the email', async () => {
    const { campaign } = await world();
    const clock = fixedClock(NOW);
    const first = await requestInvite(campaign, { phone: '+447911123456', firstName: 'Bob', lastName: 'Old' }, { source: 'api', clock });
    const again = await requestInvite(campaign, { phone: '+447911123456', email: 'bob@example.com', firstName: 'Robert', lastName: 'New' }, { source: 'api', clock });
    expect(again.contact.uuid).toBe(first.contact.uuid);
    const rows = await contactsOfList(campaign.contactListId);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ phone: '+447911123456', email: 'bob@example.com', firstName: 'Robert', lastName: 'New' });
  });

  it('prefers the email match when email and phone match two different contacts; the phone stays with its owner', async () => {
    const { campaign } = await world();
    const clock = fixedClock(NOW);
    const byEmail = await requestInvite(campaign, { email: 'carol@example.com' }, { source: 'api', clock });
    const byPhone = await requestInvite(campaign, { phone: '+14155552671' }, { source: 'api', clock });
    const both = await requestInvite(campaign, { email: 'carol@example.com', phone: '+14155552671', firstName: 'Carol' }, { source: 'api', clock });
    expect(both.contact.uuid).toBe(byEmail.contact.uuid);
    expect((await Contact.findByPk(byEmail.contact.id))!).toMatchObject({ firstName: 'Carol', phone: null });
    expect((await Contact.findByPk(byPhone.contact.id))!.phone).toBe('+14155552671');
  });

  it('returns the same contact id from campaigns sharing a contact list, and different ones for different lists', async () => {
    const { owner, org, campaign } = await world();
    const sharing = await makeCampaign(owner, org, { contactListId: campaign.contactListId });
    const separate = await makeCampaign(owner, org);
    const clock = fixedClock(NOW);
    const a = await requestInvite(campaign, { email: 'dan@example.com' }, { source: 'api', clock });
    const b = await requestInvite(sharing, { email: 'dan@example.com' }, { source: 'api', clock });
    const c = await requestInvite(separate, { email: 'dan@example.com' }, { source: 'api', clock });
    expect(b.contact.uuid).toBe(a.contact.uuid);
    expect(c.contact.uuid).not.toBe(a.contact.uuid);
    // One waiting invite per (campaign, contact): two campaigns, two invites for the shared contact.
    expect(b.outcome).toBe('scheduled');
  });

  it('moves a waiting invite when the contact is submitted again: same invite, new send time, a rescheduled activity', async () => {
    const { campaign } = await world({ sendAfterHours: 24 });
    const clock = fixedClock(NOW);
    const first = await requestInvite(campaign, { email: 'eve@example.com' }, { source: 'api', clock });
    clock.advance(3 * HOUR);
    const second = await requestInvite(campaign, { email: 'eve@example.com', firstName: 'Eve' }, { source: 'api', clock });
    expect(second.outcome).toBe('rescheduled');
    expect(second.invite!.id).toBe(first.invite!.id);
    const invites = await invitesOf(campaign.id);
    expect(invites).toHaveLength(1);
    expect(invites[0].requestedAt).toEqual(new Date(NOW.getTime() + 3 * HOUR));
    expect(invites[0].sendAt).toEqual(new Date(NOW.getTime() + 27 * HOUR));
    expect((await activities(first.contact.id)).map((a) => a.type)).toEqual(['scheduled', 'rescheduled']);
  });

  it('ignores a contact sent a non-failed invite within the duplicate window: no invite scheduled, details saved, ignored activity', async () => {
    const { campaign } = await world();
    const clock = fixedClock(NOW);
    const first = await requestInvite(campaign, { email: 'fay@example.com' }, { source: 'api', clock });
    await markSent(first.invite!, new Date(NOW.getTime() - 3 * DAY));
    const again = await requestInvite(campaign, { email: 'fay@example.com', lastName: 'Saved' }, { source: 'api', clock });
    expect(again.outcome).toBe('ignored_duplicate');
    expect(again.invite).toBeNull();
    expect(again.contact.uuid).toBe(first.contact.uuid);
    expect((await Contact.findByPk(first.contact.id))!.lastName).toBe('Saved');
    expect(await Invite.count({ where: { campaignId: campaign.id, status: 'scheduled' } })).toBe(0);
    expect((await activities(first.contact.id)).map((a) => a.type)).toEqual(['scheduled', 'ignored']);
  });

  it('counts invites sent on any channel by any campaign sharing the contact', async () => {
    const { owner, org, campaign } = await world();
    const smsCampaign = await makeCampaign(owner, org, { contactListId: campaign.contactListId, steps: [SMS_STEP] });
    const clock = fixedClock(NOW);
    const viaSms = await requestInvite(smsCampaign, { phone: '+14155552671', email: 'gil@example.com' }, { source: 'api', clock });
    await markSent(viaSms.invite!, new Date(NOW.getTime() - DAY));
    const r = await requestInvite(campaign, { email: 'gil@example.com' }, { source: 'api', clock });
    expect(r.outcome).toBe('ignored_duplicate');
  });

  it('does not count failed invites or waiting ones toward the duplicate window', async () => {
    const { owner, org, campaign } = await world();
    const other = await makeCampaign(owner, org, { contactListId: campaign.contactListId });
    const clock = fixedClock(NOW);
    const failed = await requestInvite(other, { email: 'hal@example.com' }, { source: 'api', clock });
    await Invite.update({ status: 'failed', failedAt: NOW, sentAt: null }, { where: { id: failed.invite!.id } });
    const waiting = await requestInvite(campaign, { email: 'ida@example.com' }, { source: 'api', clock });
    expect((await requestInvite(campaign, { email: 'hal@example.com' }, { source: 'api', clock })).outcome).toBe('scheduled');
    expect((await requestInvite(other, { email: 'ida@example.com' }, { source: 'api', clock })).outcome).toBe('scheduled');
    expect(waiting.outcome).toBe('scheduled');
  });

  it('invites again a contact whose last invite was sent before the duplicate window', async () => {
    const { campaign } = await world({ duplicateWindowDays: 14 });
    const clock = fixedClock(NOW);
    const first = await requestInvite(campaign, { email: 'jo@example.com' }, { source: 'api', clock });
    await markSent(first.invite!, new Date(NOW.getTime() - 14 * DAY - 1000));
    const again = await requestInvite(campaign, { email: 'jo@example.com' }, { source: 'api', clock });
    expect(again.outcome).toBe('scheduled');
    expect(again.invite!.id).not.toBe(first.invite!.id);
    // Just inside the window it is a duplicate.
    await markSent(again.invite!, new Date(NOW.getTime() - 14 * DAY + 1000));
    expect((await requestInvite(campaign, { email: 'jo@example.com' }, { source: 'api', clock })).outcome).toBe('ignored_duplicate');
  });

  it("ends the follow-ups of the pair's earlier invite when a new invite is stored (the new one's steps go)", async () => {
    const { campaign } = await world({ duplicateWindowDays: 0 });
    const clock = fixedClock(NOW);
    const first = await requestInvite(campaign, { email: 'follow@example.com' }, { source: 'api', clock });
    await markSent(first.invite!, NOW);
    await first.invite!.update({ nextStepIndex: 1, nextStepAt: new Date(NOW.getTime() + DAY) });
    const other = await requestInvite(campaign, { email: 'other@example.com' }, { source: 'api', clock });
    await markSent(other.invite!, NOW);
    await other.invite!.update({ nextStepIndex: 1, nextStepAt: new Date(NOW.getTime() + DAY) });

    const again = await requestInvite(campaign, { email: 'follow@example.com' }, { source: 'api', clock });
    expect(again.outcome).toBe('scheduled');
    expect(await Invite.findByPk(first.invite!.id)).toMatchObject({ status: 'sent', nextStepIndex: null, nextStepAt: null });
    // Another contact's follow-up is not touched.
    expect((await Invite.findByPk(other.invite!.id))!.nextStepIndex).toBe(1);
  });

  it('never treats a request as a duplicate with a duplicate window of 0 days', async () => {
    const { campaign } = await world({ duplicateWindowDays: 0 });
    const clock = fixedClock(NOW);
    const first = await requestInvite(campaign, { email: 'kim@example.com' }, { source: 'api', clock });
    await markSent(first.invite!, NOW);
    expect((await requestInvite(campaign, { email: 'kim@example.com' }, { source: 'api', clock })).outcome).toBe('scheduled');
  });

  it('sends nothing to an unsubscribed contact: outcome ignored_unsubscribed, an ignored activity, no scheduled invite', async () => {
    const { campaign } = await world();
    const clock = fixedClock(NOW);
    const first = await requestInvite(campaign, { email: 'lee@example.com' }, { source: 'api', clock });
    await Invite.update({ status: 'canceled' }, { where: { id: first.invite!.id } });
    await Contact.update({ unsubscribedAt: NOW }, { where: { id: first.contact.id } });
    const r = await requestInvite(campaign, { email: 'lee@example.com', firstName: 'Lee' }, { source: 'api', clock });
    expect(r.outcome).toBe('ignored_unsubscribed');
    expect(r.invite).toBeNull();
    expect(await Invite.count({ where: { contactId: first.contact.id, status: 'scheduled' } })).toBe(0);
    expect((await activities(first.contact.id)).map((a) => a.type)).toEqual(['scheduled', 'ignored']);
    expect((await Contact.findByPk(first.contact.id))!.firstName).toBe('Lee');
  });

  it('ignores requests while the campaign is paused and schedules them again after resume', async () => {
    const { owner, campaign } = await world();
    const p = await principalOf(owner);
    const clock = fixedClock(NOW);
    const waiting = await requestInvite(campaign, { email: 'max@example.com' }, { source: 'api', clock });
    const paused = await campaigns.pause(p, campaign.uuid, { clock });
    expect((await Invite.findByPk(waiting.invite!.id))!.status).toBe('canceled');
    const r = await requestInvite(paused, { email: 'max@example.com' }, { source: 'api', clock });
    expect(r.outcome).toBe('ignored_paused');
    const resumed = await campaigns.resume(p, campaign.uuid, { clock });
    expect((await requestInvite(resumed, { email: 'max@example.com' }, { source: 'api', clock })).outcome).toBe('scheduled');
  });

  it('rejects bad details with field errors (email or phone required, E.164, email format, names up to 255)', async () => {
    const { campaign } = await world();
    const fieldsOf = async (details: Parameters<typeof requestInvite>[1]) => {
      try {
        await requestInvite(campaign, details, { source: 'api' });
      } catch (e) {
        if (e instanceof Validation) return Object.keys(e.fields ?? {}).sort();
        throw e;
      }
      return [];
    };
    expect(await fieldsOf({ firstName: 'Nobody' })).toEqual(['email', 'phone']);
    expect(await fieldsOf({ phone: '4155552671' })).toEqual(['phone']);
    expect(await fieldsOf({ phone: '+1 415 555 2671' })).toEqual(['phone']);
    expect(await fieldsOf({ phone: '+15555550123' })).toEqual(['phone']); // well-formed, but no such number
    expect(await fieldsOf({ email: 'not-an-email' })).toEqual(['email']);
    expect(await fieldsOf({ email: 'ok@example.com', firstName: 'x'.repeat(256), lastName: 'y'.repeat(256) })).toEqual(['first_name', 'last_name']);
    expect(await fieldsOf({ email: 'ok@example.com', firstName: 'é'.repeat(255) })).toEqual([]);
  });

  it('serialises two simultaneous first requests for the same person: one contact, one waiting invite', async () => {
    const { campaign } = await world();
    const clock = fixedClock(NOW);
    const results = await Promise.all([
      requestInvite(campaign, { email: 'race@example.com' }, { source: 'api', clock }),
      requestInvite(campaign, { email: 'race@example.com' }, { source: 'api', clock }),
    ]);
    expect(results[0].contact.uuid).toBe(results[1].contact.uuid);
    expect(results.map((r) => r.outcome).sort()).toEqual(['rescheduled', 'scheduled']);
    expect(await contactsOfList(campaign.contactListId)).toHaveLength(1);
    expect(await Invite.count({ where: { campaignId: campaign.id, status: 'scheduled' } })).toBe(1);
  });

  it('stores the invite as scheduled and answers normally when Temporal cannot be reached (the row is the queue)', async () => {
    const { campaign } = await world();
    const r = await requestInvite(campaign, { email: 'offline@example.com' }, { source: 'api', clock: fixedClock(NOW) });
    expect(r.outcome).toBe('scheduled');
    const stored = (await Invite.findByPk(r.invite!.id))!;
    expect(stored.status).toBe('scheduled');
    expect(stored.sendAt).not.toBeNull();
  });
});
