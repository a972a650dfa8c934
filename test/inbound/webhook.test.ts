import { randomUUID } from 'node:crypto';
import type request from 'supertest';
import { fixedClock } from '../../src/domain/clock';
import { Contact, ContactActivity, Customer, InboundSubmission, Invite } from '../../src/models';
import * as inbound from '../../src/services/inbound.service';
import { useDatabase } from '../support/db';
import { makeWorld, tokenFor } from '../support/factories';
import { makeCampaign, makeConnection, makeSentInvite, ownerPrincipal, sign, useInboundApp } from './support';

/**
 * POST /api/webhooks/inbound/:token (spec: Inbound contact webhook; docs/decisions/review-requests.md, "Inbound contact webhook").
 * Runs the real app on the real database with an injected clock; Temporal is not connected, so scheduled invites
 * stay stored as `scheduled` (the hand-off failure is only logged, as the shared design says).
 */
describe('POST /api/webhooks/inbound/:token', () => {
  useDatabase();
  const clock = fixedClock(new Date());
  const t = useInboundApp({ clock });
  beforeEach(() => clock.set(new Date()));

  const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

  async function setup(opts: { mapping?: inbound.CreateConnectionInput['mapping']; timing?: inbound.CreateConnectionInput['timing'] } = {}) {
    const w = await makeWorld();
    const campaign = await makeCampaign(w.org, w.home);
    const conn = await makeConnection(w.orgOwner, campaign, { ...opts });
    return { w, campaign, ...conn };
  }

  /** Every answer of the endpoint is JSON. */
  async function post(path: string, body: string, headers: Record<string, string> = {}): Promise<request.Response> {
    let req = t.http().post(path);
    const all = { 'Content-Type': 'application/json', ...headers };
    for (const [k, v] of Object.entries(all)) if (v !== '') req = req.set(k, v);
    const res = await req.send(body);
    expect(res.type).toBe('application/json');
    return res;
  }
  const json = (o: unknown) => JSON.stringify(o);

  describe('accepted', () => {
    it('answers 202 with the contact id and the send time; the invite is an ordinary scheduled inbound invite', async () => {
      const { campaign, path } = await setup();
      const res = await post(path, json({ email: 'Ada@Example.TEST', name: 'Ada King Lovelace', phone: '+14155552671' }));
      expect(res.status).toBe(202);
      expect(res.body).toEqual({
        status: 'accepted',
        message: expect.any(String),
        id: expect.stringMatching(UUID),
        send_at: clock.now().toISOString(),
        submission_id: expect.any(Number),
      });
      const contact = await Contact.findOne({ where: { uuid: res.body.id } });
      expect(contact).toMatchObject({ email: 'ada@example.test', phone: '+14155552671', firstName: 'Ada', lastName: 'King Lovelace', contactListId: campaign.contactListId });
      const invites = await Invite.findAll({ where: { campaignId: campaign.id } });
      expect(invites).toHaveLength(1);
      expect(invites[0]).toMatchObject({ status: 'scheduled', source: 'inbound', contactId: contact!.id, inboundSubmissionId: res.body.submission_id });
      expect(invites[0].sendAt!.toISOString()).toBe(res.body.send_at);
      const submission = await InboundSubmission.findByPk(res.body.submission_id);
      expect(submission).toMatchObject({ outcome: 'accepted', contactId: contact!.id, inviteId: invites[0].id, reason: null });
      expect(await ContactActivity.count({ where: { contactId: contact!.id, type: 'scheduled' } })).toBe(1);
    });

    it('reads nested JSON values by dot path, array items included', async () => {
      const { path } = await setup({
        mapping: { email: 'data.customer.contact.email', firstName: 'data.customer.first', lastName: 'data.customer.last', phone: 'data.customer.phones.0' },
      });
      const res = await post(
        path,
        json({ event: 'booking.created', data: { customer: { first: 'Grace', last: 'Hopper', contact: { email: 'grace@navy.test' }, phones: ['+442079460958', '+14155552671'] } } }),
      );
      expect(res.status).toBe(202);
      expect(await Contact.findOne({ where: { uuid: res.body.id } })).toMatchObject({
        email: 'grace@navy.test',
        firstName: 'Grace',
        lastName: 'Hopper',
        phone: '+442079460958',
      });
    });

    it('takes form-encoded bodies; bracket and dot field names are reachable by dot paths', async () => {
      const { path } = await setup({ mapping: { email: 'contact.email', fullName: 'contact.name', phone: 'contact.phone' } });
      const res = await post(path, 'contact%5Bemail%5D=hopper%40navy.test&contact.name=Grace+Brewster+Hopper&contact[phone]=%2B1+415+555+2671', {
        'Content-Type': 'application/x-www-form-urlencoded',
      });
      expect(res.status).toBe(202);
      expect(await Contact.findOne({ where: { uuid: res.body.id } })).toMatchObject({
        email: 'hopper@navy.test',
        firstName: 'Grace',
        lastName: 'Brewster Hopper',
        phone: '+14155552671',
      });
    });

    it('splits a full name into first (first word) and last name (the rest), mapped first/last names winning', async () => {
      const { path } = await setup({ mapping: { email: 'email', fullName: 'name', lastName: 'surname' } });
      const one = await post(path, json({ email: 'cher@example.test', name: 'Cher' }));
      expect(await Contact.findOne({ where: { uuid: one.body.id } })).toMatchObject({ firstName: 'Cher', lastName: null });
      const two = await post(path, json({ email: 'mary@example.test', name: 'Mary Ann Evans', surname: 'Eliot' }));
      expect(await Contact.findOne({ where: { uuid: two.body.id } })).toMatchObject({ firstName: 'Mary', lastName: 'Eliot' });
    });

    it("normalises phone numbers to E.164 in the account's country, and without a country needs the + form", async () => {
      const { w, path } = await setup();
      await Customer.update({ country: 'US' }, { where: { id: w.orgOwner.customerId! } });
      const national = await post(path, json({ phone: '(415) 555-2671' }));
      expect(national.status).toBe(202);
      expect((await Contact.findOne({ where: { uuid: national.body.id } }))!.phone).toBe('+14155552671');

      const other = await setup();
      const withEmail = await post(other.path, json({ phone: '(415) 555-2672', email: 'has-email@example.test' }));
      expect(withEmail.status).toBe(202);
      expect(await Contact.findOne({ where: { uuid: withEmail.body.id } })).toMatchObject({ phone: null, email: 'has-email@example.test' });
      expect((await InboundSubmission.findByPk(withEmail.body.submission_id))!.reason).toMatch(/phone is not a valid international number/);
      const phoneOnly = await post(other.path, json({ phone: '(415) 555-2672' }));
      expect(phoneOnly.status).toBe(200);
      expect(phoneOnly.body.status).toBe('skipped');
    });

    it('waits `delay` minutes after the mapped anchor date', async () => {
      clock.set(new Date('2030-06-01T08:00:00Z'));
      const { path } = await setup({ mapping: { email: 'email', anchorDate: 'appointment.starts_at' }, timing: { mode: 'delay', delayMinutes: 120 } });
      const res = await post(path, json({ email: 'late@example.test', appointment: { starts_at: '2030-06-03T15:30:00Z' } }));
      expect(res.status).toBe(202);
      expect(res.body.send_at).toBe('2030-06-03T17:30:00.000Z');
      // A missing date counts from arrival.
      const none = await post(path, json({ email: 'nodate@example.test' }));
      expect(none.body.send_at).toBe('2030-06-01T10:00:00.000Z');
    });

    it("reads an anchor without an offset in the delay's time zone; one with an offset or Z as given; UTC when the connection has no zone", async () => {
      // Thursday 2026-03-05 14:00 in New York is 19:00 UTC; the webhook fires at the end of the visit, 19:30 UTC.
      clock.set(new Date('2026-03-05T19:30:00Z'));
      const { path } = await setup({ mapping: { email: 'email', anchorDate: 'visit' }, timing: { mode: 'delay', delayMinutes: 60, timezone: 'America/New_York' } });
      const local = await post(path, json({ email: 'local@example.test', visit: '2026-03-05 14:00' }));
      expect([local.status, local.body.send_at]).toEqual([202, '2026-03-05T20:00:00.000Z']);
      const us = await post(path, json({ email: 'us@example.test', visit: '3/5/2026 2:00 PM' }));
      expect(us.body.send_at).toBe('2026-03-05T20:00:00.000Z');
      const zulu = await post(path, json({ email: 'zulu@example.test', visit: '2026-03-05T19:15:00Z' }));
      expect(zulu.body.send_at).toBe('2026-03-05T20:15:00.000Z');
      const offset = await post(path, json({ email: 'offset@example.test', visit: '2026-03-05T15:00:00-04:00' }));
      expect(offset.body.send_at).toBe('2026-03-05T20:00:00.000Z');
      // No zone on the connection: read as UTC.
      const utc = await setup({ mapping: { email: 'email', anchorDate: 'visit' }, timing: { mode: 'delay', delayMinutes: 60 } });
      const plain = await post(utc.path, json({ email: 'plain@example.test', visit: '2026-03-05 19:00' }));
      expect(plain.body.send_at).toBe('2026-03-05T20:00:00.000Z');
    });

    it('counts from arrival, with a note, when the anchor date is more than a year ahead (years past 9999 included)', async () => {
      clock.set(new Date('2030-06-01T08:00:00Z'));
      const { path } = await setup({ mapping: { email: 'email', anchorDate: 'date' }, timing: { mode: 'delay', delayMinutes: 10_080 } });
      const dates: unknown[] = ['9999-12-31', 1e15, 8.64e15, '2031-06-03'];
      for (const [i, date] of dates.entries()) {
        const res = await post(path, json({ email: `far-${i}@example.test`, date }));
        expect([date, res.status, res.body.send_at]).toEqual([date, 202, '2030-06-08T08:00:00.000Z']);
        const submission = await InboundSubmission.findByPk(res.body.submission_id);
        expect(submission!.reason).toMatch(/the date (is more than a year ahead|could not be read), the arrival time was used/);
      }
      // Within the year the anchor counts.
      const near = await post(path, json({ email: 'near@example.test', date: '2031-05-30' }));
      expect(near.body.send_at).toBe('2031-06-06T00:00:00.000Z');
    });

    it('sends the next morning at the chosen local time, across a DST change', async () => {
      clock.set(new Date('2026-03-07T12:00:00Z'));
      const { path } = await setup({
        mapping: { email: 'email', anchorDate: 'visit' },
        timing: { mode: 'next_morning', time: '09:00', timezone: 'America/New_York' },
      });
      // Saturday 18:00 EST; clocks spring forward that night, so Sunday 09:00 is EDT (UTC-4).
      const res = await post(path, json({ email: 'dst@example.test', visit: '03/07/2026 6:00 PM' }));
      expect(res.status).toBe(202);
      expect(res.body.send_at).toBe('2026-03-08T13:00:00.000Z');
    });

    it('sends at the next such morning after arrival when the morning after the anchor has passed, never at night', async () => {
      // Saturday 2026-03-07 03:00 EST; the visit was Thursday, so Friday 09:00 has passed: Saturday 09:00 EST.
      clock.set(new Date('2026-03-07T08:00:00Z'));
      const { path } = await setup({
        mapping: { email: 'email', anchorDate: 'visit' },
        timing: { mode: 'next_morning', time: '09:00', timezone: 'America/New_York' },
      });
      const res = await post(path, json({ email: 'old-visit@example.test', visit: '2026-03-05 14:00' }));
      expect([res.status, res.body.send_at]).toEqual([202, '2026-03-07T14:00:00.000Z']);
      // Later that Saturday (10:00 EST), past 09:00: Sunday 09:00, which is EDT after the spring-forward.
      clock.set(new Date('2026-03-07T15:00:00Z'));
      const later = await post(path, json({ email: 'later@example.test', visit: '2026-03-05 14:00' }));
      expect(later.body.send_at).toBe('2026-03-08T13:00:00.000Z');
    });
  });

  describe('skipped and ignored', () => {
    it('skips a deeply nested body (20,000 levels, under the size limit) like any other: 200 skipped, stored', async () => {
      const { path } = await setup();
      const deep = `{"note":${'['.repeat(20_000)}1${']'.repeat(20_000)}}`;
      const res = await post(path, deep);
      expect(res.status).toBe(200);
      expect(res.body.status).toBe('skipped');
      expect(res.body.reason).toContain('received: note.0.0.0');
      expect(await InboundSubmission.findByPk(res.body.submission_id)).toMatchObject({ outcome: 'skipped' });
    });

    it('skips a payload with neither email nor phone: 200 skipped, logged as a skipped submission and activity', async () => {
      const { w, campaign, view, path } = await setup();
      const res = await post(path, json({ name: 'No Contact', notes: 'called in' }));
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ status: 'skipped', message: expect.any(String), reason: expect.stringContaining('No usable email or phone'), submission_id: expect.any(Number) });
      expect(res.body.reason).toContain('received: name, notes');
      const submission = await InboundSubmission.findByPk(res.body.submission_id);
      expect(submission).toMatchObject({ outcome: 'skipped', contactId: null, inviteId: null });
      const connectionId = (await inbound.connectionByToken(view.endpointUrl.split('/').pop()!))!.id;
      const activities = await ContactActivity.findAll({ where: { inboundConnectionId: connectionId } });
      expect(activities.map((a) => ({ type: a.type, contactId: a.contactId, campaignId: a.campaignId, customerId: a.customerId }))).toEqual([
        { type: 'skipped', contactId: null, campaignId: campaign.id, customerId: w.orgOwner.customerId },
      ]);
      expect(await Contact.count({ where: { contactListId: campaign.contactListId } })).toBe(0);
    });

    it('ignores an unsubscribed contact: 202 ignored, no invite scheduled', async () => {
      const { campaign, path } = await setup();
      const gone = await Contact.create({
        uuid: randomUUID(),
        tenantId: campaign.tenantId,
        customerId: campaign.customerId,
        contactListId: campaign.contactListId,
        email: 'gone@example.test',
        unsubscribedAt: new Date(),
      });
      const res = await post(path, json({ email: 'gone@example.test' }));
      expect(res.status).toBe(202);
      expect(res.body).toEqual({ status: 'ignored', message: expect.any(String), id: gone.uuid, reason: 'unsubscribed', submission_id: expect.any(Number) });
      expect(await Invite.count({ where: { campaignId: campaign.id, status: 'scheduled' } })).toBe(0);
      expect((await InboundSubmission.findByPk(res.body.submission_id))!.outcome).toBe('ignored');
    });

    it("ignores a contact sent an invite within the campaign's duplicate window: 202 ignored", async () => {
      const { campaign, path } = await setup();
      const { contact } = await makeSentInvite(campaign, { email: 'recent@example.test' });
      const res = await post(path, json({ email: 'recent@example.test' }));
      expect(res.status).toBe(202);
      expect(res.body).toMatchObject({ status: 'ignored', id: contact.uuid, reason: 'duplicate_window' });
      expect(await Invite.count({ where: { campaignId: campaign.id, status: 'scheduled' } })).toBe(0);
    });
    it('ignores submissions of a paused campaign (details saved) and of a paused account (nothing saved): 202 ignored', async () => {
      const { w, campaign, path } = await setup();
      await campaign.update({ pausedAt: new Date() });
      const paused = await post(path, json({ email: 'paused@example.test' }));
      expect(paused.status).toBe(202);
      expect(paused.body).toMatchObject({ status: 'ignored', reason: 'campaign_paused', id: expect.stringMatching(UUID) });

      await campaign.update({ pausedAt: null });
      await Customer.update({ subscriptionStatus: 'paused' }, { where: { id: w.orgOwner.customerId! } });
      const frozen = await post(path, json({ email: 'frozen@example.test' }));
      expect(frozen.status).toBe(202);
      expect(frozen.body).toMatchObject({ status: 'ignored', reason: 'account_paused', id: null });
      expect(await Contact.count({ where: { email: 'frozen@example.test' } })).toBe(0);
      expect(await Invite.count({ where: { campaignId: campaign.id, status: 'scheduled' } })).toBe(0);
    });

    it('ignores submissions of a canceled account like a paused one (its invites would never go): 202 ignored account_paused', async () => {
      const { w, campaign, path } = await setup();
      await Customer.update({ subscriptionStatus: 'canceled' }, { where: { id: w.orgOwner.customerId! } });
      const res = await post(path, json({ email: 'canceled@example.test' }));
      expect(res.status).toBe(202);
      expect(res.body).toEqual({ status: 'ignored', message: expect.any(String), id: null, reason: 'account_paused', submission_id: expect.any(Number) });
      expect(res.body.send_at).toBeUndefined();
      expect(await InboundSubmission.findByPk(res.body.submission_id)).toMatchObject({ outcome: 'ignored', reason: 'The account is canceled.', inviteId: null });
      expect(await Contact.count({ where: { email: 'canceled@example.test' } })).toBe(0);
      expect(await Invite.count({ where: { campaignId: campaign.id } })).toBe(0);
    });
  });

  describe('submission ids past 2^31 (BIGINT)', () => {
    it('answers them as numbers: the webhook, its duplicate and the GraphQL log (an Int was a 500 after the submission was stored)', async () => {
      const { w, view, path } = await setup();
      const past = 2 ** 31 + 1_000 + w.tenant.id;
      await InboundSubmission.sequelize!.query(`ALTER TABLE inbound_submissions AUTO_INCREMENT = ${past}`);
      const body = json({ email: 'big@example.test', name: 'Big Number' });
      const first = await post(path, body);
      expect(first.status).toBe(202);
      expect(first.body.submission_id).toBeGreaterThanOrEqual(past);
      expect(await InboundSubmission.findByPk(first.body.submission_id)).toMatchObject({ outcome: 'accepted' });

      clock.advance(1_000);
      const again = await post(path, body);
      expect(again.status).toBe(200);
      expect(again.body).toEqual({ status: 'duplicate', message: expect.any(String), submission_id: first.body.submission_id + 1, duplicate_of: first.body.submission_id });

      const log = await t.gql(await tokenFor(w.orgOwner), `{ inboundSubmissions(connectionId: "${view.id}") { total items { id outcome } } }`);
      expect(log.body.errors).toBeUndefined();
      expect(log.body.data.inboundSubmissions).toEqual({
        total: 2,
        items: [
          { id: first.body.submission_id + 1, outcome: 'duplicate' },
          { id: first.body.submission_id, outcome: 'accepted' },
        ],
      });
    });
  });

  describe('double fire', () => {
    it('answers an identical body within 5 minutes with 200 duplicate and schedules nothing; after 5 minutes it counts again', async () => {
      const { campaign, path } = await setup();
      const body = json({ email: 'twice@example.test', name: 'Twice Sent' });
      const first = await post(path, body);
      expect(first.status).toBe(202);

      clock.advance(60_000);
      const second = await post(path, body);
      expect(second.status).toBe(200);
      expect(second.body).toEqual({ status: 'duplicate', message: expect.any(String), submission_id: expect.any(Number), duplicate_of: first.body.submission_id });

      // The same data with other bytes is a new submission (only the raw body is compared).
      clock.advance(1_000);
      const reformatted = await post(path, JSON.stringify({ email: 'twice@example.test', name: 'Twice Sent' }, null, 2));
      expect(reformatted.status).toBe(202);

      clock.advance(4 * 60_000 - 2_000); // 4:59 after the first
      expect((await post(path, body)).body.status).toBe('duplicate');

      clock.advance(2_000); // 5:01 after the first: processed again (the invite still waits, so it is moved)
      const later = await post(path, body);
      expect(later.status).toBe(202);
      expect(later.body).toMatchObject({ status: 'accepted', id: first.body.id });
      expect(later.body.message).toMatch(/rescheduled/);

      expect(await Invite.count({ where: { campaignId: campaign.id } })).toBe(1);
      const outcomes = (await InboundSubmission.findAll({ where: { connectionId: (await InboundSubmission.findByPk(first.body.submission_id))!.connectionId }, order: [['id', 'ASC']] })).map(
        (s) => s.outcome,
      );
      expect(outcomes).toEqual(['accepted', 'duplicate', 'accepted', 'duplicate', 'accepted']);
    });
  });

  describe('signing', () => {
    const SECRET = 'inbound-secret-0123456789';

    async function signed() {
      const s = await setup();
      await inbound.setSigningSecret(await ownerPrincipal(s.w.orgOwner), s.view.id, { secret: SECRET });
      return s;
    }

    it('accepts the hex HMAC-SHA256 of the body', async () => {
      const { path } = await signed();
      const body = json({ email: 'signed@example.test' });
      expect((await post(path, body, { 'X-Webhook-Signature': sign(SECRET, body) })).status).toBe(202);
    });

    it('accepts the HMAC of `<timestamp>.<body>` with X-Webhook-Timestamp within 5 minutes either way', async () => {
      const { path } = await signed();
      const now = Math.floor(clock.now().getTime() / 1000);
      for (const [i, ts] of [now, now - 299, now + 299].entries()) {
        const body = json({ email: `stamped-${i}@example.test` });
        const res = await post(path, body, { 'X-Webhook-Signature': sign(SECRET, body, ts), 'X-Webhook-Timestamp': String(ts) });
        expect(res.status).toBe(202);
      }
    });

    it('refuses a wrong signature, a body-only signature sent with a timestamp, and a stale timestamp with 401; nothing is stored', async () => {
      const { path, view } = await signed();
      const body = json({ email: 'refused@example.test' });
      const now = Math.floor(clock.now().getTime() / 1000);
      const cases: Array<[Record<string, string>, string]> = [
        [{ 'X-Webhook-Signature': sign('another-secret-0123456789', body) }, 'invalid_signature'],
        [{ 'X-Webhook-Signature': sign(SECRET, `${body} `) }, 'invalid_signature'],
        [{ 'X-Webhook-Signature': 'not-hex' }, 'invalid_signature'],
        [{ 'X-Webhook-Signature': sign(SECRET, body), 'X-Webhook-Timestamp': String(now) }, 'invalid_signature'],
        [{ 'X-Webhook-Signature': sign(SECRET, body, now - 301), 'X-Webhook-Timestamp': String(now - 301) }, 'stale_timestamp'],
        [{ 'X-Webhook-Signature': sign(SECRET, body, now + 301), 'X-Webhook-Timestamp': String(now + 301) }, 'stale_timestamp'],
        [{ 'X-Webhook-Signature': sign(SECRET, body, 'soon'), 'X-Webhook-Timestamp': 'soon' }, 'invalid_timestamp'],
        [{}, 'signature_required'],
        [{ 'X-Webhook-Timestamp': String(now) }, 'signature_required'],
      ];
      for (const [headers, code] of cases) {
        const res = await post(path, body, headers);
        expect({ status: res.status, code: res.body.code }).toEqual({ status: 401, code });
        expect(res.body.message).toEqual(expect.any(String));
      }
      const connection = await inbound.connectionByToken(view.endpointUrl.split('/').pop()!);
      expect(await InboundSubmission.count({ where: { connectionId: connection!.id } })).toBe(0);
    });

    describe('replays (the timestamp is valid for up to 10 minutes, the double-fire window is 5)', () => {
      // Whole seconds, so the timestamp's 5 minutes end exactly where the test says.
      beforeEach(() => clock.set(new Date(Math.floor(Date.now() / 1000) * 1000)));
      const stamped = (body: string, ts: number) => ({ 'X-Webhook-Signature': sign(SECRET, body, ts), 'X-Webhook-Timestamp': String(ts) });
      const seconds = () => clock.now().getTime() / 1000;

      it('answers a signed request replayed while its timestamp is valid with 200 duplicate, after the double-fire window too', async () => {
        const { campaign, path, view } = await signed();
        const body = json({ email: 'replayed@example.test', name: 'Re Played' });
        // The sender's clock runs 4 minutes fast: its timestamp stays valid until 9 minutes after arrival.
        const ts = seconds() + 240;
        const first = await post(path, body, stamped(body, ts));
        expect(first.status).toBe(202);

        clock.advance(6 * 60_000); // past the 5-minute double fire: processed again before
        const replay = await post(path, body, stamped(body, ts));
        expect([replay.status, replay.body]).toEqual([
          200,
          { status: 'duplicate', message: expect.stringMatching(/already received/), submission_id: expect.any(Number), duplicate_of: first.body.submission_id },
        ]);
        expect(await InboundSubmission.findByPk(replay.body.submission_id)).toMatchObject({ outcome: 'duplicate', reason: expect.stringMatching(/^Replay of submission/) });

        clock.advance(3 * 60_000); // the timestamp's last valid second (5:00 after it)
        const last = await post(path, body, stamped(body, ts));
        expect([last.status, last.body.status, last.body.duplicate_of]).toEqual([200, 'duplicate', first.body.submission_id]);
        clock.advance(1_000);
        expect((await post(path, body, stamped(body, ts))).body.code).toBe('stale_timestamp');

        // The sender's own new request carries a new timestamp: the same body counts again, as after any double fire.
        const again = await post(path, body, stamped(body, seconds() + 240));
        expect([again.status, again.body.status, again.body.id]).toEqual([202, 'accepted', first.body.id]);

        expect(await Invite.count({ where: { campaignId: campaign.id } })).toBe(1);
        const connection = await inbound.connectionByToken(view.endpointUrl.split('/').pop()!);
        const outcomes = (await InboundSubmission.findAll({ where: { connectionId: connection!.id }, order: [['id', 'ASC']] })).map((r) => r.outcome);
        expect(outcomes).toEqual(['accepted', 'duplicate', 'duplicate', 'accepted']);
      });

      it('also when the copy replayed was itself a double fire (stored as duplicate)', async () => {
        const { path } = await signed();
        const body = json({ email: 'refired@example.test' });
        const first = await post(path, body, stamped(body, seconds()));
        expect(first.status).toBe(202);
        clock.advance(60_000);
        const ts = seconds() + 240;
        const refired = await post(path, body, stamped(body, ts));
        expect(refired.body).toMatchObject({ status: 'duplicate', duplicate_of: first.body.submission_id });

        clock.advance(7 * 60_000); // 8 minutes after the first, 7 after the double fire; its timestamp valid 2 more
        const replay = await post(path, body, stamped(body, ts));
        expect([replay.status, replay.body.status, replay.body.duplicate_of]).toEqual([200, 'duplicate', refired.body.submission_id]);
      });
    });

    it('stores the secret encrypted; without a secret no signature is needed (or checked)', async () => {
      const { path, view, w } = await signed();
      const connection = await inbound.connectionByToken(view.endpointUrl.split('/').pop()!);
      expect(connection!.signingSecretEncrypted).toMatch(/^v2\./);
      expect(connection!.signingSecretEncrypted).not.toContain(SECRET);
      await inbound.clearSigningSecret(await ownerPrincipal(w.orgOwner), view.id);
      expect((await post(path, json({ email: 'open@example.test' }))).status).toBe(202);
      expect((await post(path, json({ email: 'open2@example.test' }), { 'X-Webhook-Signature': 'whatever' })).status).toBe(202);
    });
  });

  describe('refusals', () => {
    it('answers 404 for unknown and malformed tokens, and for the old token once it is regenerated', async () => {
      const { w, view, path } = await setup();
      expect((await post(`/api/webhooks/inbound/${'ab'.repeat(32)}`, json({ email: 'x@example.test' }))).status).toBe(404);
      expect((await post('/api/webhooks/inbound/not-a-token', json({ email: 'x@example.test' }))).status).toBe(404);
      expect((await post('/api/webhooks/inbound', json({}))).status).toBe(404);

      const fresh = await inbound.regenerateToken(await ownerPrincipal(w.orgOwner), view.id);
      const newPath = new URL(fresh.endpointUrl).pathname;
      expect(newPath).not.toBe(path);
      const old = await post(path, json({ email: 'old@example.test' }));
      expect(old.status).toBe(404);
      expect(old.body).toEqual({ message: 'Not found.' });
      expect((await post(newPath, json({ email: 'new@example.test' }))).status).toBe(202);
    });

    it('accepts a body of exactly 256 KB and answers 413 for one byte more', async () => {
      const { path } = await setup();
      const pad = (n: number) => {
        const base = json({ email: `big-${n}@example.test`, pad: '' });
        return json({ email: `big-${n}@example.test`, pad: 'x'.repeat(n - Buffer.byteLength(base)) });
      };
      const exact = pad(256 * 1024);
      expect(Buffer.byteLength(exact)).toBe(262144);
      expect((await post(path, exact)).status).toBe(202);
      const over = pad(256 * 1024 + 1);
      const res = await post(path, over);
      expect(res.status).toBe(413);
      expect(res.body.code).toBe('payload_too_large');
    });

    it('answers 400 for malformed JSON and for JSON that is not an object', async () => {
      const { path } = await setup();
      for (const body of ['{"email": "x@example.test"', 'null', '"text"', '']) {
        const res = await post(path, body);
        expect({ status: res.status, code: res.body.code }).toEqual({ status: 400, code: 'malformed_json' });
      }
    });

    it('answers 415 for other content types and charsets', async () => {
      const { path } = await setup();
      for (const type of ['text/plain', 'multipart/form-data; boundary=x', 'application/xml', 'application/json; charset=iso-8859-1']) {
        const res = await post(path, '{"email":"x@example.test"}', { 'Content-Type': type });
        expect({ type, status: res.status, code: res.body.code }).toEqual({ type, status: 415, code: 'unsupported_media_type' });
      }
      expect((await post(path, '{"email":"ok@example.test"}', { 'Content-Type': 'application/vnd.api+json; charset=UTF-8' })).status).toBe(202);
    });
  });
});

