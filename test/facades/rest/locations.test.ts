import { Integration, Location, LocationUser, Organization, Review, User } from '../../../src/models';
import { useApp } from '../../support/app';
import { defaultLocationOf, makeLocation, makeOrganization, makeOrgOwner, makeReview, makeTenant, makeTeamMember, makeWorld, syncedSourceOf, testimonialsOf, tokenFor, without } from '../../support/factories';

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{3})?Z$/;
const LOCATION_KEYS = ['created_at', 'id', 'name', 'organization_id', 'updated_at'];

/** The Location resource as the spec states it, read back from the database. */
async function locationJson(id: number) {
  const l = (await Location.findByPk(id))!;
  return {
    id: l.id,
    organization_id: l.organizationId,
    name: l.name,
    created_at: l.createdAt.toISOString(),
    updated_at: l.updatedAt.toISOString(),
  };
}

const ids = (body: { data: { id: number }[] }) => body.data.map((x) => x.id);

describe('locations', () => {
  const t = useApp();
  const as = t.as;

  describe('GET /api/v1/locations', () => {
    it('answers the envelope of visible locations ordered by organisation, then location, 25 a page', async () => {
      const { tenant } = await makeTenant();
      const owner = await makeOrgOwner(tenant.id);
      const a = await makeOrganization(owner, 'Alpha');
      const b = await makeOrganization(owner, 'Beta');
      // Created after Beta's default location: a pure id order would put it last.
      const a2 = await makeLocation(a, 'Alpha Two');
      const token = await tokenFor(owner);

      const res = await as(token).get('/api/v1/locations');
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual([
        await locationJson(a.defaultLocationId!),
        await locationJson(a2.id),
        await locationJson(b.defaultLocationId!),
      ]);
      for (const l of res.body.data) expect(Object.keys(l).sort()).toEqual(LOCATION_KEYS);
      expect(res.body.meta).toEqual({ current_page: 1, from: 1, last_page: 1, per_page: 25, to: 3, total: 3 });
      expect(res.body.links).toEqual({
        first: expect.stringMatching(/\/api\/v1\/locations\?page=1$/),
        last: expect.stringMatching(/\/api\/v1\/locations\?page=1$/),
        prev: null,
        next: null,
      });
    });

    it('filters by organization_id', async () => {
      const w = await makeWorld();
      const other = await makeOrganization(w.orgOwner);
      const res = await as(w.tokens.orgOwner).get(`/api/v1/locations?organization_id=${w.org.id}`);
      expect(res.status).toBe(200);
      expect(ids(res.body)).toEqual([w.home.id, w.branch.id]);
      const res2 = await as(w.tokens.orgOwner).get(`/api/v1/locations?organization_id=${other.id}`);
      expect(ids(res2.body)).toEqual([other.defaultLocationId]);
    });

    it('searches location names and organisation names', async () => {
      const { tenant } = await makeTenant();
      const owner = await makeOrgOwner(tenant.id);
      const bakery = await makeOrganization(owner, 'Sunrise Bakery');
      const bakeryShop = await makeLocation(bakery, 'Harbour Shop');
      const dental = await makeOrganization(owner, 'Dental Care');
      const dentalSunrise = await makeLocation(dental, 'Sunrise Street');
      await makeLocation(dental, 'Hill Road');
      const token = await tokenFor(owner);

      // "Sunrise": every location of the Sunrise Bakery organisation, plus the location named Sunrise Street.
      const byBoth = await as(token).get('/api/v1/locations?search=Sunrise');
      expect(byBoth.status).toBe(200);
      expect(ids(byBoth.body)).toEqual([bakery.defaultLocationId, bakeryShop.id, dentalSunrise.id]);
      expect(byBoth.body.meta.total).toBe(3);

      const byLocation = await as(token).get('/api/v1/locations?search=Harbour');
      expect(ids(byLocation.body)).toEqual([bakeryShop.id]);

      const byOrganization = await as(token).get('/api/v1/locations?search=Dental');
      expect(byOrganization.body.meta.total).toBe(3);
      expect(byOrganization.body.data.every((l: { organization_id: number }) => l.organization_id === dental.id)).toBe(true);

      const combined = await as(token).get(`/api/v1/locations?search=Sunrise&organization_id=${dental.id}`);
      expect(ids(combined.body)).toEqual([dentalSunrise.id]);

      const none = await as(token).get('/api/v1/locations?search=Nothing%20Like%20This');
      expect(none.body.data).toEqual([]);
      expect(none.body.meta).toMatchObject({ total: 0, from: null, to: null, last_page: 1 });
    });

    it('treats % and _ in search as literal text', async () => {
      const { tenant } = await makeTenant();
      const owner = await makeOrgOwner(tenant.id);
      const org = await makeOrganization(owner, 'Plain');
      const pct = await makeLocation(org, '100% Fresh');
      const token = await tokenFor(owner);
      expect(ids((await as(token).get('/api/v1/locations?search=%25')).body)).toEqual([pct.id]);
      expect((await as(token).get('/api/v1/locations?search=_')).body.data).toEqual([]);
    });

    it('pages with per_page and keeps the other query parameters in the links', async () => {
      const w = await makeWorld();
      const third = await makeLocation(w.org, 'Third');
      const res = await as(w.tokens.orgOwner).get(`/api/v1/locations?per_page=2&organization_id=${w.org.id}`);
      expect(res.status).toBe(200);
      expect(ids(res.body)).toEqual([w.home.id, w.branch.id]);
      expect(res.body.meta).toEqual({ current_page: 1, from: 1, last_page: 2, per_page: 2, to: 2, total: 3 });
      expect(res.body.links.next).toMatch(/per_page=2/);
      expect(res.body.links.next).toMatch(new RegExp(`organization_id=${w.org.id}`));
      expect(res.body.links.next).toMatch(/page=2$/);

      const two = await as(w.tokens.orgOwner).get(`/api/v1/locations?per_page=2&page=2&organization_id=${w.org.id}`);
      expect(ids(two.body)).toEqual([third.id]);
      expect(two.body.meta).toMatchObject({ current_page: 2, from: 3, to: 3 });
    });

    it.each(['1', '100'])('accepts per_page=%s', async (perPage) => {
      const w = await makeWorld();
      const res = await as(w.tokens.orgOwner).get(`/api/v1/locations?per_page=${perPage}`);
      expect(res.status).toBe(200);
      expect(res.body.meta.per_page).toBe(Number(perPage));
      expect(res.body.data).toHaveLength(Math.min(2, Number(perPage)));
    });

    it.each(['0', '101', 'x', '-1', '2.5'])('answers 422 errors.per_page for per_page=%s', async (perPage) => {
      const w = await makeWorld();
      const res = await as(w.tokens.orgOwner).get(`/api/v1/locations?per_page=${perPage}`);
      expect(res.status).toBe(422);
      expect(res.body).toEqual({ message: expect.any(String), errors: { per_page: [expect.any(String)] } });
    });

    it('answers 422 errors.organization_id for a non-integer organization_id', async () => {
      const w = await makeWorld();
      const res = await as(w.tokens.orgOwner).get('/api/v1/locations?organization_id=abc');
      expect(res.status).toBe(422);
      expect(res.body).toEqual({ message: expect.any(String), errors: { organization_id: [expect.any(String)] } });
    });
  });

  describe('GET /api/v1/locations/{id}', () => {
    it('answers 200 {data: Location} with exactly id, organization_id, name, created_at, updated_at', async () => {
      const w = await makeWorld();
      const res = await as(w.tokens.orgOwner).get(`/api/v1/locations/${w.branch.id}`);
      expect(res.status).toBe(200);
      expect(Object.keys(res.body)).toEqual(['data']);
      expect(Object.keys(res.body.data).sort()).toEqual(LOCATION_KEYS);
      expect(res.body.data).toEqual(await locationJson(w.branch.id));
      expect(res.body.data).toMatchObject({ id: w.branch.id, organization_id: w.org.id, name: 'Branch' });
      expect(res.body.data.created_at).toMatch(ISO);
    });

    it('answers 404 for an unknown, non-numeric, other-account or other-tenant id', async () => {
      const w = await makeWorld();
      const neighbour = await defaultLocationOf(await makeOrganization(await makeOrgOwner(w.tenant.id)));
      const foreign = await makeWorld();
      for (const id of [999999999, 'abc', '0', neighbour.id, foreign.home.id]) {
        const res = await as(w.tokens.orgOwner).get(`/api/v1/locations/${id}`);
        expect([id, res.status]).toEqual([id, 404]);
        expect(res.body).toEqual({ message: expect.any(String) });
      }
    });
  });

  describe('POST /api/v1/locations', () => {
    it('answers 201 {data: Location} and stores the location in the organisation with a testimonials source', async () => {
      const w = await makeWorld();
      const res = await as(w.tokens.orgOwner).post('/api/v1/locations').send({ organization_id: w.org.id, name: 'New Branch' });
      expect(res.status).toBe(201);
      expect(Object.keys(res.body)).toEqual(['data']);
      expect(res.body.data).toEqual({
        id: expect.any(Number),
        organization_id: w.org.id,
        name: 'New Branch',
        created_at: expect.stringMatching(ISO),
        updated_at: expect.stringMatching(ISO),
      });
      const stored = (await Location.findByPk(res.body.data.id))!;
      expect(stored).toMatchObject({ organizationId: w.org.id, customerId: w.org.customerId, tenantId: w.tenant.id, name: 'New Branch' });
      expect(res.body.data).toEqual(await locationJson(stored.id));
      const sources = await Integration.findAll({ where: { locationId: stored.id } });
      expect(sources.map((s) => s.type)).toEqual(['testimonials']);
      expect((await testimonialsOf(stored)).organizationId).toBe(w.org.id);
    });

    it("accepts multipart form fields, and the tenant owner creates in any account's organisation", async () => {
      const w = await makeWorld();
      const res = await as(w.tokens.owner).post('/api/v1/locations').field('organization_id', String(w.org.id)).field('name', 'From Agency');
      expect(res.status).toBe(201);
      expect(res.body.data).toMatchObject({ organization_id: w.org.id, name: 'From Agency' });
      expect((await Location.findByPk(res.body.data.id))!.customerId).toBe(w.org.customerId);
    });

    it.each([
      ['name missing', (org: number) => ({ organization_id: org }), 'name'],
      ['name blank', (org: number) => ({ organization_id: org, name: '  ' }), 'name'],
      ['name over 255', (org: number) => ({ organization_id: org, name: 'n'.repeat(256) }), 'name'],
      ['name with a NUL', (org: number) => ({ organization_id: org, name: 'a\u0000b' }), 'name'],
      ['name with a line break', (org: number) => ({ organization_id: org, name: 'Main\nStreet' }), 'name'],
      ['name with a lone surrogate', (org: number) => ({ organization_id: org, name: 'Caf\ud800' }), 'name'],
      ['organization_id missing', () => ({ name: 'X' }), 'organization_id'],
      ['organization_id not an integer', () => ({ organization_id: 'abc', name: 'X' }), 'organization_id'],
    ])('answers 422 when %s', async (_label, body, field) => {
      const w = await makeWorld();
      const res = await as(w.tokens.orgOwner).post('/api/v1/locations').send(body(w.org.id));
      expect(res.status).toBe(422);
      expect(res.body).toEqual({ message: expect.any(String), errors: { [field]: [expect.any(String)] } });
      expect(await Location.count({ where: { customerId: w.org.customerId } })).toBe(2);
    });

    it('accepts a name of exactly 255 characters', async () => {
      const w = await makeWorld();
      const res = await as(w.tokens.orgOwner).post('/api/v1/locations').send({ organization_id: w.org.id, name: 'n'.repeat(255) });
      expect(res.status).toBe(201);
      expect(res.body.data.name).toHaveLength(255);
    });

    it('answers 404 for an unknown organisation, or one of another account or tenant, and creates nothing', async () => {
      const w = await makeWorld();
      const neighbour = await makeOrganization(await makeOrgOwner(w.tenant.id));
      const foreign = await makeWorld();
      for (const orgId of [999999999, neighbour.id, foreign.org.id]) {
        const res = await as(w.tokens.orgOwner).post('/api/v1/locations').send({ organization_id: orgId, name: 'Sneaky' });
        expect([orgId, res.status]).toEqual([orgId, 404]);
        expect(res.body).toEqual({ message: expect.any(String) });
      }
      const foreignAsOwner = await as(w.tokens.owner).post('/api/v1/locations').send({ organization_id: foreign.org.id, name: 'Sneaky' });
      expect(foreignAsOwner.status).toBe(404);
      expect(await Location.count({ where: { name: 'Sneaky' } })).toBe(0);
    });

    it('answers 404 to a team member for an organisation of their account they have no part in', async () => {
      const w = await makeWorld();
      const other = await makeOrganization(w.orgOwner);
      const res = await as(w.tokens.member).post('/api/v1/locations').send({ organization_id: other.id, name: 'Elsewhere' });
      expect(res.status).toBe(404);
      expect(await Location.count({ where: { organizationId: other.id } })).toBe(1);
    });

    it('answers 403 to a team member without create-locations in the organisation', async () => {
      const w = await makeWorld();
      const res = await as(w.tokens.member).post('/api/v1/locations').send({ organization_id: w.org.id, name: 'Not Allowed' });
      expect(res.status).toBe(403);
      expect(res.body.message).toEqual(expect.any(String));
      expect(await Location.count({ where: { organizationId: w.org.id } })).toBe(2);
    });

    it('creates for a team member with create-locations and assigns the new location to them', async () => {
      const w = await makeWorld();
      const member = await makeTeamMember(w.tenant.id, w.org, [w.branch], ['create-locations']);
      const token = await tokenFor(member);
      const res = await as(token).post('/api/v1/locations').send({ organization_id: w.org.id, name: 'Member Made' });
      expect(res.status).toBe(201);
      expect(res.body.data).toMatchObject({ organization_id: w.org.id, name: 'Member Made' });
      expect(await LocationUser.count({ where: { userId: member.id, locationId: res.body.data.id } })).toBe(1);
      expect((await as(token).get(`/api/v1/locations/${res.body.data.id}`)).status).toBe(200);
      expect(ids((await as(token).get('/api/v1/locations')).body)).toEqual([w.branch.id, res.body.data.id]);
      // Nobody else was assigned to it.
      expect(await LocationUser.count({ where: { locationId: res.body.data.id } })).toBe(1);
    });

    it('needs create-locations in that very organisation: a grant in another organisation does not count', async () => {
      const w = await makeWorld();
      const other = await makeOrganization(w.orgOwner);
      const otherLoc = await defaultLocationOf(other);
      // Member of w.org with create-locations there, also assigned a location of `other`.
      const member = await makeTeamMember(w.tenant.id, w.org, [w.branch, otherLoc], ['create-locations']);
      const res = await as(await tokenFor(member)).post('/api/v1/locations').send({ organization_id: other.id, name: 'Cross' });
      expect(res.status).toBe(403);
      expect(await Location.count({ where: { organizationId: other.id } })).toBe(1);
    });

    it('answers 402 upgrade_required when the account is at its location limit, counting every organisation', async () => {
      const { tenant, owner } = await makeTenant();
      const orgOwner = await makeOrgOwner(tenant.id, { locationLimit: 3 });
      const a = await makeOrganization(orgOwner);
      const b = await makeOrganization(orgOwner);
      const token = await tokenFor(orgOwner);

      const third = await as(token).post('/api/v1/locations').send({ organization_id: a.id, name: 'Third' });
      expect(third.status).toBe(201);
      for (const org of [a, b]) {
        const res = await as(token).post('/api/v1/locations').send({ organization_id: org.id, name: 'Fourth' });
        expect(res.status).toBe(402);
        expect(res.body).toEqual({ message: expect.any(String), code: 'upgrade_required' });
      }
      // The limit is the organisation owner's plan, whoever asks.
      const asAgency = await as(await tokenFor(owner)).post('/api/v1/locations').send({ organization_id: a.id, name: 'Fourth' });
      expect(asAgency.status).toBe(402);
      expect(asAgency.body.code).toBe('upgrade_required');
      expect(await Location.count({ where: { customerId: orgOwner.customerId! } })).toBe(3);
    });

    it("applies the plan's location limit", async () => {
      const { tenant } = await makeTenant({ planLocationLimit: 1 });
      const orgOwner = await makeOrgOwner(tenant.id);
      const org = await makeOrganization(orgOwner);
      const res = await as(await tokenFor(orgOwner)).post('/api/v1/locations').send({ organization_id: org.id, name: 'Over' });
      expect(res.status).toBe(402);
      expect(res.body).toEqual({ message: expect.any(String), code: 'upgrade_required' });
    });

    it('treats a location limit of 0 as unlimited', async () => {
      const { tenant } = await makeTenant({ planLocationLimit: 1 });
      const orgOwner = await makeOrgOwner(tenant.id, { locationLimit: 0 });
      const org = await makeOrganization(orgOwner);
      const token = await tokenFor(orgOwner);
      for (let i = 0; i < 4; i++) {
        expect((await as(token).post('/api/v1/locations').send({ organization_id: org.id, name: `L${i}` })).status).toBe(201);
      }
      expect(await Location.count({ where: { organizationId: org.id } })).toBe(5);
    });
  });

  describe('PUT /api/v1/locations/{id}', () => {
    it('renames the location and answers 200 {data: Location}', async () => {
      const w = await makeWorld();
      const res = await as(w.tokens.orgOwner).put(`/api/v1/locations/${w.branch.id}`).send({ name: 'Renamed Branch' });
      expect(res.status).toBe(200);
      expect(Object.keys(res.body)).toEqual(['data']);
      expect(res.body.data).toEqual({
        id: w.branch.id,
        organization_id: w.org.id,
        name: 'Renamed Branch',
        created_at: expect.stringMatching(ISO),
        updated_at: expect.stringMatching(ISO),
      });
      expect((await Location.findByPk(w.branch.id))!.name).toBe('Renamed Branch');
      expect((await as(w.tokens.orgOwner).get(`/api/v1/locations/${w.branch.id}`)).body.data.name).toBe('Renamed Branch');
    });

    it.each([
      ['missing', {}],
      ['blank', { name: ' ' }],
      ['over 255 characters', { name: 'x'.repeat(256) }],
    ])('answers 422 errors.name when the name is %s', async (_label, body) => {
      const w = await makeWorld();
      const res = await as(w.tokens.orgOwner).put(`/api/v1/locations/${w.branch.id}`).send(body);
      expect(res.status).toBe(422);
      expect(res.body).toEqual({ message: expect.any(String), errors: { name: [expect.any(String)] } });
      expect((await Location.findByPk(w.branch.id))!.name).toBe('Branch');
    });

    it('answers 404 for a location of another account or tenant and changes nothing', async () => {
      const w = await makeWorld();
      const neighbour = await defaultLocationOf(await makeOrganization(await makeOrgOwner(w.tenant.id)));
      const foreign = await makeWorld();
      for (const loc of [neighbour, foreign.home]) {
        const res = await as(w.tokens.orgOwner).put(`/api/v1/locations/${loc.id}`).send({ name: 'Hijacked' });
        expect(res.status).toBe(404);
        expect((await Location.findByPk(loc.id))!.name).toBe(loc.name);
      }
    });

    it('answers 403 to a team member without update-locations, 200 with it', async () => {
      const w = await makeWorld();
      const denied = await as(w.tokens.member).put(`/api/v1/locations/${w.branch.id}`).send({ name: 'By Member' });
      expect(denied.status).toBe(403);
      expect((await Location.findByPk(w.branch.id))!.name).toBe('Branch');

      const editor = await makeTeamMember(w.tenant.id, w.org, [w.branch], ['update-locations']);
      const ok = await as(await tokenFor(editor)).put(`/api/v1/locations/${w.branch.id}`).send({ name: 'By Editor' });
      expect(ok.status).toBe(200);
      expect(ok.body.data.name).toBe('By Editor');
    });

    it('answers 403 location_access_denied to a team member for an unassigned location of their account', async () => {
      const w = await makeWorld();
      const editor = await makeTeamMember(w.tenant.id, w.org, [w.branch], ['update-locations']);
      const res = await as(await tokenFor(editor)).put(`/api/v1/locations/${w.home.id}`).send({ name: 'Nope' });
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ message: expect.any(String), code: 'location_access_denied' });
      expect((await Location.findByPk(w.home.id))!.name).toBe('Default Location');
    });
  });

  describe('DELETE /api/v1/locations/{id}', () => {
    it('answers 200 with the message and removes the location with its sources and reviews', async () => {
      const w = await makeWorld();
      const branchReviews = [await makeReview(await testimonialsOf(w.branch)), await makeReview(await syncedSourceOf(w.branch))];
      const homeReview = await makeReview(await testimonialsOf(w.home));

      const res = await as(w.tokens.orgOwner).delete(`/api/v1/locations/${w.branch.id}`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ message: 'Location deleted successfully.' });
      expect(await Location.findByPk(w.branch.id)).toBeNull();
      expect(await Integration.count({ where: { locationId: w.branch.id } })).toBe(0);
      expect(await Review.count({ where: { id: branchReviews.map((r) => r.id) } })).toBe(0);
      expect(await Review.findByPk(homeReview.id)).not.toBeNull();
      expect((await as(w.tokens.orgOwner).get(`/api/v1/locations/${w.branch.id}`)).status).toBe(404);
      expect(ids((await as(w.tokens.orgOwner).get('/api/v1/locations')).body)).toEqual([w.home.id]);
    });

    it('answers 422 last_location for the last location of an organisation and keeps it', async () => {
      const { tenant } = await makeTenant();
      const owner = await makeOrgOwner(tenant.id);
      const org = await makeOrganization(owner);
      await makeOrganization(owner);
      const only = await defaultLocationOf(org);
      const res = await as(await tokenFor(owner)).delete(`/api/v1/locations/${only.id}`);
      expect(res.status).toBe(422);
      expect(res.body).toEqual({ message: expect.any(String), code: 'last_location', errors: {} });
      expect(await Location.findByPk(only.id)).not.toBeNull();
    });

    it("moves the organisation's default_location_id to another location when the default is deleted", async () => {
      const w = await makeWorld();
      expect(w.org.defaultLocationId).toBe(w.home.id);
      const res = await as(w.tokens.orgOwner).delete(`/api/v1/locations/${w.home.id}`);
      expect(res.status).toBe(200);
      expect((await Organization.findByPk(w.org.id))!.defaultLocationId).toBe(w.branch.id);
      const org = await as(w.tokens.orgOwner).get(`/api/v1/organizations/${w.org.id}`);
      expect(org.body.default_location_id).toBe(w.branch.id);
      expect(org.body.locations.map((l: { id: number }) => l.id)).toEqual([w.branch.id]);
    });

    it('keeps default_location_id when another location is deleted', async () => {
      const w = await makeWorld();
      expect((await as(w.tokens.orgOwner).delete(`/api/v1/locations/${w.branch.id}`)).status).toBe(200);
      expect((await Organization.findByPk(w.org.id))!.defaultLocationId).toBe(w.home.id);
    });

    it('moves team members whose dashboard was on the deleted location to another of their locations', async () => {
      const w = await makeWorld();
      const third = await makeLocation(w.org, 'Third');
      // createUser puts the dashboard on the first assigned location.
      const onBranch = await makeTeamMember(w.tenant.id, w.org, [w.branch, third]);
      const onThird = await makeTeamMember(w.tenant.id, w.org, [third, w.branch]);
      expect((await User.findByPk(onBranch.id))!.dashboardLocationId).toBe(w.branch.id);

      const res = await as(w.tokens.orgOwner).delete(`/api/v1/locations/${w.branch.id}`);
      expect(res.status).toBe(200);
      expect((await User.findByPk(onBranch.id))!.dashboardLocationId).toBe(third.id);
      expect((await User.findByPk(onThird.id))!.dashboardLocationId).toBe(third.id);
      const remaining = await User.findAll({ where: { dashboardLocationId: w.branch.id } });
      expect(remaining).toEqual([]);
    });

    it('answers 404 for a location of another account or tenant and deletes nothing', async () => {
      const w = await makeWorld();
      const neighbourOrg = await makeOrganization(await makeOrgOwner(w.tenant.id));
      const neighbour = await makeLocation(neighbourOrg);
      const foreign = await makeWorld();
      for (const loc of [neighbour, foreign.branch]) {
        const res = await as(w.tokens.orgOwner).delete(`/api/v1/locations/${loc.id}`);
        expect(res.status).toBe(404);
        expect(await Location.findByPk(loc.id)).not.toBeNull();
      }
    });

    it('answers 403 to a team member without delete-locations, 200 with it', async () => {
      const w = await makeWorld();
      const third = await makeLocation(w.org, 'Third');
      const denied = await as(w.tokens.member).delete(`/api/v1/locations/${w.branch.id}`);
      expect(denied.status).toBe(403);
      expect(await Location.findByPk(w.branch.id)).not.toBeNull();

      const remover = await makeTeamMember(w.tenant.id, w.org, [w.branch, third], ['delete-locations']);
      const ok = await as(await tokenFor(remover)).delete(`/api/v1/locations/${third.id}`);
      expect(ok.status).toBe(200);
      expect(ok.body).toEqual({ message: 'Location deleted successfully.' });
      expect(await Location.findByPk(third.id)).toBeNull();
    });

    it('answers 403 location_access_denied to a team member for an unassigned location of their account', async () => {
      const w = await makeWorld();
      const remover = await makeTeamMember(w.tenant.id, w.org, [w.branch], ['delete-locations']);
      const res = await as(await tokenFor(remover)).delete(`/api/v1/locations/${w.home.id}`);
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ message: expect.any(String), code: 'location_access_denied' });
      expect(await Location.findByPk(w.home.id)).not.toBeNull();
    });
  });

  describe('token permissions', () => {
    it.each([
      ['GET /locations', 'organizations:read', 'get', () => '/api/v1/locations', undefined, 200],
      ['GET /locations/{id}', 'organizations:read', 'get', (id: number) => `/api/v1/locations/${id}`, undefined, 200],
      ['POST /locations', 'organizations:create', 'post', () => '/api/v1/locations', 'create', 201],
      ['PUT /locations/{id}', 'organizations:update', 'put', (id: number) => `/api/v1/locations/${id}`, 'update', 200],
      ['DELETE /locations/{id}', 'organizations:delete', 'delete', (id: number) => `/api/v1/locations/${id}`, undefined, 200],
    ] as const)('%s answers 403 without %s and changes nothing', async (_label, permission, method, path, body, okStatus) => {
      const w = await makeWorld();
      const payload = body === 'create' ? { organization_id: w.org.id, name: 'Nope' } : body === 'update' ? { name: 'Nope' } : null;
      const send = (token: string) => {
        const req = as(token)[method](path(w.branch.id));
        return payload ? req.send(payload) : req;
      };
      const res = await send(await tokenFor(w.orgOwner, without(permission)));
      expect(res.status).toBe(403);
      expect(res.body.message).toEqual(expect.any(String));
      expect(await Location.count({ where: { organizationId: w.org.id } })).toBe(2);
      expect((await Location.findByPk(w.branch.id))!.name).toBe('Branch');

      expect((await send(await tokenFor(w.orgOwner, [permission]))).status).toBe(okStatus);
    });
  });
});
