import { claimDueSteps, type DueOutcome } from '../../src/messaging/send-queue';
import { configureInviteDelivery, resetInviteDelivery } from '../../src/messaging/settings';
import { Invite } from '../../src/models';
import { createInviteActivities, inviteActivityDeps } from '../../workflows/activities/invites';
import { useDatabase } from '../support/db';
import { makeWorld } from '../support/factories';
import { recordingSender } from '../support/recording-sender';
import { giveCredits, makeCampaign, makeContact, makeInvite } from './fixtures';

/**
 * The invite dispatcher's activity on the real database, without Temporal (its heartbeat is a no-op here): one due
 * step that fails unexpectedly is put back with a backoff and never holds up the rest of its batch.
 */
describe('the send queue with a step that fails unexpectedly', () => {
  useDatabase();
  beforeAll(() => configureInviteDelivery({ hourMs: 1_000, inFlightGraceMs: 60_000 }));
  afterAll(() => resetInviteDelivery());

  it('sends the others, puts the failing invite back with a retry time, and finishes the activity normally', async () => {
    const w = await makeWorld();
    await giveCredits(w, 'email', 5);
    const campaign = await makeCampaign(w);
    const past = new Date(Date.now() - 1_000);
    const good = await makeInvite(campaign, await makeContact(campaign), past);
    const bad = await makeInvite(campaign, await makeContact(campaign), past);
    const { sent, senderFor } = recordingSender();
    const real = inviteActivityDeps({ senderFor });
    const logged: unknown[] = [];
    const activities = createInviteActivities({
      ...real,
      // Other files of this Jest worker leave due invites in its database: a claim of `limit` could be all theirs, so
      // this one claims every due step and keeps this test's two (the others stay claimed: nothing sends them).
      claimDue: async () => (await claimDueSteps(100_000)).filter((d) => d.inviteId === good.id || d.inviteId === bad.id),
      // The batch sends the good one; the bad one's step throws as a rule that trips over its row would.
      sendDue: async (dues, run) => {
        const others = await real.sendDue(dues.filter((d) => d.inviteId !== bad.id), run);
        const delivered = others.delivered.then((results) =>
          dues.map((d): PromiseSettledResult<DueOutcome> => (d.inviteId === bad.id ? { status: 'rejected', reason: new Error('a rule tripped over this row') } : results.shift()!)),
        );
        return { delivered };
      },
      warn: (_message, attrs) => logged.push(attrs.error),
      heartbeat: () => undefined,
      stopping: () => false,
      queue: { concurrency: 4, budgetMs: 2_000, lingerMs: 100, pollMs: 20 },
    });

    expect(await activities.sendDueInvites(100)).toBe(2);
    expect((await Invite.findByPk(good.id))!.status).toBe('sent');
    expect(sent).toHaveLength(1);
    const putBack = (await Invite.findByPk(bad.id))!;
    expect(putBack).toMatchObject({ status: 'scheduled', sendAttempts: 1 });
    expect(putBack.retryAt!.getTime()).toBeGreaterThan(Date.now());
    expect(logged).toEqual(['Error: a rule tripped over this row']);
    // Not due again before its retry time.
    expect((await claimDueSteps(100)).map((d) => d.inviteId)).not.toContain(bad.id);
  });

  it('claims the next batch while the previous one is sending, and sends every step once', async () => {
    const w = await makeWorld();
    await giveCredits(w, 'email', 30);
    const campaign = await makeCampaign(w);
    const past = new Date(Date.now() - 1_000);
    const invites = await Promise.all(Array.from({ length: 25 }, async () => makeInvite(campaign, await makeContact(campaign), past)));
    const ours = new Set(invites.map((i) => i.id));
    const events: string[] = [];
    const sent: string[] = [];
    const { senderFor } = recordingSender({
      answer: async (m) => {
        await new Promise((r) => setTimeout(r, 20));
        sent.push(m.to);
        events.push('sent');
      },
    });
    const real = inviteActivityDeps({ senderFor });
    let claims = 0;
    const activities = createInviteActivities({
      ...real,
      // Ten at a time, of this test's invites only (see above).
      claimDue: async () => {
        events.push(`claim ${++claims}`);
        return (await claimDueSteps(100_000)).filter((d) => ours.has(d.inviteId)).slice(0, 10);
      },
      heartbeat: () => undefined,
      stopping: () => false,
      queue: { concurrency: 4, budgetMs: 5_000, lingerMs: 100, pollMs: 20 },
    });

    expect(await activities.sendDueInvites(10)).toBe(25);
    expect(sent).toHaveLength(25);
    expect(new Set(sent).size).toBe(25);
    expect((await Invite.findAll({ where: { id: [...ours] } })).map((i) => i.status)).toEqual(invites.map(() => 'sent'));
    // The second batch was claimed before the first batch's ten messages had all gone.
    const sends = events.flatMap((e, i) => (e === 'sent' ? [i] : []));
    expect(events.indexOf('claim 2')).toBeLessThan(sends[9]);
  });
});
