import { Client, ProtocolError, StreamableHTTPClientTransport, type VersionNegotiationMode } from '@modelcontextprotocol/client';
import { fixedClock } from '../../src/domain/clock';
import { ALL } from '../support/factories';
import { principalFor } from '../../src/services/auth.service';
import * as autoRespond from '../../src/services/auto-respond.service';
import { logActivity } from '../../src/services/invites.service';
import { submitFeedback } from '../../src/services/private-feedback.service';
import { setAutoRespondFeature } from '../auto-respond/support';
import { putKeywords, putMetrics } from '../gbp/support';
import { makeCampaign, makeSentInvite } from '../inbound/support';
import { useTemporalWorker } from '../support/temporal';
import { SERVER_VERSION } from '../../facades/mcp';
import { auditRows, mcpWorld, READ_TOOLS, rpc, TOOLS, useMcpApp } from './support';

/**
 * The MCP endpoint through the official SDK v2 client (`@modelcontextprotocol/client`): pinned to protocol 2026-07-28
 * (stateless: `server/discover`, the per-request `_meta` envelope and the MCP-Protocol-Version / Mcp-Method / Mcp-Name
 * headers), in its probing mode, and in its default 2025 mode (an `initialize` asking for 2025-11-25, answered with
 * 2025-06-18). Each way lists the whole catalogue and calls every tool; the client checks each structuredContent
 * against the outputSchema it listed.
 */
jest.setTimeout(90_000);

async function seed() {
  const w = await mcpWorld();
  const campaign = await makeCampaign(w.org, w.home, { name: 'After the visit' });
  const { contact, invite } = await makeSentInvite(campaign, { firstName: 'Grace', lastName: 'Hopper', email: 'grace.hopper@example.test', phone: '+14155552671' });
  await logActivity({ tenantId: campaign.tenantId, customerId: campaign.customerId, contactId: contact.id, campaignId: campaign.id, type: 'sent', channel: 'email', detail: 'Step 1 (email) sent.', occurredAt: new Date('2026-01-06T09:00:00Z') });
  await submitFeedback(invite.uuid, { name: 'Pat Doe', email: 'pat.doe@example.test', phone: '', message: 'The wait was too long.', rating: '2' }, { clock: fixedClock(new Date('2026-01-07T12:00:00Z')) });
  await setAutoRespondFeature(w.orgOwner.customerId!, true);
  const ownerP = await principalFor(w.orgOwner, { id: 0, kind: 'customer', permissions: ALL });
  await autoRespond.createRule(ownerP, { organizationId: w.org.id, name: 'Thank five stars', ratings: [5], template: 'Thank you, {first_name}!' });
  await putMetrics(w.home, [['2026-01-10', 'CALL_CLICKS', 3]]);
  await putKeywords(w.home, [{ keyword: 'dentist near me', year: 2025, month: 11, impressions: 120 }]);
  return { ...w, contact };
}
type World = Awaited<ReturnType<typeof seed>>;

