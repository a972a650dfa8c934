import { User } from '../../src/models';
import { useApp } from '../support/app';
import { makeOrgOwner, makeOrganization, makeTenant, makeWorld, tokenFor, defaultLocationOf } from '../support/factories';

describe('GraphQL account settings: tenant, account, API tokens, team, sources', () => {
  const t = useApp();
  const gql = (token: string, query: string, variables: Record<string, unknown> = {}) =>
    t.http().post('/graphql').set('Authorization', `Bearer ${token}`).set('Content-Type', 'application/json').send({ query, variables });

  it('shows the tenant brand and the account with its effective limits and usage', async () => {
    const { tenant } = await makeTenant({ planLocationLimit: 5 });
    const owner = await makeOrgOwner(tenant.id);
    await makeOrganization(owner);
    const res = await gql(await tokenFor(owner), '{ tenant { name brandName domains } account { locationLimit locationsUsed subscriptionStatus planName } }');
    expect(res.body.data.tenant).toEqual({ name: tenant.name, brandName: tenant.brandName, domains: [expect.stringMatching(/\.test$/)] });
    expect(res.body.data.account).toEqual({ locationLimit: 5, locationsUsed: 1, subscriptionStatus: 'active', planName: 'Standard' });
  });

  it('issues a token once, lists it without the secret, and revokes it', async () => {
    const w = await makeWorld();
    const created = await gql(
      w.tokens.orgOwner,
      'mutation { createApiToken(input: { name: "Zapier", permissions: ["reviews:read"] }) { plainText token { id name kind permissions tokenPrefix } } }',
    );
    const issued = created.body.data.createApiToken;
    expect(issued.plainText).toMatch(/^rg_/);
    expect(issued.token).toMatchObject({ name: 'Zapier', kind: 'customer', permissions: ['reviews:read'], tokenPrefix: issued.plainText.slice(0, 10) });
    expect((await t.http().get('/api/v1/reviews').set('Authorization', `Bearer ${issued.plainText}`)).status).toBe(200);

    const listed = await gql(w.tokens.orgOwner, '{ apiTokens { id name } }');
    expect(JSON.stringify(listed.body)).not.toContain(issued.plainText);
    expect(listed.body.data.apiTokens[0]).toEqual({ id: issued.token.id, name: 'Zapier' });

    await gql(w.tokens.orgOwner, `mutation { revokeApiToken(id: ${issued.token.id}) { revokedAt } }`);
    expect((await t.http().get('/api/v1/reviews').set('Authorization', `Bearer ${issued.plainText}`)).status).toBe(401);
  });

  it('never lets a token mint a wider one: more permissions or another kind is FORBIDDEN', async () => {
    const { owner } = await makeTenant();
    // A token that may manage tokens (organizations:read and :update), so the refusal is the service's rule, not the
    // permission the mutation asks of every customer token (test/graphql/account-access.test.ts).
    const narrow = await tokenFor(owner, ['reviews:read', 'organizations:read', 'organizations:update']);
    const wider = await gql(narrow, 'mutation { createApiToken(input: { name: "x", permissions: ["reviews:delete"] }) { plainText } }');
    expect(wider.body.errors[0].extensions.code).toBe('FORBIDDEN');
    expect(wider.body.errors[0].message).toBe('A token cannot grant permissions the calling token does not hold.');
    const agency = await gql(narrow, 'mutation { createApiToken(input: { name: "x", kind: "agency", permissions: [] }) { plainText } }');
    expect(agency.body.errors[0].extensions.code).toBe('FORBIDDEN');
    expect(agency.body.errors[0].message).toBe('A customer token can only issue customer tokens.');
  });

  it("lets an owner add a team member and change the member's locations", async () => {
    const w = await makeWorld();
    const added = await gql(
      w.tokens.orgOwner,
      `mutation { addTeamMember(input: { organizationId: ${w.org.id}, email: "new@member.test", name: "New", locationIds: [${w.home.id}], permissions: ["create-locations"] }) { id role } }`,
    );
    expect(added.body.data.addTeamMember.role).toBe('team_member');
    const member = (await User.findByPk(added.body.data.addTeamMember.id))!;
    const memberToken = await tokenFor(member);
    const visible = async () => (await t.http().get('/api/v1/locations').set('Authorization', `Bearer ${memberToken}`)).body.data.map((l: { id: number }) => l.id);
    expect(await visible()).toEqual([w.home.id]);

    await gql(
      w.tokens.orgOwner,
      `mutation { setTeamMemberAccess(input: { userId: ${member.id}, organizationId: ${w.org.id}, locationIds: [${w.branch.id}], permissions: [] }) { id } }`,
    );
    expect(await visible()).toEqual([w.branch.id]);

    const denied = await gql(memberToken, '{ teamMembers { id } }');
    expect(denied.body.errors[0].extensions.code).toBe('FORBIDDEN');
    const other = await makeWorld();
    const foreign = await gql(
      other.tokens.orgOwner,
      `mutation { setTeamMemberAccess(input: { userId: ${member.id}, organizationId: ${w.org.id}, locationIds: [], permissions: [] }) { id } }`,
    );
    expect(foreign.body.errors[0].extensions.code).toBe('NOT_FOUND');
  });

  it('attaches a custom source that then appears among the writable sources', async () => {
    const w = await makeWorld();
    const res = await gql(w.tokens.orgOwner, `mutation { createCustomSource(input: { locationId: ${w.home.id}, name: "Imported CSV" }) { id type name } }`);
    expect(res.body.data.createCustomSource).toMatchObject({ type: 'custom', name: 'Imported CSV' });
    const sources = await t.http().get(`/api/v1/reviews/sources?location_id=${w.home.id}`).set('Authorization', `Bearer ${w.tokens.orgOwner}`);
    expect(sources.body.data.map((s: { name: string }) => s.name)).toEqual(['Testimonials', 'Imported CSV']);
    const home = await defaultLocationOf(w.org);
    const listed = await gql(w.tokens.orgOwner, `{ integrations(locationId: ${home.id}) { name type } }`);
    expect(listed.body.data.integrations).toEqual([
      { name: 'Testimonials', type: 'testimonials' },
      { name: 'Imported CSV', type: 'custom' },
    ]);
  });
});