describe('POST /api/webhooks/inbound/:token rate limit', () => {
  useDatabase();
  const t = useInboundApp({ perMinute: 3 });
  const madeUp = () => `/api/webhooks/inbound/${randomUUID().replace(/-/g, '').repeat(2)}`;

  it('answers 429 with Retry-After past the per-token budget; another token has its own', async () => {
    const w = await makeWorld();
    const campaign = await makeCampaign(w.org, w.home);
    const a = await makeConnection(w.orgOwner, campaign);
    const b = await makeConnection(w.orgOwner, campaign);
    const hit = (path: string, i: number) => t.http().post(path).set('Content-Type', 'application/json').send({ email: `rl-${i}@example.test` });
    for (let i = 0; i < 3; i += 1) expect((await hit(a.path, i)).status).toBe(202);
    const limited = await hit(a.path, 3);
    expect(limited.status).toBe(429);
    expect(limited.type).toBe('application/json');
    expect(limited.body).toEqual({ message: 'Too Many Attempts.', code: 'rate_limited' });
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect((await hit(b.path, 4)).status).toBe(202);
  });

  it('counts 404s per client address, so guessing tokens is throttled too', async () => {
    const guess = () => t.http().post(madeUp()).send({ email: 'guess@example.test' });
    for (let i = 0; i < 3; i += 1) expect((await guess()).status).toBe(404);
    const limited = await guess();
    expect(limited.status).toBe(429);
    expect(limited.body.code).toBe('rate_limited');
  });
});

