import { fixedClock } from '../../../src/domain/clock';
import { Contact, ContactActivity, Invite } from '../../../src/models';
import { useApp } from '../../support/app';
import { makeOrganization, makeOrgOwner, makeTenant, makeWorld, tokenFor, without } from '../../support/factories';
import { makeCampaign, markSent } from '../../campaigns/factories';

process.env.LOG_LEVEL ??= 'silent';

const NOW = new Date('2026-03-02T12:00:00Z');
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const ACCEPTED = 'Invites sent successfully.';

describe('review-request campaigns (customer REST)', () => {
  const clock = fixedClock(NOW);
  const t = useApp({ clock });
  const as = t.as;
  beforeEach(() => clock.set(NOW));

  const invitePath = (uuid: string) => `/api/v1/request-reviews/campaigns/${uuid}/invite`;
  const invitesOf = (campaignId: number) => Invite.findAll({ where: { campaignId }, order: [['id', 'ASC']] });
  const contactByUuid = async (uuid: string) => (await Contact.findOne({ where: { uuid } }))!;
  const activityTypes = async (contactId: number) =>
    (await ContactActivity.findAll({ where: { contactId }, order: [['id', 'ASC']] })).map((a) => a.type);

  describe('GET /api/v1/request-reviews/campaigns', () => {
    it('answers the envelope of Campaign {id, name}, newest first, 10 a page', async () => {
      const w = await makeWorld();
      const made = [];
      for (let i = 0; i < 12; i++) {
        clock.set(new Date(NOW.getTime() + i * 1000));
        made.push(await makeCampaign(w.orgOwner, w.org, { name: `Campaign ${String(i).padStart(2, '0')}` }, { clock }));
      }
      const res = await as(w.tokens.orgOwner).get('/api/v1/request-reviews/campaigns');
      expect(res.status).toBe(200);
      expect(res.body.data).toHaveLength(10);
      expect(res.body.data[0]).toEqual({ id: made[11].uuid, name: 'Campaign 11' });
      for (const c of res.body.data) expect(Object.keys(c).sort()).toEqual(['id', 'name']);
      expect(res.body.meta).toEqual({ current_page: 1, from: 1, last_page: 2, per_page: 10, to: 10, total: 12 });
      expect(res.body.links).toEqual({
        first: expect.stringMatching(/\/api\/v1\/request-reviews\/campaigns\?page=1$/),
        last: expect.stringMatching(/\/api\/v1\/request-reviews\/campaigns\?page=2$/),
        prev: null,
        next: expect.stringMatching(/\/api\/v1\/request-reviews\/campaigns\?page=2$/),
      });
      const page2 = await as(w.tokens.orgOwner).get('/api/v1/request-reviews/campaigns?page=2');
      expect(page2.body.data).toEqual([
        { id: made[1].uuid, name: 'Campaign 01' },
        { id: made[0].uuid, name: 'Campaign 00' },
      ]);
      expect(page2.body.meta).toMatchObject({ current_page: 2, from: 11, to: 12 });
    });

    it('filters by organization_id and by name (search)', async () => {
      const w = await makeWorld();
      const other = await makeOrganization(w.orgOwner);
      const a = await makeCampaign(w.orgOwner, w.org, { name: 'Dental check-up' });
      const b = await makeCampaign(w.orgOwner, other, { name: 'Dental cleaning' });
      await makeCampaign(w.orgOwner, w.org, { name: 'Optician' });
      const byOrg = await as(w.tokens.orgOwner).get(`/api/v1/request-reviews/campaigns?organization_id=${other.id}`);
      expect(byOrg.body.data).toEqual([{ id: b.uuid, name: 'Dental cleaning' }]);
      const search = await as(w.tokens.orgOwner).get('/api/v1/request-reviews/campaigns?search=dental');
      expect(search.body.data.map((c: { id: string }) => c.id).sort()).toEqual([a.uuid, b.uuid].sort());
      const both = await as(w.tokens.orgOwner).get(`/api/v1/request-reviews/campaigns?search=dental&organization_id=${w.org.id}`);
      expect(both.body.data).toEqual([{ id: a.uuid, name: 'Dental check-up' }]);
      expect(both.body.links.first).toContain('search=dental');
      const bad = await as(w.tokens.orgOwner).get('/api/v1/request-reviews/campaigns?organization_id=abc');
      expect(bad.status).toBe(422);
      expect(bad.body.errors.organization_id).toBeDefined();
    });

    it('scopes like the dashboard: a team member sees campaigns of assigned locations only', async () => {
      const w = await makeWorld();
      await makeCampaign(w.orgOwner, w.org, { locationId: w.home.id });
      const atBranch = await makeCampaign(w.orgOwner, w.org, { locationId: w.branch.id, name: 'Branch' });
      const res = await as(w.tokens.member).get('/api/v1/request-reviews/campaigns');
      expect(res.body.data).toEqual([{ id: atBranch.uuid, name: 'Branch' }]);
    });

    it('answers 401 without a valid token and 403 without request:read', async () => {
      const w = await makeWorld();
      expect((await t.http().get('/api/v1/request-reviews/campaigns')).status).toBe(401);
      expect((await as('rg_not_a_token').get('/api/v1/request-reviews/campaigns')).status).toBe(401);
      const res = await as(await tokenFor(w.orgOwner, without('request:read'))).get('/api/v1/request-reviews/campaigns');
      expect(res.status).toBe(403);
      expect(res.body.message).toEqual(expect.any(String));
    });
  });

  describe('POST /api/v1/request-reviews/campaigns/{campaign}/invite', () => {
    async function setup(overrides: Parameters<typeof makeCampaign>[2] = {}) {
      const w = await makeWorld();
      const campaign = await makeCampaign(w.orgOwner, w.org, overrides);
      return { ...w, campaign };
    }

    it('answers 202 {id: contact uuid, message} and stores the contact and a scheduled invite (rule 1)', async () => {
      const s = await setup({ sendAfterHours: 2 });
      const res = await as(s.tokens.orgOwner).post(invitePath(s.campaign.uuid)).send({ email: 'Ada@Example.com', first_name: 'Ada', last_name: 'Lovelace' });
      expect(res.status).toBe(202);
      expect(res.body).toEqual({ id: expect.stringMatching(/^[0-9a-f-]{36}$/), message: ACCEPTED });
      const contact = await contactByUuid(res.body.id);
      expect(contact).toMatchObject({ email: 'ada@example.com', firstName: 'Ada', lastName: 'Lovelace', contactListId: s.campaign.contactListId });
      const [invite] = await invitesOf(s.campaign.id);
      expect(invite).toMatchObject({ status: 'scheduled', contactId: contact.id, source: 'api', sentAt: null });
      expect(invite.sendAt).toEqual(new Date(NOW.getTime() + 2 * HOUR));
      expect(await activityTypes(contact.id)).toEqual(['scheduled']);
    });

    it('accepts a form-encoded body and a phone-only contact', async () => {
      const s = await setup();
      const res = await as(s.tokens.orgOwner).post(invitePath(s.campaign.uuid)).type('form').send({ phone: '+447911123456', first_name: 'Bo' });
      expect(res.status).toBe(202);
      expect(await contactByUuid(res.body.id)).toMatchObject({ phone: '+447911123456', email: null, firstName: 'Bo' });
    });

    it('takes send_after_hours: 0 = as soon as possible, n hours, null = the campaign default', async () => {
      const s = await setup({ sendAfterHours: 4 });
      const sendAt = async (body: Record<string, unknown>) => {
        const res = await as(s.tokens.orgOwner).post(invitePath(s.campaign.uuid)).send(body);
        expect(res.status).toBe(202);
        const contact = await contactByUuid(res.body.id);
        return (await Invite.findOne({ where: { contactId: contact.id, status: 'scheduled' } }))!.sendAt;
      };
      expect(await sendAt({ email: 'a@example.com', send_after_hours: 0 })).toEqual(NOW);
      expect(await sendAt({ email: 'b@example.com', send_after_hours: '10' })).toEqual(new Date(NOW.getTime() + 10 * HOUR));
      expect(await sendAt({ email: 'c@example.com', send_after_hours: null })).toEqual(new Date(NOW.getTime() + 4 * HOUR));
      expect(await sendAt({ email: 'd@example.com' })).toEqual(new Date(NOW.getTime() + 4 * HOUR));
    });

    it('matches by email or phone within the list, updates the details sent and returns the same id (rule 2)', async () => {
      const s = await setup();
      const first = await as(s.tokens.orgOwner).post(invitePath(s.campaign.uuid)).send({ phone: '+14155552671', first_name: 'Old' });
      const byPhone = await as(s.tokens.orgOwner).post(invitePath(s.campaign.uuid)).send({ phone: '+14155552671', email: 'new@example.com', first_name: 'New', last_name: 'Name' });
      expect(byPhone.body.id).toBe(first.body.id);
      const byEmail = await as(s.tokens.orgOwner).post(invitePath(s.campaign.uuid)).send({ email: 'NEW@example.com', last_name: 'Changed' });
      expect(byEmail.body.id).toBe(first.body.id);
      expect(await Contact.count({ where: { contactListId: s.campaign.contactListId } })).toBe(1);
      expect(await contactByUuid(first.body.id)).toMatchObject({ phone: '+14155552671', email: 'new@example.com', firstName: 'New', lastName: 'Changed' });
    });

    it('returns the same id from campaigns sharing a contact list (rule 2)', async () => {
      const s = await setup();
      const sharing = await makeCampaign(s.orgOwner, s.org, { contactListId: s.campaign.contactListId });
      const a = await as(s.tokens.orgOwner).post(invitePath(s.campaign.uuid)).send({ email: 'shared@example.com' });
      const b = await as(s.tokens.orgOwner).post(invitePath(sharing.uuid)).send({ email: 'shared@example.com' });
      expect([a.status, b.status]).toEqual([202, 202]);
      expect(b.body.id).toBe(a.body.id);
    });

    it('ignores a duplicate within the window: 202 with the id, no invite, an ignored activity, details saved (rule 3)', async () => {
      const s = await setup();
      const first = await as(s.tokens.orgOwner).post(invitePath(s.campaign.uuid)).send({ email: 'dup@example.com' });
      const [sent] = await invitesOf(s.campaign.id);
      await markSent(sent, new Date(NOW.getTime() - 2 * DAY));
      const again = await as(s.tokens.orgOwner).post(invitePath(s.campaign.uuid)).send({ email: 'dup@example.com', first_name: 'Saved' });
      expect(again.status).toBe(202);
      expect(again.body).toEqual({ id: first.body.id, message: ACCEPTED });
      expect((await invitesOf(s.campaign.id)).filter((i) => i.status === 'scheduled')).toHaveLength(0);
      const contact = await contactByUuid(first.body.id);
      expect(contact.firstName).toBe('Saved');
      expect(await activityTypes(contact.id)).toEqual(['scheduled', 'ignored']);
    });

    it('reschedules a contact submitted again while waiting: same invite, send time from the latest request (rule 4)', async () => {
      const s = await setup({ sendAfterHours: 24 });
      const first = await as(s.tokens.orgOwner).post(invitePath(s.campaign.uuid)).send({ email: 'wait@example.com' });
      clock.advance(5 * HOUR);
      const again = await as(s.tokens.orgOwner).post(invitePath(s.campaign.uuid)).send({ email: 'wait@example.com' });
      expect(again.status).toBe(202);
      expect(again.body.id).toBe(first.body.id);
      const invites = await invitesOf(s.campaign.id);
      expect(invites).toHaveLength(1);
      expect(invites[0]).toMatchObject({ status: 'scheduled', requestedAt: new Date(NOW.getTime() + 5 * HOUR), sendAt: new Date(NOW.getTime() + 29 * HOUR) });
      expect(await activityTypes((await contactByUuid(first.body.id)).id)).toEqual(['scheduled', 'rescheduled']);
    });

    it('invites again a contact whose last invite was sent before the duplicate window (rule 5)', async () => {
      const s = await setup({ duplicateWindowDays: 7 });
      await as(s.tokens.orgOwner).post(invitePath(s.campaign.uuid)).send({ email: 'old@example.com' });
      const [sent] = await invitesOf(s.campaign.id);
      await markSent(sent, new Date(NOW.getTime() - 8 * DAY));
      const again = await as(s.tokens.orgOwner).post(invitePath(s.campaign.uuid)).send({ email: 'old@example.com' });
      expect(again.status).toBe(202);
      expect((await invitesOf(s.campaign.id)).map((i) => i.status)).toEqual(['sent', 'scheduled']);
    });

    it('sends nothing to an unsubscribed contact and still answers 202 (rule 6)', async () => {
      const s = await setup();
      const first = await as(s.tokens.orgOwner).post(invitePath(s.campaign.uuid)).send({ email: 'gone@example.com' });
      const contact = await contactByUuid(first.body.id);
      await Invite.update({ status: 'canceled' }, { where: { contactId: contact.id } });
      await contact.update({ unsubscribedAt: NOW });
      const again = await as(s.tokens.orgOwner).post(invitePath(s.campaign.uuid)).send({ email: 'gone@example.com' });
      expect(again.status).toBe(202);
      expect(again.body).toEqual({ id: first.body.id, message: ACCEPTED });
      expect(await Invite.count({ where: { contactId: contact.id, status: 'scheduled' } })).toBe(0);
      expect(await activityTypes(contact.id)).toEqual(['scheduled', 'ignored']);
    });

    it('schedules a request outside the UTC send window for the start of the next window (rule 7)', async () => {
      const s = await setup({ sendWindowStart: '08:00', sendWindowEnd: '11:00' });
      const res = await as(s.tokens.orgOwner).post(invitePath(s.campaign.uuid)).send({ email: 'window@example.com', send_after_hours: 0 });
      expect(res.status).toBe(202);
      expect((await invitesOf(s.campaign.id))[0].sendAt).toEqual(new Date('2026-03-03T08:00:00Z'));
    });

    it('ignores unlisted fields and stores none of them (rule 9)', async () => {
      const s = await setup();
      const marker = 'UNLISTED-7f3a';
      const res = await as(s.tokens.orgOwner).post(invitePath(s.campaign.uuid)).send({
        email: 'plain@example.com',
        idempotency_key: marker,
        external_reference: marker,
        metadata: { note: marker },
        custom_field: marker,
        status: 'sent',
        id: '00000000-0000-4000-8000-000000000000',
      });
      expect(res.status).toBe(202);
      expect(res.body.id).not.toBe('00000000-0000-4000-8000-000000000000');
      const contact = await contactByUuid(res.body.id);
      const rows = [contact, ...(await invitesOf(s.campaign.id)), ...(await ContactActivity.findAll({ where: { contactId: contact.id } }))];
      expect(JSON.stringify(rows.map((r) => r.toJSON()))).not.toContain(marker);
      expect((await invitesOf(s.campaign.id))[0].status).toBe('scheduled');
      // The same "idempotency key" does not make a second request a replay: it is the waiting rule that applies.
      const again = await as(s.tokens.orgOwner).post(invitePath(s.campaign.uuid)).send({ email: 'plain@example.com', idempotency_key: marker });
      expect(await activityTypes(contact.id)).toEqual(['scheduled', 'rescheduled']);
      expect(again.status).toBe(202);
    });

    describe('errors (rule 10)', () => {
      it('answers 401 for a missing or invalid token', async () => {
        const s = await setup();
        expect((await t.http().post(invitePath(s.campaign.uuid)).send({ email: 'x@example.com' })).status).toBe(401);
        const bad = await as('rg_invalid').post(invitePath(s.campaign.uuid)).send({ email: 'x@example.com' });
        expect(bad.status).toBe(401);
        expect(bad.body.message).toEqual(expect.any(String));
      });

      it('answers 403 when the token lacks request:create or request:read', async () => {
        const s = await setup();
        for (const missing of ['request:create', 'request:read']) {
          const res = await as(await tokenFor(s.orgOwner, without(missing))).post(invitePath(s.campaign.uuid)).send({ email: 'x@example.com' });
          expect(res.status).toBe(403);
          expect(res.body.message).toContain(missing);
        }
        expect(await Invite.count({ where: { campaignId: s.campaign.id } })).toBe(0);
      });

      it("answers 403 location_access_denied when the token owner cannot edit the campaign's location", async () => {
        const s = await setup({});
        // The member is assigned to the branch; this campaign is at the organisation's default (home) location.
        const res = await as(s.tokens.member).post(invitePath(s.campaign.uuid)).send({ email: 'x@example.com' });
        expect(res.status).toBe(403);
        expect(res.body.code).toBe('location_access_denied');
        const atBranch = await makeCampaign(s.orgOwner, s.org, { locationId: s.branch.id });
        expect((await as(s.tokens.member).post(invitePath(atBranch.uuid)).send({ email: 'x@example.com' })).status).toBe(202);
      });

      it("answers 404 for an unknown, malformed or another account's campaign", async () => {
        const s = await setup();
        for (const path of [invitePath('3f1c9a4e-2b7d-4c1e-9a8f-0d6e5b4c3a21'), invitePath('not-a-uuid'), invitePath('123')]) {
          const res = await as(s.tokens.orgOwner).post(path).send({ email: 'x@example.com' });
          expect(res.status).toBe(404);
          expect(res.body.message).toEqual(expect.any(String));
        }
        const stranger = await makeOrgOwner(s.tenant.id);
        const theirs = await makeCampaign(stranger, await makeOrganization(stranger));
        expect((await as(s.tokens.orgOwner).post(invitePath(theirs.uuid)).send({ email: 'x@example.com' })).status).toBe(404);
        const { tenant } = await makeTenant();
        const outsider = await tokenFor(await makeOrgOwner(tenant.id));
        expect((await as(outsider).post(invitePath(s.campaign.uuid)).send({ email: 'x@example.com' })).status).toBe(404);
      });

      it('answers 422 {message, errors} with field errors', async () => {
        const s = await setup();
        const post = (body: Record<string, unknown>) => as(s.tokens.orgOwner).post(invitePath(s.campaign.uuid)).send(body);
        const fields = async (body: Record<string, unknown>) => {
          const res = await post(body);
          expect(res.status).toBe(422);
          expect(res.body).toEqual({ message: expect.any(String), errors: expect.any(Object) });
          return Object.keys(res.body.errors).sort();
        };
        const missing = await post({ first_name: 'Nobody' });
        expect(missing.status).toBe(422);
        expect(missing.body.errors.email).toEqual(['The email field is required when phone is not present.']);
        expect(missing.body.errors.phone).toEqual(['The phone field is required when email is not present.']);
        expect(await fields({ email: '', phone: '' })).toEqual(['email', 'phone']);
        expect(await fields({ phone: '0044 7911 123456' })).toEqual(['phone']);
        expect(await fields({ phone: '+1 415 555 2671' })).toEqual(['phone']);
        expect(await fields({ phone: '+1415555' })).toEqual(['phone']);
        expect(await fields({ email: 'not-an-email' })).toEqual(['email']);
        expect(await fields({ email: 'a@example.com', first_name: 'x'.repeat(256) })).toEqual(['first_name']);
        expect(await fields({ email: 'a@example.com', last_name: 'y'.repeat(256) })).toEqual(['last_name']);
        expect(await fields({ email: 'a@example.com', send_after_hours: -1 })).toEqual(['send_after_hours']);
        expect(await fields({ email: 'a@example.com', send_after_hours: 'soon' })).toEqual(['send_after_hours']);
        expect(await fields({ email: 'a@example.com', send_after_hours: 1.5 })).toEqual(['send_after_hours']);
        // At most a year, as a campaign's default: 2147483647 hours was a 500 (a send time past year 9999).
        expect(await fields({ email: 'a@example.com', send_after_hours: 8761 })).toEqual(['send_after_hours']);
        expect(await fields({ email: 'a@example.com', send_after_hours: 2147483647 })).toEqual(['send_after_hours']);
        expect(await fields({ email: { nested: true } })).toEqual(['email']);
        expect(await Contact.count({ where: { contactListId: s.campaign.contactListId } })).toBe(0);
        // The limits themselves pass.
        expect((await post({ email: 'a@example.com', first_name: 'x'.repeat(255), last_name: 'y'.repeat(255) })).status).toBe(202);
      });
    });
  });

  describe('POST /api/v1/request-reviews/campaigns/{campaign}/invites (a batch; an addition to the contract)', () => {
    const batchPath = (uuid: string) => `/api/v1/request-reviews/campaigns/${uuid}/invites`;
    async function setup(overrides: Parameters<typeof makeCampaign>[2] = {}) {
      const w = await makeWorld();
      return { ...w, campaign: await makeCampaign(w.orgOwner, w.org, overrides) };
    }

    it('answers 202 {data: [{id, message}]} in the order sent, one contact per person, each invite as the single route stores it', async () => {
      const s = await setup({ sendAfterHours: 2 });
      const single = await as(s.tokens.orgOwner).post(invitePath(s.campaign.uuid)).send({ email: 'known@example.com' });
      const res = await as(s.tokens.orgOwner)
        .post(batchPath(s.campaign.uuid))
        .send({
          contacts: [
            { email: 'Ada@Example.com', first_name: 'Ada', send_after_hours: 0 },
            { phone: '+447911123456', first_name: 'Bo', email: '' }, // blank counts as absent
            { email: 'known@example.com', last_name: 'Known', reference: 'ignored' },
            { email: 'ada@example.com', last_name: 'Lovelace' },
          ],
          unlisted: true,
        });
      expect(res.status).toBe(202);
      expect(res.body).toEqual({ data: Array(4).fill({ id: expect.stringMatching(/^[0-9a-f-]{36}$/), message: ACCEPTED }) });
      const ids = res.body.data.map((d: { id: string }) => d.id);
      expect(ids[2]).toBe(single.body.id);
      expect(ids[3]).toBe(ids[0]);
      expect(await contactByUuid(ids[0])).toMatchObject({ email: 'ada@example.com', firstName: 'Ada', lastName: 'Lovelace' });
      expect(await contactByUuid(ids[1])).toMatchObject({ phone: '+447911123456', email: null, firstName: 'Bo' });
      expect(await contactByUuid(ids[2])).toMatchObject({ lastName: 'Known' });
      const ada = await contactByUuid(ids[0]);
      // Ada's second entry moves her waiting invite (rule 4) to the campaign default, as a second request would.
      expect(await activityTypes(ada.id)).toEqual(['scheduled', 'rescheduled']);
      const invites = await invitesOf(s.campaign.id);
      expect(invites.map((i) => i.status)).toEqual(['scheduled', 'scheduled', 'scheduled']);
      expect(invites.find((i) => i.contactId === ada.id)!.sendAt).toEqual(new Date(NOW.getTime() + 2 * HOUR));
      expect(await activityTypes((await contactByUuid(ids[2])).id)).toEqual(['scheduled', 'rescheduled']);
    });

    it('answers 422 naming contacts.<i>.<field> and stores nothing when any entry is invalid', async () => {
      const s = await setup();
      const post = (body: unknown) => as(s.tokens.orgOwner).post(batchPath(s.campaign.uuid)).send(body as object);
      const bad = await post({ contacts: [{ email: 'fine@example.com' }, { phone: '+1 415 555 2671' }, { first_name: 'Nobody' }, { email: 'x@example.com', send_after_hours: -1 }, { email: 'y@example.com', send_after_hours: 2147483647 }] });
      expect(bad.status).toBe(422);
      expect(bad.body).toEqual({ message: expect.any(String), errors: expect.any(Object) });
      expect(Object.keys(bad.body.errors).sort()).toEqual(['contacts.1.phone', 'contacts.2.email', 'contacts.2.phone', 'contacts.3.send_after_hours', 'contacts.4.send_after_hours']);
      expect(bad.body.errors['contacts.4.send_after_hours']).toEqual(['The send after hours must be an integer between 0 and 8760.']);
      for (const body of [{}, { contacts: [] }, { contacts: 'a@example.com' }, { contacts: [{ email: { nested: true } }] }, { contacts: Array.from({ length: 1001 }, (_, i) => ({ email: `p${i}@example.com` })) }]) {
        const res = await post(body);
        expect(res.status).toBe(422);
        expect(Object.keys(res.body.errors)[0]).toMatch(/^contacts/);
      }
      expect(await Contact.count({ where: { contactListId: s.campaign.contactListId } })).toBe(0);
      expect(await Invite.count({ where: { campaignId: s.campaign.id } })).toBe(0);
    });

    it('answers 401, 403 and 404 as the single invite does', async () => {
      const s = await setup();
      const body = { contacts: [{ email: 'x@example.com' }] };
      expect((await t.http().post(batchPath(s.campaign.uuid)).send(body)).status).toBe(401);
      for (const missing of ['request:create', 'request:read']) {
        const res = await as(await tokenFor(s.orgOwner, without(missing))).post(batchPath(s.campaign.uuid)).send(body);
        expect(res.status).toBe(403);
        expect(res.body.message).toContain(missing);
      }
      const member = await as(s.tokens.member).post(batchPath(s.campaign.uuid)).send(body);
      expect(member.status).toBe(403);
      expect(member.body.code).toBe('location_access_denied');
      expect((await as(s.tokens.orgOwner).post(batchPath('3f1c9a4e-2b7d-4c1e-9a8f-0d6e5b4c3a21')).send(body)).status).toBe(404);
      expect(await Invite.count({ where: { campaignId: s.campaign.id } })).toBe(0);
    });
  });
});
