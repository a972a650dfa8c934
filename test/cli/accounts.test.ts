import { randomUUID } from 'node:crypto';
import { useApp } from '../support/app';
import { makePlan } from '../support/factories';
import { cli, cliJson } from './binary';

/**
 * Organisations, users, plans and credits from the operator CLI (the built binary), each checked through the REST
 * APIs the agency and its customers use.
 */
jest.setTimeout(90_000);
const t = useApp();

/** A fresh agency with its first-run tokens. */
async function agency() {
  const id = randomUUID().slice(0, 8);
  const domain = `acct-${id}.test`;
  const res = await cliJson('tenant:create', '--name', `Accounts ${id}`, '--domain', domain, '--owner-email', `boss-${id}@acct.test`, '--issue-tokens');
  expect(res.code).toBe(0);
  return { id, domain, tenantId: res.json.tenant.id as number, agencyToken: res.json.tokens[0].token as string, plan: res.json.plan as { id: number; name: string } };
}

describe('reviewgrid org:create and org:list', () => {
  it('opens an account for a new organisation owner, which the agency sees as its customer with the organisation', async () => {
    const a = await agency();
    const res = await cliJson('org:create', '--tenant', a.domain, '--name', 'Bright Smiles', '--owner-email', `dana-${a.id}@x.test`, '--owner-name', 'Dana');
    expect(res.code).toBe(0);
    expect(res.json.organization).toMatchObject({ tenant_id: a.tenantId, name: 'Bright Smiles', default_location_id: expect.any(Number) });
    expect(res.json.owner).toMatchObject({ email: `dana-${a.id}@x.test`, role: 'organization_owner', created: true });
    const accountId = res.json.organization.customer_id;

    const customers = await t.as(a.agencyToken).get('/api/agency/v1/customers');
    expect(customers.body.data).toEqual([
      expect.objectContaining({ id: accountId, name: 'Dana', email: `dana-${a.id}@x.test`, organizations: [{ id: res.json.organization.id, name: 'Bright Smiles' }] }),
    ]);

    // A second organisation for the same owner joins that account; the owner's token sees both.
    const second = await cliJson('org:create', '--tenant', String(a.tenantId), '--name', 'Harbor Vet', '--owner-email', `DANA-${a.id}@x.test`);
    expect(second.code).toBe(0);
    expect(second.json.organization.customer_id).toBe(accountId);
    expect(second.json.owner.created).toBe(false);
    const token = await cliJson('token:create', '--user', `dana-${a.id}@x.test`, '--permissions', 'organizations:read');
    const orgs = await t.as(token.json.token).get('/api/v1/organizations');
    expect(orgs.body.data.map((o: { name: string }) => o.name).sort()).toEqual(['Bright Smiles', 'Harbor Vet']);

    const listed = await cliJson('org:list', '--customer', String(accountId));
    expect(listed.code).toBe(0);
    expect(listed.json).toMatchObject({ total: 2 });
    expect(listed.json.organizations.map((o: { name: string; locations: number }) => [o.name, o.locations])).toEqual([
      ['Harbor Vet', 1],
      ['Bright Smiles', 1],
    ]);
    const byTenant = await cliJson('org:list', '--tenant', a.domain);
    expect(byTenant.json.organizations.every((o: { tenant_id: number }) => o.tenant_id === a.tenantId)).toBe(true);
    const text = await cli(['org:list', '--tenant', a.domain]);
    expect(text.stdout.split('\n')[0]).toMatch(/^ID\s+TENANT\s+ACCOUNT\s+NAME\s+LOCATIONS\s+CREATED$/);
  });

  it("puts a new account on the plan given, whose limits then apply; a plan for an existing owner is refused", async () => {
    const a = await agency();
    const gold = await makePlan(a.tenantId, { name: `Gold ${a.id}`, locationLimit: 1 });
    const res = await cliJson('org:create', '--tenant', a.domain, '--name', 'Planned', '--owner-email', `p-${a.id}@x.test`, '--plan', gold.name);
    expect(res.code).toBe(0);
    const customers = await t.as(a.agencyToken).get('/api/agency/v1/customers');
    expect(customers.body.data.find((c: { id: number }) => c.id === res.json.organization.customer_id).custom_plan).toEqual({ id: gold.id, name: gold.name });
    // The plan allows one location: the Default Location of the first organisation takes it (a refusal, exit 1).
    const full = await cliJson('org:create', '--tenant', a.domain, '--name', 'Second', '--owner-email', `p-${a.id}@x.test`);
    expect(full.code).toBe(1);
    expect(full.json.error.message).toMatch(/Your plan allows 1 location/);
    const again = await cliJson('org:create', '--tenant', a.domain, '--name', 'Other', '--owner-email', `p-${a.id}@x.test`, '--plan', String(a.plan.id));
    expect(again.code).toBe(2);
    expect(again.json.error.fields).toHaveProperty('plan');
  });

  it('answers exit 2 for an unknown tenant or plan, a team member as owner, a taken name and a malformed id', async () => {
    const a = await agency();
    const unknownTenant = await cliJson('org:create', '--tenant', 'no-such-agency.test', '--name', 'X', '--owner-email', 'x@x.test');
    expect(unknownTenant.code).toBe(2);
    expect(unknownTenant.json.error.message).toMatch(/Tenant not found/);
    const unknownPlan = await cliJson('org:create', '--tenant', a.domain, '--name', 'X', '--owner-email', `n-${a.id}@x.test`, '--plan', 'Gold');
    expect(unknownPlan.code).toBe(2);
    expect(unknownPlan.json.error.message).toMatch(/Plan not found/);
    // Nothing was created for the refused plan.
    expect((await cliJson('user:list', '--tenant', a.domain)).json.users.map((u: { email: string }) => u.email)).not.toContain(`n-${a.id}@x.test`);

    const owner = await cliJson('org:create', '--tenant', a.domain, '--name', 'Team Org', '--owner-email', `o-${a.id}@x.test`);
    await cliJson('user:create', '--tenant', a.domain, '--email', `m-${a.id}@x.test`, '--name', 'M', '--role', 'team_member', '--organization', String(owner.json.organization.id));
    const member = await cliJson('org:create', '--tenant', a.domain, '--name', 'Mine', '--owner-email', `m-${a.id}@x.test`);
    expect(member.code).toBe(2);
    expect(member.json.error.fields).toHaveProperty('owner_email');
    const taken = await cliJson('org:create', '--tenant', a.domain, '--name', 'Team Org', '--owner-email', `o-${a.id}@x.test`);
    expect(taken.code).toBe(2);
    expect(taken.json.error.fields.name[0]).toMatch(/already been taken/);
    const missing = await cliJson('org:create', '--tenant', a.domain, '--name', 'No owner');
    expect(missing.code).toBe(2);
    const malformed = await cliJson('org:list', '--customer', 'abc');
    expect(malformed.code).toBe(2);
    expect(malformed.json.error.message).toMatch(/not a numeric id/);
  });
});