/**
 * Integrators send from shared egress addresses (Zapier, Make, cloud functions): what one sender does from an address
 * must not refuse another tenant's known endpoint there. Each describe has its own app, so its own budgets.
 */
describe('POST /api/webhooks/inbound/:token rate limit: guessing from a shared address', () => {
  useDatabase();
  const t = useInboundApp({ perMinute: 3 });
  const madeUp = () => `/api/webhooks/inbound/${randomUUID().replace(/-/g, '').repeat(2)}`;
  const hit = (path: string, i: number) => t.http().post(path).set('Content-Type', 'application/json').send({ email: `guessing-${i}@example.test` });

  it('once the address has spent its guessing budget, a valid token still gets 202 (within its own budget) and a made-up one 429', async () => {
    const w = await makeWorld();
    const campaign = await makeCampaign(w.org, w.home);
    const a = await makeConnection(w.orgOwner, campaign);
    const b = await makeConnection(w.orgOwner, campaign);
    for (let i = 0; i < 3; i += 1) expect((await hit(madeUp(), i)).status).toBe(404);
    const guessing = await hit(madeUp(), 3);
    expect(guessing.status).toBe(429);
    expect(guessing.body).toEqual({ message: 'Too Many Attempts.', code: 'rate_limited' });

    const valid = await hit(a.path, 4);
    expect(valid.status).toBe(202);
    expect(valid.body.status).toBe('accepted');
    const stillGuessing = await hit(madeUp(), 5);
    expect(stillGuessing.status).toBe(429);
    expect(stillGuessing.type).toBe('application/json');
    expect(stillGuessing.body).toEqual({ message: 'Too Many Attempts.', code: 'rate_limited' });
    expect(Number(stillGuessing.headers['retry-after'])).toBeGreaterThan(0);

    // The endpoint's own budget (3 a minute) still applies to the valid token: two more, then 429.
    expect((await hit(a.path, 6)).status).toBe(202);
    expect((await hit(a.path, 7)).status).toBe(202);
    const spent = await hit(a.path, 8);
    expect(spent.status).toBe(429);
    expect(spent.body).toEqual({ message: 'Too Many Attempts.', code: 'rate_limited' });
    expect(spent.headers['x-ratelimit-limit']).toBe('3');
    expect(Number(spent.headers['retry-after'])).toBeGreaterThan(0);
    // Another endpoint's submissions from the same address are untouched by both.
    expect((await hit(b.path, 9)).status).toBe(202);
  });
});

