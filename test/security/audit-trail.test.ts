import { QueryTypes } from 'sequelize';
import { AgencyAuditEvent, Customer, Organization, OutboxEvent } from '../../src/models';
import { AUDIT_ORGANIZATION_IDS } from '../../src/services/agency.service';
import { cli } from '../cli/binary';
import { useApp } from '../support/app';
import { agencyTokenFor, makePlan, makeWorld, tokenFor } from '../support/factories';

/**
 * The agency side's audit trail (issue 14, item 8; docs/security.md "Audit trail"): token creation and revocation,
 * credit changes, pause/resume, plan and limit changes, connect links and accounts are recorded with actor, time,
 * request id and before/after, never a secret; the tenant owner reads them through GraphQL and the agency API, and
 * nobody else does.
 */
jest.setTimeout(60_000);

describe('agency audit trail', () => {
  const t = useApp();
  const agency = (token: string) => ({
    get: (path: string) => t.http().get(`/api/agency/v1${path}`).set('Authorization', `Bearer ${token}`),
    post: (path: string, body?: object) => t.http().post(`/api/agency/v1${path}`).set('Authorization', `Bearer ${token}`).send(body ?? {}),
    put: (path: string, body?: object) => t.http().put(`/api/agency/v1${path}`).set('Authorization', `Bearer ${token}`).send(body ?? {}),
    delete: (path: string) => t.http().delete(`/api/agency/v1${path}`).set('Authorization', `Bearer ${token}`),
  });
  const graphql = (token: string, query: string, variables: object = {}) =>
    t.http().post('/graphql').set('Authorization', `Bearer ${token}`).set('apollo-require-preflight', 'true').send({ query, variables });

  it('records every agency change with actor, request id and before/after, newest first, readable by the owner only', async () => {
    const w = await makeWorld();
    const token = await agencyTokenFor(w.owner);
    const api = agency(token);
    const plan = await makePlan(w.tenant.id, { name: 'Audit plan' });
    const customerId = w.orgOwner.customerId!;

    const steps: Array<{ res: { status: number; headers: Record<string, string> }; action: string }> = [];
    const step = async (action: string, call: Promise<{ status: number; headers: Record<string, string> }>) => {
      const res = await call;
      expect([action, res.status]).toEqual([action, expect.any(Number)]);
      expect(res.status).toBeLessThan(300);
      steps.push({ res, action });
    };
    await step('customer.credits_added', api.post(`/customers/${customerId}/add-credits`, { type: 'sms', credits: 50, notes: 'welcome' }));
    await step('customer.paused', api.put(`/customers/${customerId}/pause`));
    await step('customer.resumed', api.put(`/customers/${customerId}/resume`));
    await step('customer.plan_changed', api.put(`/customers/${customerId}`, { custom_plan_id: plan.id }));
    await step('customer.location_limit_changed', api.put(`/customers/${customerId}/location-limit`, { location_limit: 7 }));
    await step('customer.member_limit_changed', api.put(`/customers/${customerId}/member-limit`, { member_limit: 3 }));
    const link = await api.post('/connect-links', { provider: 'google', location_id: w.home.id });
    steps.push({ res: link, action: 'connect_link.created' });
    await step('connect_link.revoked', api.delete(`/connect-links/${link.body.data.token}`));
    // A refused change is not on record: resuming an active account is 409 and writes nothing.
    expect((await api.put(`/customers/${customerId}/resume`)).status).toBe(409);

    const list = await api.get('/audit-events?per_page=50');
    expect(list.status).toBe(200);
    const events = list.body.data as Array<Record<string, any>>; // eslint-disable-line @typescript-eslint/no-explicit-any -- wire JSON
    expect(events.map((e) => e.action)).toEqual(steps.map((s) => s.action).reverse());
    for (const [n, s] of [...steps].reverse().entries()) {
      expect(events[n].request_id).toBe(s.res.headers['x-request-id']);
      expect(events[n].actor).toEqual({ type: 'user', user_id: w.owner.id, token_id: expect.any(Number), label: w.owner.email });
      expect(Date.parse(events[n].created_at)).not.toBeNaN();
    }
    const byAction = Object.fromEntries(events.map((e) => [e.action, e]));
    expect(byAction['customer.credits_added']).toMatchObject({ subject_type: 'customer', subject_id: String(customerId), customer_id: customerId, before: { type: 'sms', balance: 0 }, after: { type: 'sms', balance: 50, credits: 50, notes: 'welcome' } });
    expect(byAction['customer.paused']).toMatchObject({ before: { subscription_status: 'active' }, after: { subscription_status: 'paused' } });
    expect(byAction['customer.resumed']).toMatchObject({ before: { subscription_status: 'paused' }, after: { subscription_status: 'active' } });
    expect(byAction['customer.plan_changed'].after).toEqual({ plan_id: plan.id, plan_name: 'Audit plan' });
    expect(byAction['customer.location_limit_changed']).toMatchObject({ after: { location_limit: 7 } });
    expect(byAction['customer.member_limit_changed']).toMatchObject({ after: { member_limit: 3 } });
    // A connect link is on record by its token's first 8 characters: the whole token (the credential) is not.
    expect(byAction['connect_link.created']).toMatchObject({ subject_type: 'connect_link', subject_id: link.body.data.token.slice(0, 8), after: { provider: 'google', location_id: w.home.id } });
    expect(JSON.stringify(events)).not.toContain(link.body.data.token);
    expect(byAction['connect_link.revoked'].before.revoked_at).toBeNull();
    expect(byAction['connect_link.revoked'].after.revoked_at).not.toBeNull();

    // Filters; the envelope of the spec.
    const credits = await api.get(`/audit-events?action=customer.credits_added&customer_id=${customerId}`);
    expect(credits.body.data.map((e: { action: string }) => e.action)).toEqual(['customer.credits_added']);
    expect(credits.body.meta).toMatchObject({ current_page: 1, total: 1 });
    expect((await api.get('/audit-events?action=nope')).status).toBe(422);

    // GraphQL for the tenant owner (agency token, or customer token with organizations:read); FORBIDDEN for anyone else; the agency API takes agency tokens only.
    const gql = await graphql(await tokenFor(w.owner), '{ agencyAuditEvents(action: "customer.paused") { total items { action actorLabel requestId beforeJson afterJson } } }');
    expect(gql.body.data.agencyAuditEvents).toMatchObject({ total: 1, items: [{ action: 'customer.paused', actorLabel: w.owner.email, beforeJson: '{"subscription_status":"active"}' }] });
    const refused = await graphql(w.tokens.orgOwner, '{ agencyAuditEvents { total } }');
    expect(refused.body.errors[0].extensions.code).toBe('FORBIDDEN');
    expect((await agency(w.tokens.orgOwner).get('/audit-events')).status).toBe(403);

    // Another tenant sees none of it.
    const other = await makeWorld();
    const theirs = await agency(await agencyTokenFor(other.owner)).get('/audit-events');
    expect(theirs.body.data).toEqual([]);
  });

  it("asks a tenant owner's customer token for organizations:read: the entries name every account's owner and e-mail", async () => {
    const w = await makeWorld();
    const api = agency(await agencyTokenFor(w.owner));
    const email = `private-${Date.now()}@example.test`;
    expect((await api.post('/customers', { name: 'Grace Private', company: 'Grace Co', email, password: 'correct-horse-battery-9', custom_plan_id: (await makePlan(w.tenant.id)).id })).status).toBe(201);
    const query = '{ agencyAuditEvents(action: "customer.created") { total items { afterJson } } }';

    const readOnly = await graphql(await tokenFor(w.owner, ['reviews:read']), query);
    expect(readOnly.body.errors[0].extensions).toMatchObject({ code: 'FORBIDDEN', reason: 'missing_permission' });
    expect(readOnly.body.data).toBeNull();
    expect(JSON.stringify(readOnly.body)).not.toContain(email);

    const reader = await graphql(await tokenFor(w.owner, ['organizations:read']), query);
    expect(reader.body.errors).toBeUndefined();
    expect(reader.body.data.agencyAuditEvents.total).toBe(1);
    expect(JSON.parse(reader.body.data.agencyAuditEvents.items[0].afterJson)).toMatchObject({ name: 'Grace Private', email });
    // The agency API takes agency tokens, which carry no permissions: unchanged.
    expect((await api.get('/audit-events?action=customer.created')).body.data).toHaveLength(1);
  });

  it('deletes a customer with more organisations than its entry lists: the first ids, the count, the list marked cut', async () => {
    // The full list of ~9,000 organisations' ids overflowed the entry's 64 KB state column: the deletion was a 500 for
    // ever. Past AUDIT_ORGANIZATION_IDS the entry is bounded, which a few more than that shows (and costs seconds).
    const w = await makeWorld();
    const api = agency(await agencyTokenFor(w.owner));
    const created = await api.post('/customers', { name: 'Many', company: 'Many Orgs', email: `many-${Date.now()}@example.test`, password: 'correct-horse-battery-9', custom_plan_id: (await makePlan(w.tenant.id)).id });
    expect(created.status).toBe(201);
    const id = created.body.data.id as number;
    const seq = Customer.sequelize!;
    const rows = Array.from({ length: AUDIT_ORGANIZATION_IDS + 50 }, (_, i) => `(${w.tenant.id}, ${id}, 'Org ${i}', NOW(3), NOW(3))`);
    await seq.query(`INSERT INTO organizations (tenant_id, customer_id, name, created_at, updated_at) VALUES ${rows.join(',')}`);
    const ids = (await seq.query<{ id: number }>('SELECT id FROM organizations WHERE customer_id = ? ORDER BY id', { replacements: [id], type: QueryTypes.SELECT })).map((r) => r.id);
    expect(ids.length).toBe(AUDIT_ORGANIZATION_IDS + 51);

    const deleted = await api.delete(`/customers/${id}`);
    expect(deleted.status).toBe(200);
    expect(await Customer.findByPk(id)).toBeNull();
    expect(await Organization.count({ where: { customerId: id } })).toBe(0);
    const events = (await api.get(`/audit-events?action=customer.deleted&subject_id=${id}`)).body.data;
    expect(events).toHaveLength(1);
    expect(events[0].before).toMatchObject({ name: 'Many', organizations: ids.slice(0, AUDIT_ORGANIZATION_IDS), organization_count: ids.length, organizations_truncated: true });
    // Every organisation still has its organization-deleted event.
    expect(await OutboxEvent.count({ where: { customerId: id, event: 'organization-deleted' } })).toBe(ids.length);
  });

  it('token creation and revocation, and a CLI credit grant, are on record without the secret, from GraphQL and from the operator CLI', async () => {
    const w = await makeWorld();
    const ownerToken = await tokenFor(w.owner);
    const created = await graphql(ownerToken, 'mutation { createApiToken(input: { name: "zapier", permissions: ["reviews:read"] }) { plainText token { id } } }');
    const { plainText, token } = created.body.data.createApiToken;
    const revoked = await graphql(ownerToken, `mutation { revokeApiToken(id: ${token.id}) { revokedAt } }`);
    expect(revoked.body.data.revokeApiToken.revokedAt).not.toBeNull();
    // Revoking again changes nothing and records nothing.
    await graphql(ownerToken, `mutation { revokeApiToken(id: ${token.id}) { revokedAt } }`);

    const viaCli = await cli(['--json', 'token:create', '--user', w.owner.email, '--permissions', 'reviews:read', '--name', 'ops']);
    expect(viaCli.code).toBe(0);
    const cliRevoke = await cli(['--json', 'token:revoke', String(viaCli.json.id)]);
    expect(cliRevoke.code).toBe(0);

    // A credit grant from the operator CLI is on the same trail, by the CLI.
    const grant = await cli(['--json', 'credits:grant', '--customer', String(w.orgOwner.customerId), '--type', 'email', '--credits', '5']);
    expect(grant.code).toBe(0);
    const granted = await AgencyAuditEvent.findOne({ where: { tenantId: w.tenant.id, action: 'customer.credits_added' } });
    expect(granted).toMatchObject({ actorType: 'cli', subjectId: String(w.orgOwner.customerId), beforeState: { type: 'email', balance: 0 }, afterState: { type: 'email', balance: 5, credits: 5 } });

    const rows = await AgencyAuditEvent.findAll({ where: { tenantId: w.tenant.id, subjectType: 'token' }, order: [['id', 'ASC']] });
    expect(rows.map((r) => [r.action, r.subjectId, r.actorType])).toEqual([
      ['token.created', String(token.id), 'user'],
      ['token.revoked', String(token.id), 'user'],
      ['token.created', String(viaCli.json.id), 'cli'],
      ['token.revoked', String(viaCli.json.id), 'cli'],
    ]);
    expect(rows[0].afterState).toMatchObject({ id: token.id, name: 'zapier', kind: 'customer', permissions: ['reviews:read'], user_email: w.owner.email });
    expect(rows[2].actorLabel).toMatch(/^reviewgrid CLI/);
    expect(rows[2].requestId).toBeNull();
    const stored = JSON.stringify(rows.map((r) => r.toJSON()));
    expect(stored).not.toContain(plainText);
    expect(stored).not.toContain(viaCli.json.token);
    expect(stored).not.toMatch(/rg_[A-Za-z0-9_-]{10}/);
  });

  it('a customer created and deleted through the agency API is on record with its before state', async () => {
    const w = await makeWorld();
    const api = agency(await agencyTokenFor(w.owner));
    const plan = await makePlan(w.tenant.id);
    const email = `audit-${Date.now()}@example.test`;
    const created = await api.post('/customers', { name: 'Ada', company: 'Ada Bakery', email, password: 'correct-horse-battery-9', custom_plan_id: plan.id });
    expect(created.status).toBe(201);
    const id = created.body.data.id;
    expect((await api.delete(`/customers/${id}`)).status).toBeLessThan(300);
    expect(await Customer.findByPk(id)).toBeNull();
    const events = (await api.get(`/audit-events?subject_type=customer&subject_id=${id}`)).body.data;
    expect(events.map((e: { action: string }) => e.action)).toEqual(['customer.deleted', 'customer.created']);
    expect(events[1].after).toMatchObject({ name: 'Ada', email, company: 'Ada Bakery', plan_id: plan.id });
    expect(JSON.stringify(events)).not.toContain('correct-horse-battery-9');
    expect(events[0].before).toMatchObject({ name: 'Ada', email });
  });
});