describe('reviewgrid user:list and plan:list', () => {
  it("lists a tenant's users (filtered by role) and its plans with their accounts", async () => {
    const a = await agency();
    await cliJson('org:create', '--tenant', a.domain, '--name', 'Org', '--owner-email', `u-${a.id}@x.test`, '--owner-name', 'Una');
    const users = await cliJson('user:list', '--tenant', a.domain);
    expect(users.code).toBe(0);
    expect(users.json.total).toBe(2);
    expect(users.json.users.map((u: { email: string; role: string }) => [u.email, u.role])).toEqual([
      [`u-${a.id}@x.test`, 'organization_owner'],
      [`boss-${a.id}@acct.test`, 'tenant_owner'],
    ]);
    const owners = await cliJson('user:list', '--tenant', a.domain, '--role', 'tenant_owner');
    expect(owners.json.users.map((u: { email: string }) => u.email)).toEqual([`boss-${a.id}@acct.test`]);
    const badRole = await cliJson('user:list', '--role', 'admin');
    expect(badRole.code).toBe(2);

    const plans = await cliJson('plan:list', '--tenant', a.domain);
    expect(plans.code).toBe(0);
    expect(plans.json.plans).toEqual([
      { id: a.plan.id, name: 'Standard', is_default: true, is_free: true, is_hidden: false, location_limit: 0, member_limit: 0, features: [], customer_accounts: 2 },
    ]);
    await cliJson('plan:features', '--tenant', a.domain, '--plan', 'Standard', '--add', 'auto_respond');
    expect((await cliJson('plan:list', '--tenant', a.domain)).json.plans[0].features).toEqual(['auto_respond']);
    const unknown = await cliJson('plan:list', '--tenant', 'no-such-agency.test');
    expect(unknown.code).toBe(2);
  });
});