describe('/api/webhooks/inbound: every method and path is limited per client address', () => {
  useDatabase();
  const t = useInboundApp({ perIpMinute: 3 });

  it('answers 429 JSON with Retry-After to a GET/PUT flood of the mount; a known endpoint neither counts nor is refused', async () => {
    const w = await makeWorld();
    const campaign = await makeCampaign(w.org, w.home);
    const { path, token } = await makeConnection(w.orgOwner, campaign);
    const submit = (i: number) => t.http().post(path).set('Content-Type', 'application/json').send({ email: `flood-${i}@example.test` });
    // Submissions to a known endpoint are not counted per address (past the address budget of 3 here).
    for (let i = 0; i < 4; i += 1) expect((await submit(i)).status).toBe(202);

    const statuses: number[] = [];
    for (const req of [t.http().get(path), t.http().put(`/api/webhooks/inbound/${token}`).send({}), t.http().get('/api/webhooks/inbound')]) {
      const res = await req;
      expect(res.type).toBe('application/json');
      statuses.push(res.status);
    }
    expect(statuses).toEqual([404, 404, 404]);
    for (const req of [t.http().get(path), t.http().put(path).send({}), t.http().delete('/api/webhooks/inbound/x/y'), t.http().post('/api/webhooks/inbound')]) {
      const res = await req;
      expect(res.status).toBe(429);
      expect(res.type).toBe('application/json');
      expect(res.body).toEqual({ message: 'Too Many Attempts.', code: 'rate_limited' });
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    }
    // Made-up tokens share the address budget, so they are refused too; the known endpoint still is not.
    expect((await t.http().post(`/api/webhooks/inbound/${'cd'.repeat(32)}`).set('Content-Type', 'application/json').send({ email: 'g@example.test' })).status).toBe(429);
    expect((await submit(5)).status).toBe(202);
  });
});

