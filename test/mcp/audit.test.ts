import { bool, input, int, object, pageOf, paginated, str } from '../../facades/mcp/schema';
import { defineTool, READ_ONLY, redactFields } from '../../facades/mcp/tool';
import { McpAuditEntry } from '../../src/models';
import { tokenFor } from '../support/factories';
import { auditRows, call, mcpWorld, rpc, TOOLS, useMcpApp } from './support';
import { parse } from 'graphql';
import type { Operation } from '../../facades/shared/execute';

/**
 * PII redaction and the audit log. The tools with personal data (private feedback, contacts) come with later
 * GraphQL operations; the redaction machinery is exercised here with a fixture tool over the team-member query,
 * whose rows carry a name and an e-mail.
 */
const teamTool = defineTool<{ include_pii: boolean }, { teamMembers: Array<{ id: number; name: string; email: string; role: string }> }>({
  name: 'fixture_team',
  title: 'Team (fixture)',
  description: 'Test fixture: team members with name and e-mail, redacted unless include_pii.',
  inputSchema: input({ include_pii: bool({ default: false }) }),
  outputSchema: paginated(object({ id: int(), name: str(), email: str(), phone: { type: ['string', 'null'] }, role: str() })),
  annotations: READ_ONLY,
  permission: 'locations.view',
  redact: (r) => ({ ...r, data: (r.data as Array<Record<string, unknown>>).map((row) => redactFields(row)) }),
  document: parse('{ teamMembers { id name email role } }') as Operation<{ teamMembers: Array<{ id: number; name: string; email: string; role: string }> }>,
  variables: () => ({}),
  result: (d) => pageOf({ items: d.teamMembers, total: d.teamMembers.length, page: 1, perPage: Math.max(1, d.teamMembers.length) }, (m) => ({ ...m, phone: null })),
});
/** A write fixture over the reply mutation: a second reply is refused (CONFLICT already_replied). */
const replyTool = defineTool<{ review_id: number }, { replyToReview: { id: number } }>({
  name: 'fixture_reply',
  title: 'Reply (fixture)',
  description: 'Test fixture: replies to a review once.',
  inputSchema: input({ review_id: int({ minimum: 1 }) }, ['review_id']),
  outputSchema: object({ id: int() }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  permission: 'reviews.respond',
  writes: true,
  document: parse('mutation ($id: Int!) { replyToReview(id: $id, input: { message: "Thank you!" }) { id } }') as Operation<{ replyToReview: { id: number } }>,
  variables: (a) => ({ id: a.review_id }),
  result: (d) => ({ id: d.replyToReview.id }),
});

describe('MCP personal data and audit log', () => {
  const app = useMcpApp({ tools: [...TOOLS, teamTool, replyTool] });
  let world: Awaited<ReturnType<typeof mcpWorld>>;
  beforeAll(async () => {
    world = await mcpWorld({ scan: false });
  });

  describe('include_pii and reviews:pii', () => {
    it('redacts name, email and phone unless include_pii=true', async () => {
      const res = await app.post(call('fixture_team'), { token: world.ai.owner });
      const members = res.json.result.structuredContent.data as Array<Record<string, unknown>>;
      expect(members.length).toBeGreaterThan(0);
      for (const m of members) expect(m).toMatchObject({ name: '[redacted]', email: '[redacted]', phone: null, role: expect.any(String) });
      expect(res.json.result.content[0].text).not.toContain('@');
    });

    it('unlocks them for a token with reviews:pii', async () => {
      const res = await app.post(call('fixture_team', { include_pii: true }), { token: world.ai.owner });
      const member = (res.json.result.structuredContent.data as Array<Record<string, unknown>>).find((m) => m.id === world.member.id);
      expect(member).toMatchObject({ name: 'Team Member', email: world.member.email });
    });

    it('refuses include_pii=true without reviews:pii (-32001 missing_permission), and redacts include_pii=false', async () => {
      const noPii = await tokenFor(world.owner, ['mcp:access', 'organizations:read'], 'ai');
      const refused = await app.post(call('fixture_team', { include_pii: true }), { token: noPii });
      expect(refused.json.error).toMatchObject({ code: -32001, data: { reason: 'missing_permission' }, message: expect.stringContaining('reviews.pii') });
      const redacted = await app.post(call('fixture_team', { include_pii: false }), { token: noPii });
      expect(redacted.json.result.structuredContent.data[0].email).toBe('[redacted]');
    });
  });

  describe('the audit log', () => {
    it('records every answered call of a token: method, tool, scrubbed arguments, PII flag, outcome, duration, correlation id', async () => {
      const w = await mcpWorld({ scan: false });
      const token = w.ai.owner;
      const headers = (id: string) => ({ 'x-correlation-id': id });
      await app.post(rpc('initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } }), { token, headers: headers('a-1') });
      await app.post(rpc('tools/list'), { token, headers: headers('a-2') });
      await app.post(call('get_review', { review_id: w.reviews[0].id }), { token, headers: headers('a-3') });
      await app.post(call('list_reviews', { organization_id: w.org.id, query: 'Ada Lovelace said hi' }), { token, headers: headers('a-4') });
      await app.post(call('fixture_team', { include_pii: true }), { token, headers: headers('a-5') });
      await app.post(call('run_scan', { uuid: '6f1d2c3b-1111-4222-8333-444455556666' }), { token, headers: headers('a-6') });
      await app.post('{broken', { token, headers: headers('a-7') });
      await app.post(rpc('ping'), { token: null, headers: headers('a-8') }); // no token: not audited
      await app.post({ jsonrpc: '2.0', method: 'notifications/initialized' }, { token, headers: headers('a-9') }); // nothing answered

      const rows = await auditRows(w.tenant.id, 7);
      expect(rows).toHaveLength(7);
      const tokenId = rows[0].tokenId;
      expect(rows.every((r) => r.tokenId === tokenId && r.userId === w.owner.id && r.durationMs >= 0 && r.requestId)).toBe(true);
      expect(rows.map((r) => [r.correlationId, r.method, r.tool, r.resultCode, r.errorReason, r.piiUnlocked])).toEqual([
        ['a-1', 'initialize', null, 0, null, false],
        ['a-2', 'tools/list', null, 0, null, false],
        ['a-3', 'tools/call', 'get_review', 0, null, false],
        ['a-4', 'tools/call', 'list_reviews', 0, null, false],
        ['a-5', 'tools/call', 'fixture_team', 0, null, true],
        ['a-6', 'tools/call', 'run_scan', -32002, 'not_found', false],
        ['a-7', '-', null, -32700, 'invalid_json', false],
      ]);
      expect(rows[2].arguments).toEqual({ review_id: w.reviews[0].id });
      // Free text that can name people is not kept.
      expect(rows[3].arguments).toEqual({ organization_id: w.org.id, query: '[redacted]' });
      expect(rows[0].arguments).toBeNull();
    });

    it('records a business refusal (a tool result with isError) as result code 1 with its reason', async () => {
      const w = await mcpWorld({ scan: false });
      const first = await app.post(call('fixture_reply', { review_id: w.reviews[0].id }), { token: w.ai.owner });
      expect(first.json.result.isError).toBeUndefined();
      const second = await app.post(call('fixture_reply', { review_id: w.reviews[0].id }), { token: w.ai.owner });
      expect(second.status).toBe(200);
      expect(second.json.result).toEqual({ isError: true, content: [{ type: 'text', text: expect.stringContaining('already_replied') }] });
      const rows = await auditRows(w.tenant.id, 2);
      expect(rows.map((r) => [r.resultCode, r.errorReason])).toEqual([
        [0, null],
        [1, 'already_replied'],
      ]);
    });

    it('is readable through GraphQL by the tenant owner only, within the tenant', async () => {
      const w = await mcpWorld({ scan: false });
      await app.post(call('list_locations', { organization_id: w.org.id }), { token: w.ai.owner, headers: { 'x-correlation-id': 'gql-1' } });
      await auditRows(w.tenant.id, 1);
      const query = `{ mcpAuditLog(perPage: 5) { total items { tokenId method tool argumentsJson piiUnlocked resultCode errorReason durationMs correlationId createdAt } } }`;
      const gql = (token: string) =>
        fetch(`${app.origin()}/graphql`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify({ query }) }).then((r) => r.json());
      const owner = await gql(await tokenFor(w.owner));
      expect(owner.data.mcpAuditLog.total).toBe(1);
      expect(owner.data.mcpAuditLog.items[0]).toMatchObject({
        method: 'tools/call',
        tool: 'list_locations',
        argumentsJson: JSON.stringify({ organization_id: w.org.id }),
        piiUnlocked: false,
        resultCode: 0,
        correlationId: 'gql-1',
      });
      const orgOwner = await gql(await tokenFor(w.orgOwner));
      expect(orgOwner.errors[0].extensions).toMatchObject({ code: 'FORBIDDEN', reason: 'tenant_owner_required' });
      // Another tenant's owner sees none of it.
      const other = await mcpWorld({ scan: false });
      expect((await gql(await tokenFor(other.owner))).data.mcpAuditLog.total).toBe(0);
    });

    it("asks a tenant owner's customer token for organizations:read, and answers row ids past 2^31 (BIGINT)", async () => {
      const w = await mcpWorld({ scan: false });
      // The next row's id is past GraphQL's 32-bit Int (the log's id is a BIGINT; an Int field answered an error).
      const past = 2 ** 31 + 1_000 + w.tenant.id;
      await McpAuditEntry.sequelize!.query(`ALTER TABLE mcp_audit_log AUTO_INCREMENT = ${past}`);
      await app.post(call('list_locations', { organization_id: w.org.id }), { token: w.ai.owner });
      const [row] = await auditRows(w.tenant.id, 1);
      expect(Number(row.id)).toBeGreaterThanOrEqual(past);
      const query = '{ mcpAuditLog(perPage: 5) { total items { id tool } } }';
      const gql = (token: string) =>
        fetch(`${app.origin()}/graphql`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify({ query }) }).then((r) => r.json());

      const readOnly = await gql(await tokenFor(w.owner, ['reviews:read']));
      expect(readOnly.errors[0].extensions).toMatchObject({ code: 'FORBIDDEN', reason: 'missing_permission' });
      expect(readOnly.data).toBeNull();
      const reader = await gql(await tokenFor(w.owner, ['organizations:read']));
      expect(reader.errors).toBeUndefined();
      expect(reader.data.mcpAuditLog).toEqual({ total: 1, items: [{ id: Number(row.id), tool: 'list_locations' }] });
    });
  });
});
