import { Integration, Location, Organization, Review } from '../../../src/models';
import { useApp } from '../../support/app';
import { defaultLocationOf, makeLocation, makeOrganization, makeOrgOwner, makeReview, makeTenant, makeTeamMember, makeWorld, testimonialsOf, tokenFor, without } from '../../support/factories';

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{3})?Z$/;
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');

const iso = (d: Date) => d.toISOString();
const locationJson = (l: Location) => ({
  id: l.id,
  organization_id: l.organizationId,
  name: l.name,
  created_at: iso(l.createdAt),
  updated_at: iso(l.updatedAt),
});

/** The Organisation resource as the spec states it, built from the database rows. */
async function organizationJson(org: Organization) {
  const fresh = (await Organization.findByPk(org.id))!;
  const locations = await Location.findAll({ where: { organizationId: org.id }, order: [['id', 'ASC']] });
  return {
    id: fresh.id,
    name: fresh.name,
    default_location_id: fresh.defaultLocationId,
    logo: null,
    locations: locations.map(locationJson),
    created_at: iso(fresh.createdAt),
    updated_at: iso(fresh.updatedAt),
  };
}

describe('organisations', () => {
  const t = useApp();
  const as = t.as;

  describe('GET /api/v1/organizations', () => {
    it("answers the pagination envelope of the account's organisations ordered by id, each with its locations", async () => {
      const { tenant } = await makeTenant();
      const owner = await makeOrgOwner(tenant.id);
      const first = await makeOrganization(owner, 'Zeta Bakery');
      const second = await makeOrganization(owner, 'Alpha Cafe');
      await makeLocation(first, 'Zeta Branch');
      const token = await tokenFor(owner);

      const res = await as(token).get('/api/v1/organizations');
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual([await organizationJson(first), await organizationJson(second)]);
      expect(res.body.data[0].locations.map((l: { name: string }) => l.name)).toEqual(['Default Location', 'Zeta Branch']);
      expect(res.body.meta).toEqual({ current_page: 1, from: 1, last_page: 1, per_page: 10, to: 2, total: 2 });
      expect(res.body.links).toEqual({
        first: expect.stringMatching(/\/api\/v1\/organizations\?page=1$/),
        last: expect.stringMatching(/\/api\/v1\/organizations\?page=1$/),
        prev: null,
        next: null,
      });
    });

    it('pages by 10 by default and follows the page parameter', async () => {
      const { tenant } = await makeTenant();
      const owner = await makeOrgOwner(tenant.id);
      const orgs: Organization[] = [];
      for (let i = 0; i < 11; i++) orgs.push(await makeOrganization(owner, `Org ${String(i).padStart(2, '0')}`));
      const token = await tokenFor(owner);

      const one = await as(token).get('/api/v1/organizations');
      expect(one.status).toBe(200);
      expect(one.body.data.map((o: { id: number }) => o.id)).toEqual(orgs.slice(0, 10).map((o) => o.id));
      expect(one.body.meta).toEqual({ current_page: 1, from: 1, last_page: 2, per_page: 10, to: 10, total: 11 });
      expect(one.body.links.next).toMatch(/page=2$/);

      const two = await as(token).get('/api/v1/organizations?page=2');
      expect(two.status).toBe(200);
      expect(two.body.data.map((o: { id: number }) => o.id)).toEqual([orgs[10].id]);
      expect(two.body.meta).toMatchObject({ current_page: 2, from: 11, to: 11, total: 11 });
      expect(two.body.links.prev).toMatch(/page=1$/);
      expect(two.body.links.next).toBeNull();
    });

    it('answers 401 without a token', async () => {
      const res = await t.http().get('/api/v1/organizations');
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ message: 'Unauthenticated.' });
    });
  });

  describe('POST /api/v1/organizations', () => {
    it('answers 201 with the organisation unwrapped, including its auto-created Default Location', async () => {
      const { tenant } = await makeTenant();
      const owner = await makeOrgOwner(tenant.id);
      const res = await as(await tokenFor(owner)).post('/api/v1/organizations').send({ name: 'Harbour Dental' });

      expect(res.status).toBe(201);
      expect(Object.keys(res.body).sort()).toEqual(
        ['created_at', 'default_location_id', 'id', 'locations', 'logo', 'name', 'updated_at'].sort(),
      );
      expect(res.body).toEqual({
        id: expect.any(Number),
        name: 'Harbour Dental',
        default_location_id: expect.any(Number),
        logo: null,
        locations: [
          {
            id: res.body.default_location_id,
            organization_id: res.body.id,
            name: 'Default Location',
            created_at: expect.stringMatching(ISO),
            updated_at: expect.stringMatching(ISO),
          },
        ],
        created_at: expect.stringMatching(ISO),
        updated_at: expect.stringMatching(ISO),
      });

      const org = await Organization.findByPk(res.body.id);
      expect(org).not.toBeNull();
      expect(org!.customerId).toBe(owner.customerId);
      expect(org!.tenantId).toBe(tenant.id);
      expect(org!.defaultLocationId).toBe(res.body.default_location_id);
      expect(res.body).toEqual(await organizationJson(org!));
    });

    it('gives the Default Location a testimonials writable source', async () => {
      const { tenant } = await makeTenant();
      const owner = await makeOrgOwner(tenant.id);
      const res = await as(await tokenFor(owner)).post('/api/v1/organizations').send({ name: 'With Sources' });
      expect(res.status).toBe(201);
      const sources = await Integration.findAll({ where: { locationId: res.body.default_location_id } });
      expect(sources.map((s) => s.type)).toEqual(['testimonials']);
    });

    it("creates a tenant owner's organisation in the tenant owner's own account", async () => {
      const { owner } = await makeTenant();
      const res = await as(await tokenFor(owner)).post('/api/v1/organizations').send({ name: 'Agency Own' });
      expect(res.status).toBe(201);
      expect((await Organization.findByPk(res.body.id))!.customerId).toBe(owner.customerId);
    });

    it('answers 422 with errors.name when the name is taken in the account', async () => {
      const { tenant } = await makeTenant();
      const owner = await makeOrgOwner(tenant.id);
      await makeOrganization(owner, 'Taken Name');
      const res = await as(await tokenFor(owner)).post('/api/v1/organizations').send({ name: 'Taken Name' });
      expect(res.status).toBe(422);
      expect(res.body).toEqual({ message: expect.any(String), errors: { name: [expect.any(String)] } });
      expect(await Organization.count({ where: { customerId: owner.customerId! } })).toBe(1);
    });

    it('tells names apart by their accents and emoji, not by letter case', async () => {
      const { tenant } = await makeTenant();
      const owner = await makeOrgOwner(tenant.id);
      const token = await tokenFor(owner);
      for (const name of ['Pizza \u{1F355}', 'Pizza \u{1F600}', 'Caf\u00e9', 'Cafe']) {
        const res = await as(token).post('/api/v1/organizations').send({ name });
        expect([name, res.status]).toEqual([name, 201]);
      }
      for (const name of ['PIZZA \u{1F355}', 'CAF\u00c9', 'cafe']) {
        const res = await as(token).post('/api/v1/organizations').send({ name });
        expect([name, res.status, res.body.errors]).toEqual([name, 422, { name: ['The name has already been taken.'] }]);
      }
      expect(await Organization.count({ where: { customerId: owner.customerId! } })).toBe(4);
    });

    it('allows the same name in another account of the tenant and in another tenant', async () => {
      const { tenant } = await makeTenant();
      const first = await makeOrgOwner(tenant.id);
      await makeOrganization(first, 'Shared Name');
      const second = await makeOrgOwner(tenant.id);
      const res = await as(await tokenFor(second)).post('/api/v1/organizations').send({ name: 'Shared Name' });
      expect(res.status).toBe(201);
      expect(res.body.name).toBe('Shared Name');

      const other = await makeTenant();
      const third = await makeOrgOwner(other.tenant.id);
      const res2 = await as(await tokenFor(third)).post('/api/v1/organizations').send({ name: 'Shared Name' });
      expect(res2.status).toBe(201);
    });

    it('accepts a name of 255 characters and answers 422 errors.name for 256', async () => {
      const { tenant } = await makeTenant();
      const owner = await makeOrgOwner(tenant.id);
      const token = await tokenFor(owner);
      const ok = await as(token).post('/api/v1/organizations').send({ name: 'a'.repeat(255) });
      expect(ok.status).toBe(201);
      expect(ok.body.name).toBe('a'.repeat(255));

      const res = await as(token).post('/api/v1/organizations').send({ name: 'b'.repeat(256) });
      expect(res.status).toBe(422);
      expect(res.body).toEqual({ message: expect.any(String), errors: { name: [expect.any(String)] } });
      expect(await Organization.count({ where: { customerId: owner.customerId! } })).toBe(1);
    });

    it.each([
      ['missing', {}],
      ['empty', { name: '' }],
      ['blank', { name: '   ' }],
      ['not a string', { name: 42 }],
    ])('answers 422 errors.name when the name is %s', async (_label, body) => {
      const { tenant } = await makeTenant();
      const owner = await makeOrgOwner(tenant.id);
      const res = await as(await tokenFor(owner)).post('/api/v1/organizations').send(body);
      expect(res.status).toBe(422);
      expect(res.body).toEqual({ message: expect.any(String), errors: { name: [expect.any(String)] } });
      expect(await Organization.count({ where: { customerId: owner.customerId! } })).toBe(0);
    });

    it('accepts a png logo as multipart and answers its URL', async () => {
      const { tenant } = await makeTenant();
      const owner = await makeOrgOwner(tenant.id);
      const res = await as(await tokenFor(owner)).post('/api/v1/organizations').field('name', 'Logo Co').attach('logo', PNG, 'logo.png');
      expect(res.status).toBe(201);
      expect(res.body.name).toBe('Logo Co');
      expect(res.body.logo).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/files\/[0-9a-f-]{36}$/);
      const file = await t.http().get(new URL(res.body.logo).pathname);
      expect(file.status).toBe(200);
      expect(file.headers['content-type']).toMatch(/image\/png/);
    });

    it('answers 422 errors.logo for a logo that is not png, jpg, jpeg or svg, or is over 250 KB', async () => {
      const { tenant } = await makeTenant();
      const owner = await makeOrgOwner(tenant.id);
      const token = await tokenFor(owner);
      const gif = await as(token).post('/api/v1/organizations').field('name', 'Gif Co').attach('logo', Buffer.from('GIF89a'), 'logo.gif');
      expect(gif.status).toBe(422);
      expect(gif.body.errors).toEqual({ logo: [expect.any(String)] });

      const big = Buffer.concat([PNG, Buffer.alloc(250 * 1024)]);
      const large = await as(token).post('/api/v1/organizations').field('name', 'Big Co').attach('logo', big, 'logo.png');
      expect(large.status).toBe(422);
      expect(large.body.errors).toEqual({ logo: [expect.any(String)] });
      expect(await Organization.count({ where: { customerId: owner.customerId! } })).toBe(0);
    });

    it('counts the Default Location against the plan location limit: 402 upgrade_required', async () => {
      const { tenant } = await makeTenant();
      const owner = await makeOrgOwner(tenant.id, { locationLimit: 2 });
      const org = await makeOrganization(owner);
      await makeLocation(org);
      const res = await as(await tokenFor(owner)).post('/api/v1/organizations').send({ name: 'One Too Many' });
      expect(res.status).toBe(402);
      expect(res.body).toEqual({ message: expect.any(String), code: 'upgrade_required' });
      expect(await Organization.count({ where: { customerId: owner.customerId! } })).toBe(1);
      expect(await Location.count({ where: { customerId: owner.customerId! } })).toBe(2);
    });

    it('creates while the plan still has room and treats a limit of 0 as unlimited', async () => {
      const { tenant } = await makeTenant({ planLocationLimit: 2 });
      const limited = await makeOrgOwner(tenant.id);
      await makeOrganization(limited);
      const token = await tokenFor(limited);
      expect((await as(token).post('/api/v1/organizations').send({ name: 'Second' })).status).toBe(201);
      expect((await as(token).post('/api/v1/organizations').send({ name: 'Third' })).status).toBe(402);

      const unlimited = await makeOrgOwner(tenant.id, { locationLimit: 0 });
      const t2 = await tokenFor(unlimited);
      for (const name of ['U1', 'U2', 'U3']) expect((await as(t2).post('/api/v1/organizations').send({ name })).status).toBe(201);
    });

    it('answers 403 to a team member, even one with every permission', async () => {
      const { tenant } = await makeTenant();
      const owner = await makeOrgOwner(tenant.id);
      const org = await makeOrganization(owner);
      const member = await makeTeamMember(tenant.id, org, [await defaultLocationOf(org)], [
        'create-locations',
        'update-locations',
        'delete-locations',
      ]);
      const res = await as(await tokenFor(member)).post('/api/v1/organizations').send({ name: 'Member Org' });
      expect(res.status).toBe(403);
      expect(res.body.message).toEqual(expect.any(String));
      expect(await Organization.count({ where: { customerId: owner.customerId! } })).toBe(1);
    });
  });

  describe('GET /api/v1/organizations/{id}', () => {
    it('answers 200 with the organisation unwrapped, in the same shape as the list', async () => {
      const w = await makeWorld();
      const res = await as(w.tokens.orgOwner).get(`/api/v1/organizations/${w.org.id}`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual(await organizationJson(w.org));
      expect(res.body.locations.map((l: { id: number }) => l.id)).toEqual([w.home.id, w.branch.id]);
      const list = await as(w.tokens.orgOwner).get('/api/v1/organizations');
      expect(list.body.data).toEqual([res.body]);
    });

    it('answers 200 to the tenant owner for an organisation of any account in the tenant', async () => {
      const w = await makeWorld();
      const res = await as(w.tokens.owner).get(`/api/v1/organizations/${w.org.id}`);
      expect(res.status).toBe(200);
      expect(res.body.id).toBe(w.org.id);
    });

    it('answers 404 for an organisation of another account, of another tenant, unknown or non-numeric', async () => {
      const w = await makeWorld();
      const neighbour = await makeOrganization(await makeOrgOwner(w.tenant.id));
      const foreign = await makeWorld();
      for (const id of [neighbour.id, foreign.org.id, 999999999, 'abc', '1.5', '-1']) {
        const res = await as(w.tokens.orgOwner).get(`/api/v1/organizations/${id}`);
        expect([id, res.status]).toEqual([id, 404]);
        expect(res.body).toEqual({ message: expect.any(String) });
      }
      const res = await as(w.tokens.owner).get(`/api/v1/organizations/${foreign.org.id}`);
      expect(res.status).toBe(404);
    });
  });

  describe('PUT /api/v1/organizations/{id}', () => {
    it('renames the organisation and answers 200 with it unwrapped, in the same shape as GET', async () => {
      const w = await makeWorld();
      const res = await as(w.tokens.orgOwner).put(`/api/v1/organizations/${w.org.id}`).send({ name: 'Renamed Org' });
      expect(res.status).toBe(200);
      expect((await Organization.findByPk(w.org.id))!.name).toBe('Renamed Org');
      const get = await as(w.tokens.orgOwner).get(`/api/v1/organizations/${w.org.id}`);
      expect(res.body).toEqual(get.body);
      expect(res.body).toEqual(await organizationJson(w.org));
      expect(res.body.name).toBe('Renamed Org');
    });

    it('accepts its own current name and a name used in another account', async () => {
      const w = await makeWorld();
      const elsewhere = await makeOrganization(await makeOrgOwner(w.tenant.id), 'Used Elsewhere');
      const same = await as(w.tokens.orgOwner).put(`/api/v1/organizations/${w.org.id}`).send({ name: w.org.name });
      expect(same.status).toBe(200);
      const res = await as(w.tokens.orgOwner).put(`/api/v1/organizations/${w.org.id}`).send({ name: elsewhere.name });
      expect(res.status).toBe(200);
      expect(res.body.name).toBe('Used Elsewhere');
    });

    it('answers 422 errors.name for a name taken in the account or longer than 255', async () => {
      const w = await makeWorld();
      const sibling = await makeOrganization(w.orgOwner, 'Sibling');
      const taken = await as(w.tokens.orgOwner).put(`/api/v1/organizations/${w.org.id}`).send({ name: sibling.name });
      expect(taken.status).toBe(422);
      expect(taken.body).toEqual({ message: expect.any(String), errors: { name: [expect.any(String)] } });

      const long = await as(w.tokens.orgOwner).put(`/api/v1/organizations/${w.org.id}`).send({ name: 'x'.repeat(256) });
      expect(long.status).toBe(422);
      expect(long.body).toEqual({ message: expect.any(String), errors: { name: [expect.any(String)] } });
      expect((await Organization.findByPk(w.org.id))!.name).toBe(w.org.name);
    });

    it('replaces the logo', async () => {
      const w = await makeWorld();
      const res = await as(w.tokens.orgOwner).put(`/api/v1/organizations/${w.org.id}`).attach('logo', PNG, 'new.png');
      expect(res.status).toBe(200);
      expect(res.body.name).toBe(w.org.name);
      expect(res.body.logo).toMatch(/\/files\/[0-9a-f-]{36}$/);
    });

    it('answers 404 for an organisation of another account or tenant and changes nothing', async () => {
      const w = await makeWorld();
      const neighbour = await makeOrganization(await makeOrgOwner(w.tenant.id));
      const foreign = await makeWorld();
      for (const org of [neighbour, foreign.org]) {
        const res = await as(w.tokens.orgOwner).put(`/api/v1/organizations/${org.id}`).send({ name: 'Hijacked' });
        expect(res.status).toBe(404);
        expect((await Organization.findByPk(org.id))!.name).toBe(org.name);
      }
    });

    it('answers 403 to a team member and changes nothing', async () => {
      const w = await makeWorld();
      const res = await as(w.tokens.member).put(`/api/v1/organizations/${w.org.id}`).send({ name: 'By Member' });
      expect(res.status).toBe(403);
      expect((await Organization.findByPk(w.org.id))!.name).toBe(w.org.name);
    });
  });

  describe('DELETE /api/v1/organizations/{id}', () => {
    it('answers 200 with the message and removes the organisation with its locations, sources and reviews', async () => {
      const w = await makeWorld();
      const keep = await makeOrganization(w.orgOwner);
      const keptReview = await makeReview(await testimonialsOf(await defaultLocationOf(keep)));
      const gone = [await makeReview(await testimonialsOf(w.home)), await makeReview(await testimonialsOf(w.branch))];

      const res = await as(w.tokens.orgOwner).delete(`/api/v1/organizations/${w.org.id}`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ message: 'Organization deleted successfully.' });

      expect(await Organization.findByPk(w.org.id)).toBeNull();
      expect(await Location.count({ where: { organizationId: w.org.id } })).toBe(0);
      expect(await Integration.count({ where: { organizationId: w.org.id } })).toBe(0);
      expect(await Review.count({ where: { id: gone.map((r) => r.id) } })).toBe(0);
      expect(await Review.findByPk(keptReview.id)).not.toBeNull();
      expect((await as(w.tokens.orgOwner).get(`/api/v1/organizations/${w.org.id}`)).status).toBe(404);
      expect((await as(w.tokens.orgOwner).get(`/api/v1/locations/${w.home.id}`)).status).toBe(404);
      expect((await as(w.tokens.orgOwner).get(`/api/v1/reviews/${gone[0].id}`)).status).toBe(404);
    });

    it("answers 422 last_organization for the account's last organisation and keeps it", async () => {
      const w = await makeWorld();
      const res = await as(w.tokens.orgOwner).delete(`/api/v1/organizations/${w.org.id}`);
      expect(res.status).toBe(422);
      expect(res.body).toEqual({ message: expect.any(String), code: 'last_organization', errors: {} });
      expect(await Organization.findByPk(w.org.id)).not.toBeNull();
      expect(await Location.count({ where: { organizationId: w.org.id } })).toBe(2);
    });

    it("counts only the organisation's own account: another account's organisations do not make it deletable", async () => {
      const w = await makeWorld();
      await makeOrganization(await makeOrgOwner(w.tenant.id));
      const res = await as(w.tokens.owner).delete(`/api/v1/organizations/${w.org.id}`);
      expect(res.status).toBe(422);
      expect(res.body.code).toBe('last_organization');
    });

    it("lets the tenant owner delete an organisation of a customer's account", async () => {
      const w = await makeWorld();
      const second = await makeOrganization(w.orgOwner);
      const res = await as(w.tokens.owner).delete(`/api/v1/organizations/${second.id}`);
      expect(res.status).toBe(200);
      expect(await Organization.findByPk(second.id)).toBeNull();
    });

    it('answers 404 for an organisation of another account or tenant and deletes nothing', async () => {
      const w = await makeWorld();
      await makeOrganization(w.orgOwner);
      const neighbourOwner = await makeOrgOwner(w.tenant.id);
      const neighbour = await makeOrganization(neighbourOwner);
      await makeOrganization(neighbourOwner);
      const foreign = await makeWorld();
      await makeOrganization(foreign.orgOwner);
      for (const org of [neighbour, foreign.org]) {
        const res = await as(w.tokens.orgOwner).delete(`/api/v1/organizations/${org.id}`);
        expect(res.status).toBe(404);
        expect(await Organization.findByPk(org.id)).not.toBeNull();
      }
    });

    it('answers 403 to a team member and deletes nothing', async () => {
      const w = await makeWorld();
      await makeOrganization(w.orgOwner);
      const res = await as(w.tokens.member).delete(`/api/v1/organizations/${w.org.id}`);
      expect(res.status).toBe(403);
      expect(await Organization.findByPk(w.org.id)).not.toBeNull();
    });
  });

  describe('token permissions', () => {
    it.each([
      ['GET /organizations', 'organizations:read', 'get', () => '/api/v1/organizations', undefined],
      ['GET /organizations/{id}', 'organizations:read', 'get', (id: number) => `/api/v1/organizations/${id}`, undefined],
      ['POST /organizations', 'organizations:create', 'post', () => '/api/v1/organizations', { name: 'Nope' }],
      ['PUT /organizations/{id}', 'organizations:update', 'put', (id: number) => `/api/v1/organizations/${id}`, { name: 'Nope' }],
      ['DELETE /organizations/{id}', 'organizations:delete', 'delete', (id: number) => `/api/v1/organizations/${id}`, undefined],
    ] as const)('%s answers 403 without %s and changes nothing', async (_label, permission, method, path, body) => {
      const w = await makeWorld();
      await makeOrganization(w.orgOwner, 'Spare');
      const before = await Organization.count({ where: { customerId: w.orgOwner.customerId! } });
      const token = await tokenFor(w.orgOwner, without(permission));
      const req = as(token)[method](path(w.org.id));
      const res = await (body ? req.send(body) : req);
      expect(res.status).toBe(403);
      expect(res.body.message).toEqual(expect.any(String));
      expect(await Organization.count({ where: { customerId: w.orgOwner.customerId! } })).toBe(before);
      expect((await Organization.findByPk(w.org.id))!.name).toBe(w.org.name);

      const allowed = await tokenFor(w.orgOwner, [permission]);
      const ok = as(allowed)[method](path(w.org.id));
      expect((await (body ? ok.send(body) : ok)).status).toBe(method === 'post' ? 201 : 200);
    });
  });
});