describe('/api/webhooks/inbound: a ceiling per client address before the token look-up', () => {
  useDatabase();
  // The ceiling is INBOUND_CEILING_FACTOR (10) x the per-address limit: 10 here.
  const t = useInboundApp({ perIpMinute: 1 });

  it('counts every request, known tokens and undecodable paths included, and refuses past ten times the per-address limit', async () => {
    const w = await makeWorld();
    const campaign = await makeCampaign(w.org, w.home);
    const { path } = await makeConnection(w.orgOwner, campaign);
    const submit = (i: number) => t.http().post(path).set('Content-Type', 'application/json').send({ email: `ceiling-${i}@example.test` });
    for (let i = 0; i < 9; i += 1) expect((await submit(i)).status).toBe(202);
    // A path the router cannot decode is counted too (it never reaches the routes' limits): the 10th request.
    expect((await t.http().post('/api/webhooks/inbound/%zz').set('Content-Type', 'application/json').send({})).status).toBe(400);
    const refused = await submit(10);
    expect([refused.status, refused.body]).toEqual([429, { message: 'Too Many Attempts.', code: 'rate_limited' }]);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
  });
});

/**
 * A signed endpoint's budget is its sender's: only requests whose signature checks out spend it. Whoever knows the URL
 * but not the secret is counted per address (and endpoint) instead. Client addresses through X-Forwarded-For (one
 * trusted proxy).
 */