describe('reviewgrid credits:show and credits:grant', () => {
  it("grants credits into the account's ledger, which the agency API's add-credits then adds to", async () => {
    const a = await agency();
    const org = await cliJson('org:create', '--tenant', a.domain, '--name', 'Credits Org', '--owner-email', `c-${a.id}@x.test`);
    const account = String(org.json.organization.customer_id);
    const empty = await cliJson('credits:show', '--customer', account);
    expect(empty.code).toBe(0);
    expect(empty.json).toMatchObject({ balances: { email: 0, sms: 0 }, grants: [] });

    const granted = await cliJson('credits:grant', '--customer', account, '--type', 'email', '--credits', '100', '--expires', '2099-12-31', '--notes', 'welcome pack');
    expect(granted.code).toBe(0);
    expect(granted.json).toMatchObject({ type: 'email', credits: 100, balance: 100, expires_at: '2100-01-01T00:00:00.000Z' });
    const sms = await cliJson('credits:grant', '--customer', account, '--type', 'sms', '--credits', '7');
    expect(sms.json.balance).toBe(7);

    const viaApi = await t.as(a.agencyToken).post(`/api/agency/v1/customers/${account}/add-credits`).send({ type: 'email', credits: 5 });
    expect(viaApi.status).toBe(200);
    expect(viaApi.body.balance).toBe(105);

    const shown = await cliJson('credits:show', '--customer', account);
    expect(shown.json.balances).toEqual({ email: 105, sms: 7 });
    expect(shown.json.grants.map((g: { type: string; credits: number; remaining: number; notes: string | null }) => [g.type, g.credits, g.remaining, g.notes])).toEqual([
      ['email', 5, 5, null],
      ['sms', 7, 7, null],
      ['email', 100, 100, 'welcome pack'],
    ]);
    const text = await cli(['credits:show', '--customer', account]);
    expect(text.stdout).toContain('email 105, sms 7');
  });

  it('answers exit 2 for a bad type, amount, expiry or customer', async () => {
    const a = await agency();
    const org = await cliJson('org:create', '--tenant', a.domain, '--name', 'Bad Credits', '--owner-email', `b-${a.id}@x.test`);
    const account = String(org.json.organization.customer_id);
    const cases: string[][] = [
      ['--customer', account, '--type', 'fax', '--credits', '1'],
      ['--customer', account, '--type', 'email', '--credits', '0'],
      ['--customer', account, '--type', 'email', '--credits', '1000001'],
      ['--customer', account, '--type', 'email', '--credits', 'many'],
      ['--customer', account, '--type', 'email', '--credits', '1', '--expires', '2020-01-01'],
      ['--customer', account, '--type', 'email', '--credits', '1', '--expires', '31/12/2099'],
      ['--customer', '999999999', '--type', 'email', '--credits', '1'],
      ['--customer', 'x1', '--type', 'email', '--credits', '1'],
    ];
    for (const args of cases) {
      const res = await cliJson('credits:grant', ...args);
      expect({ args, code: res.code }).toEqual({ args, code: 2 });
    }
    expect((await cliJson('credits:show', '--customer', account)).json.balances).toEqual({ email: 0, sms: 0 });
    const unknown = await cliJson('credits:show', '--customer', '999999999');
    expect(unknown.code).toBe(2);
    expect(unknown.json.error.message).toMatch(/Customer not found/);
  });

  it("holds to add-credits' bounds: an expiry through 9999-12-30 and notes of up to 1000 characters, else exit 2 and nothing granted", async () => {
    const a = await agency();
    const org = await cliJson('org:create', '--tenant', a.domain, '--name', 'Bounds', '--owner-email', `d-${a.id}@x.test`);
    const account = String(org.json.organization.customer_id);
    const grant = (...args: string[]) => cliJson('credits:grant', '--customer', account, '--type', 'email', '--credits', '1', ...args);

    const lastDay = await grant('--expires', '9999-12-31');
    expect(lastDay.code).toBe(2);
    expect(lastDay.json.error.fields).toEqual({ expires: ['The expiry must be 9999-12-30 or earlier (leave it out for credits that never expire).'] });
    const text = await cli(['credits:grant', '--customer', account, '--type', 'email', '--credits', '1', '--expires', '9999-12-31']);
    expect([text.code, text.stderr]).toEqual([2, 'Error: The expiry must be 9999-12-30 or earlier (leave it out for credits that never expire).\n']);
    const longNotes = await grant('--notes', 'n'.repeat(1001));
    expect(longNotes.code).toBe(2);
    expect(longNotes.json.error.fields).toEqual({ notes: ['The notes may not be greater than 1000 characters.'] });
    expect((await cliJson('credits:show', '--customer', account)).json).toMatchObject({ balances: { email: 0, sms: 0 }, grants: [] });

    // Code points, as the API counts them: 1000 emoji are 1000 characters; the spaces around are trimmed away.
    const notes = '🎉'.repeat(1000);
    const granted = await grant('--expires', '9999-12-30', '--notes', ` ${notes} `);
    expect(granted.code).toBe(0);
    expect(granted.json).toMatchObject({ balance: 1, expires_at: '9999-12-31T00:00:00.000Z' });
    expect((await cliJson('credits:show', '--customer', account)).json.grants).toEqual([expect.objectContaining({ notes, expires_at: '9999-12-31T00:00:00.000Z' })]);
  });
});

