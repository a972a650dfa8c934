import { randomUUID } from 'node:crypto';
import { CUSTOMER_PERMISSIONS } from '../../src/domain/permissions';
import { ApiToken } from '../../src/models';
import { hashToken } from '../../src/services/auth.service';
import { useApp } from '../support/app';
import { waitUntil } from '../support/wait';
import { cli, cliJson } from './binary';

/**
 * The documented first run of a fresh installation (README, Production): one command creates the agency and its
 * owner and prints the owner's tokens, which work on the two REST APIs; tokens are then listed (never their secrets)
 * and revoked by the id `token:list` shows.
 */
jest.setTimeout(90_000);
const t = useApp();

describe('reviewgrid tenant:create --issue-tokens (first run)', () => {
  it("prints an agency token for /api/agency/v1 and a customer token for /api/v1, stored hashed", async () => {
    const id = randomUUID().slice(0, 8);
    const res = await cliJson('tenant:create', '--name', `Acme ${id}`, '--domain', `reviews-${id}.test`, '--owner-email', `boss-${id}@acme.test`, '--issue-tokens');
    expect(res.code).toBe(0);
    expect(res.json.tenant).toMatchObject({ name: `Acme ${id}`, domains: [`reviews-${id}.test`] });
    expect(res.json.owner).toMatchObject({ email: `boss-${id}@acme.test`, role: 'tenant_owner' });
    const [agency, customer] = res.json.tokens;
    expect(agency).toMatchObject({ kind: 'agency', api: '/api/agency/v1', permissions: [] });
    expect(customer).toMatchObject({ kind: 'customer', api: '/api/v1', permissions: [...CUSTOMER_PERMISSIONS] });

    // Shown once, kept as a SHA-256 hash only.
    const stored = await ApiToken.findByPk(customer.id);
    expect(stored!.tokenHash).toBe(hashToken(customer.token));
    expect(JSON.stringify(stored!.toJSON())).not.toContain(customer.token);

    const me = await t.as(customer.token).get('/api/v1/me');
    expect(me.status).toBe(200);
    expect(me.body).toEqual({ id: res.json.owner.id, name: `Acme ${id}`, email: `boss-${id}@acme.test` });
    const org = await t.as(customer.token).post('/api/v1/organizations').send({ name: 'First organisation' });
    expect(org.status).toBe(201);
    const customers = await t.as(agency.token).get('/api/agency/v1/customers');
    expect(customers.status).toBe(200);
    expect(customers.body.data).toEqual([]);
    // The agency API takes the agency token only.
    expect((await t.as(customer.token).get('/api/agency/v1/customers')).status).toBe(403);
  });

  it('prints the tokens in the text output too, with the warning that they are shown once', async () => {
    const id = randomUUID().slice(0, 8);
    const res = await cli(['tenant:create', '--name', `Text ${id}`, '--domain', `text-${id}.test`, '--owner-email', `o-${id}@acme.test`, '--issue-tokens']);
    expect(res.code).toBe(0);
    expect(res.stdout).toMatch(/not shown again/);
    const secrets = res.stdout.match(/rg_[A-Za-z0-9_-]{40}/g) ?? [];
    expect(secrets).toHaveLength(2);
    const agencyLine = res.stdout.split('\n').find((l) => l.includes('/api/agency/v1'))!;
    const agencySecret = agencyLine.match(/rg_\S+/)![0];
    expect((await t.as(agencySecret).get('/api/agency/v1/customers')).status).toBe(200);
  });

  it('without --issue-tokens creates no token; a taken domain is invalid input (exit 2) and creates nothing', async () => {
    const id = randomUUID().slice(0, 8);
    const plain = await cliJson('tenant:create', '--name', `Plain ${id}`, '--domain', `plain-${id}.test`, '--owner-email', `p-${id}@acme.test`);
    expect(plain.code).toBe(0);
    expect(plain.json.tokens).toEqual([]);
    const again = await cliJson('tenant:create', '--name', `Again ${id}`, '--domain', `plain-${id}.test`, '--owner-email', `a-${id}@acme.test`, '--issue-tokens');
    expect(again.code).toBe(2);
    expect(again.json.error.fields).toHaveProperty('domain');
    const listed = await cliJson('tenant:list');
    expect(listed.json.tenants.map((x: { name: string }) => x.name)).not.toContain(`Again ${id}`);
    expect(listed.json.tenants.find((x: { name: string }) => x.name === `Plain ${id}`)).toMatchObject({
      domains: [`plain-${id}.test`],
      owner_emails: [`p-${id}@acme.test`],
      customer_accounts: 1,
    });
  });
});

