import { randomUUID } from 'node:crypto';
import type { Campaign } from '../../src/models';
import { Contact, Invite, InviteMessage } from '../../src/models';
import { claimDueSteps } from '../../src/messaging/send-queue';
import { configureInviteDelivery, resetInviteDelivery } from '../../src/messaging/settings';
import type { ChannelSender } from '../../src/messaging/types';
import { creditBalance } from '../../src/services/credits.service';
import { createInviteActivities, inviteActivityDeps, type InviteQueueSettings } from '../../workflows/activities/invites';
import { useOwnDatabase } from '../support/db';
import { makeWorld } from '../support/factories';
import { waitUntil } from '../support/wait';
import { giveCredits, makeCampaign } from './fixtures';

/**
 * Review finding H1: one account whose mail server is slow must not hold up the review requests of the others. The
 * invite dispatcher's activity on a database of its own (the claims see only this file's invites), without Temporal:
 * account A's sender takes 2 s a message, B's answers at once, four send slots.
 */
describe('the send queue shares its sends between accounts', () => {
  useOwnDatabase('invite_fairness');
  beforeAll(() => configureInviteDelivery({ hourMs: 1_000, inFlightGraceMs: 60_000 }));
  afterAll(() => resetInviteDelivery());
  // What a test leaves due would be claimed by the next.
  afterEach(async () => {
    await Invite.update({ status: 'canceled' }, { where: { status: 'scheduled' } });
  });

  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

  async function account(credits: number) {
    const w = await makeWorld();
    if (credits > 0) await giveCredits(w, 'email', credits);
    return { customerId: w.org.customerId, campaign: await makeCampaign(w) };
  }

  /** `n` invites of the campaign, each to a new contact, the i-th at `sendAt(i)`. */
  async function invites(campaign: Campaign, n: number, sendAt: (i: number) => Date): Promise<Invite[]> {
    const contacts = await Contact.bulkCreate(
      Array.from({ length: n }, (_, i) => ({
        uuid: randomUUID(),
        tenantId: campaign.tenantId,
        customerId: campaign.customerId,
        contactListId: campaign.contactListId,
        firstName: 'Ada',
        lastName: 'Lovelace',
        email: `fair-${i}-${randomUUID().slice(0, 8)}@example.test`,
        phone: null,
      })),
    );
    await Invite.bulkCreate(
      contacts.map((c, i) => ({
        uuid: randomUUID(),
        tenantId: campaign.tenantId,
        customerId: campaign.customerId,
        campaignId: campaign.id,
        contactId: c.id,
        status: 'scheduled' as const,
        source: 'api' as const,
        requestedAt: new Date(),
        sendAt: sendAt(i),
      })),
    );
    return Invite.findAll({ where: { contactId: contacts.map((c) => c.id) }, order: [['id', 'ASC']] });
  }

  /** A sender per account: the accounts in `slowMs` take that long a message; what each took, and when. */
  function senders(slowMs: Map<number, number>) {
    const sent: Array<{ customerId: number; to: string; at: number }> = [];
    let n = 0;
    const senderFor = async (customerId: number): Promise<ChannelSender> => ({
      label: 'recorder',
      async send(message) {
        const ms = slowMs.get(customerId);
        if (ms) await sleep(ms);
        sent.push({ customerId, to: message.to, at: Date.now() });
        return { providerMessageId: `id-${++n}` };
      },
    });
    return { sent, senderFor };
  }

  function dispatcher(senderFor: (customerId: number) => Promise<ChannelSender>, queue: Partial<InviteQueueSettings>) {
    return createInviteActivities({
      ...inviteActivityDeps({ senderFor }, { concurrency: 4, lingerMs: 100, pollMs: 20, budgetMs: 3_000, ...queue }),
      warn: () => undefined,
      heartbeat: () => undefined,
      stopping: () => false,
    });
  }

  it('claims due steps in turns of accounts, and leaves out the accounts it is told to', async () => {
    const [a, b, c] = [await account(0), await account(0), await account(0)];
    const t0 = Date.now() - 60_000;
    const ofA = await invites(a.campaign, 5, (i) => new Date(t0 + i));
    const [ofB] = await invites(b.campaign, 1, () => new Date(t0 + 10));
    const [ofC] = await invites(c.campaign, 1, () => new Date(t0 + 20));

    const firsts = (await claimDueSteps(4)).filter((d) => d.kind === 'first');
    expect(firsts.map((d) => d.inviteId)).toEqual([ofA[0].id, ofB.id, ofC.id, ofA[1].id]);
    expect(firsts.map((d) => d.customerId)).toEqual([a.customerId, b.customerId, c.customerId, a.customerId]);
    expect((await claimDueSteps(4, new Date(), [a.customerId])).map((d) => d.inviteId)).toEqual([ofB.id, ofC.id]);
  });

  it("sends another account's step at once while one account's 200 retried steps, due before it, go slowly", async () => {
    const a = await account(250);
    const b = await account(5);
    const t0 = Date.now() - 5 * 60_000;
    const ofA = await invites(a.campaign, 200, () => new Date(t0));
    // A's steps are being retried (a mail server that answers at its deadline): due again, with their old send time.
    await Invite.update({ sendAttempts: 3, retryAt: new Date(Date.now() - 1_000) }, { where: { id: ofA.map((i) => i.id) } });
    const [ofB] = await invites(b.campaign, 1, () => new Date(t0 + 1));
    const { sent, senderFor } = senders(new Map([[a.customerId, 2_000]]));

    const started = Date.now();
    const run = dispatcher(senderFor, {}).sendDueInvites(100);
    try {
      await waitUntil(async () => sent.some((s) => s.customerId === b.customerId), 5_000, 10);
      expect(sent.find((s) => s.customerId === b.customerId)!.at - started).toBeLessThan(1_000);
      // Recorded at once, while A's sends go on.
      await waitUntil(async () => (await InviteMessage.findOne({ where: { inviteId: ofB.id } }))?.status === 'sent', 1_000, 10);
    } finally {
      await run.catch(() => undefined);
    }

    // Out of its budget, the activity finished A's sends under way and released the steps still waiting for a slot:
    // their claims undone (no step row, the credit back, the attempts kept), due again for the next activity.
    expect(await run).toBeGreaterThanOrEqual(100);
    const sentOfA = sent.filter((s) => s.customerId === a.customerId).length;
    expect(sentOfA).toBeGreaterThan(0);
    expect(sentOfA).toBeLessThanOrEqual(9); // three of the four slots, 2 s a message, for about 3 s and the last sends
    const rows = await Invite.findAll({ where: { id: ofA.map((i) => i.id) } });
    const messages = await InviteMessage.findAll({ where: { inviteId: ofA.map((i) => i.id) } });
    expect(messages.map((m) => m.status)).toEqual(Array(sentOfA).fill('sent'));
    expect(rows.filter((r) => r.status === 'sent')).toHaveLength(sentOfA);
    const released = rows.filter((r) => r.status === 'scheduled');
    expect(released).toHaveLength(200 - sentOfA);
    for (const r of released) {
      expect(r).toMatchObject({ sentAt: null, sendAttempts: 3, nextStepIndex: null });
      expect(r.retryAt === null || r.retryAt.getTime() <= Date.now()).toBe(true); // due again
    }
    expect(await creditBalance(a.customerId, 'email')).toBe(250 - sentOfA);
  }, 30_000);

  it("sends a step that becomes due while one account's slow backlog fills the slots, within a second of its time", async () => {
    const a = await account(250);
    const b = await account(5);
    await invites(a.campaign, 200, () => new Date(Date.now() - 60_000));
    const sendAt = new Date(Date.now() + 1_500);
    const [ofB] = await invites(b.campaign, 1, () => sendAt);
    const { sent, senderFor } = senders(new Map([[a.customerId, 2_000]]));

    const run = dispatcher(senderFor, { budgetMs: 4_000 }).sendDueInvites(100);
    try {
      await waitUntil(async () => sent.some((s) => s.customerId === b.customerId), 6_000, 10);
      expect(sent.find((s) => s.customerId === b.customerId)!.at).toBeLessThan(sendAt.getTime() + 1_000);
    } finally {
      await run.catch(() => undefined);
    }
    expect((await InviteMessage.findOne({ where: { inviteId: ofB.id } }))!.status).toBe('sent');
  }, 30_000);
});