/** Every tool of the catalogue with arguments that succeed on the seeded world, and what its result shows. */
function everyCall(w: World): Array<[string, Record<string, unknown>, (sc: Record<string, unknown>) => void]> {
  const page = (sc: Record<string, unknown>) => expect(sc).toMatchObject({ data: expect.any(Array), pagination: expect.objectContaining({ page: 1 }) });
  return [
    ['list_reviews', { organization_id: w.org.id }, (sc) => expect((sc.data as Array<{ author: string }>).map((r) => r.author)).toEqual(['Cy Branch', 'Bob Home', 'Ada Home'])],
    ['get_review', { review_id: w.reviews[0].id }, (sc) => expect(sc).toMatchObject({ author: 'Ada Home', rating: 5 })],
    ['list_organizations', { organization_id: w.org.id }, (sc) => expect(sc).toMatchObject({ data: [{ id: w.org.id }] })],
    ['list_locations', { organization_id: w.org.id }, (sc) => expect(sc).toMatchObject({ pagination: { total: 2 } })],
    ['get_metrics', { organization_id: w.org.id, date_from: '2026-01-01', date_to: '2026-01-31' }, (sc) => expect(sc).toMatchObject({ totals: { total_reviews: 3 } })],
    ['list_campaigns', { organization_id: w.org.id }, (sc) => expect(sc).toMatchObject({ data: [{ name: 'After the visit' }] })],
    ['get_ai_insights', { organization_id: w.org.id, period_start: '2026-01-01', period_end: '2026-01-31' }, (sc) => expect(sc).toEqual(expect.any(Object))],
    ['get_report', { organization_id: w.org.id, month: '2026-01' }, (sc) => expect(sc).toMatchObject({ month: '2026-01', totals: { total_reviews: 3 } })],
    ['list_private_feedback', { organization_id: w.org.id }, (sc) => expect(sc).toMatchObject({ data: [{ email: '[redacted]' }] })],
    ['list_contacts', { organization_id: w.org.id, include_pii: true }, (sc) => expect(sc).toMatchObject({ data: [{ email: 'grace.hopper@example.test' }] })],
    ['get_contact_activity', { contact_id: w.contact.id }, (sc) => expect(sc).toEqual(expect.any(Object))],
    ['list_auto_respond_rules', { organization_id: w.org.id }, (sc) => expect(sc).toMatchObject({ data: [{ name: 'Thank five stars' }] })],
    ['list_gbp_metrics', { location_id: w.home.id, from: '2026-01-10', to: '2026-01-11' }, (sc) => expect(sc).toEqual(expect.any(Object))],
    ['list_gbp_search_terms', { location_id: w.home.id, year: 2025 }, page],
    ['list_scans', { completed: true }, (sc) => expect(sc).toMatchObject({ data: [{ uuid: w.scan.uuid }] })],
    ['get_scan', { uuid: w.scan.uuid, top_n: 1 }, (sc) => expect(sc).toMatchObject({ uuid: w.scan.uuid, grid_size: 7 })],
    ['get_scan_data_points', { uuid: w.scan.uuid, keyword: 'dentist', per_page: 5 }, (sc) => expect(sc).toMatchObject({ pagination: { total: 49, per_page: 5 } })],
    ['list_scan_snapshots', { uuid: w.scan.uuid }, (sc) => expect(sc).toMatchObject({ data: [{ total_pins: 49 }] })],
    ['get_scan_insights', { uuid: w.scan.uuid }, (sc) => expect(sc).toMatchObject({ scan_uuid: w.scan.uuid })],
    ['get_scan_report', { uuid: w.scan.uuid }, (sc) => expect(sc).toMatchObject({ keyword: 'dentist', summary: { total_pins: 49 }, html_url: expect.stringContaining(`/reports/scans/${w.scan.uuid}?keyword=dentist`) })],
    ['create_scan', { location: 'V2 Dental', keywords: ['dentist'], grid_size: 3, distance: 1, distance_unit: 'km', lat: 30.27, lng: -97.74 }, (sc) => expect(sc).toMatchObject({ is_running: true })],
    ['run_scan', { uuid: w.scan.uuid }, (sc) => expect(sc).toMatchObject({ uuid: w.scan.uuid, is_running: true })],
    ['schedule_scan', { uuid: w.scan.uuid, is_scheduled: true, frequency: 'weekly', scheduled_from: '09:00', scheduled_to: '17:00' }, (sc) => expect(sc).toMatchObject({ is_scheduled: true })],
    ['draft_review_response', { review_id: w.reviews[1].id, message: 'Sorry about the wait.' }, (sc) => expect(sc).toMatchObject({ review_id: w.reviews[1].id })],
    ['tag_reviews', { review_ids: [w.reviews[0].id], attach_tags: ['vip'] }, (sc) => expect(sc).toEqual({ data: [{ review_id: w.reviews[0].id, tags: ['vip'] }] })],
  ];
}

const ERAS: Array<[string, VersionNegotiationMode | undefined, string]> = [
  ['2026-07-28 (pinned)', { pin: '2026-07-28' }, '2026-07-28'],
  ['negotiated by probing (auto)', 'auto', '2026-07-28'],
  ['2025 (the client asks for 2025-11-25 in initialize)', undefined, '2025-06-18'],
];

