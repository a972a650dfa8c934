import { configureInviteDelivery, resetInviteDelivery } from '../../src/messaging/settings';
import { sendDueStep } from '../../src/messaging/send-queue';
import { ContactActivity, Invite, InviteMessage, OutboxEvent, PrivateFeedback } from '../../src/models';
import { useDatabase } from '../support/db';
import { makeWorld } from '../support/factories';
import { recordingSender } from '../support/recording-sender';
import { useInboundApp } from '../inbound/support';
import { EMAIL_STEP, giveCredits, makeCampaign, makeContact, makeInvite } from '../invites/fixtures';

/**
 * Mail security scanners (Safe Links, Proofpoint, Mimecast) fetch every link of a delivered message, and the links
 * of the page behind it, with GET or HEAD. A click (`clicked_at`, the `clicked` activity, the `clicks` metric) is what
 * stops the invite's follow-ups, so only a person's act counts: a star chosen (the page's form, a POST) or the feedback
 * form sent (docs/decisions/review-requests.md, "Private feedback").
 */
describe('clicks of the review link /r/{invite uuid}', () => {
  afterAll(async () => {
    // No undispatched events for a later file's dispatcher in this worker.
    await OutboxEvent.update({ dispatchedAt: new Date() }, { where: { dispatchedAt: null } });
  });
  useDatabase();
  const t = useInboundApp();
  beforeAll(() => configureInviteDelivery({ hourMs: 1_000, inFlightGraceMs: 60_000 }));
  afterAll(() => resetInviteDelivery());

  const opts = { senderFor: recordingSender().senderFor };

  /** An invite whose first email went (through the dispatcher's path) and whose follow-up email is due now. */
  async function invitedWithFollowUp() {
    const w = await makeWorld();
    await w.tenant.update({ brandName: 'Harbour Marketing' });
    await giveCredits(w, 'email', 2);
    const campaign = await makeCampaign(w, { steps: [EMAIL_STEP, { ...EMAIL_STEP, delayHours: 24 }] });
    const invite = await makeInvite(campaign, await makeContact(campaign), new Date(Date.now() - 1_000));
    expect(await sendDueStep({ inviteId: invite.id, stepIndex: null, kind: 'first' }, opts)).toBe('sent');
    await invite.reload();
    expect(invite).toMatchObject({ status: 'sent', nextStepIndex: 1, clickedAt: null });
    await invite.update({ nextStepAt: new Date(Date.now() - 1_000) });
    return { w, campaign, invite, base: `/r/${invite.uuid}` };
  }

  const followUp = (invite: Invite) => sendDueStep({ inviteId: invite.id, stepIndex: 1, kind: 'follow-up' }, opts);
  const clicks = (invite: Invite) => ContactActivity.count({ where: { inviteId: invite.id, type: 'clicked' } });

  /** Every address a page names (links, form actions, images), as a crawler reads them. */
  const addressesOf = (html: string): string[] =>
    [...html.matchAll(/\b(?:href|action|src)="([^"]*)"/g)].map((m) => m[1].replace(/&amp;/g, '&'));

  it('a scanner that fetches the link (HEAD, GET) and follows every link of the pages with GET counts no click; the follow-up still goes', async () => {
    const { invite, base } = await invitedWithFollowUp();
    expect((await t.http().head(base)).status).toBe(200);

    // The link, the old star links (`/rate/<n>`, of pages served before), and every same-origin address any answer
    // names or redirects to, fetched with GET as a crawler would.
    const queue = [base, ...[1, 2, 3, 4, 5].map((n) => `${base}/rate/${n}`)];
    const seen = new Set<string>();
    const statuses: number[] = [];
    while (queue.length && seen.size < 60) {
      const path = queue.shift()!;
      if (seen.has(path) || !path.startsWith('/')) continue;
      seen.add(path);
      const res = await t.http().get(path);
      statuses.push(res.status);
      const next = [...addressesOf(res.text ?? ''), ...(res.headers.location ? [res.headers.location] : [])];
      queue.push(...next.filter((a) => a.startsWith('/') && !seen.has(a)));
    }
    await invite.reload();
    expect(invite.clickedAt).toBeNull();
    expect(await clicks(invite)).toBe(0);
    expect(await PrivateFeedback.count({ where: { inviteId: invite.id } })).toBe(0);
    // What it reached: the page, the star form's address, the old star links, where they lead (the form) and its address.
    expect([...seen]).toEqual(expect.arrayContaining([base, `${base}/rate`, `${base}/rate/2`, `${base}/feedback?rating=2`, `${base}/feedback`]));
    expect(statuses.every((s) => s < 400)).toBe(true);
    // The follow-up is still due, and goes.
    expect(invite).toMatchObject({ status: 'sent', nextStepIndex: 1 });
    expect(invite.nextStepAt!.getTime()).toBeLessThanOrEqual(Date.now());
    expect(await followUp(invite)).toBe('sent');
    expect(await InviteMessage.findOne({ where: { inviteId: invite.id, stepIndex: 1 } })).toMatchObject({ status: 'sent' });
  });

  it('a star chosen (the POST) marks the invite clicked once and stops its follow-ups; it lands where the star link did', async () => {
    const { invite, base } = await invitedWithFollowUp();
    const page = await t.http().get(base);
    expect(page.text).toContain('Harbour Marketing');
    expect(page.text).not.toMatch(/<script/i);

    const five = await t.http().post(`${base}/rate`).type('form').send({ rating: '5' });
    expect(five.status).toBe(303);
    expect(five.headers.location).toBe('https://g.page/r/example/review');
    expect(five.headers.location).toBe((await t.http().get(`${base}/rate/5`)).headers.location);
    await invite.reload();
    const clickedAt = invite.clickedAt;
    expect(clickedAt).not.toBeNull();

    // Back and a second star: still one click.
    const two = await t.http().post(`${base}/rate`).type('form').send({ rating: '2' });
    expect(two.headers.location).toBe(`${base}/feedback?rating=2`);
    expect((await Invite.findByPk(invite.id))!.clickedAt).toEqual(clickedAt);
    expect(await clicks(invite)).toBe(1);

    expect(await followUp(invite)).toBe('stopped');
    expect(await Invite.findByPk(invite.id)).toMatchObject({ nextStepIndex: null, nextStepAt: null });
    expect(await InviteMessage.count({ where: { inviteId: invite.id, stepIndex: 1 } })).toBe(0);
  });

  it('the feedback form sent (reached by an old star link, which counts nothing) counts as the click and stops the follow-ups', async () => {
    const { invite, base } = await invitedWithFollowUp();
    const old = await t.http().get(`${base}/rate/1`);
    expect(old.headers.location).toBe(`${base}/feedback?rating=1`);
    expect((await Invite.findByPk(invite.id))!.clickedAt).toBeNull();

    const bad = await t.http().post(`${base}/feedback`).type('form').send({ message: '  ', rating: '1' });
    expect(bad.status).toBe(422);
    expect((await Invite.findByPk(invite.id))!.clickedAt).toBeNull();

    const sentForm = await t.http().post(`${base}/feedback`).type('form').send({ message: 'Cold coffee.', rating: '1' });
    expect(sentForm.status).toBe(303);
    expect((await Invite.findByPk(invite.id))!.clickedAt).not.toBeNull();
    expect(await clicks(invite)).toBe(1);
    const timeline = await ContactActivity.findAll({ where: { inviteId: invite.id }, order: [['id', 'ASC']] });
    expect(timeline.map((a) => a.type).slice(-2)).toEqual(['clicked', 'feedback']);

    expect(await followUp(invite)).toBe('stopped');
    expect(await InviteMessage.count({ where: { inviteId: invite.id, stepIndex: 1 } })).toBe(0);
  });
});
