import { ApiToken, Customer, LocationUser, OrganizationMember, User } from '../../src/models';
import { useApp } from '../support/app';
import { agencyTokenFor, defaultLocationOf, makeLocation, makeOrganization, makeTeamMember, makeWorld, tokenFor } from '../support/factories';

/**
 * Who may manage API tokens and team members through the settings (`/graphql`), and what the team mutations leave
 * behind. Every assertion reads rows of this test's own worlds: the worker's database is shared with other files.
 */
describe('GraphQL account settings: token management permissions and team membership', () => {
  const t = useApp();
  const gql = (token: string, query: string, variables: Record<string, unknown> = {}) =>
    t.http().post('/graphql').set('Authorization', `Bearer ${token}`).set('Content-Type', 'application/json').send({ query, variables });
  const denied = async (token: string, query: string) => {
    const res = await gql(token, query);
    expect([query, res.body.errors?.[0]?.extensions]).toEqual([query, expect.objectContaining({ code: 'FORBIDDEN', reason: 'missing_permission' })]);
  };
  const create = (name: string, permissions: string[] = ['reviews:read'], kind = 'customer') =>
    `mutation { createApiToken(input: { name: "${name}", kind: "${kind}", permissions: ${JSON.stringify(permissions)} }) { plainText token { id kind } } }`;

  describe('API tokens', () => {
    it('a read-only token (a widget\'s, say) can neither list, issue nor revoke its user\'s tokens', async () => {
      const w = await makeWorld();
      const full = (await ApiToken.findOne({ where: { userId: w.orgOwner.id } }))!;
      const widget = await tokenFor(w.orgOwner, ['reviews:read']);
      const before = await ApiToken.count({ where: { userId: w.orgOwner.id } });

      await denied(widget, '{ apiTokens { id } }');
      await denied(widget, create('sibling'));
      await denied(widget, `mutation { revokeApiToken(id: ${full.id}) { revokedAt } }`);

      expect(await ApiToken.count({ where: { userId: w.orgOwner.id } })).toBe(before);
      expect((await full.reload()).revokedAt).toBeNull();
      // The owner's full token still works.
      expect((await t.http().get('/api/v1/reviews').set('Authorization', `Bearer ${w.tokens.orgOwner}`)).status).toBe(200);
    });

    it('organizations:read lists them; changing them asks organizations:update as well, like the other settings', async () => {
      const w = await makeWorld();
      const reader = await tokenFor(w.orgOwner, ['organizations:read', 'reviews:read']);
      const listed = await gql(reader, '{ apiTokens { id } }');
      expect(listed.body.errors).toBeUndefined();
      expect(listed.body.data.apiTokens.length).toBeGreaterThan(0);
      await denied(reader, create('x'));
      const victim = (await ApiToken.findOne({ where: { userId: w.orgOwner.id } }))!;
      await denied(reader, `mutation { revokeApiToken(id: ${victim.id}) { revokedAt } }`);
      const updateOnly = await tokenFor(w.orgOwner, ['organizations:update', 'reviews:read']);
      await denied(updateOnly, create('x'));

      const manager = await tokenFor(w.orgOwner, ['organizations:read', 'organizations:update', 'reviews:read']);
      const created = await gql(manager, create('zapier'));
      expect(created.body.errors).toBeUndefined();
      const id = created.body.data.createApiToken.token.id as number;
      const revoked = await gql(manager, `mutation { revokeApiToken(id: ${id}) { revokedAt } }`);
      expect(revoked.body.data.revokeApiToken.revokedAt).not.toBeNull();
    });

    it('agency tokens (no permissions) still manage their own tokens, as they do the other settings', async () => {
      const w = await makeWorld();
      const agency = await agencyTokenFor(w.owner);
      expect((await gql(agency, '{ apiTokens { id kind } }')).body.errors).toBeUndefined();
      const created = await gql(agency, create('second agency token', [], 'agency'));
      expect(created.body.errors).toBeUndefined();
      expect(created.body.data.createApiToken.token.kind).toBe('agency');
      const revoked = await gql(agency, `mutation { revokeApiToken(id: ${created.body.data.createApiToken.token.id}) { revokedAt } }`);
      expect(revoked.body.data.revokeApiToken.revokedAt).not.toBeNull();
    });

    it('a paused account can still revoke a token (with the permissions), not issue one', async () => {
      const w = await makeWorld();
      const manager = await tokenFor(w.orgOwner, ['organizations:read', 'organizations:update', 'reviews:read']);
      const leaked = (await ApiToken.findOne({ where: { userId: w.orgOwner.id } }))!;
      await Customer.update({ subscriptionStatus: 'paused' }, { where: { id: w.orgOwner.customerId! } });
      const revoked = await gql(manager, `mutation { revokeApiToken(id: ${leaked.id}) { revokedAt } }`);
      expect(revoked.body.errors).toBeUndefined();
      expect(revoked.body.data.revokeApiToken.revokedAt).not.toBeNull();
      const issued = await gql(manager, create('while paused'));
      expect(issued.body.errors[0].extensions).toMatchObject({ reason: 'subscription_paused' });
      // A read-only token of a paused account gets the permission error first, as everywhere (403 before 402).
      await denied(await tokenFor(w.orgOwner, ['reviews:read']), `mutation { revokeApiToken(id: ${leaked.id}) { revokedAt } }`);
    });
  });

  describe('team members', () => {
    const add = (orgId: number, email: string, locationIds: number[]) =>
      `mutation { addTeamMember(input: { organizationId: ${orgId}, email: "${email}", name: "New", locationIds: ${JSON.stringify(locationIds)}, permissions: [] }) { id } }`;
    const setAccess = (userId: number, orgId: number, locationIds: number[], permissions: string[] = []) =>
      `mutation { setTeamMemberAccess(input: { userId: ${userId}, organizationId: ${orgId}, locationIds: ${JSON.stringify(locationIds)}, permissions: ${JSON.stringify(permissions)} }) { id } }`;
    const email = () => `member-${Math.random().toString(36).slice(2, 10)}@access.test`;

    it("addTeamMember refuses a location of another organisation of the same account", async () => {
      const w = await makeWorld();
      const orgB = await makeOrganization(w.orgOwner);
      const bHome = await defaultLocationOf(orgB);
      const address = email();
      const res = await gql(w.tokens.orgOwner, add(w.org.id, address, [w.home.id, bHome.id]));
      expect(res.body.errors?.[0]?.extensions).toMatchObject({ code: 'VALIDATION', fields: { location_ids: ['Every location must belong to the organization.'] } });
      expect(await User.count({ where: { tenantId: w.tenant.id, email: address } })).toBe(0);
      // The organisation's own locations are fine.
      const ok = await gql(w.tokens.orgOwner, add(w.org.id, email(), [w.home.id, w.branch.id]));
      expect(ok.body.errors).toBeUndefined();
    });

    it('setTeamMemberAccess with no locations and no permissions removes the member from that organisation only', async () => {
      const w = await makeWorld();
      const orgB = await makeOrganization(w.orgOwner);
      const bHome = await defaultLocationOf(orgB);
      const member = await makeTeamMember(w.tenant.id, w.org, [w.branch], ['create-locations']);
      const inB = await gql(w.tokens.orgOwner, setAccess(member.id, orgB.id, [bHome.id]));
      expect(inB.body.errors).toBeUndefined();
      expect(await OrganizationMember.count({ where: { userId: member.id } })).toBe(2);

      const removed = await gql(w.tokens.orgOwner, setAccess(member.id, w.org.id, []));
      expect(removed.body.errors).toBeUndefined();
      expect(await OrganizationMember.findAll({ where: { userId: member.id }, attributes: ['organizationId'], raw: true })).toEqual([{ organizationId: orgB.id }]);
      expect(await LocationUser.findAll({ where: { userId: member.id }, attributes: ['locationId'], raw: true })).toEqual([{ locationId: bHome.id }]);
      const visible = (await t.http().get('/api/v1/locations').set('Authorization', `Bearer ${await tokenFor(member)}`)).body.data.map((l: { id: number }) => l.id);
      expect(visible).toEqual([bHome.id]);

      // Giving access again makes them a member again; permissions alone are a membership too.
      const back = await gql(w.tokens.orgOwner, setAccess(member.id, w.org.id, [], ['create-locations']));
      expect(back.body.errors).toBeUndefined();
      expect(await OrganizationMember.count({ where: { userId: member.id, organizationId: w.org.id } })).toBe(1);
    });

    it('concurrent setTeamMemberAccess calls for one member run one after the other: no deadlock, one consistent result', async () => {
      const w = await makeWorld();
      const more = [await makeLocation(w.org, 'Third'), await makeLocation(w.org, 'Fourth')];
      const sets = [[w.home.id], [w.branch.id, more[0].id], [more[0].id, more[1].id]];
      for (let round = 0; round < 8; round++) {
        // From no assignment in the organisation (the deletes find nothing and lock the gap where the inserts go).
        expect((await gql(w.tokens.orgOwner, setAccess(w.member.id, w.org.id, []))).body.errors).toBeUndefined();
        const results = await Promise.all(sets.map((ids) => gql(w.tokens.orgOwner, setAccess(w.member.id, w.org.id, ids))));
        expect(results.map((r) => r.body.errors ?? null)).toEqual(sets.map(() => null));
        const assigned = (await LocationUser.findAll({ where: { userId: w.member.id }, attributes: ['locationId'], raw: true })).map((r) => r.locationId).sort((a, b) => a - b);
        expect(sets.map((s) => [...s].sort((a, b) => a - b))).toContainEqual(assigned);
        expect(await OrganizationMember.count({ where: { userId: w.member.id, organizationId: w.org.id } })).toBe(1);
      }
    });

    it('two concurrent addTeamMember calls with one e-mail: one member, and the other the same 422 as a later duplicate', async () => {
      const w = await makeWorld();
      const address = email();
      const results = await Promise.all([0, 1].map(() => gql(w.tokens.orgOwner, add(w.org.id, address, [w.home.id]))));
      const failures = results.filter((r) => r.body.errors);
      expect(results.filter((r) => r.body.data?.addTeamMember)).toHaveLength(1);
      expect(failures.map((r) => r.body.errors[0].extensions)).toEqual([expect.objectContaining({ code: 'VALIDATION', fields: { email: ['The email has already been taken.'] } })]);
      expect(await User.count({ where: { tenantId: w.tenant.id, email: address } })).toBe(1);
      // The sequential duplicate answers the same.
      const later = await gql(w.tokens.orgOwner, add(w.org.id, address, [w.home.id]));
      expect(later.body.errors[0].extensions).toEqual(failures[0].body.errors[0].extensions);
    });
  });
});
