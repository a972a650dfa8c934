import { fixedClock } from '../../src/domain/clock';
import { Campaign, Contact, ContactList, Invite, PrivateFeedback } from '../../src/models';
import { logActivity, requestInvite } from '../../src/services/invites.service';
import { useApp } from '../support/app';
import { countStatements } from '../support/db';
import { makeOrganization, makeOrgOwner, makeTenant, makeWorld, tokenFor, without } from '../support/factories';
import { EMAIL_STEP, makeCampaign, markSent, SMS_STEP } from './factories';

process.env.LOG_LEVEL ??= 'silent';

const NOW = new Date('2026-03-02T12:00:00Z');
const CAMPAIGN_FIELDS = `id internalId name organizationId locationId contactListId sendWindowStart sendWindowEnd sendAfterHours
  duplicateWindowDays steps { channel delayHours subject body } reviewUrl feedbackThreshold paused pausedAt
  metrics { invitesSent invitesFailed invitesScheduled clicks feedbackCount } createdAt updatedAt`;

describe('GraphQL review-request campaigns, contact lists, contacts', () => {
  const clock = fixedClock(NOW);
  const t = useApp({ clock });
  beforeEach(() => clock.set(NOW));

  const gql = async (token: string, query: string, variables: Record<string, unknown> = {}) => {
    const res = await t.http().post('/graphql').set('Authorization', `Bearer ${token}`).set('Content-Type', 'application/json').send({ query, variables });
    return res.body; // supertest's body is untyped JSON
  };
  const create = (token: string, input: Record<string, unknown>) =>
    gql(token, `mutation ($input: CreateCampaignInput!) { createCampaign(input: $input) { ${CAMPAIGN_FIELDS} } }`, { input });
  const fieldErrors = (body: { errors?: Array<{ extensions: { code: string; fields?: Record<string, string[]> } }> }) => {
    expect(body.errors?.[0].extensions.code).toBe('VALIDATION');
    return Object.keys(body.errors![0].extensions.fields ?? {}).sort();
  };

  describe('createCampaign', () => {
    it('creates a campaign with the defaults and a new contact list named after it', async () => {
      const w = await makeWorld();
      const res = await create(w.tokens.orgOwner, { organizationId: w.org.id, locationId: w.branch.id, name: 'Spring follow-up', steps: [EMAIL_STEP, SMS_STEP] });
      expect(res.errors).toBeUndefined();
      const c = res.data!.createCampaign;
      expect(c).toMatchObject({
        name: 'Spring follow-up',
        organizationId: w.org.id,
        locationId: w.branch.id,
        sendWindowStart: null,
        sendWindowEnd: null,
        sendAfterHours: 0,
        duplicateWindowDays: 14,
        feedbackThreshold: 3,
        reviewUrl: null,
        paused: false,
        pausedAt: null,
        metrics: { invitesSent: 0, invitesFailed: 0, invitesScheduled: 0, clicks: 0, feedbackCount: 0 },
        createdAt: NOW.toISOString(),
        steps: [
          { channel: 'email', delayHours: 0, subject: 'How did we do?', body: EMAIL_STEP.body },
          { channel: 'sms', delayHours: 48, subject: null, body: SMS_STEP.body },
        ],
      });
      expect(c.id).toMatch(/^[0-9a-f-]{36}$/);
      const list = (await ContactList.findByPk(c.contactListId))!;
      expect(list).toMatchObject({ name: 'Spring follow-up contacts', organizationId: w.org.id, customerId: w.org.customerId });
    });

    it('stores every setting that was sent, with an existing (shared) contact list', async () => {
      const w = await makeWorld();
      const list = await gql(w.tokens.orgOwner, 'mutation ($input: CreateContactListInput!) { createContactList(input: $input) { id name organizationId } }', {
        input: { name: 'All customers' },
      });
      expect(list.data!.createContactList).toMatchObject({ name: 'All customers', organizationId: null });
      const listId = list.data!.createContactList.id;
      const input = {
        organizationId: w.org.id,
        locationId: w.home.id,
        name: 'Night owls',
        contactListId: listId,
        sendWindowStart: '22:00',
        sendWindowEnd: '06:00',
        sendAfterHours: 3,
        duplicateWindowDays: 0,
        steps: [{ channel: 'messaging', body: 'Hi! {review_link}' }],
        reviewUrl: 'https://g.page/r/abc/review',
        feedbackThreshold: 4,
      };
      const a = (await create(w.tokens.orgOwner, input)).data!.createCampaign;
      const b = (await create(w.tokens.orgOwner, { ...input, name: 'Second' })).data!.createCampaign;
      expect(a).toMatchObject({ contactListId: listId, sendWindowStart: '22:00', sendWindowEnd: '06:00', sendAfterHours: 3, duplicateWindowDays: 0, reviewUrl: input.reviewUrl, feedbackThreshold: 4 });
      expect(a.steps).toEqual([{ channel: 'messaging', delayHours: 0, subject: null, body: 'Hi! {review_link}' }]);
      expect(b.contactListId).toBe(listId);
    });

    it('validates steps: 1 to 5, known channel, email needs a subject, body limits 2000 (email) and 1300 (sms, messaging; room for the added link and opt-out)', async () => {
      const w = await makeWorld();
      const base = { organizationId: w.org.id, locationId: w.home.id, name: 'Steps' };
      expect(fieldErrors(await create(w.tokens.orgOwner, { ...base, steps: [] }))).toEqual(['steps']);
      expect(fieldErrors(await create(w.tokens.orgOwner, { ...base, steps: Array(6).fill(EMAIL_STEP) }))).toEqual(['steps']);
      expect((await create(w.tokens.orgOwner, { ...base, steps: Array(5).fill(EMAIL_STEP) })).errors).toBeUndefined();
      expect(fieldErrors(await create(w.tokens.orgOwner, { ...base, steps: [{ channel: 'fax', body: 'x' }] }))).toEqual(['steps.0.channel']);
      expect(fieldErrors(await create(w.tokens.orgOwner, { ...base, steps: [{ channel: 'email', body: 'no subject' }] }))).toEqual(['steps.0.subject']);
      expect(fieldErrors(await create(w.tokens.orgOwner, { ...base, steps: [{ ...EMAIL_STEP, body: 'x'.repeat(2001) }] }))).toEqual(['steps.0.body']);
      expect((await create(w.tokens.orgOwner, { ...base, steps: [{ ...EMAIL_STEP, body: 'x'.repeat(2000) }] })).errors).toBeUndefined();
      expect(fieldErrors(await create(w.tokens.orgOwner, { ...base, steps: [EMAIL_STEP, { channel: 'sms', body: 'x'.repeat(1601) }] }))).toEqual(['steps.1.body']);
      expect(fieldErrors(await create(w.tokens.orgOwner, { ...base, steps: [{ channel: 'messaging', body: 'x'.repeat(1601) }] }))).toEqual(['steps.0.body']);
      // A text gets the review link and the opt-out line added, and the provider refuses more than 1,600: 1,300 for the step's own text.
      expect(fieldErrors(await create(w.tokens.orgOwner, { ...base, steps: [{ channel: 'sms', body: 'x'.repeat(1600) }] }))).toEqual(['steps.0.body']);
      expect(fieldErrors(await create(w.tokens.orgOwner, { ...base, steps: [{ channel: 'messaging', body: 'x'.repeat(1301) }] }))).toEqual(['steps.0.body']);
      expect((await create(w.tokens.orgOwner, { ...base, steps: [{ channel: 'sms', body: 'x'.repeat(1300) }] })).errors).toBeUndefined();
      // A link placeholder counts as the 100 characters of a link; an emoji as 2 (UTF-16, as the provider counts).
      expect(fieldErrors(await create(w.tokens.orgOwner, { ...base, steps: [{ channel: 'sms', body: `${'x'.repeat(1201)}{review_link}` }] }))).toEqual(['steps.0.body']);
      expect((await create(w.tokens.orgOwner, { ...base, steps: [{ channel: 'sms', body: `${'x'.repeat(1100)}{review_link}{unsubscribe_link}` }] })).errors).toBeUndefined();
      expect(fieldErrors(await create(w.tokens.orgOwner, { ...base, steps: [{ channel: 'sms', body: '\u{1F600}'.repeat(651) }] }))).toEqual(['steps.0.body']);
      expect((await create(w.tokens.orgOwner, { ...base, steps: [{ channel: 'sms', body: '\u{1F600}'.repeat(650) }] })).errors).toBeUndefined();
      expect(fieldErrors(await create(w.tokens.orgOwner, { ...base, steps: [{ channel: 'sms', delayHours: -1, body: 'x' }] }))).toEqual(['steps.0.delay_hours']);
    });

    it('refuses control characters in subjects and bodies (6 bytes each when stored: 5 full steps of them were a 500), tab and line breaks allowed', async () => {
      const w = await makeWorld();
      const base = { organizationId: w.org.id, locationId: w.home.id, name: 'Controls' };
      const control = { channel: 'email', subject: '\u0001'.repeat(255), body: '\u0001'.repeat(2000) };
      const refused = await create(w.tokens.orgOwner, { ...base, steps: Array(5).fill(control) });
      expect(fieldErrors(refused)).toEqual([0, 1, 2, 3, 4].flatMap((i) => [`steps.${i}.body`, `steps.${i}.subject`]));
      expect(refused.errors[0].extensions.fields['steps.0.body']).toEqual(['The body may not contain control characters (tabs and line breaks are allowed).']);
      expect(refused.errors[0].extensions.fields['steps.0.subject']).toEqual(['The subject may not contain control characters.']);
      expect(await Campaign.count({ where: { customerId: w.org.customerId, name: 'Controls' } })).toBe(0);
      // One in an otherwise ordinary text; a lone surrogate; a line break in a subject (one line).
      expect(fieldErrors(await create(w.tokens.orgOwner, { ...base, steps: [{ ...EMAIL_STEP, body: 'Hi\u0000 {review_link}' }] }))).toEqual(['steps.0.body']);
      expect(fieldErrors(await create(w.tokens.orgOwner, { ...base, steps: [{ channel: 'sms', body: 'Hi \ud800 {review_link}' }] }))).toEqual(['steps.0.body']);
      expect(fieldErrors(await create(w.tokens.orgOwner, { ...base, steps: [{ ...EMAIL_STEP, subject: 'How did\nwe do?' }] }))).toEqual(['steps.0.subject']);
      // The same lengths of 4-byte characters fit, and a body keeps its tabs and line breaks.
      const wide = { channel: 'email', subject: '😀'.repeat(255), body: `Hi\tthere,\r\n${'😀'.repeat(1989)}` };
      const stored = await create(w.tokens.orgOwner, { ...base, steps: Array(5).fill(wide) });
      expect(stored.errors).toBeUndefined();
      expect(stored.data!.createCampaign.steps).toEqual(Array(5).fill({ ...wide, delayHours: 0 }));
    });

    it('validates the window (HH:MM pair, distinct), duplicate window 0-365, feedback threshold 1-4, review URL, location and list', async () => {
      const w = await makeWorld();
      const base = { organizationId: w.org.id, locationId: w.home.id, name: 'Rules', steps: [EMAIL_STEP] };
      const errs = async (extra: Record<string, unknown>) => fieldErrors(await create(w.tokens.orgOwner, { ...base, ...extra }));
      expect(await errs({ sendWindowStart: '09:00' })).toEqual(['send_window']);
      expect(await errs({ sendWindowStart: '24:00', sendWindowEnd: '9:00' })).toEqual(['send_window_end', 'send_window_start']);
      expect(await errs({ sendWindowStart: '09:00', sendWindowEnd: '09:00' })).toEqual(['send_window']);
      expect(await errs({ duplicateWindowDays: 366 })).toEqual(['duplicate_window_days']);
      expect(await errs({ duplicateWindowDays: -1 })).toEqual(['duplicate_window_days']);
      expect((await create(w.tokens.orgOwner, { ...base, duplicateWindowDays: 365 })).errors).toBeUndefined();
      expect(await errs({ feedbackThreshold: 0 })).toEqual(['feedback_threshold']);
      expect(await errs({ feedbackThreshold: 5 })).toEqual(['feedback_threshold']);
      expect(await errs({ sendAfterHours: -2 })).toEqual(['send_after_hours']);
      expect(await errs({ reviewUrl: 'ftp://example.com/x' })).toEqual(['review_url']);
      expect(await errs({ name: '' })).toEqual(['name']);
      const otherOrg = await makeOrganization(w.orgOwner);
      expect(await errs({ locationId: otherOrg.defaultLocationId })).toEqual(['location_id']);
      const stranger = await makeOrgOwner(w.tenant.id);
      const foreign = await makeCampaign(stranger, await makeOrganization(stranger));
      expect(await errs({ contactListId: foreign.contactListId })).toEqual(['contact_list_id']);
    });
  });

  describe('updateCampaign, pauseCampaign, resumeCampaign, deleteCampaign', () => {
    it('changes only the fields that were sent', async () => {
      const w = await makeWorld();
      const c = await makeCampaign(w.orgOwner, w.org, { name: 'Before', sendWindowStart: '09:00', sendWindowEnd: '17:00', feedbackThreshold: 2 });
      const res = await gql(w.tokens.orgOwner, `mutation ($id: String!, $input: UpdateCampaignInput!) { updateCampaign(id: $id, input: $input) { ${CAMPAIGN_FIELDS} } }`, {
        id: c.uuid,
        input: { name: 'After', locationId: w.branch.id },
      });
      expect(res.errors).toBeUndefined();
      expect(res.data!.updateCampaign).toMatchObject({ name: 'After', locationId: w.branch.id, sendWindowStart: '09:00', sendWindowEnd: '17:00', feedbackThreshold: 2 });
      const cleared = await gql(w.tokens.orgOwner, 'mutation ($id: String!) { updateCampaign(id: $id, input: { sendWindowStart: null, sendWindowEnd: null }) { sendWindowStart sendWindowEnd name } }', { id: c.uuid });
      expect(cleared.data!.updateCampaign).toEqual({ sendWindowStart: null, sendWindowEnd: null, name: 'After' });
      const bad = await gql(w.tokens.orgOwner, 'mutation ($id: String!) { updateCampaign(id: $id, input: { steps: [] }) { id } }', { id: c.uuid });
      expect(fieldErrors(bad)).toEqual(['steps']);
    });

    it('pauses (canceling waiting invites) and resumes, both idempotent', async () => {
      const w = await makeWorld();
      const c = await makeCampaign(w.orgOwner, w.org);
      const waiting = await requestInvite(c, { email: 'wait@example.com' }, { source: 'api', clock });
      const pause = () => gql(w.tokens.orgOwner, 'mutation ($id: String!) { pauseCampaign(id: $id) { paused pausedAt metrics { invitesScheduled } } }', { id: c.uuid });
      const first = await pause();
      expect(first.data!.pauseCampaign).toEqual({ paused: true, pausedAt: NOW.toISOString(), metrics: { invitesScheduled: 0 } });
      expect((await Invite.findByPk(waiting.invite!.id))!).toMatchObject({ status: 'canceled', reason: 'Campaign paused.' });
      clock.advance(60_000);
      expect((await pause()).data!.pauseCampaign.pausedAt).toBe(NOW.toISOString());
      const resume = () => gql(w.tokens.orgOwner, 'mutation ($id: String!) { resumeCampaign(id: $id) { paused pausedAt } }', { id: c.uuid });
      expect((await resume()).data!.resumeCampaign).toEqual({ paused: false, pausedAt: null });
      expect((await resume()).data!.resumeCampaign).toEqual({ paused: false, pausedAt: null });
    });

    it('deletes a campaign but keeps its list; a list in use cannot be deleted (CONFLICT contact_list_in_use)', async () => {
      const w = await makeWorld();
      const c = await makeCampaign(w.orgOwner, w.org);
      const delList = () => gql(w.tokens.orgOwner, `mutation { deleteContactList(id: ${c.contactListId}) { id message } }`);
      const inUse = await delList();
      expect(inUse.errors![0].extensions).toMatchObject({ code: 'CONFLICT', reason: 'contact_list_in_use' });
      const del = await gql(w.tokens.orgOwner, 'mutation ($id: String!) { deleteCampaign(id: $id) { id message } }', { id: c.uuid });
      expect(del.data!.deleteCampaign).toEqual({ id: c.uuid, message: 'Campaign deleted successfully.' });
      expect(await Campaign.findByPk(c.id)).toBeNull();
      expect(await ContactList.findByPk(c.contactListId)).not.toBeNull();
      expect((await delList()).data!.deleteContactList).toEqual({ id: c.contactListId, message: 'Contact list deleted successfully.' });
      const again = await gql(w.tokens.orgOwner, 'mutation ($id: String!) { deleteCampaign(id: $id) { id } }', { id: c.uuid });
      expect(again.errors![0].extensions.code).toBe('NOT_FOUND');
    });
  });

  describe('permissions', () => {
    it('lets a team member see only the campaigns of assigned locations and never manage them', async () => {
      const w = await makeWorld();
      const atHome = await makeCampaign(w.orgOwner, w.org, { locationId: w.home.id, name: 'Home campaign' });
      const atBranch = await makeCampaign(w.orgOwner, w.org, { locationId: w.branch.id, name: 'Branch campaign' });
      const listed = await gql(w.tokens.member, '{ campaigns(page: 1) { total items { id } } }');
      expect(listed.data!.campaigns).toEqual({ total: 1, items: [{ id: atBranch.uuid }] });
      expect((await gql(w.tokens.member, `{ campaign(id: "${atBranch.uuid}") { name } }`)).data!.campaign.name).toBe('Branch campaign');
      const hidden = await gql(w.tokens.member, `{ campaign(id: "${atHome.uuid}") { name } }`);
      expect(hidden.errors![0].extensions).toMatchObject({ code: 'FORBIDDEN', reason: 'location_access_denied' });
      const created = await create(w.tokens.member, { organizationId: w.org.id, locationId: w.branch.id, name: 'Mine', steps: [EMAIL_STEP] });
      expect(created.errors![0].extensions).toMatchObject({ code: 'FORBIDDEN', reason: 'campaign_management_denied' });
      const paused = await gql(w.tokens.member, 'mutation ($id: String!) { pauseCampaign(id: $id) { paused } }', { id: atBranch.uuid });
      expect(paused.errors![0].extensions).toMatchObject({ code: 'FORBIDDEN', reason: 'campaign_management_denied' });
      const lists = await gql(w.tokens.member, '{ contactLists(page: 1) { items { id } } }');
      expect(lists.data!.contactLists.items).toEqual([{ id: atBranch.contactListId }]);
    });

    it("lets a tenant owner see every account's campaigns, and hides other accounts' from an organisation owner (NOT_FOUND)", async () => {
      const w = await makeWorld();
      const mine = await makeCampaign(w.orgOwner, w.org);
      const stranger = await makeOrgOwner(w.tenant.id);
      const theirs = await makeCampaign(stranger, await makeOrganization(stranger));
      const owner = await gql(w.tokens.owner, '{ campaigns(page: 1, perPage: 100) { items { id } } }');
      expect(owner.data!.campaigns.items.map((c: { id: string }) => c.id).sort()).toEqual([mine.uuid, theirs.uuid].sort());
      const org = await gql(w.tokens.orgOwner, `{ campaign(id: "${theirs.uuid}") { id } }`);
      expect(org.errors![0].extensions.code).toBe('NOT_FOUND');
      const { tenant: otherTenant } = await makeTenant();
      const outsider = await tokenFor(await makeOrgOwner(otherTenant.id));
      expect((await gql(outsider, '{ campaigns(page: 1) { total } }')).data!.campaigns.total).toBe(0);
      expect((await gql(outsider, 'mutation ($id: String!) { deleteCampaign(id: $id) { id } }', { id: mine.uuid })).errors![0].extensions.code).toBe('NOT_FOUND');
    });

    it('needs request:read to read and request:read + request:create to manage', async () => {
      const w = await makeWorld();
      const noRead = await tokenFor(w.orgOwner, without('request:read'));
      const noCreate = await tokenFor(w.orgOwner, without('request:create'));
      expect((await gql(noRead, '{ campaigns(page: 1) { total } }')).errors![0].extensions.code).toBe('FORBIDDEN');
      expect((await gql(noCreate, '{ campaigns(page: 1) { total } }')).errors).toBeUndefined();
      const res = await create(noCreate, { organizationId: w.org.id, locationId: w.home.id, name: 'x', steps: [EMAIL_STEP] });
      expect(res.errors![0].extensions).toMatchObject({ code: 'FORBIDDEN', reason: 'missing_permission' });
    });
  });

  describe('campaigns query', () => {
    it('filters by organisation, name search, campaign id and creation dates, newest first, paginated', async () => {
      const w = await makeWorld();
      const other = await makeOrganization(w.orgOwner);
      const made: Campaign[] = [];
      const days = ['2026-01-10', '2026-01-20', '2026-02-01', '2026-02-15'];
      for (const [i, day] of days.entries()) {
        clock.set(new Date(`${day}T10:00:00Z`));
        made.push(await makeCampaign(w.orgOwner, i === 3 ? other : w.org, { name: i % 2 ? `Winter ${i}` : `Summer ${i}` }, { clock }));
      }
      const q = async (args: string) => {
        const res = await gql(w.tokens.orgOwner, `{ campaigns(${args}) { total page perPage items { id name } } }`);
        expect(res.errors).toBeUndefined();
        return res.data!.campaigns;
      };
      const all = await q('page: 1');
      expect(all.items.map((c: { id: string }) => c.id)).toEqual([...made].reverse().map((c) => c.uuid));
      expect((await q(`organizationId: ${w.org.id}`)).total).toBe(3);
      expect((await q('search: "winter"')).items.map((c: { name: string }) => c.name)).toEqual(['Winter 3', 'Winter 1']);
      expect((await q(`campaignId: ${made[2].id}`)).items).toEqual([{ id: made[2].uuid, name: made[2].name }]);
      expect((await q('dateFrom: "2026-01-20", dateTo: "2026-02-01"')).items.map((c: { id: string }) => c.id)).toEqual([made[2].uuid, made[1].uuid]);
      expect((await q('dateTo: "2026-01-10"')).total).toBe(1);
      const page2 = await q('page: 2, perPage: 3');
      expect(page2).toEqual({ total: 4, page: 2, perPage: 3, items: [{ id: made[0].uuid, name: made[0].name }] });
      const bad = await gql(w.tokens.orgOwner, '{ campaigns(dateFrom: "2026-13-01") { total } }');
      expect(fieldErrors(bad)).toEqual(['date_from']);
      expect(fieldErrors(await gql(w.tokens.orgOwner, '{ campaigns(perPage: 101) { total } }'))).toEqual(['per_page']);
    });

    it('reports invites sent, failed, scheduled, clicks and feedback per campaign', async () => {
      const w = await makeWorld();
      const c = await makeCampaign(w.orgOwner, w.org);
      const other = await makeCampaign(w.orgOwner, w.org);
      const invite = async (email: string, campaign = c) => (await requestInvite(campaign, { email }, { source: 'api', clock })).invite!;
      const a = await invite('a@example.com');
      const b = await invite('b@example.com');
      const f = await invite('f@example.com');
      await invite('s@example.com');
      await invite('x@example.com', other);
      await markSent(a, NOW);
      await markSent(b, NOW);
      await Invite.update({ clickedAt: NOW }, { where: { id: a.id } });
      await Invite.update({ status: 'failed', failedAt: NOW }, { where: { id: f.id } });
      await PrivateFeedback.create({
        tenantId: c.tenantId, customerId: c.customerId, organizationId: c.organizationId, locationId: c.locationId,
        campaignId: c.id, contactId: a.contactId, inviteId: a.id, rating: 2, message: 'Slow', source: 'email', sourceName: c.name, meta: {},
      });
      const res = await gql(w.tokens.orgOwner, `{ campaign(id: "${c.uuid}") { metrics { invitesSent invitesFailed invitesScheduled clicks feedbackCount } } }`);
      expect(res.data!.campaign.metrics).toEqual({ invitesSent: 2, invitesFailed: 1, invitesScheduled: 1, clicks: 1, feedbackCount: 1 });
      const listed = await gql(w.tokens.orgOwner, '{ campaigns(page: 1) { items { id metrics { invitesScheduled invitesSent } } } }');
      expect(listed.data!.campaigns.items).toEqual([
        { id: other.uuid, metrics: { invitesScheduled: 1, invitesSent: 0 } },
        { id: c.uuid, metrics: { invitesScheduled: 1, invitesSent: 2 } },
      ]);
    });

    it('resolves a page of campaigns with metrics in a constant number of SQL statements (no N+1)', async () => {
      const w = await makeWorld();
      const run = async () => {
        const { n, result: res } = await countStatements(t.db(), () => gql(w.tokens.orgOwner, `{ campaigns(page: 1, perPage: 100) { items { ${CAMPAIGN_FIELDS} } } }`));
        expect(res.errors).toBeUndefined();
        return { n, count: res.data!.campaigns.items.length };
      };
      await makeCampaign(w.orgOwner, w.org);
      await run(); // warm-up
      const before = await run();
      for (let i = 0; i < 4; i++) await makeCampaign(w.orgOwner, w.org);
      const after = await run();
      expect(after.count).toBe(before.count + 4);
      expect(after.n).toBe(before.n);
    });
  });

  describe('contacts and contactActivity', () => {
    it('lists contacts with engagement counters and filters by organisation, list, subscription and creation date', async () => {
      const w = await makeWorld();
      const c = await makeCampaign(w.orgOwner, w.org);
      const otherOrg = await makeOrganization(w.orgOwner);
      const elsewhere = await makeCampaign(w.orgOwner, otherOrg);
      clock.set(new Date('2026-02-01T09:00:00Z'));
      const ann = await requestInvite(c, { email: 'ann@example.com', firstName: 'Ann' }, { source: 'api', clock });
      clock.set(new Date('2026-02-10T09:00:00Z'));
      const bob = await requestInvite(c, { phone: '+14155552671', firstName: 'Bob' }, { source: 'api', clock });
      const cid = await requestInvite(elsewhere, { email: 'cid@example.com' }, { source: 'api', clock });
      await markSent(ann.invite!, new Date('2026-02-02T10:00:00Z'));
      await Invite.update({ clickedAt: new Date('2026-02-02T11:00:00Z') }, { where: { id: ann.invite!.id } });
      await PrivateFeedback.create({
        tenantId: c.tenantId, customerId: c.customerId, organizationId: c.organizationId, locationId: c.locationId,
        campaignId: c.id, contactId: ann.contact.id, inviteId: ann.invite!.id, rating: 1, message: 'Bad', source: 'email', sourceName: c.name, meta: {},
      });
      await Contact.update({ unsubscribedAt: new Date('2026-02-11T00:00:00Z') }, { where: { id: bob.contact.id } });

      const q = async (args: string) => {
        const res = await gql(w.tokens.orgOwner, `{ contacts(${args}) { total items { id internalId email phone firstName subscribed engagement { invitesSent lastInvitedAt clicks feedbackCount } } } }`);
        expect(res.errors).toBeUndefined();
        return res.data!.contacts;
      };
      const all = await q('page: 1');
      expect(all.items.map((x: { id: string }) => x.id)).toEqual([cid.contact.uuid, bob.contact.uuid, ann.contact.uuid]);
      expect(all.items[2]).toEqual({
        id: ann.contact.uuid,
        internalId: ann.contact.id,
        email: 'ann@example.com',
        phone: null,
        firstName: 'Ann',
        subscribed: true,
        engagement: { invitesSent: 1, lastInvitedAt: '2026-02-02T10:00:00.000Z', clicks: 1, feedbackCount: 1 },
      });
      expect(all.items[1].engagement).toEqual({ invitesSent: 0, lastInvitedAt: null, clicks: 0, feedbackCount: 0 });
      expect((await q(`organizationId: ${w.org.id}`)).items.map((x: { id: string }) => x.id)).toEqual([bob.contact.uuid, ann.contact.uuid]);
      expect((await q(`contactListId: ${elsewhere.contactListId}`)).items.map((x: { id: string }) => x.id)).toEqual([cid.contact.uuid]);
      expect((await q('subscribed: false')).items.map((x: { id: string }) => x.id)).toEqual([bob.contact.uuid]);
      expect((await q('subscribed: true')).total).toBe(2);
      expect((await q('dateFrom: "2026-02-01", dateTo: "2026-02-09"')).items.map((x: { id: string }) => x.id)).toEqual([ann.contact.uuid]);
      const page = await q('page: 2, perPage: 2');
      expect(page).toMatchObject({ total: 3, items: [{ id: ann.contact.uuid }] });
      // A team member sees the contacts of the lists their assigned locations' campaigns use.
      const memberView = async () => (await gql(w.tokens.member, '{ contacts(page: 1) { items { id } } }')).data!.contacts.items.map((x: { id: string }) => x.id);
      expect(await memberView()).toEqual([]);
      const atBranch = await makeCampaign(w.orgOwner, w.org, { locationId: w.branch.id });
      const dee = await requestInvite(atBranch, { email: 'dee@example.com' }, { source: 'api', clock });
      expect(await memberView()).toEqual([dee.contact.uuid]);
    });

    it('returns the activity of a contact newest first, limited (1-100, default 25), by UUID or integer id', async () => {
      const w = await makeWorld();
      const c = await makeCampaign(w.orgOwner, w.org, { name: 'Timeline' });
      const first = await requestInvite(c, { email: 'tim@example.com' }, { source: 'api', clock });
      clock.advance(60_000);
      await requestInvite(c, { email: 'tim@example.com' }, { source: 'api', clock });
      clock.advance(60_000);
      await markSent(first.invite!, clock.now());
      clock.advance(60_000);
      await requestInvite(c, { email: 'tim@example.com' }, { source: 'api', clock });
      const q = (id: string | number, limit?: number) =>
        limit === undefined
          ? gql(w.tokens.orgOwner, 'query ($id: ID!) { contactActivity(contactId: $id) { type occurredAt campaignId campaignName detail } }', { id })
          : gql(w.tokens.orgOwner, 'query ($id: ID!, $limit: Int!) { contactActivity(contactId: $id, limit: $limit) { type } }', { id, limit });
      const byUuid = await q(first.contact.uuid);
      expect(byUuid.errors).toBeUndefined();
      expect(byUuid.data!.contactActivity.map((a: { type: string }) => a.type)).toEqual(['ignored', 'rescheduled', 'scheduled']);
      expect(byUuid.data!.contactActivity[0]).toMatchObject({ campaignId: c.uuid, campaignName: 'Timeline', occurredAt: new Date(NOW.getTime() + 180_000).toISOString() });
      expect((await q(first.contact.id, 1)).data!.contactActivity).toHaveLength(1);
      expect(fieldErrors(await q(first.contact.id, 0))).toEqual(['limit']);
      expect(fieldErrors(await q(first.contact.id, 101))).toEqual(['limit']);
      for (let i = 0; i < 30; i++) {
        await logActivity({ tenantId: c.tenantId, customerId: c.customerId, contactId: first.contact.id, type: 'clicked', occurredAt: new Date(NOW.getTime() - (i + 1) * 60_000) });
      }
      expect((await q(first.contact.uuid)).data!.contactActivity).toHaveLength(25);
      expect((await q(first.contact.uuid, 100)).data!.contactActivity).toHaveLength(33);
      const stranger = await tokenFor(await makeOrgOwner(w.tenant.id));
      expect((await gql(stranger, 'query ($id: ID!) { contactActivity(contactId: $id) { type } }', { id: first.contact.uuid })).errors![0].extensions.code).toBe('NOT_FOUND');
    });

    it('shows a team member only the entries of campaigns at assigned locations, when one list serves several', async () => {
      const w = await makeWorld();
      const atBranch = await makeCampaign(w.orgOwner, w.org, { name: 'At the branch', locationId: w.branch.id });
      const atHome = await makeCampaign(w.orgOwner, w.org, { name: 'At home', contactListId: atBranch.contactListId });
      const invited = await requestInvite(atBranch, { email: 'shared@example.com' }, { source: 'api', clock });
      await requestInvite(atHome, { email: 'shared@example.com' }, { source: 'api', clock });
      await logActivity({ tenantId: w.org.tenantId, customerId: w.org.customerId, contactId: invited.contact.id, type: 'unsubscribed', occurredAt: NOW });
      const q = (token: string) => gql(token, 'query ($id: ID!) { contactActivity(contactId: $id) { type campaignName } }', { id: invited.contact.uuid });
      const names = (r: Awaited<ReturnType<typeof q>>) => r.data!.contactActivity.map((a: { campaignName: string | null }) => a.campaignName).sort();
      expect(names(await q(w.tokens.orgOwner))).toEqual(['At home', 'At the branch', null].sort());
      expect(names(await q(w.tokens.member))).toEqual(['At the branch', null].sort());
      // A deleted campaign's entries lose their campaign, not their invite: still not the member's to see.
      expect((await gql(w.tokens.orgOwner, 'mutation ($id: String!) { deleteCampaign(id: $id) { message } }', { id: atHome.uuid })).errors).toBeUndefined();
      expect(names(await q(w.tokens.orgOwner))).toEqual(['At the branch', null, null].sort());
      expect(names(await q(w.tokens.member))).toEqual(['At the branch', null].sort());
    });

    it("counts a team member's engagement of a shared contact from the campaigns at assigned locations only", async () => {
      const w = await makeWorld();
      const atBranch = await makeCampaign(w.orgOwner, w.org, { name: 'At the branch', locationId: w.branch.id });
      const atHome = await makeCampaign(w.orgOwner, w.org, { name: 'At home', contactListId: atBranch.contactListId });
      const branchInvite = (await requestInvite(atBranch, { email: 'shared@example.com' }, { source: 'api', clock })).invite!;
      const homeInvite = (await requestInvite(atHome, { email: 'shared@example.com' }, { source: 'api', clock })).invite!;
      await markSent(branchInvite, new Date('2026-03-01T10:00:00Z'));
      await markSent(homeInvite, new Date('2026-03-02T10:00:00Z'));
      await Invite.update({ clickedAt: NOW }, { where: { id: homeInvite.id } });
      await PrivateFeedback.create({
        tenantId: atHome.tenantId, customerId: atHome.customerId, organizationId: atHome.organizationId, locationId: atHome.locationId,
        campaignId: atHome.id, contactId: homeInvite.contactId, inviteId: homeInvite.id, rating: 1, message: 'Slow', source: 'email', sourceName: atHome.name, meta: {},
      });
      const engagement = async (token: string) => {
        const one = await gql(token, 'query ($id: ID!) { contact(id: $id) { engagement { invitesSent lastInvitedAt clicks feedbackCount } } }', { id: String(homeInvite.contactId) });
        const listed = await gql(token, `{ contacts(page: 1, contactListId: ${atBranch.contactListId}) { items { engagement { invitesSent lastInvitedAt clicks feedbackCount } } } }`);
        expect(one.errors).toBeUndefined();
        expect(listed.data!.contacts.items).toEqual([one.data!.contact]);
        return one.data!.contact.engagement;
      };
      expect(await engagement(w.tokens.orgOwner)).toEqual({ invitesSent: 2, lastInvitedAt: '2026-03-02T10:00:00.000Z', clicks: 1, feedbackCount: 1 });
      expect(await engagement(w.tokens.member)).toEqual({ invitesSent: 1, lastInvitedAt: '2026-03-01T10:00:00.000Z', clicks: 0, feedbackCount: 0 });
    });
  });
});