describe('POST /api/webhooks/inbound/:token rate limit: a signed endpoint', () => {
  useDatabase();
  const t = useInboundApp({ perMinute: 3, trustProxy: 'true' });
  const SECRET = 'inbound-secret-0123456789';
  const ATTACKER = '203.0.113.66';
  const SENDER = '198.51.100.7';
  let n = 0;

  async function signedConnection() {
    const w = await makeWorld();
    const campaign = await makeCampaign(w.org, w.home);
    const conn = await makeConnection(w.orgOwner, campaign);
    await inbound.setSigningSecret(await ownerPrincipal(w.orgOwner), conn.view.id, { secret: SECRET });
    return conn;
  }
  /** A new contact each time; signed with the secret (with a timestamp, as most senders do, unless `bodyOnly`), else with a wrong one. */
  function submit(path: string, from: string, how: 'timestamped' | 'bodyOnly' | 'wrong' | 'unsupported', body = JSON.stringify({ email: `signed-rl-${(n += 1)}@example.test` })) {
    const ts = Math.floor(Date.now() / 1000);
    const headers: Record<string, string> = {
      'X-Forwarded-For': from,
      'Content-Type': how === 'unsupported' ? 'text/plain' : 'application/json',
      ...(how === 'timestamped' ? { 'X-Webhook-Timestamp': String(ts), 'X-Webhook-Signature': sign(SECRET, body, ts) } : {}),
      ...(how === 'bodyOnly' ? { 'X-Webhook-Signature': sign(SECRET, body) } : {}),
      ...(how === 'wrong' ? { 'X-Webhook-Signature': sign('not-the-secret-0123456789', body) } : {}),
    };
    let req = t.http().post(path);
    for (const [k, v] of Object.entries(headers)) req = req.set(k, v);
    return req.send(body);
  }
  const storedFor = async (token: string) => InboundSubmission.count({ where: { connectionId: (await inbound.connectionByToken(token))!.id } });

  it('badly signed POSTs do not spend the budget: 401, then 429 for their address; the sender still gets 202, from any address', async () => {
    const { path } = await signedConnection();
    for (let i = 0; i < 3; i += 1) {
      const res = await submit(path, ATTACKER, 'wrong');
      expect([res.status, res.body.code]).toEqual([401, 'invalid_signature']);
    }
    const limited = await submit(path, ATTACKER, 'wrong');
    expect([limited.status, limited.body]).toEqual([429, { message: 'Too Many Attempts.', code: 'rate_limited' }]);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);

    // The real sender, as it sends: its budget (3 a minute) is untouched.
    const stamped = await submit(path, SENDER, 'timestamped');
    expect([stamped.status, stamped.body.status]).toEqual([202, 'accepted']);
    expect(stamped.headers['x-ratelimit-limit']).toBe('3');
    expect(stamped.headers['x-ratelimit-remaining']).toBe('2');
    expect((await submit(path, SENDER, 'bodyOnly')).status).toBe(202);
    // A request that checks out passes from the refused address too (senders share egress addresses).
    expect((await submit(path, ATTACKER, 'timestamped')).status).toBe(202);
    expect((await submit(path, ATTACKER, 'wrong')).status).toBe(429);

    // The budget is the sender's own, and still applies: three checked-out requests, then 429.
    const spent = await submit(path, SENDER, 'timestamped');
    expect([spent.status, spent.body]).toEqual([429, { message: 'Too Many Attempts.', code: 'rate_limited' }]);
    expect(spent.headers['x-ratelimit-limit']).toBe('3');
    expect(spent.headers['x-ratelimit-remaining']).toBe('0');
    expect(Number(spent.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('counts requests that never reach the check (415) like failed signatures, not against the budget', async () => {
    const { path } = await signedConnection();
    for (let i = 0; i < 3; i += 1) expect((await submit(path, ATTACKER, 'unsupported')).status).toBe(415);
    expect((await submit(path, ATTACKER, 'unsupported')).status).toBe(429);
    for (let i = 0; i < 3; i += 1) expect((await submit(path, SENDER, 'timestamped')).status).toBe(202);
    expect((await submit(path, SENDER, 'timestamped')).status).toBe(429);
  });

  it('past ten times the limit, refuses the address unread for that endpoint only; the sender elsewhere still gets 202', async () => {
    const a = await signedConnection();
    const b = await signedConnection();
    const statuses: number[] = [];
    for (let i = 0; i < 30; i += 1) statuses.push((await submit(a.path, ATTACKER, 'wrong')).status);
    expect(statuses).toEqual([...Array(3).fill(401), ...Array(27).fill(429)]);
    // Now even a request that would check out is refused before it is read: nothing stored.
    const unread = await submit(a.path, ATTACKER, 'timestamped');
    expect([unread.status, unread.body]).toEqual([429, { message: 'Too Many Attempts.', code: 'rate_limited' }]);
    expect(await storedFor(a.token)).toBe(0);

    expect((await submit(a.path, SENDER, 'timestamped')).status).toBe(202);
    // Another endpoint, from the same address: its own count.
    expect((await submit(b.path, ATTACKER, 'wrong')).status).toBe(401);
    expect((await submit(b.path, ATTACKER, 'timestamped')).status).toBe(202);
  });

  it('a replay of a signed request already received is a duplicate and does not spend the budget either', async () => {
    const { path } = await signedConnection();
    const body = JSON.stringify({ email: 'replayed-rl@example.test' });
    const ts = Math.floor(Date.now() / 1000);
    const original = { 'X-Webhook-Timestamp': String(ts), 'X-Webhook-Signature': sign(SECRET, body, ts), 'Content-Type': 'application/json' };
    const first = await t.http().post(path).set({ ...original, 'X-Forwarded-For': SENDER }).send(body);
    expect(first.status).toBe(202);
    for (let i = 0; i < 5; i += 1) {
      const replay = await t.http().post(path).set({ ...original, 'X-Forwarded-For': ATTACKER }).send(body);
      expect([replay.status, replay.body.status, replay.body.duplicate_of]).toEqual([200, 'duplicate', first.body.submission_id]);
    }
    expect((await submit(path, SENDER, 'timestamped')).status).toBe(202);
    expect((await submit(path, SENDER, 'timestamped')).status).toBe(202);
    expect((await submit(path, SENDER, 'timestamped')).status).toBe(429);
  });
});

describe('POST /api/webhooks/inbound/:token rate limit: a signed endpoint, limits in Redis (two API processes)', () => {
  useDatabase();
  const a = useInboundApp({ perMinute: 3, trustProxy: 'true', redis: true });
  const b = useInboundApp({ perMinute: 3, trustProxy: 'true', redis: true });
  const SECRET = 'inbound-secret-0123456789';

  it('shares the failures of an address and the budget of the endpoint; a key not yet in Redis is no hits', async () => {
    const w = await makeWorld();
    const campaign = await makeCampaign(w.org, w.home);
    const { view, path } = await makeConnection(w.orgOwner, campaign);
    await inbound.setSigningSecret(await ownerPrincipal(w.orgOwner), view.id, { secret: SECRET });
    let n = 0;
    const submit = (app: typeof a, from: string, secret: string) => {
      const body = JSON.stringify({ email: `redis-rl-${(n += 1)}@example.test` });
      return app.http().post(path).set({ 'Content-Type': 'application/json', 'X-Forwarded-For': from, 'X-Webhook-Signature': sign(secret, body) }).send(body);
    };
    const wrong = 'not-the-secret-0123456789';
    const first = await submit(a, '203.0.113.66', wrong);
    expect([first.status, first.headers['x-ratelimit-remaining']]).toEqual([401, '3']);
    expect((await submit(b, '203.0.113.66', wrong)).status).toBe(401);
    expect((await submit(a, '203.0.113.66', wrong)).status).toBe(401);
    expect((await submit(b, '203.0.113.66', wrong)).status).toBe(429);

    const sent = await submit(b, '198.51.100.7', SECRET);
    expect([sent.status, sent.headers['x-ratelimit-remaining']]).toEqual([202, '2']);
    expect((await submit(a, '198.51.100.7', SECRET)).status).toBe(202);
    expect((await submit(b, '198.51.100.7', SECRET)).status).toBe(202);
    expect((await submit(a, '198.51.100.7', SECRET)).status).toBe(429);
  });
});