describe('reviewgrid token:create --expires and --name', () => {
  it('takes a day, a timestamp or a duration; refuses a day that does not exist or an expiry past 9999-12-31 (exit 2, no token)', async () => {
    const a = await agency();
    const user = `boss-${a.id}@acct.test`;
    const create = (expires: string) => cliJson('token:create', '--user', user, '--expires', expires);

    const day = await create('2099-02-28');
    expect([day.code, day.json.expires_at]).toEqual([0, '2099-02-28T00:00:00.000Z']);
    const stamp = await create('2099-02-28T10:30:00+02:00');
    expect([stamp.code, stamp.json.expires_at]).toEqual([0, '2099-02-28T08:30:00.000Z']);
    const before = Date.now();
    const inDays = await create('30d');
    expect(inDays.code).toBe(0);
    expect(Date.parse(inDays.json.expires_at) - before).toBeGreaterThanOrEqual(30 * 86_400_000);
    expect(Date.parse(inDays.json.expires_at) - before).toBeLessThan(30 * 86_400_000 + 60_000);

    const notADate = (v: string) => `--expires "${v}" is not a date, timestamp or duration (30d, 12h)`;
    const tooLate = (v: string) => `--expires "${v}" is after 9999-12-31, the last expiry a token can have`;
    // 2099 is no leap year: `new Date` made 2099-02-29 the first of March.
    for (const [expires, message] of [
      ['2099-02-29', notADate('2099-02-29')],
      ['2099-02-29T10:00:00Z', notADate('2099-02-29T10:00:00Z')],
      ['2099-04-31', notADate('2099-04-31')],
      ['1', notADate('1')],
      ['99999999999d', tooLate('99999999999d')],
      ['2922000d', tooLate('2922000d')],
      ['9999-12-31T20:00:00-05:00', tooLate('9999-12-31T20:00:00-05:00')],
    ]) {
      const res = await create(expires);
      expect({ expires, code: res.code, message: res.json.error?.message }).toEqual({ expires, code: 2, message });
    }
    const listed = await cliJson('token:list', '--user', user);
    expect(listed.json.tokens.filter((t: { expires_at: string | null }) => t.expires_at).length).toBe(3);
  });

  it('tenant:create refuses an over-long brand or owner name (exit 2, no tenant): they were a database error', async () => {
    const id = Date.now().toString(36);
    const args = (extra: string[]) => ['tenant:create', '--name', `Long ${id}`, '--domain', `long-${id}.test`, '--owner-email', `long-${id}@acct.test`, ...extra];
    const brand = await cliJson(...args(['--brand', 'b'.repeat(256)]));
    expect([brand.code, brand.json.error.fields]).toEqual([2, { brand: ['The brand may not be greater than 255 characters.'] }]);
    const owner = await cliJson(...args(['--owner-name', 'o'.repeat(256)]));
    expect([owner.code, owner.json.error.fields]).toEqual([2, { owner_name: ['The owner name may not be greater than 255 characters.'] }]);
    expect((await cliJson('tenant:list')).json.tenants.filter((t: { name: string }) => t.name === `Long ${id}`)).toEqual([]);
  });

  it('refuses a blank or over-long token name (exit 2, no token)', async () => {
    const a = await agency();
    const user = `boss-${a.id}@acct.test`;
    const blank = await cliJson('token:create', '--user', user, '--name', '  ');
    expect([blank.code, blank.json.error.fields]).toEqual([2, { name: ['The name field is required.'] }]);
    const long = await cliJson('token:create', '--user', user, '--name', 'x'.repeat(256));
    expect([long.code, long.json.error.fields]).toEqual([2, { name: ['The name may not be greater than 255 characters.'] }]);
    const trimmed = await cliJson('token:create', '--user', user, '--name', ' deploy bot ');
    expect(trimmed.code).toBe(0);
    // The first run's two tokens and the one named.
    const listed = await cliJson('token:list', '--user', user);
    expect(listed.json.tokens.map((t: { name: string }) => t.name)).toEqual(['deploy bot', expect.any(String), expect.any(String)]);
  });
});