describe('MCP endpoint through the official SDK v2 client', () => {
  const app = useMcpApp();
  useTemporalWorker();
  const clients: Client[] = [];
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close()));
  });
  const open = async (token: string, mode: VersionNegotiationMode | undefined, headers: Record<string, string> = {}) => {
    const client = new Client({ name: 'reviewgrid-tests-v2', version: '1.0.0' }, mode === undefined ? {} : { versionNegotiation: { mode } });
    const transport = new StreamableHTTPClientTransport(new URL(app.url()), { requestInit: { headers: { Authorization: `Bearer ${token}`, ...headers } } });
    await client.connect(transport);
    clients.push(client);
    return client;
  };

  describe.each(ERAS)('%s', (_name, mode, version) => {
    let world: World;
    beforeAll(async () => {
      world = await seed();
    });

    it(`negotiates ${version} with the tenant brand as server name and the tools and resources capabilities`, async () => {
      const client = await open(world.ai.owner, mode);
      expect(client.getNegotiatedProtocolVersion()).toBe(version);
      expect(client.getServerVersion()).toEqual({ name: `Brand ${world.tenant.id}`, version: SERVER_VERSION });
      // resources: the MCP Apps View of the scan tools (test/mcp/scan-widget.test.ts).
      // extensions: the Tasks extension, a 2026-07-28 feature (test/mcp/tasks.test.ts).
      const tasks = version === '2026-07-28' ? { extensions: { 'io.modelcontextprotocol/tasks': {} } } : {};
      expect(client.getServerCapabilities()).toEqual({ tools: {}, resources: {}, ...tasks });
    });

    it('lists the whole catalogue and calls every tool, each result valid against its outputSchema', async () => {
      const client = await open(world.ai.owner, mode);
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toEqual(TOOLS.map((t) => t.name));
      const calls = everyCall(world);
      expect(calls.map(([name]) => name).sort()).toEqual(TOOLS.map((t) => t.name).sort());
      for (const [name, args, check] of calls) {
        const res = await client.callTool({ name, arguments: args });
        expect([name, res.isError ?? false]).toEqual([name, false]);
        const sc = res.structuredContent as Record<string, unknown>;
        check(sc);
        expect(JSON.parse((res.content as Array<{ text: string }>)[0].text)).toEqual(sc);
      }
      // A business refusal stays a tool result the model can read.
      const again = await client.callTool({ name: 'run_scan', arguments: { uuid: world.scan.uuid } });
      expect(again.isError).toBe(true);
      expect(JSON.parse((again.content as Array<{ text: string }>)[0].text)).toMatchObject({ error: { reason: 'scan_running' } });
    });

    it('answers the spec codes as protocol errors: -32002, -32601, -32602 naming the argument, -32001', async () => {
      const client = await open(world.ai.orgOwner, mode);
      const codeOf = (p: Promise<unknown>) =>
        p.then(
          () => null,
          (e: unknown) => (e instanceof ProtocolError ? { code: e.code, reason: (e.data as { reason?: string } | undefined)?.reason } : String(e)),
        );
      expect(await codeOf(client.callTool({ name: 'get_review', arguments: { review_id: 2_000_000_000 } }))).toEqual({ code: -32002, reason: 'not_found' });
      expect(await codeOf(client.callTool({ name: 'no_such_tool', arguments: {} }))).toEqual({ code: -32601, reason: 'unknown_tool' });
      expect(await codeOf(client.callTool({ name: 'list_reviews', arguments: { per_page: 51 } }))).toEqual({ code: -32602, reason: 'invalid_arguments' });
      expect(await codeOf(client.callTool({ name: 'list_scans', arguments: {} }))).toEqual({ code: -32001, reason: 'tenant_owner_required' });
    });

    it('hides the Local Search Grid and write tools from an organisation owner without mcp:writes', async () => {
      const client = await open(world.ai.orgOwner, mode);
      expect((await client.listTools()).tools.map((t) => t.name)).toEqual(READ_TOOLS);
    });
  });

  describe('2026-07-28 on the wire', () => {
    let world: World;
    beforeAll(async () => {
      world = await seed();
    });
    const meta = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' }, 'io.modelcontextprotocol/clientCapabilities': {} };
    const modern = (method: string, params: object = {}, id = 1) => rpc(method, { ...params, _meta: meta }, id);
    const headers = (method: string, name?: string) => ({ 'mcp-protocol-version': '2026-07-28', 'mcp-method': method, ...(name ? { 'mcp-name': name } : {}) });

    it('answers server/discover and a cacheable tools/list stamped with the server identity, no session', async () => {
      const discover = await app.post(modern('server/discover'), { token: world.ai.owner, headers: headers('server/discover') });
      expect(discover.status).toBe(200);
      expect(discover.headers.get('mcp-session-id')).toBeNull();
      expect(discover.json.result).toMatchObject({
        supportedVersions: ['2026-07-28'],
        capabilities: { tools: {} },
        resultType: 'complete',
        _meta: { 'io.modelcontextprotocol/serverInfo': { name: `Brand ${world.tenant.id}`, version: SERVER_VERSION } },
      });
      const list = await app.post(modern('tools/list'), { token: world.ai.owner, headers: headers('tools/list') });
      expect(list.json.result).toMatchObject({ ttlMs: 300_000, cacheScope: 'private', resultType: 'complete' });
      expect(list.json.result.tools).toHaveLength(TOOLS.length);
    });

    it('keeps the contract of the front layer: -32002 not_found (the SDK alone would send -32602), audit with method and correlation id', async () => {
      const notFound = await app.post(modern('tools/call', { name: 'get_review', arguments: { review_id: 2_000_000_000 } }, 7), {
        token: world.ai.owner,
        headers: { ...headers('tools/call', 'get_review'), 'x-correlation-id': 'v2-1' },
      });
      expect(notFound.status).toBe(200);
      expect(notFound.json).toEqual({ jsonrpc: '2.0', id: 7, error: { code: -32002, message: expect.any(String), data: { reason: 'not_found' } } });
      expect(notFound.headers.get('x-correlation-id')).toBe('v2-1');
      const ok = await app.post(modern('tools/call', { name: 'get_review', arguments: { review_id: world.reviews[0].id } }, 8), {
        token: world.ai.owner,
        headers: { ...headers('tools/call', 'get_review'), 'x-correlation-id': 'v2-2' },
      });
      expect(ok.json.result).toMatchObject({ resultType: 'complete', structuredContent: { id: world.reviews[0].id } });
      const rows = (await auditRows(world.tenant.id, 4)).filter((r) => r.correlationId?.startsWith('v2-'));
      expect(rows.map((r) => [r.correlationId, r.method, r.tool, r.resultCode, r.errorReason])).toEqual([
        ['v2-1', 'tools/call', 'get_review', -32002, 'not_found'],
        ['v2-2', 'tools/call', 'get_review', 0, null],
      ]);
    });

    it('answers subscriptions/listen with a stream acknowledging nothing to notify (the catalogue never changes), ended by the client', async () => {
      const gone = new AbortController();
      const res = await fetch(app.url(), {
        method: 'POST',
        signal: gone.signal,
        headers: { authorization: `Bearer ${world.ai.owner}`, 'content-type': 'application/json', ...headers('subscriptions/listen') },
        body: JSON.stringify(modern('subscriptions/listen', { notifications: { toolsListChanged: true } })),
      });
      expect([res.status, res.headers.get('content-type')]).toEqual([200, 'text/event-stream']);
      const first = new TextDecoder().decode((await res.body!.getReader().read()).value);
      expect(first).toContain('"method":"notifications/subscriptions/acknowledged","params":{"notifications":{}');
      gone.abort();
    });

    it("leaves the envelope's own rules to the SDK: a header that contradicts the body, a revision it does not serve", async () => {
      const mismatch = await app.post(modern('tools/list'), { token: world.ai.owner, headers: headers('tools/call') });
      expect(mismatch.status).toBe(400);
      expect(mismatch.json.error.code).toEqual(expect.any(Number));
      const future = await app.post(rpc('tools/list', { _meta: { ...meta, 'io.modelcontextprotocol/protocolVersion': '2099-01-01' } }), { token: world.ai.owner });
      expect(future.status).toBe(400);
      expect(future.json.error.data).toMatchObject({ supported: ['2026-07-28'], requested: '2099-01-01' });
      // Methods of no era, or of the other one (initialize and ping are gone in 2026-07-28, even without their params):
      // -32601 unknown_method with HTTP 404, as the 2026-07-28 HTTP binding says (SEP-2575).
      for (const method of ['prompts/list', 'initialize', 'ping', 'logging/setLevel']) {
        const res = await app.post(modern(method, method === 'initialize' ? { protocolVersion: '2026-07-28', capabilities: {}, clientInfo: { name: 'x', version: '1' } } : {}), {
          token: world.ai.owner,
          headers: headers(method),
        });
        expect([method, res.status, res.json.error.code, res.json.error.data.reason]).toEqual([method, 404, -32601, 'unknown_method']);
      }
      const bare = await app.post(modern('initialize'), { token: world.ai.owner, headers: headers('initialize') });
      expect([bare.status, bare.json.error.code]).toEqual([404, -32601]);
      // The header itself is ours to refuse, as before: -32600, with the revisions served to an envelope and the one asked.
      const header = await app.post(modern('tools/list'), { token: world.ai.owner, headers: { ...headers('tools/list'), 'mcp-protocol-version': '2099-01-01' } });
      expect([header.status, header.json.error.code, header.json.error.data]).toEqual([400, -32600, { reason: 'unsupported_protocol_version', supported: ['2026-07-28'], requested: '2099-01-01' }]);
      // An unknown resource: SEP-2164's -32602 with the uri (2025-06-18 keeps -32002 not_found, test/mcp/scan-widget.test.ts).
      const uri = 'ui://reviewgrid/nothing.html';
      const unknown = await app.post(modern('resources/read', { uri }), { token: world.ai.owner, headers: headers('resources/read', uri) });
      expect(unknown.json.error).toMatchObject({ code: -32602, data: { reason: 'not_found', uri } });
    });
  });
});
