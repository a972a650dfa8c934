import { Location, Organization, Review } from '../../../src/models';
import { useApp } from '../../support/app';
import {
  defaultLocationOf,
  makeLocation,
  makeOrganization,
  makeOrgOwner,
  makeReview,
  makeTenant,
  makeTeamMember,
  testimonialsOf,
  tokenFor,
} from '../../support/factories';

/**
 * Visibility of the three kinds of user (spec: Authentication > REST, "Visibility scoping matches the dashboard").
 *
 * Tenant A: account 1 (org1 with home1 and branch1, org1b with home1b), account 2 (org2 with home2);
 * a team member of org1 assigned to branch1 only. Tenant B: one account with orgB (homeB).
 * Every location carries one testimonial review.
 */
async function makeTwoTenants() {
  const a = await makeTenant();
  const owner1 = await makeOrgOwner(a.tenant.id);
  const org1 = await makeOrganization(owner1, 'Scoped One');
  const home1 = await defaultLocationOf(org1);
  const branch1 = await makeLocation(org1, 'Scoped Branch');
  const org1b = await makeOrganization(owner1, 'Scoped One B');
  const home1b = await defaultLocationOf(org1b);
  const owner2 = await makeOrgOwner(a.tenant.id);
  const org2 = await makeOrganization(owner2, 'Scoped Two');
  const home2 = await defaultLocationOf(org2);
  const member = await makeTeamMember(a.tenant.id, org1, [branch1]);

  const b = await makeTenant();
  const ownerB = await makeOrgOwner(b.tenant.id);
  // Same organisation name as in tenant A: names must not leak across tenants through search either.
  const orgB = await makeOrganization(ownerB, 'Scoped One');
  const homeB = await defaultLocationOf(orgB);

  const reviewOn = async (l: Location) => makeReview(await testimonialsOf(l), { author: `Author of ${l.id}` });
  const reviews = {
    home1: await reviewOn(home1),
    branch1: await reviewOn(branch1),
    home1b: await reviewOn(home1b),
    home2: await reviewOn(home2),
    homeB: await reviewOn(homeB),
  };
  return {
    tenantA: a.tenant,
    org1,
    org1b,
    org2,
    orgB,
    home1,
    branch1,
    home1b,
    home2,
    homeB,
    reviews,
    tokens: {
      tenantOwner: await tokenFor(a.owner),
      owner1: await tokenFor(owner1),
      owner2: await tokenFor(owner2),
      member: await tokenFor(member),
      tenantOwnerB: await tokenFor(b.owner),
    },
  };
}

type World = Awaited<ReturnType<typeof makeTwoTenants>>;
const ids = (body: { data: { id: number }[] }) => body.data.map((x) => x.id);
const sorted = (xs: number[]) => [...xs].sort((x, y) => x - y);

