import { randomUUID } from 'node:crypto';
import { fixedClock, type Clock } from '../../src/domain/clock';
import { Validation } from '../../src/domain/errors';
import { MAX_BATCH_INVITES } from '../../src/domain/limits';
import { Contact, ContactActivity, Invite, type Campaign } from '../../src/models';
import * as campaigns from '../../src/services/campaigns.service';
import { requestInvites, type BatchInviteInput, type BatchInviteResult } from '../../src/services/invite-batches';
import { requestInvite } from '../../src/services/invites.service';
import { useDatabase } from '../support/db';
import { makeOrganization, makeOrgOwner, makeTenant } from '../support/factories';
import { contactsOfList, invitesOf, makeCampaign, markSent, principalOf } from './factories';

process.env.LOG_LEVEL ??= 'silent';

/**
 * The batch invite (src/services/invite-batches.ts) must leave exactly what the same contacts sent one request after
 * another leave: the same contacts with the same details, the same invites with the same send times and reasons, the
 * same activities per contact, the same follow-ups stopped, the same answers. Each case builds two campaigns
 * alike (own contact lists), applies the entries one by one to the first and as one batch to the second, and
 * compares the two as data (ids apart).
 */

const NOW = new Date('2026-03-02T12:00:00Z');
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

describe('requestInvites: a batch leaves what consecutive single invites leave', () => {
  useDatabase();

  async function twoCampaigns(overrides: Partial<campaigns.CreateCampaignInput> = {}) {
    const { tenant } = await makeTenant();
    const owner = await makeOrgOwner(tenant.id);
    const org = await makeOrganization(owner);
    return { owner, org, one: await makeCampaign(owner, org, overrides), batch: await makeCampaign(owner, org, overrides) };
  }

  /** A contact as data: its details, the invites of it, and its timeline (in order). */
  async function state(campaign: Campaign) {
    const contacts = await contactsOfList(campaign.contactListId);
    const keyOf = new Map(contacts.map((c) => [c.id, `${c.email ?? '-'}|${c.phone ?? '-'}`]));
    const invites = await invitesOf(campaign.id);
    const activities = await ContactActivity.findAll({ where: { campaignId: campaign.id }, order: [['id', 'ASC']] });
    const inviteKey = new Map(invites.map((i, n) => [i.id, `${keyOf.get(i.contactId)}#${invites.filter((x, m) => m < n && x.contactId === i.contactId).length}`]));
    return {
      contacts: contacts.map((c) => ({ key: keyOf.get(c.id), firstName: c.firstName, lastName: c.lastName, unsubscribed: c.unsubscribedAt !== null })).sort(byKey),
      invites: invites
        .map((i) => ({
          key: inviteKey.get(i.id),
          status: i.status,
          source: i.source,
          requestedAt: i.requestedAt.toISOString(),
          sendAt: i.sendAt?.toISOString() ?? null,
          reason: i.reason,
          nextStepIndex: i.nextStepIndex,
        }))
        .sort(byKey),
      timelines: [...keyOf.entries()]
        .map(([id, key]) => ({ key, activities: activities.filter((a) => a.contactId === id).map((a) => `${a.type} ${inviteKey.get(a.inviteId!)}: ${a.detail}`) }))
        .sort(byKey),
    };
  }
  const byKey = (a: { key?: string }, b: { key?: string }) => (a.key! < b.key! ? -1 : a.key! > b.key! ? 1 : 0);

  /** Applies the entries to `one` request by request and to `batch` as one batch; returns the answers of both. */
  async function both(one: Campaign, batch: Campaign, entries: BatchInviteInput[], clock: Clock) {
    const single: BatchInviteResult[] = [];
    for (const { sendAfterHours, ...details } of entries) single.push(await requestInvite(one, details, { source: 'api', sendAfterHours, clock }));
    const batched = await requestInvites(batch, entries, { source: 'api', clock });
    const answer = (rs: BatchInviteResult[]) => rs.map((r) => ({ contact: `${r.contact.email ?? '-'}|${r.contact.phone ?? '-'}`, outcome: r.outcome, invite: r.invite !== null }));
    return { single: answer(single), batched: answer(batched), ids: batched.map((r) => r.contact.uuid) };
  }

  /** The same stored past in both campaigns: waiting, sent, sent long ago with a follow-up, unsubscribed, split people. */
  async function seed(campaign: Campaign, clock: Clock) {
    const invite = (details: Parameters<typeof requestInvite>[1]) => requestInvite(campaign, details, { source: 'api', clock, sendAfterHours: 0 });
    await invite({ email: 'waiting@example.com', firstName: 'Wai' });
    await markSent((await invite({ email: 'recent@example.com' })).invite!, new Date(NOW.getTime() - 3 * DAY));
    const old = await invite({ email: 'old@example.com' });
    await markSent(old.invite!, new Date(NOW.getTime() - 20 * DAY));
    await old.invite!.update({ nextStepIndex: 1, nextStepAt: new Date(NOW.getTime() + DAY) });
    const gone = await invite({ phone: '+14155552671' });
    await Invite.update({ status: 'canceled' }, { where: { id: gone.invite!.id } });
    await Contact.update({ unsubscribedAt: NOW }, { where: { id: gone.contact.id } });
    await markSent((await invite({ email: 'split@example.com' })).invite!, new Date(NOW.getTime() - 30 * DAY));
    await markSent((await invite({ phone: '+447911123456' })).invite!, new Date(NOW.getTime() - 30 * DAY));
    await markSent((await invite({ phone: '+33612345678', firstName: 'Phone' })).invite!, new Date(NOW.getTime() - 30 * DAY));
  }

  it('matches, updates, reschedules, ignores and schedules as the single invite does, in the order given', async () => {
    const { one, batch } = await twoCampaigns({ sendAfterHours: 2, duplicateWindowDays: 14, sendWindowStart: '09:00', sendWindowEnd: '17:00' });
    const clock = fixedClock(NOW);
    await seed(one, clock);
    await seed(batch, clock);
    clock.set(new Date(NOW.getTime() + HOUR));

    const entries: BatchInviteInput[] = [
      { email: 'New.One@Example.com', firstName: 'New' }, // a new person, the campaign's 2 hours
      { email: 'waiting@example.com', lastName: 'Again' }, // rule 4: the waiting invite is moved
      { email: 'recent@example.com', firstName: 'Dup' }, // rule 3: a duplicate, details still saved
      { email: 'old@example.com', sendAfterHours: 0 }, // rule 5: invited again; the old follow-up stops
      { phone: '+14155552671', firstName: 'Gone' }, // rule 6: unsubscribed
      { email: 'split@example.com', phone: '+447911123456', firstName: 'Split' }, // email wins, the phone stays with its holder
      { email: 'found@example.com', phone: '+33612345678' }, // matched by phone, the email added
      { email: 'new.one@example.com', lastName: 'Twice' }, // the first entry's person again: rescheduled, as a second request
      { phone: '+447911123456', email: 'holder@example.com' }, // the held phone's own person, touched above
      { email: 'late@example.com', sendAfterHours: 6 }, // 19:00 is outside the window: the next day at 09:00
      { phone: '+14155550100', email: 'both@example.com' }, // a new person by both keys...
      { email: 'BOTH@example.com', sendAfterHours: 0 }, // ...and again by the email alone
    ];
    const answers = await both(one, batch, entries, clock);

    expect(answers.batched).toEqual(answers.single);
    expect(answers.batched.map((a) => a.outcome)).toEqual([
      'scheduled',
      'rescheduled',
      'ignored_duplicate',
      'scheduled',
      'ignored_unsubscribed',
      'scheduled',
      'scheduled',
      'rescheduled',
      'scheduled',
      'scheduled',
      'scheduled',
      'rescheduled',
    ]);
    // The same person answers the same id, wherever in the batch.
    expect(answers.ids[7]).toBe(answers.ids[0]);
    expect(answers.ids[11]).toBe(answers.ids[10]);
    expect(new Set(answers.ids).size).toBe(10);

    const [a, b] = [await state(one), await state(batch)];
    expect(b).toEqual(a);
    // What both hold, spelled out for the rules that need it.
    const invite = (key: string) => b.invites.filter((i) => i.key!.startsWith(key));
    expect(invite('late@example.com|-')).toMatchObject([{ status: 'scheduled', sendAt: '2026-03-03T09:00:00.000Z' }]);
    expect(invite('old@example.com|-')).toMatchObject([{ status: 'sent', nextStepIndex: null }, { status: 'scheduled' }]);
    expect(invite('recent@example.com|-')[1]).toMatchObject({ status: 'ignored', reason: expect.stringMatching(/^Duplicate: an invite was sent 2026-02-27T12:00:00.000Z/) });
    expect(b.contacts.find((c) => c.key === 'split@example.com|-')).toMatchObject({ firstName: 'Split' });
    expect(b.contacts.find((c) => c.key === 'holder@example.com|+447911123456')).toBeDefined();
    expect(b.contacts.find((c) => c.key === 'found@example.com|+33612345678')).toMatchObject({ firstName: 'Phone' });
    expect(b.timelines.find((t) => t.key === 'new.one@example.com|-')!.activities.map((x) => x.split(' ')[0])).toEqual(['scheduled', 'rescheduled']);
  });

  it('ignores every entry of a paused campaign, saving the details, as single requests are', async () => {
    const { owner, one, batch } = await twoCampaigns();
    const p = await principalOf(owner);
    const clock = fixedClock(NOW);
    const [pausedOne, pausedBatch] = [await campaigns.pause(p, one.uuid, { clock }), await campaigns.pause(p, batch.uuid, { clock })];
    const answers = await both(pausedOne, pausedBatch, [{ email: 'a@example.com', firstName: 'A' }, { phone: '+14155552671' }, { email: 'a@example.com', lastName: 'B' }], clock);
    expect(answers.batched).toEqual(answers.single);
    expect(answers.batched.map((x) => x.outcome)).toEqual(['ignored_paused', 'ignored_paused', 'ignored_paused']);
    expect(await state(pausedBatch)).toEqual(await state(pausedOne));
    expect(await Invite.count({ where: { campaignId: batch.id, status: 'scheduled' } })).toBe(0);
  });

  it('stores nothing when any entry is invalid, naming each bad field by its entry', async () => {
    const { batch } = await twoCampaigns();
    const entries: BatchInviteInput[] = [{ email: 'fine@example.com' }, { phone: '4155552671' }, { firstName: 'Nobody' }, { email: 'x@example.com', sendAfterHours: -1 }];
    const error = await requestInvites(batch, entries, { source: 'api' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Validation);
    expect(Object.keys((error as Validation).fields ?? {}).sort()).toEqual(['contacts.1.phone', 'contacts.2.email', 'contacts.2.phone', 'contacts.3.send_after_hours']);
    expect(await contactsOfList(batch.contactListId)).toHaveLength(0);
    expect(await invitesOf(batch.id)).toHaveLength(0);
  });

  it(`refuses an empty batch and one of more than ${MAX_BATCH_INVITES} contacts`, async () => {
    const { batch } = await twoCampaigns();
    await expect(requestInvites(batch, [], { source: 'api' })).rejects.toBeInstanceOf(Validation);
    const many = Array.from({ length: MAX_BATCH_INVITES + 1 }, (_, i) => ({ email: `c${i}@example.com` }));
    await expect(requestInvites(batch, many, { source: 'api' })).rejects.toMatchObject({ fields: { contacts: [expect.stringContaining(String(MAX_BATCH_INVITES))] } });
    expect(await contactsOfList(batch.contactListId)).toHaveLength(0);
  });

  it('applies a full batch of distinct new contacts: one contact and one scheduled invite with its activity each', async () => {
    const { batch } = await twoCampaigns({ sendAfterHours: 0 });
    const entries = Array.from({ length: MAX_BATCH_INVITES }, (_, i) => ({ email: `person${i}@example.com`, firstName: `P${i}` }));
    const results = await requestInvites(batch, entries, { source: 'api', clock: fixedClock(NOW) });
    expect(results.map((r) => r.contact.email)).toEqual(entries.map((e) => e.email));
    const contacts = await contactsOfList(batch.contactListId);
    expect(contacts).toHaveLength(MAX_BATCH_INVITES);
    expect(new Set(results.map((r) => r.contact.uuid))).toEqual(new Set(contacts.map((c) => c.uuid)));
    const invites = await invitesOf(batch.id);
    expect(invites.map((i) => i.status)).toEqual(Array(MAX_BATCH_INVITES).fill('scheduled'));
    // Each answer's invite is that contact's stored invite (the multi-row insert's ids are the rows').
    const byId = new Map(invites.map((i) => [i.id, i]));
    for (const r of results) expect(byId.get(r.invite!.id)!.contactId).toBe(r.contact.id);
    const activities = await ContactActivity.findAll({ where: { campaignId: batch.id } });
    expect(activities).toHaveLength(MAX_BATCH_INVITES);
    for (const a of activities) expect(byId.get(a.inviteId!)!.contactId).toBe(a.contactId);
  });

  it('compares emails as the column does: andré is the stored andre, one person by the collation', async () => {
    const { one, batch } = await twoCampaigns();
    const clock = fixedClock(NOW);
    for (const c of [one, batch]) await requestInvite(c, { email: 'andré@example.com', firstName: 'André' }, { source: 'api', clock });
    const answers = await both(one, batch, [{ email: 'andre@example.com', lastName: 'Stored' }, { email: 'fresh@example.com' }], clock);
    expect(answers.batched).toEqual(answers.single);
    expect(answers.batched.map((a) => a.outcome)).toEqual(['rescheduled', 'scheduled']);
    expect(await state(batch)).toEqual(await state(one));
    expect(await contactsOfList(batch.contactListId)).toHaveLength(2);
  });

  it('compares emails as the column does: straße and strasse in one batch are one person, the later entry moving the invite', async () => {
    const { one, batch } = await twoCampaigns();
    const clock = fixedClock(NOW);
    const entries: BatchInviteInput[] = [{ email: 'straße@example.de', firstName: 'Eins' }, { email: 'other@example.de' }, { email: 'strasse@example.de', lastName: 'Zwei' }];
    const answers = await both(one, batch, entries, clock);
    expect(answers.batched).toEqual(answers.single);
    expect(answers.batched.map((a) => a.outcome)).toEqual(['scheduled', 'scheduled', 'rescheduled']);
    expect(answers.ids[2]).toBe(answers.ids[0]);
    expect(await state(batch)).toEqual(await state(one));
  });

  it('applies the batch again when a concurrent request stored one of its new people first (the unique key race)', async () => {
    const { batch } = await twoCampaigns();
    const sequelize = Contact.sequelize!;
    // Between the batch's look-up (nobody is race@) and its insert, another request stores race@ and commits: the
    // insert fails on the list's unique email (the driver's ER_DUP_ENTRY), and the batch is applied again.
    let inserts = 0;
    let theirs = false;
    sequelize.addHook('beforeQuery', 'race', (async (_options: unknown, query: { sql?: string }) => {
      // The batch's inserts of new people (not its upsert of the matched ones' details).
      if (theirs || !query?.sql?.startsWith('INSERT INTO `contacts`') || query.sql.includes('ON DUPLICATE KEY')) return;
      if (++inserts > 1) return;
      theirs = true;
      await Contact.create({ uuid: randomUUID(), tenantId: batch.tenantId, customerId: batch.customerId, contactListId: batch.contactListId, email: 'race@example.com', createdAt: NOW, updatedAt: NOW });
      theirs = false;
    }) as never);
    try {
      const results = await requestInvites(batch, [{ email: 'left@example.com' }, { email: 'race@example.com', firstName: 'Race' }], { source: 'api', clock: fixedClock(NOW) });
      expect(inserts).toBe(2); // the first attempt's insert, rolled back, and the second's (left@ only)
      const stored = await contactsOfList(batch.contactListId);
      expect(stored.map((c) => c.email).sort()).toEqual(['left@example.com', 'race@example.com']);
      const race = stored.find((c) => c.email === 'race@example.com')!;
      expect(results[1].contact.uuid).toBe(race.uuid);
      expect(race.firstName).toBe('Race');
      expect(results.map((r) => r.outcome)).toEqual(['scheduled', 'scheduled']);
      expect(await Invite.count({ where: { campaignId: batch.id, status: 'scheduled' } })).toBe(2);
    } finally {
      sequelize.removeHook('beforeQuery', 'race');
    }
  });
});
