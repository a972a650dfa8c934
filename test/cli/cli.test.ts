import { randomUUID } from 'node:crypto';
import { useApp } from '../support/app';
import { cli as cliWith, cliJson as cli } from './binary';

/** The operator CLI, the built binary run as a process against this worker's database, checked through the REST API. */
describe('operator CLI (reviewgrid <command>)', () => {
  const t = useApp();
  jest.setTimeout(60_000);

  it('tenant:create, user:create, token:create and token:revoke give a working, then refused, token', async () => {
    const id = randomUUID().slice(0, 8);
    const tenant = await cli('tenant:create', '--name', `CLI Agency ${id}`, '--domain', `cli-${id}.test`, '--owner-email', `boss-${id}@cli.test`);
    expect(tenant.code).toBe(0);
    expect(tenant.json.tenant).toMatchObject({ name: `CLI Agency ${id}`, domains: [`cli-${id}.test`] });

    const user = await cli('user:create', '--tenant', `cli-${id}.test`, '--email', `ann-${id}@cli.test`, '--name', 'Ann', '--role', 'organization_owner');
    expect(user.code).toBe(0);
    expect(user.json.user).toMatchObject({ email: `ann-${id}@cli.test`, role: 'organization_owner' });

    const token = await cli('token:create', '--user', `ann-${id}@cli.test`, '--permissions', 'organizations:read,organizations:create', '--expires', '30d');
    expect(token.code).toBe(0);
    expect(token.json).toMatchObject({ kind: 'customer', permissions: ['organizations:read', 'organizations:create'] });
    const auth = { Authorization: `Bearer ${token.json.token}` };

    const me = await t.http().get('/api/v1/me').set(auth);
    expect(me.body).toEqual({ id: user.json.user.id, name: 'Ann', email: `ann-${id}@cli.test` });
    const created = await t.http().post('/api/v1/organizations').set(auth).send({ name: 'From the CLI user' });
    expect(created.status).toBe(201);
    expect((await t.http().get('/api/v1/reviews').set(auth)).status).toBe(403);

    const revoked = await cli('token:revoke', String(token.json.id));
    expect(revoked.code).toBe(0);
    expect((await t.http().get('/api/v1/me').set(auth)).status).toBe(401);
  });

  it('user:create makes a team member scoped to the given locations and organisation permissions', async () => {
    const id = randomUUID().slice(0, 8);
    await cli('tenant:create', '--name', `Scope ${id}`, '--domain', `scope-${id}.test`, '--owner-email', `o-${id}@cli.test`);
    const ownerToken = await cli('token:create', '--user', `o-${id}@cli.test`, '--permissions', 'organizations:read,organizations:create');
    const auth = { Authorization: `Bearer ${ownerToken.json.token}` };
    const org = (await t.http().post('/api/v1/organizations').set(auth).send({ name: 'Scoped' })).body;
    const second = (await t.http().post('/api/v1/locations').set(auth).send({ organization_id: org.id, name: 'Second' })).body.data;

    const member = await cli(
      'user:create', '--tenant', `scope-${id}.test`, '--email', `m-${id}@cli.test`, '--name', 'Member',
      '--role', 'team_member', '--organization', String(org.id), '--locations', String(second.id), '--permissions', 'create-locations',
    );
    expect(member.code).toBe(0);
    const memberToken = await cli('token:create', '--user', `m-${id}@cli.test`, '--permissions', 'organizations:read,organizations:create');
    const mauth = { Authorization: `Bearer ${memberToken.json.token}` };
    const visible = await t.http().get('/api/v1/locations').set(mauth);
    expect(visible.body.data.map((l: { id: number }) => l.id)).toEqual([second.id]);
    expect((await t.http().post('/api/v1/locations').set(mauth).send({ organization_id: org.id, name: 'Third' })).status).toBe(201);
  });

  it('demo:seed prints tokens that work', async () => {
    const seeded = await cli('demo:seed', '--reviews', '7', '--domain', `demo-${randomUUID().slice(0, 8)}.test`);
    expect(seeded.code).toBe(0);
    expect(seeded.json.tokens.map((x: { kind: string }) => x.kind)).toEqual(['customer', 'agency', 'customer', 'customer', 'ai']);
    const res = await t.http().get('/api/v1/reviews').set('Authorization', `Bearer ${seeded.json.tokens[0].token}`);
    expect(res.status).toBe(200);
    expect(res.body.meta.total).toBe(7);
  });

  it('demo:seed refuses a production installation (its users sign in with a published password)', async () => {
    const refused = await cliWith(['--json', 'demo:seed', '--reviews', '1', '--domain', `prod-${randomUUID().slice(0, 8)}.localhost`], { NODE_ENV: 'production' });
    expect(refused.code).toBe(2);
    expect(refused.json.error.message).toBe('demo:seed: the demo users sign in with a published password (demo-password): not with NODE_ENV=production');
  });

  it('demo:seed refuses a number of reviews it would seed for hours, or for ever', async () => {
    for (const reviews of ['1000001', '99999999999999999999']) {
      const refused = await cli('demo:seed', '--reviews', reviews, '--domain', `big-${randomUUID().slice(0, 8)}.test`);
      expect([refused.code, refused.json.error.message]).toEqual([2, '--reviews must be a whole number from 0 to 1000000']);
    }
  });

  it('rejects bad input with exit code 2 and a JSON error', async () => {
    const bad = await cli('token:create', '--user', 'nobody@nowhere.test', '--permissions', 'reviews:read');
    expect(bad.code).toBe(2);
    expect(bad.json.error.message).toMatch(/not found/i);
    const perms = await cli('tenant:create', '--name', 'X', '--domain', 'not a domain', '--owner-email', 'x@y.test');
    expect(perms.code).toBe(2);
    expect(perms.json.error.fields).toHaveProperty('domain');
  });

  it('refuses a tenant name that several tenants share, and takes the id or a domain instead', async () => {
    const id = randomUUID().slice(0, 8);
    const first = await cli('tenant:create', '--name', `Twin ${id}`, '--domain', `twin-a-${id}.test`, '--owner-email', `a-${id}@cli.test`);
    const second = await cli('tenant:create', '--name', `Twin ${id}`, '--domain', `twin-b-${id}.test`, '--owner-email', `b-${id}@cli.test`);
    expect([first.code, second.code]).toEqual([0, 0]);
    const ids = [first.json.tenant.id, second.json.tenant.id];
    const ambiguous = await cli('user:create', '--tenant', `Twin ${id}`, '--email', `ops-${id}@cli.test`, '--name', 'Ops', '--role', 'tenant_owner');
    expect(ambiguous.code).toBe(2);
    expect(ambiguous.json.error.fields).toEqual({ tenant: [`2 tenants are named "Twin ${id}" (ids ${ids.join(', ')}): give the id or a domain.`] });
    const byDomain = await cli('user:create', '--tenant', `twin-b-${id}.test`, '--email', `ops-${id}@cli.test`, '--name', 'Ops', '--role', 'tenant_owner');
    expect(byDomain.code).toBe(0);
    expect(byDomain.json.user).toMatchObject({ tenant_id: ids[1] });
  });

  it('plan:features adds and removes known plan features and refuses unknown ones', async () => {
    const id = randomUUID().slice(0, 8);
    await cli('tenant:create', '--name', `Plans ${id}`, '--domain', `plans-${id}.test`, '--owner-email', `p-${id}@cli.test`);
    const added = await cli('plan:features', '--tenant', `plans-${id}.test`, '--plan', 'Standard', '--add', 'auto_respond');
    expect(added.code).toBe(0);
    expect(added.json.plan).toMatchObject({ name: 'Standard', features: ['auto_respond'] });
    const unknown = await cli('plan:features', '--tenant', `plans-${id}.test`, '--plan', 'Standard', '--add', 'teleport');
    expect(unknown.code).toBe(2);
    expect(unknown.json.error.fields.features[0]).toMatch(/Unknown feature\(s\): teleport/);
    const missing = await cli('plan:features', '--tenant', `plans-${id}.test`, '--plan', 'Gold', '--add', 'auto_respond');
    expect(missing.code).toBe(2);
    const removed = await cli('plan:features', '--tenant', `plans-${id}.test`, '--plan', 'Standard', '--remove', 'auto_respond');
    expect(removed.json.plan.features).toEqual([]);
  });

  it('db:migrate reports the applied migrations', async () => {
    const res = await cli('db:migrate');
    expect(res.code).toBe(0);
    expect(res.json.migrations).toContain('20261121000100-create-tenants');
  });
});