describe('visibility scoping', () => {
  const t = useApp();
  const as = t.as;

  let w: World;
  beforeAll(async () => {
    w = await makeTwoTenants();
  });

  describe('a tenant owner token', () => {
    it('lists every organisation of every account in the tenant, with all their locations, and none of another tenant', async () => {
      const res = await as(w.tokens.tenantOwner).get('/api/v1/organizations');
      expect(res.status).toBe(200);
      expect(ids(res.body)).toEqual([w.org1.id, w.org1b.id, w.org2.id]);
      expect(res.body.meta.total).toBe(3);
      expect(res.body.data[0].locations.map((l: { id: number }) => l.id)).toEqual([w.home1.id, w.branch1.id]);
    });

    it('lists every location of the tenant ordered by organisation, and none of another tenant', async () => {
      const res = await as(w.tokens.tenantOwner).get('/api/v1/locations');
      expect(res.status).toBe(200);
      expect(ids(res.body)).toEqual([w.home1.id, w.branch1.id, w.home1b.id, w.home2.id]);
      const search = await as(w.tokens.tenantOwner).get('/api/v1/locations?search=Scoped%20One');
      expect(sorted(ids(search.body))).toEqual(sorted([w.home1.id, w.branch1.id, w.home1b.id]));
      const foreign = await as(w.tokens.tenantOwner).get(`/api/v1/locations?organization_id=${w.orgB.id}`);
      expect(foreign.body.data).toEqual([]);
    });

    it('lists every review of the tenant, and none of another tenant', async () => {
      const res = await as(w.tokens.tenantOwner).get('/api/v1/reviews');
      expect(res.status).toBe(200);
      const { homeB, ...tenantA } = w.reviews;
      expect(sorted(ids(res.body))).toEqual(sorted(Object.values(tenantA).map((r) => r.id)));
      expect(ids(res.body)).not.toContain(homeB.id);
      expect(res.body.meta.total).toBe(4);
    });

    it("reads any account's organisation, location and review in the tenant", async () => {
      const token = w.tokens.tenantOwner;
      expect((await as(token).get(`/api/v1/organizations/${w.org2.id}`)).status).toBe(200);
      expect((await as(token).get(`/api/v1/locations/${w.home2.id}`)).body.data.id).toBe(w.home2.id);
      expect((await as(token).get(`/api/v1/reviews/${w.reviews.home2.id}`)).body.data.id).toBe(w.reviews.home2.id);
    });

    it('answers 404 for the organisation, location and review ids of another tenant', async () => {
      const token = w.tokens.tenantOwner;
      for (const path of [`/api/v1/organizations/${w.orgB.id}`, `/api/v1/locations/${w.homeB.id}`, `/api/v1/reviews/${w.reviews.homeB.id}`]) {
        const res = await as(token).get(path);
        expect([path, res.status]).toEqual([path, 404]);
        expect(res.body).toEqual({ message: expect.any(String) });
      }
    });
  });

  describe('an organisation owner token', () => {
    it('lists only the organisations of their own account', async () => {
      const res = await as(w.tokens.owner1).get('/api/v1/organizations');
      expect(ids(res.body)).toEqual([w.org1.id, w.org1b.id]);
      const res2 = await as(w.tokens.owner2).get('/api/v1/organizations');
      expect(ids(res2.body)).toEqual([w.org2.id]);
    });

    it('lists only the locations of their own account, whatever the filter asks', async () => {
      expect(ids((await as(w.tokens.owner1).get('/api/v1/locations')).body)).toEqual([w.home1.id, w.branch1.id, w.home1b.id]);
      expect((await as(w.tokens.owner1).get(`/api/v1/locations?organization_id=${w.org2.id}`)).body.data).toEqual([]);
      expect(ids((await as(w.tokens.owner2).get('/api/v1/locations?search=Scoped')).body)).toEqual([w.home2.id]);
    });

    it('lists only the reviews of their own account, whatever the filter asks', async () => {
      const res = await as(w.tokens.owner1).get('/api/v1/reviews');
      expect(sorted(ids(res.body))).toEqual(sorted([w.reviews.home1.id, w.reviews.branch1.id, w.reviews.home1b.id]));
      expect((await as(w.tokens.owner1).get(`/api/v1/reviews?organization_id=${w.org2.id}`)).body.data).toEqual([]);
      expect((await as(w.tokens.owner1).get(`/api/v1/reviews?location_id=${w.home2.id}`)).body.data).toEqual([]);
    });

    it('answers 404 for the ids of another account of the tenant and of another tenant', async () => {
      for (const path of [
        `/api/v1/organizations/${w.org2.id}`,
        `/api/v1/locations/${w.home2.id}`,
        `/api/v1/reviews/${w.reviews.home2.id}`,
        `/api/v1/organizations/${w.orgB.id}`,
        `/api/v1/locations/${w.homeB.id}`,
        `/api/v1/reviews/${w.reviews.homeB.id}`,
      ]) {
        const res = await as(w.tokens.owner1).get(path);
        expect([path, res.status]).toEqual([path, 404]);
      }
    });
  });

  describe('a team member token', () => {
    it('lists only organisations holding an assigned location, with only the assigned locations nested', async () => {
      const res = await as(w.tokens.member).get('/api/v1/organizations');
      expect(res.status).toBe(200);
      expect(ids(res.body)).toEqual([w.org1.id]);
      expect(res.body.data[0].locations.map((l: { id: number }) => l.id)).toEqual([w.branch1.id]);
      const one = await as(w.tokens.member).get(`/api/v1/organizations/${w.org1.id}`);
      expect(one.status).toBe(200);
      expect(one.body.locations.map((l: { id: number }) => l.id)).toEqual([w.branch1.id]);
    });

    it('lists only assigned locations, whatever the filter asks', async () => {
      expect(ids((await as(w.tokens.member).get('/api/v1/locations')).body)).toEqual([w.branch1.id]);
      expect(ids((await as(w.tokens.member).get(`/api/v1/locations?organization_id=${w.org1.id}`)).body)).toEqual([w.branch1.id]);
      expect(ids((await as(w.tokens.member).get('/api/v1/locations?search=Scoped%20One')).body)).toEqual([w.branch1.id]);
      expect((await as(w.tokens.member).get(`/api/v1/locations?organization_id=${w.org1b.id}`)).body.data).toEqual([]);
    });

    it('lists only the reviews of assigned locations, whatever the filter asks', async () => {
      const res = await as(w.tokens.member).get('/api/v1/reviews');
      expect(ids(res.body)).toEqual([w.reviews.branch1.id]);
      expect(res.body.meta.total).toBe(1);
      expect((await as(w.tokens.member).get(`/api/v1/reviews?location_id=${w.home1.id}`)).body.data).toEqual([]);
      expect(ids((await as(w.tokens.member).get(`/api/v1/reviews?organization_id=${w.org1.id}`)).body)).toEqual([w.reviews.branch1.id]);
    });

    it('reads an assigned location and its review', async () => {
      expect((await as(w.tokens.member).get(`/api/v1/locations/${w.branch1.id}`)).status).toBe(200);
      expect((await as(w.tokens.member).get(`/api/v1/reviews/${w.reviews.branch1.id}`)).status).toBe(200);
    });

    it('answers 403 location_access_denied for an unassigned location of their own account', async () => {
      for (const loc of [w.home1, w.home1b]) {
        const res = await as(w.tokens.member).get(`/api/v1/locations/${loc.id}`);
        expect(res.status).toBe(403);
        expect(res.body).toEqual({ message: expect.any(String), code: 'location_access_denied' });
      }
    });

    it('answers 404 for a location of another account or another tenant', async () => {
      for (const loc of [w.home2, w.homeB]) {
        const res = await as(w.tokens.member).get(`/api/v1/locations/${loc.id}`);
        expect(res.status).toBe(404);
        expect(res.body).toEqual({ message: expect.any(String) });
      }
    });

    it('answers 404 for reviews of unassigned locations and for organisations without an assigned location', async () => {
      for (const path of [
        `/api/v1/reviews/${w.reviews.home1.id}`,
        `/api/v1/reviews/${w.reviews.home2.id}`,
        `/api/v1/reviews/${w.reviews.homeB.id}`,
        `/api/v1/organizations/${w.org1b.id}`,
        `/api/v1/organizations/${w.org2.id}`,
        `/api/v1/organizations/${w.orgB.id}`,
      ]) {
        const res = await as(w.tokens.member).get(path);
        expect([path, res.status]).toEqual([path, 404]);
      }
    });

    it('cannot change or delete reviews of unassigned locations (404, nothing changes)', async () => {
      const r = w.reviews.home1;
      expect((await as(w.tokens.member).put(`/api/v1/reviews/${r.id}`).send({ author: 'Changed' })).status).toBe(404);
      expect((await as(w.tokens.member).delete(`/api/v1/reviews/${r.id}`)).status).toBe(404);
      expect((await Review.findByPk(r.id))!.author).toBe(r.author);
    });
  });

  describe('ids of another tenant', () => {
    it.each(['tenantOwner', 'owner1', 'member'] as const)('are 404 to PUT and DELETE of a %s token, and nothing changes', async (who) => {
      const token = w.tokens[who];
      const attempts: [string, () => Promise<{ status: number }>][] = [
        ['PUT organization', () => as(token).put(`/api/v1/organizations/${w.orgB.id}`).send({ name: 'Hijacked' })],
        ['DELETE organization', () => as(token).delete(`/api/v1/organizations/${w.orgB.id}`)],
        ['PUT location', () => as(token).put(`/api/v1/locations/${w.homeB.id}`).send({ name: 'Hijacked' })],
        ['DELETE location', () => as(token).delete(`/api/v1/locations/${w.homeB.id}`)],
        ['PUT review', () => as(token).put(`/api/v1/reviews/${w.reviews.homeB.id}`).send({ author: 'Hijacked' })],
        ['DELETE review', () => as(token).delete(`/api/v1/reviews/${w.reviews.homeB.id}`)],
      ];
      for (const [label, attempt] of attempts) {
        const res = await attempt();
        expect([label, res.status]).toEqual([label, 404]);
      }
      expect((await Organization.findByPk(w.orgB.id))!.name).toBe('Scoped One');
      expect((await Location.findByPk(w.homeB.id))!.name).toBe('Default Location');
      expect((await Review.findByPk(w.reviews.homeB.id))!.author).toBe(w.reviews.homeB.author);
    });

    it('cannot be the target of a new location or review', async () => {
      const loc = await as(w.tokens.tenantOwner).post('/api/v1/locations').send({ organization_id: w.orgB.id, name: 'Planted' });
      expect(loc.status).toBe(404);
      const source = await testimonialsOf(w.homeB);
      const review = await as(w.tokens.tenantOwner)
        .post('/api/v1/reviews')
        .send({ author: 'Planted', rating: 5, published_on: '2026-01-01', organization_id: w.orgB.id, location_id: w.homeB.id, source: source.id });
      expect(review.status).toBe(404);
      expect(await Location.count({ where: { name: 'Planted' } })).toBe(0);
      expect(await Review.count({ where: { author: 'Planted' } })).toBe(0);
    });

    it('are equally invisible from the other side: tenant B sees none of tenant A', async () => {
      const token = w.tokens.tenantOwnerB;
      expect(ids((await as(token).get('/api/v1/organizations')).body)).toEqual([w.orgB.id]);
      expect(ids((await as(token).get('/api/v1/locations')).body)).toEqual([w.homeB.id]);
      expect(ids((await as(token).get('/api/v1/reviews')).body)).toEqual([w.reviews.homeB.id]);
      expect((await as(token).get(`/api/v1/organizations/${w.org1.id}`)).status).toBe(404);
      expect((await as(token).get(`/api/v1/locations/${w.home1.id}`)).status).toBe(404);
      expect((await as(token).get(`/api/v1/reviews/${w.reviews.home1.id}`)).status).toBe(404);
    });
  });

  describe('ids of another account in the same tenant', () => {
    it('are 404 to PUT and DELETE of an organisation owner, and nothing changes', async () => {
      const token = w.tokens.owner2;
      expect((await as(token).put(`/api/v1/organizations/${w.org1.id}`).send({ name: 'Hijacked' })).status).toBe(404);
      expect((await as(token).delete(`/api/v1/organizations/${w.org1b.id}`)).status).toBe(404);
      expect((await as(token).put(`/api/v1/locations/${w.branch1.id}`).send({ name: 'Hijacked' })).status).toBe(404);
      expect((await as(token).delete(`/api/v1/locations/${w.branch1.id}`)).status).toBe(404);
      expect((await as(token).put(`/api/v1/reviews/${w.reviews.home1.id}`).send({ author: 'Hijacked' })).status).toBe(404);
      expect((await as(token).delete(`/api/v1/reviews/${w.reviews.home1.id}`)).status).toBe(404);
      expect((await Organization.findByPk(w.org1.id))!.name).toBe('Scoped One');
      expect(await Organization.findByPk(w.org1b.id)).not.toBeNull();
      expect((await Location.findByPk(w.branch1.id))!.name).toBe('Scoped Branch');
      expect((await Review.findByPk(w.reviews.home1.id))!.author).toBe(w.reviews.home1.author);
    });

    it("are 403 location_access_denied to a team member's PUT and DELETE of an unassigned location of their account", async () => {
      const editor = await tokenFor(
        await makeTeamMember(w.tenantA.id, w.org1, [w.branch1], ['update-locations', 'delete-locations']),
      );
      const put = await as(editor).put(`/api/v1/locations/${w.home1.id}`).send({ name: 'Hijacked' });
      expect(put.status).toBe(403);
      expect(put.body.code).toBe('location_access_denied');
      const del = await as(editor).delete(`/api/v1/locations/${w.home1.id}`);
      expect(del.status).toBe(403);
      expect(del.body.code).toBe('location_access_denied');
      expect((await Location.findByPk(w.home1.id))!.name).toBe('Default Location');
      // And of another account: 404.
      expect((await as(editor).put(`/api/v1/locations/${w.home2.id}`).send({ name: 'Hijacked' })).status).toBe(404);
      expect((await as(editor).delete(`/api/v1/locations/${w.home2.id}`)).status).toBe(404);
      expect((await Location.findByPk(w.home2.id))!.name).toBe('Default Location');
    });
  });
});
