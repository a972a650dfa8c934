import fs from 'node:fs';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SERVER_VERSION } from '../../facades/mcp';
import { Scan } from '../../src/models';
import { useTemporalWorker } from '../support/temporal';
import { connect, mcpWorld, useMcpApp } from './support';

/**
 * The MCP endpoint through the official SDK client (Client + StreamableHTTPClientTransport), which checks every
 * tool's structuredContent against the outputSchema that tools/list published.
 */
jest.setTimeout(60_000);

/** The tools of test/mcp/tools-more.test.ts: those after list_locations, and those reviews:read alone opens. */
const MORE_READ = ['get_metrics', 'list_campaigns', 'get_ai_insights', 'get_report', 'list_private_feedback', 'list_contacts', 'get_contact_activity', 'list_auto_respond_rules', 'list_gbp_metrics', 'list_gbp_search_terms'];
const MORE_READ_REVIEWS = ['get_metrics', 'get_ai_insights', 'get_report', 'list_private_feedback', 'list_gbp_metrics', 'list_gbp_search_terms'];
const LSG = ['list_scans', 'get_scan', 'get_scan_data_points', 'list_scan_snapshots', 'get_scan_insights', 'get_scan_report', 'create_scan', 'run_scan', 'schedule_scan'];

describe('MCP endpoint through the official SDK client', () => {
  const app = useMcpApp();
  useTemporalWorker();
  let world: Awaited<ReturnType<typeof mcpWorld>>;
  const clients: Client[] = [];
  const open = async (token: string) => {
    const c = await connect(app, token);
    clients.push(c);
    return c;
  };
  beforeAll(async () => {
    world = await mcpWorld();
  });
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close()));
  });

  it('initializes on protocol 2025-06-18 with the tenant brand as server name and the package version', async () => {
    const client = await open(world.ai.owner);
    expect(client.getServerVersion()).toEqual({ name: `Brand ${world.tenant.id}`, version: SERVER_VERSION });
    expect(SERVER_VERSION).toBe((JSON.parse(fs.readFileSync(path.resolve(__dirname, '../../package.json'), 'utf8')) as { version: string }).version);
    // resources: the MCP Apps View of the scan tools (test/mcp/scan-widget.test.ts).
    expect(client.getServerCapabilities()).toEqual({ tools: {}, resources: {} });
    expect((client.transport as unknown as { protocolVersion?: string }).protocolVersion).toBe('2025-06-18');
    await expect(client.ping()).resolves.toEqual({});
  });

  it('lists the whole catalogue to a tenant owner, each tool with title, schemas and annotations', async () => {
    const client = await open(world.ai.owner);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual([
      'list_reviews',
      'get_review',
      'list_organizations',
      'list_locations',
      ...MORE_READ,
      ...LSG,
      'draft_review_response',
      'tag_reviews',
    ]);
    for (const t of tools) {
      expect(t.title).toEqual(expect.any(String));
      expect(t.description!.length).toBeGreaterThan(60);
      expect(t.inputSchema).toMatchObject({ type: 'object', additionalProperties: false });
      expect(t.outputSchema).toMatchObject({ type: 'object' });
      expect(Object.keys(t.annotations!).sort()).toEqual(['destructiveHint', 'idempotentHint', 'openWorldHint', 'readOnlyHint', 'title']);
    }
    const byName = Object.fromEntries(tools.map((t) => [t.name, t]));
    expect(byName.list_reviews.annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false, idempotentHint: true });
    expect(byName.create_scan.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: false, idempotentHint: false });
    expect(byName.list_reviews.inputSchema.properties!.per_page).toMatchObject({ minimum: 1, maximum: 50, default: 25 });
    expect(byName.list_scans.inputSchema.properties!.per_page).toMatchObject({ minimum: 1, maximum: 100, default: 20 });
    expect(byName.get_scan_data_points.inputSchema.properties!.per_page).toMatchObject({ minimum: 1, maximum: 50, default: 50 });
    expect(byName.create_scan.inputSchema.required).toEqual(['location', 'keywords', 'grid_size', 'distance', 'distance_unit']);
  });

  it('never shows Local Search Grid tools to a customer, nor write tools to a token without mcp:writes', async () => {
    const client = await open(world.ai.orgOwner);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(['list_reviews', 'get_review', 'list_organizations', 'list_locations', ...MORE_READ_REVIEWS]);
  });

  it('calls every read tool on seeded data, each result valid against its outputSchema', async () => {
    const client = await open(world.ai.owner);
    await client.listTools(); // the SDK validates structuredContent against the schemas it listed
    const text = (r: object) => JSON.parse(((r as { content: Array<{ text: string }> }).content)[0].text);

    const reviews = await client.callTool({ name: 'list_reviews', arguments: { organization_id: world.org.id } });
    expect(reviews.isError).toBeFalsy();
    const sc = reviews.structuredContent as { data: Array<{ author: string }>; pagination: object };
    expect(sc.data.map((r) => r.author)).toEqual(['Cy Branch', 'Bob Home', 'Ada Home']);
    expect(sc.pagination).toEqual({ page: 1, per_page: 25, total: 3, last_page: 1, has_more: false });
    expect(text(reviews)).toEqual(sc);

    const one = await client.callTool({ name: 'get_review', arguments: { review_id: world.reviews[0].id } });
    expect(one.structuredContent).toMatchObject({ id: world.reviews[0].id, author: 'Ada Home', rating: 5, source: 'Testimonials', reply: null });

    const orgs = await client.callTool({ name: 'list_organizations', arguments: {} });
    const org = (orgs.structuredContent as { data: Array<Record<string, unknown>> }).data.find((o) => o.id === world.org.id)!;
    expect(org.stats).toEqual({ review_count: 3, average_rating: 3.67, star_distribution: { 5: 1, 4: 1, 3: 0, 2: 1, 1: 0 } });
    expect((org.locations as Array<{ name: string }>).map((l) => l.name)).toEqual(['Default Location', 'Branch']);

    const locations = await client.callTool({ name: 'list_locations', arguments: { organization_id: world.org.id, per_page: 1 } });
    expect(locations.structuredContent).toMatchObject({ data: [{ id: world.home.id, name: 'Default Location' }], pagination: { total: 2, per_page: 1, has_more: true } });

    const scans = await client.callTool({ name: 'list_scans', arguments: { completed: true } });
    expect(scans.structuredContent).toMatchObject({ data: [{ uuid: world.scan.uuid, grid_size: 7, keywords: ['dentist', 'teeth whitening'] }] });

    const detail = await client.callTool({ name: 'get_scan', arguments: { uuid: world.scan.uuid, top_n: 2 } });
    const d = detail.structuredContent as { results: Array<{ top_results: unknown[] }>; available_snapshots: string[]; summary: object };
    expect(d.results).toHaveLength(2 * 49);
    expect(d.results.every((r) => r.top_results.length <= 2)).toBe(true);
    expect(d.available_snapshots).toHaveLength(1);

    const points = await client.callTool({ name: 'get_scan_data_points', arguments: { uuid: world.scan.uuid, keyword: 'dentist', per_page: 10, page: 2 } });
    expect(points.structuredContent).toMatchObject({
      pagination: { page: 2, per_page: 10, total: 49, last_page: 5, has_more: true },
      meta: { scan_uuid: world.scan.uuid, keyword: 'dentist', top_n: 5 },
    });
    expect((points.structuredContent as { data: unknown[] }).data).toHaveLength(10);

    const snapshots = await client.callTool({ name: 'list_scan_snapshots', arguments: { uuid: world.scan.uuid } });
    expect(snapshots.structuredContent).toMatchObject({ data: [{ total_pins: 49, change_from_previous: 0 }], pagination: { total: 1 } });

    const insights = await client.callTool({ name: 'get_scan_insights', arguments: { uuid: world.scan.uuid, keyword: 'teeth whitening' } });
    expect(insights.structuredContent).toMatchObject({ scan_uuid: world.scan.uuid, keyword: 'teeth whitening', summary: { total_pins: 49 } });
  });

  it('calls the write tools: create_scan, run_scan and schedule_scan', async () => {
    const client = await open(world.ai.owner);
    await client.listTools();
    const created = await client.callTool({
      name: 'create_scan',
      arguments: { location: 'MCP Dental', keywords: ['dentist'], grid_size: 3, distance: 1, distance_unit: 'km', lat: 30.27, lng: -97.74 },
    });
    expect(created.isError).toBeFalsy();
    const { uuid } = created.structuredContent as { uuid: string };
    expect(created.structuredContent).toMatchObject({ is_running: true, started_at: expect.any(String) });
    expect(await Scan.count({ where: { uuid, tenantId: world.tenant.id } })).toBe(1);

    const run = await client.callTool({ name: 'run_scan', arguments: { uuid: world.scan.uuid } });
    expect(run.structuredContent).toMatchObject({ uuid: world.scan.uuid, is_running: true });

    const again = await client.callTool({ name: 'run_scan', arguments: { uuid: world.scan.uuid } });
    // A business refusal (409 on REST): a tool result the model can read, not a protocol error.
    expect(again.isError).toBe(true);
    expect(JSON.parse((again.content as Array<{ text: string }>)[0].text)).toMatchObject({ error: { reason: 'scan_running' } });

    const scheduled = await client.callTool({
      name: 'schedule_scan',
      arguments: { uuid: world.scan.uuid, is_scheduled: true, frequency: 'weekly', scheduled_from: '09:00', scheduled_to: '17:00', scheduled_days: [1, 3], timezone: 'Europe/Berlin' },
    });
    expect(scheduled.structuredContent).toMatchObject({ is_scheduled: true, frequency: 'weekly', scheduled_days: [1, 3], timezone: 'Europe/Berlin', next_run_at: expect.any(String) });
  });

  it('answers protocol errors as McpError codes through the SDK', async () => {
    const client = await open(world.ai.orgOwner);
    await expect(client.callTool({ name: 'get_review', arguments: { review_id: 2_000_000_000 } })).rejects.toMatchObject({ code: -32002 });
    await expect(client.callTool({ name: 'no_such_tool', arguments: {} })).rejects.toMatchObject({ code: -32601 });
    await expect(client.callTool({ name: 'list_reviews', arguments: { per_page: 51 } })).rejects.toMatchObject({ code: -32602 });
    await expect(client.callTool({ name: 'list_scans', arguments: {} })).rejects.toMatchObject({ code: -32001 });
  });
});
