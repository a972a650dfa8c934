import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { publicBaseUrl } from '../../src/config';
import { reportOf } from '../../src/services/scan-report.service';
import { makeTenant } from '../support/factories';
import { seedReportScan } from '../support/scan-report';
import { call, connect, mcpWorld, rpc, useMcpApp, type RawAnswer } from './support';

/**
 * Issue 19, item 5: the scan report on demand as the MCP tool get_scan_report (additive to the spec's catalogue, with
 * the Local Search Grid tools: tenant owners only). Through the real endpoint, with the official SDK client (which
 * checks structuredContent against the listed outputSchema) and raw JSON-RPC for the error codes.
 */
jest.setTimeout(60_000);

const AT = [new Date('2026-10-05T09:00:00Z'), new Date('2026-10-12T09:00:00Z')];

describe('MCP get_scan_report', () => {
  const app = useMcpApp();
  let world: Awaited<ReturnType<typeof mcpWorld>>;
  let scanUuid: string;
  let foreignUuid: string;
  const clients: Client[] = [];

  beforeAll(async () => {
    world = await mcpWorld({ scan: false });
    // The business moves up one place at every pin of the west half (columns 0-2) between the two snapshots.
    const scan = await seedReportScan({
      tenantId: world.tenant.id,
      rivals: [
        { placeId: 'p-alpha', name: 'Alpha Dental' },
        { placeId: 'p-beta', name: 'Beta Smiles', where: (p) => p.row < 3 },
      ],
      snapshots: AT.map((at, i) => ({ at, rank: (p) => (p.col < 3 ? p.col + 3 - i : p.col + 3) })),
    });
    scanUuid = scan.uuid;
    const other = await makeTenant();
    foreignUuid = (await seedReportScan({ tenantId: other.tenant.id, snapshots: [{ at: AT[0], rank: () => 1 }] })).uuid;
  });
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close()));
  });
  const open = async (token: string) => {
    const client = await connect(app, token);
    clients.push(client);
    return client;
  };
  const expectError = (res: RawAnswer, code: number, reason?: string) => {
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ jsonrpc: '2.0', error: { code, message: expect.any(String) } });
    if (reason) expect(res.json.error.data.reason).toBe(reason);
  };

  it('is listed for the tenant owner after get_scan_insights, read-only, taking uuid, keyword and snapshot_at; hidden from others', async () => {
    const { tools } = await (await open(world.ai.owner)).listTools();
    const names = tools.map((t) => t.name);
    expect(names.slice(names.indexOf('get_scan_insights'), names.indexOf('get_scan_insights') + 3)).toEqual(['get_scan_insights', 'get_scan_report', 'create_scan']);
    const tool = tools.find((t) => t.name === 'get_scan_report')!;
    expect(tool.inputSchema).toMatchObject({ type: 'object', required: ['uuid'], additionalProperties: false });
    expect(Object.keys(tool.inputSchema.properties!)).toEqual(['uuid', 'keyword', 'snapshot_at']);
    expect(tool.annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false });
    expect(tool.outputSchema).toMatchObject({ type: 'object', additionalProperties: false });
    for (const token of [world.ai.orgOwner, world.ai.member]) {
      expect((await (await open(token)).listTools()).tools.map((t) => t.name)).not.toContain('get_scan_report');
    }
  });

  it("answers the report page's figures in snake_case with the public page and PDF links, valid against its outputSchema", async () => {
    const client = await open(world.ai.owner);
    const res = await client.callTool({ name: 'get_scan_report', arguments: { uuid: scanUuid } });
    expect(res.isError).toBeFalsy();
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the wire's JSON, asserted field by field
    const r = res.structuredContent as Record<string, any>;
    expect(JSON.parse((res.content as Array<{ text: string }>)[0].text)).toEqual(r);

    // The same figures as the report page reads for the scan (first keyword, latest snapshot).
    const page = await reportOf(scanUuid, {});
    const s = page.summary!;
    expect(r.language).toBe('en');
    expect(r.scan).toEqual({ uuid: scanUuid, location: 'Main Street Dental', address: '12 Main Street, London', type: 'business', keywords: ['dentist', 'teeth whitening'], grid_size: 5, distance: 2, distance_unit: 'km', lat: 51.5072, lng: -0.1276 });
    expect(r.keyword).toBe('dentist');
    expect(r.snapshot).toMatchObject({ snapshot_at: AT[1].toISOString(), total_pins: 25, avg_rank: page.snapshot!.avgRank, change_from_previous: -0.6, ranked: true });
    expect(r.snapshots.map((x: { snapshot_at: string }) => x.snapshot_at)).toEqual([AT[1].toISOString(), AT[0].toISOString()]);
    expect(r.summary).toEqual({
      average_rank: s.averageRank,
      top_3: s.top3,
      top_4_to_10: s.top4to10,
      top_11_to_20: s.top11to20,
      not_ranking: s.notRanking,
      total_pins: 25,
      visibility_score: s.visibilityScore,
      change_from_previous: -0.6,
      previous_snapshot_at: AT[0].toISOString(),
    });
    expect(r.summary.top_3).toBe(10);
    expect(r.pins).toEqual(page.pins.map((p) => ({ lat: p.lat, lng: p.lng, rank: p.rank, status: p.status })));
    expect(r.competitors).toEqual(page.competitors.map((c) => ({ name: c.name, avg_rank: c.avgRank, appearances: c.appearances, coverage: c.coverage, threat_score: c.threatScore })));
    expect(r.competitors.find((c: { name: string }) => c.name === 'Beta Smiles')).toMatchObject({ appearances: 15, coverage: 60 });
    const h = page.history!;
    expect(r.history.size).toBe(5);
    expect(r.history.trend.map((x: { snapshot_at: string }) => x.snapshot_at)).toEqual(h.trend.map((x) => x.snapshotAt.toISOString()));
    expect(r.history.competitors).toEqual(h.competitors.map((c) => ({ place_id: c.placeId, name: c.name, points: c.points.map((p) => ({ avg_rank: p.avgRank, visibility: p.visibility })) })));
    expect(r.history.changes).toMatchObject({ previous_snapshot_at: AT[0].toISOString(), gained: 15, lost: 0, same: 10 });
    expect(r.history.changes.cells).toEqual(h.changes!.cells.map((c) => ({ x: c.x, y: c.y, rank: c.rank, previous_rank: c.previousRank, change: c.change })));
    expect(r.history.overtakers).toEqual(h.overtakers);
    const query = `keyword=dentist&snapshot_at=${encodeURIComponent(AT[1].toISOString())}`;
    expect(r.html_url).toBe(`${publicBaseUrl()}/reports/scans/${scanUuid}?${query}`);
    expect(r.pdf_url).toBe(`${publicBaseUrl()}/reports/scans/${scanUuid}.pdf?${query}`);

    // The raw answer validates against the schema tools/list publishes (the SDK client checked it too).
    const listed = await app.post(rpc('tools/list'), { token: world.ai.owner });
    const outputSchema = listed.json.result.tools.find((t: { name: string }) => t.name === 'get_scan_report').outputSchema;
    const ajv = new Ajv({ allErrors: true, strict: true });
    addFormats(ajv, ['date-time', 'uri', 'uuid']);
    const validate = ajv.compile(outputSchema);
    const raw = await app.post(call('get_scan_report', { uuid: scanUuid, keyword: 'teeth whitening', snapshot_at: AT[0].toISOString() }), { token: world.ai.owner });
    const first = raw.json.result.structuredContent;
    expect([validate(first), validate.errors]).toEqual([true, null]);
    // A first snapshot: no previous one, no changes, and its links name it.
    expect(first).toMatchObject({ keyword: 'teeth whitening', summary: { change_from_previous: null, previous_snapshot_at: null }, history: { changes: null } });
    expect(first.html_url).toContain(`keyword=teeth+whitening&snapshot_at=${encodeURIComponent(AT[0].toISOString())}`);
    const unknown = (await app.post(call('get_scan_report', { uuid: scanUuid, keyword: 'plumber' }), { token: world.ai.owner })).json.result.structuredContent;
    expect([validate(unknown), validate.errors]).toEqual([true, null]);
    expect(unknown).toMatchObject({ keyword: 'plumber', snapshot: null, summary: null, history: null, html_url: null, pdf_url: null });
  });

  it("answers another tenant's scan, an unknown scan and a snapshot time the keyword does not have with -32002 not_found", async () => {
    for (const args of [{ uuid: foreignUuid }, { uuid: '6f1d2c3b-1111-4222-8333-444455556666' }, { uuid: scanUuid, snapshot_at: '2026-10-06T09:00:00Z' }]) {
      expectError(await app.post(call('get_scan_report', args), { token: world.ai.owner }), -32002, 'not_found');
    }
  });

  it.each([
    ['a uuid that is not one', { uuid: 'not-a-uuid' }, 'uuid'],
    ['no uuid', {}, 'uuid'],
    ['a snapshot_at that is no timestamp', { uuid: '6f1d2c3b-1111-4222-8333-444455556666', snapshot_at: 'last tuesday' }, 'snapshot_at'],
    ['an argument it does not take', { uuid: '6f1d2c3b-1111-4222-8333-444455556666', top_n: 3 }, 'top_n'],
  ])('refuses %s with -32602 naming the argument', async (_what, args, field) => {
    const res = await app.post(call('get_scan_report', args), { token: world.ai.owner });
    expectError(res, -32602);
    expect(Object.keys(res.json.error.data.errors)).toContain(field);
  });

  it("answers a timestamp the schema lets through but the scan rules refuse (a space for the T) with -32602, as the scan tools' VALIDATION", async () => {
    const res = await app.post(call('get_scan_report', { uuid: scanUuid, snapshot_at: '2026-10-12 09:00:00Z' }), { token: world.ai.owner });
    expectError(res, -32602);
    expect(res.json.error.data.errors).toEqual({ snapshot_at: [expect.any(String)] });
  });

  it('refuses an organisation owner and a team member with -32001 tenant_owner_required, like the other scan tools', async () => {
    for (const token of [world.ai.orgOwner, world.ai.member]) {
      expectError(await app.post(call('get_scan_report', { uuid: scanUuid }), { token }), -32001, 'tenant_owner_required');
      expectError(await app.post(call('get_scan_insights', { uuid: scanUuid }), { token }), -32001, 'tenant_owner_required');
    }
  });
});