describe('reviewgrid token:list and token:revoke', () => {
  it('lists id, kind, user, permissions, dates and state, never the secret; revoking by that id makes the token fail', async () => {
    const id = randomUUID().slice(0, 8);
    const first = await cliJson('tenant:create', '--name', `Tok ${id}`, '--domain', `tok-${id}.test`, '--owner-email', `t-${id}@acme.test`, '--issue-tokens');
    const extra = await cliJson('token:create', '--user', `t-${id}@acme.test`, '--permissions', 'reviews:read', '--expires', '30d', '--name', 'reporting');
    expect(extra.code).toBe(0);
    const secret: string = extra.json.token;
    expect((await t.as(secret).get('/api/v1/reviews')).status).toBe(200);

    const listed = await cliJson('token:list', '--tenant', `tok-${id}.test`);
    expect(listed.code).toBe(0);
    expect(listed.stdout).not.toContain(secret);
    for (const tok of first.json.tokens) expect(listed.stdout).not.toContain(tok.token);
    expect(listed.json.total).toBe(3);
    const row = listed.json.tokens.find((x: { id: number }) => x.id === extra.json.id);
    expect(row).toMatchObject({
      kind: 'customer',
      name: 'reporting',
      user: { email: `t-${id}@acme.test` },
      permissions: ['reviews:read'],
      revoked_at: null,
      state: 'active',
      prefix: secret.slice(0, 10),
    });
    expect(Date.parse(row.created_at)).not.toBeNaN();
    expect(Date.parse(row.expires_at)).toBeGreaterThan(Date.now());
    // The API records the use in the background (at most once a minute).
    await waitUntil(async () => {
      const again = await cliJson('token:list', '--user', `t-${id}@acme.test`, '--tenant', `tok-${id}.test`);
      return again.json.tokens.find((x: { id: number }) => x.id === extra.json.id).last_used_at !== null;
    });

    const revoked = await cliJson('token:revoke', String(row.id));
    expect(revoked.code).toBe(0);
    expect(revoked.json).toMatchObject({ id: row.id });
    expect((await t.as(secret).get('/api/v1/reviews')).status).toBe(401);
    // The first-run tokens of the same owner still work.
    expect((await t.as(first.json.tokens[1].token).get('/api/v1/me')).status).toBe(200);

    const after = await cliJson('token:list', '--tenant', `tok-${id}.test`);
    expect(after.json.tokens.find((x: { id: number }) => x.id === row.id)).toMatchObject({ state: 'revoked', revoked_at: expect.any(String) });
    const active = await cliJson('token:list', '--tenant', `tok-${id}.test`, '--active');
    expect(active.json.tokens.map((x: { id: number }) => x.id).sort()).toEqual(first.json.tokens.map((x: { id: number }) => x.id).sort());

    // The text table has the same columns and no secret either.
    const text = await cli(['token:list', '--tenant', `tok-${id}.test`]);
    expect(text.stdout.split('\n')[0]).toMatch(/^ID\s+KIND\s+TENANT\s+USER\s+NAME\s+PREFIX\s+PERMISSIONS\s+CREATED\s+EXPIRES\s+LAST USED\s+STATE$/);
    expect(text.stdout).not.toContain(secret);
  });

  it('answers exit 2 with a JSON error for a malformed or unknown token id, and an unknown tenant or user', async () => {
    const malformed = await cliJson('token:revoke', '12abc');
    expect(malformed.code).toBe(2);
    expect(malformed.json.error.message).toMatch(/neither a token id/);
    const unknown = await cliJson('token:revoke', '999999999');
    expect(unknown.code).toBe(2);
    expect(unknown.json.error.message).toBe('No such token.');
    const tenant = await cliJson('token:list', '--tenant', 'no-such-agency.test');
    expect(tenant.code).toBe(2);
    expect(tenant.json.error.message).toMatch(/Tenant not found/);
    const user = await cliJson('token:list', '--user', 'nobody@nowhere.test');
    expect(user.code).toBe(2);
    const limit = await cliJson('token:list', '--limit', 'ten');
    expect(limit.code).toBe(2);
  });
});
