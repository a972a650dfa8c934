import { randomUUID } from 'node:crypto';
import { ContactActivity, Customer, Invite, InviteMessage, OutboxEvent, PrivateFeedback } from '../../src/models';
import { useDatabase } from '../support/db';
import { makeWorld } from '../support/factories';
import { makeCampaign, makeSentInvite, useInboundApp } from '../inbound/support';

/** The public review page `/r/{invite uuid}` over HTTP (docs/decisions/review-requests.md, "Private feedback"). */
describe('GET/POST /r/{invite uuid}', () => {
  afterAll(async () => {
    // No undispatched events for a later file's dispatcher in this worker.
    await OutboxEvent.update({ dispatchedAt: new Date() }, { where: { dispatchedAt: null } });
  });
  useDatabase();
  const t = useInboundApp();

  async function invited(campaignOverrides: Parameters<typeof makeCampaign>[2] = {}) {
    const w = await makeWorld();
    await w.tenant.update({ brandName: 'Harbour Marketing' });
    const campaign = await makeCampaign(w.org, w.home, { reviewUrl: 'https://g.page/r/harbour-bakery/review', feedbackThreshold: 3, ...campaignOverrides });
    const { contact, invite } = await makeSentInvite(campaign, { firstName: 'Grace', lastName: 'Hopper', email: 'grace@navy.test', phone: '+14155552671' });
    return { w, campaign, contact, invite, base: `/r/${invite.uuid}` };
  }

  it('shows the branded rating page, a form of star buttons and no script; a GET or HEAD counts no click, a star POST counts one', async () => {
    const { invite, base } = await invited();
    const head = await t.http().head(base);
    expect(head.status).toBe(200);
    expect((await Invite.findByPk(invite.id))!.clickedAt).toBeNull();

    const page = await t.http().get(base);
    expect(page.status).toBe(200);
    expect(page.type).toBe('text/html');
    expect(page.text).toContain('Harbour Marketing');
    expect(page.text).toContain(`<form class="stars" method="post" action="${base}/rate"`);
    expect(page.text).toMatch(/<button type="submit" name="rating" value="1"[^>]*aria-label="1 star"/);
    expect(page.text).not.toContain(`href="${base}/rate/`);
    expect(page.text).not.toMatch(/<script/i);
    expect(page.headers['content-security-policy']).toContain("script-src 'none'");
    expect(page.headers['x-robots-tag']).toBe('noindex, nofollow');
    expect(page.headers['referrer-policy']).toBe('no-referrer');
    expect((await Invite.findByPk(invite.id))!.clickedAt).toBeNull();
    expect(await ContactActivity.count({ where: { inviteId: invite.id, type: 'clicked' } })).toBe(0);

    expect((await t.http().post(`${base}/rate`).type('form').send({ rating: '2' })).status).toBe(303);
    const clickedAt = (await Invite.findByPk(invite.id))!.clickedAt;
    expect(clickedAt).not.toBeNull();
    await t.http().post(`${base}/rate`).type('form').send({ rating: '5' });
    expect((await Invite.findByPk(invite.id))!.clickedAt).toEqual(clickedAt);
    expect(await ContactActivity.count({ where: { inviteId: invite.id, type: 'clicked' } })).toBe(1);
  });

  it("sends a rating above the threshold to the campaign's review URL, or to thanks without one; at or below to the form (POST and the old GET links)", async () => {
    const { base } = await invited();
    for (const rate of [(n: string) => t.http().post(`${base}/rate`).type('form').send({ rating: n }), (n: string) => t.http().get(`${base}/rate/${n}`)]) {
      const high = await rate('4');
      expect(high.status).toBe(303);
      expect(high.headers.location).toBe('https://g.page/r/harbour-bakery/review');
      const atThreshold = await rate('3');
      expect(atThreshold.status).toBe(303);
      expect(atThreshold.headers.location).toBe(`${base}/feedback?rating=3`);
    }
    // The page's form may be redirected to the review site and on to where it redirects (g.page to search.google.com;
    // Chrome checks each of a form's redirects against form-action): its scheme, not one origin.
    expect((await t.http().get(base)).headers['content-security-policy']).toMatch(/form-action 'self' https:(;|$)/);

    const noUrl = await invited({ reviewUrl: null, feedbackThreshold: 1 });
    const thanks = await t.http().get(`${noUrl.base}/rate/2`);
    expect(thanks.status).toBe(200);
    expect(thanks.text).toContain('Thank you');
    const posted = await t.http().post(`${noUrl.base}/rate`).type('form').send({ rating: '2' });
    expect(posted.status).toBe(303);
    expect(posted.headers.location).toBe(`${noUrl.base}/thanks`);
    expect((await t.http().get(posted.headers.location)).text).toContain('Thank you');
    expect((await t.http().get(`${noUrl.base}/rate/1`)).headers.location).toBe(`${noUrl.base}/feedback?rating=1`);
    expect((await t.http().post(`${noUrl.base}/rate`).type('form').send({ rating: '1' })).headers.location).toBe(`${noUrl.base}/feedback?rating=1`);
    expect((await t.http().get(`${noUrl.base}/rate/9`)).headers.location).toBe(noUrl.base);
    expect((await t.http().post(`${noUrl.base}/rate`).type('form').send({ rating: '9' })).headers.location).toBe(noUrl.base);
    expect((await t.http().get(`${noUrl.base}/rate`)).headers.location).toBe(noUrl.base);
    expect((await t.http().get(noUrl.base)).headers['content-security-policy']).toMatch(/form-action 'self';/);
  });

  it('prefills the form from the contact; a submission stores the feedback, a feedback activity and private-feedback-created', async () => {
    const { w, campaign, contact, invite, base } = await invited();
    await InviteMessage.create({ tenantId: invite.tenantId, inviteId: invite.id, stepIndex: 0, channel: 'sms', status: 'sent', recipient: '+14155552671', sentAt: new Date() });
    const form = await t.http().get(`${base}/feedback?rating=2`);
    expect(form.status).toBe(200);
    expect(form.text).toContain('value="Grace Hopper"');
    expect(form.text).toContain('value="grace@navy.test"');
    expect(form.text).toContain('value="+14155552671"');
    expect(form.text).toMatch(/value="2" checked/);

    const sent = await t.http().post(`${base}/feedback`).type('form').send({
      name: 'Grace Hopper',
      email: 'Grace@Navy.test',
      phone: '+1 415 555 2671',
      message: 'The coffee was cold.',
      rating: '2',
    });
    expect(sent.status).toBe(303);
    expect(sent.headers.location).toBe(`${base}/thanks`);

    const rows = await PrivateFeedback.findAll({ where: { inviteId: invite.id } });
    expect(rows).toHaveLength(1);
    const f = rows[0];
    expect(f).toMatchObject({
      tenantId: w.tenant.id,
      customerId: campaign.customerId,
      organizationId: w.org.id,
      locationId: w.home.id,
      campaignId: campaign.id,
      contactId: contact.id,
      rating: 2,
      author: 'Grace Hopper',
      email: 'grace@navy.test',
      phone: '+14155552671',
      message: 'The coffee was cold.',
      reply: null,
      source: 'sms',
      sourceName: campaign.name,
    });
    expect(f.meta).toEqual({
      name: 'Grace Hopper',
      email: 'Grace@Navy.test',
      phone: '+1 415 555 2671',
      message: 'The coffee was cold.',
      rating: '2',
      source: 'sms',
      source_id: campaign.uuid,
      source_name: campaign.name,
    });
    expect(await ContactActivity.count({ where: { inviteId: invite.id, type: 'feedback', channel: 'sms' } })).toBe(1);

    const events = await OutboxEvent.findAll({ where: { aggregateType: 'private_feedback', aggregateId: String(f.id) } });
    expect(events.map((e) => e.event)).toEqual(['private-feedback-created']);
    expect(events[0].customerId).toBe(campaign.customerId);
    expect(events[0].payload).toEqual({
      webhook_event: 'private-feedback-created',
      id: f.id,
      organization_id: w.org.id,
      location_id: w.home.id,
      rating: 2,
      author: 'Grace Hopper',
      email: 'grace@navy.test',
      phone: '+14155552671',
      message: 'The coffee was cold.',
      replied: false,
      reply_message: null,
      reply_published_on: null,
      source: 'sms',
      source_name: campaign.name,
      updated_at: f.updatedAt.toISOString(),
      created_at: f.createdAt.toISOString(),
      meta: f.meta,
    });

    // One feedback per invite: a second post (a double click) stores nothing; the page now says thanks.
    const again = await t.http().post(`${base}/feedback`).type('form').send({ message: 'Again', rating: '1' });
    expect(again.status).toBe(303);
    expect(await PrivateFeedback.count({ where: { inviteId: invite.id } })).toBe(1);
    expect((await t.http().get(base)).text).toContain('already reached the team');
  });

  it('answers 422 with the form and its errors for a missing message, a bad rating, email or phone; nothing is stored', async () => {
    const { invite, base } = await invited();
    const res = await t.http().post(`${base}/feedback`).type('form').send({ name: 'Grace', email: 'not-an-email', phone: '12', message: '   ', rating: '7' });
    expect(res.status).toBe(422);
    expect(res.type).toBe('text/html');
    expect(res.text).toContain('value="Grace"');
    expect((res.text.match(/role="alert"/g) ?? []).length).toBe(4);
    expect(await PrivateFeedback.count({ where: { inviteId: invite.id } })).toBe(0);
  });

  it("reads a national phone number in the account's country; the source is `link` when no message was sent", async () => {
    const { w, invite, base } = await invited();
    await Customer.update({ country: 'US' }, { where: { id: w.orgOwner.customerId! } });
    const res = await t.http().post(`${base}/feedback`).type('form').send({ name: '', email: '', phone: '(415) 555-2671', message: 'Too loud.', rating: '1' });
    expect(res.status).toBe(303);
    expect(await PrivateFeedback.findOne({ where: { inviteId: invite.id } })).toMatchObject({ phone: '+14155552671', author: '', email: '', source: 'link' });
  });

  it('stores any form that passes validation: meta keeps the values as validated (trimmed), not 66 KB of padding', async () => {
    const { invite, base } = await invited();
    // Within the page's 100 KB body limit as a browser encodes it (a space is `+`), valid once trimmed, but over the
    // 64 KB of the TEXT column as sent.
    const padding = ' '.repeat(8_000);
    const body = new URLSearchParams({
      name: `${padding}Grace Hopper${padding}`,
      email: ` grace@navy.test${padding}`,
      phone: ' +1 415 555 2671 ',
      message: `Bad${' '.repeat(66_000)}`,
      rating: ' 2 ',
    }).toString();
    expect(body.length).toBeLessThan(100 * 1024);
    const res = await t.http().post(`${base}/feedback`).type('form').send(body);
    expect(res.status).toBe(303);
    expect(res.headers.location).toBe(`${base}/thanks`);
    const f = (await PrivateFeedback.findOne({ where: { inviteId: invite.id } }))!;
    expect(f).toMatchObject({ message: 'Bad', author: 'Grace Hopper', email: 'grace@navy.test', phone: '+14155552671', rating: 2 });
    expect(f.meta).toMatchObject({ name: 'Grace Hopper', email: 'grace@navy.test', phone: '+1 415 555 2671', message: 'Bad', rating: '2' });
    const [event] = await OutboxEvent.findAll({ where: { aggregateType: 'private_feedback', aggregateId: String(f.id) } });
    expect(event.payload).toMatchObject({ message: 'Bad', meta: { message: 'Bad' } });
  });

  it('answers 404 pages for unknown and malformed invite UUIDs', async () => {
    for (const path of [`/r/${randomUUID()}`, '/r/not-a-uuid', `/r/${randomUUID()}/feedback`, '/r/x/y/z']) {
      const res = await t.http().get(path);
      expect({ path, status: res.status, type: res.type }).toEqual({ path, status: 404, type: 'text/html' });
    }
    const post = await t.http().post(`/r/${randomUUID()}/feedback`).type('form').send({ message: 'x', rating: '1' });
    expect(post.status).toBe(404);
    const star = await t.http().post(`/r/${randomUUID()}/rate`).type('form').send({ rating: '1' });
    expect(star.status).toBe(404);
  });
});