describe('reviewgrid tenant:link-domain', () => {
  it("puts the agency's links on one of its domains and back on PUBLIC_URL with --none; another domain or no choice is exit 2", async () => {
    const a = await agency();
    const set = await cliJson('tenant:link-domain', '--tenant', a.domain, '--domain', a.domain.toUpperCase());
    expect(set.code).toBe(0);
    expect(set.json.tenant).toEqual({ id: a.tenantId, link_domain: a.domain, link_base: expect.stringMatching(new RegExp(`^https?://${a.domain.replace(/\./g, '\\.')}(:\\d+)?$`)) });
    const listed = (await cliJson('tenant:list')).json.tenants.find((x: { id: number }) => x.id === a.tenantId);
    expect(listed.link_domain).toBe(a.domain);

    const foreign = await cliJson('tenant:link-domain', '--tenant', a.domain, '--domain', 'elsewhere.test');
    expect(foreign.code).toBe(2);
    expect(foreign.json.error.fields.domain[0]).toContain('is not a domain of this agency');
    expect((await cliJson('tenant:link-domain', '--tenant', a.domain)).code).toBe(2);
    expect((await cliJson('tenant:link-domain', '--tenant', a.domain, '--domain', a.domain, '--none')).code).toBe(2);

    const cleared = await cliJson('tenant:link-domain', '--tenant', String(a.tenantId), '--none');
    expect(cleared.code).toBe(0);
    expect(cleared.json.tenant.link_domain).toBeNull();
  });
});
