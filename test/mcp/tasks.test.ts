import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { createTaskSessionFromClient, resultFromTaskOutcome, type RawClientDispatch } from '@modelcontextprotocol/ext-tasks/client';
import { isCreateTaskResultV2, isDetailedTaskV2 } from '@modelcontextprotocol/ext-tasks/core/v2';
import { McpAuditEntry, Scan, ScanSnapshot } from '../../src/models';
import { failRun } from '../../src/services/scans.service';
import { useTemporalWorker } from '../support/temporal';
import { waitUntil } from '../support/wait';
import { mcpWorld, rpc, useMcpApp } from './support';

/**
 * The MCP Tasks extension (io.modelcontextprotocol/tasks, SEP-2663) on 2026-07-28: create_scan and run_scan answer a
 * request that declares the extension with a task (the scan run), tasks/get reports it until the run's outcome is
 * inlined; without the extension, and on 2025-06-18, the same calls answer synchronously as before. Driven by the
 * extension's official client (@modelcontextprotocol/ext-tasks) over the SDK v2 client, and on the raw wire checked
 * with the extension's own wire guards.
 */
jest.setTimeout(120_000);

const TASKS = 'io.modelcontextprotocol/tasks';
const CREATE = { location: 'Task Dental', keywords: ['dentist', 'teeth whitening'], grid_size: 3, distance: 1, distance_unit: 'km', lat: 30.27, lng: -97.74 };

describe('MCP Tasks extension (2026-07-28)', () => {
  const app = useMcpApp();
  useTemporalWorker();
  let world: Awaited<ReturnType<typeof mcpWorld>>;
  beforeAll(async () => {
    world = await mcpWorld({ scan: false });
  });

  const caps = (tasks: boolean) => (tasks ? { extensions: { [TASKS]: {} } } : {});
  const meta = (tasks: boolean) => ({
    'io.modelcontextprotocol/protocolVersion': '2026-07-28',
    'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
    'io.modelcontextprotocol/clientCapabilities': caps(tasks),
  });
  /** One 2026-07-28 request with the standard headers (Mcp-Name mirrors the tool name or the task id). */
  const send = (method: string, params: Record<string, unknown>, opts: { tasks?: boolean; token?: string; id?: number } = {}) => {
    const name = typeof params.name === 'string' ? params.name : typeof params.taskId === 'string' ? params.taskId : undefined;
    return app.post(rpc(method, { ...params, _meta: meta(opts.tasks ?? true) }, opts.id ?? 1), {
      token: opts.token ?? world.ai.owner,
      headers: { 'mcp-protocol-version': '2026-07-28', 'mcp-method': method, ...(name ? { 'mcp-name': name } : {}) },
    });
  };
  const getTask = async (taskId: string) => (await send('tasks/get', { taskId })).json;
  const settled = async (taskId: string) => {
    let last: { result: Record<string, unknown> } | undefined;
    await waitUntil(async () => {
      last = await getTask(taskId);
      return last!.result.status !== 'working';
    }, 60_000, 200);
    return last!.result;
  };

  it('declares the extension in server/discover (2026-07-28), not in initialize (2025-06-18)', async () => {
    const discover = await send('server/discover', {});
    expect(discover.json.result.capabilities).toEqual({ tools: {}, resources: {}, extensions: { [TASKS]: {} } });
    const init = await app.post(rpc('initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'old', version: '1' } }), { token: world.ai.owner });
    expect(init.json.result.capabilities).toEqual({ tools: {}, resources: {} });
  });

  it('runs create_scan as a task through the extension client: working, then the run outcome inlined', async () => {
    const client = new Client({ name: 'tasks-client', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    // Jest runs tests in a VM context whose objects the extension's JSON check tells apart from those Node's own fetch
    // parses (another realm's Object.prototype): JSON answers are parsed here, in the test's realm.
    const inRealm: typeof fetch = async (input, init) => {
      const res = await fetch(input, init);
      if (!(res.headers.get('content-type') ?? '').includes('application/json')) return res;
      const text = await res.text();
      return Object.assign(new Response(text, { status: res.status, headers: res.headers }), { json: async () => JSON.parse(text) as unknown });
    };
    await client.connect(new StreamableHTTPClientTransport(new URL(app.url()), { fetch: inRealm, requestInit: { headers: { Authorization: `Bearer ${world.ai.owner}` } } }));
    let next = 1;
    const seen: Array<{ method: string; answer: unknown }> = [];
    // The extension client frames V2 task requests itself and hands them to the host to send (its rawDispatch).
    const rawDispatch: RawClientDispatch = async (request) => {
      const r = request as { method: string; params: Record<string, unknown>; id?: number };
      const name = (r.params.name ?? r.params.taskId) as string | undefined;
      const answer = await app.post({ jsonrpc: '2.0', id: r.id ?? next++, ...r }, {
        token: world.ai.owner,
        headers: { 'mcp-protocol-version': '2026-07-28', 'mcp-method': r.method, ...(name ? { 'mcp-name': name } : {}) },
      });
      seen.push({ method: r.method, answer: answer.json.result ?? answer.json.error });
      return answer.json.error ? { kind: 'error', error: answer.json.error } : { kind: 'result', result: answer.json.result };
    };
    const session = createTaskSessionFromClient(client, {
      endpointId: 'reviewgrid-test',
      rawDispatch,
      v2RequestFraming: { protocolVersion: '2026-07-28', clientInfo: { name: 'tasks-client', version: '1.0.0' }, clientCapabilities: {} },
    });
    try {
      const execution = await session.callTool('create_scan', CREATE);
      const { outcome } = await execution.settle();
      const result = resultFromTaskOutcome(outcome) as { structuredContent: Record<string, unknown>; isError?: boolean };
      expect(result.isError ?? false).toBe(false);
      expect(result.structuredContent).toMatchObject({
        run_id: expect.any(String),
        is_running: false,
        status: 'completed',
        summary: { average_rank: expect.any(Number), top_3_count: expect.any(Number), top_4_to_10_count: expect.any(Number), not_ranking_count: expect.any(Number) },
        report_url: expect.stringMatching(/\/reports\/scans\/[0-9a-f-]{36}$/),
      });
      // The outcome is the run's snapshot as get_scan reads it: every pin of both keywords (3 x 3 pins x 2 keywords).
      const sc = result.structuredContent as { uuid: string; started_at: string; summary: unknown };
      const scan = (await send('tools/call', { name: 'get_scan', arguments: { uuid: sc.uuid, snapshot_at: sc.started_at } })).json.result.structuredContent;
      expect(scan.summary).toEqual(sc.summary);
      expect(scan.results).toHaveLength(18);
      // On the wire: a task handle first, then tasks/get until completed.
      const created = seen.find((e) => e.method === 'tools/call')!.answer;
      expect(isCreateTaskResultV2(created)).toBe(true);
      expect(created).toMatchObject({ resultType: 'task', taskId: `scan-run.${String(result.structuredContent.run_id)}`, ttlMs: null, pollIntervalMs: 5000 });
      expect(seen.filter((e) => e.method === 'tasks/get').every((e) => isDetailedTaskV2(e.answer))).toBe(true);
    } finally {
      await session.close();
      await client.close();
    }
  });

  it('on the raw wire: a flat CreateTaskResult, progress while working, the same result as the run reports, for the caller only', async () => {
    const snapshots = await ScanSnapshot.count();
    const created = await send('tools/call', { name: 'create_scan', arguments: { ...CREATE, location: 'Raw Dental' } });
    expect(created.status).toBe(200);
    const task = created.json.result;
    expect(isCreateTaskResultV2(task)).toBe(true);
    expect(Object.keys(task).sort()).toEqual(['_meta', 'createdAt', 'lastUpdatedAt', 'pollIntervalMs', 'resultType', 'status', 'taskId', 'ttlMs', ...(task.statusMessage ? ['statusMessage'] : [])].sort());
    expect(task.status).toBe('working');
    expect(task.statusMessage).toMatch(/^\d+ of 18 pin searches done\.$/);
    expect(await ScanSnapshot.count()).toBe(snapshots + 2);
    // get_scan carries the same progress while the run goes (null once it is done).
    const run = (await ScanSnapshot.findOne({ where: { runId: (task.taskId as string).replace('scan-run.', '') } }))!;
    const uuid = (await Scan.findByPk(run.scanId))!.uuid;
    const detail = (await send('tools/call', { name: 'get_scan', arguments: { uuid } }, { tasks: false })).json.result.structuredContent;
    expect(detail.progress).toEqual(detail.is_running ? { pins_done: expect.any(Number), pins_total: 18 } : null);
    // Readable at once (a durable create), by the caller only: another token of another tenant, or of the same tenant
    // without tenant ownership, gets "unknown task".
    const first = await getTask(task.taskId);
    expect(isDetailedTaskV2(first.result)).toBe(true);
    expect(first.result).toMatchObject({ taskId: task.taskId, resultType: 'complete' });
    const other = await mcpWorld({ scan: false });
    for (const token of [other.ai.owner, world.ai.orgOwner]) {
      const foreign = await send('tasks/get', { taskId: task.taskId }, { token });
      expect(foreign.json.error).toMatchObject({ code: -32602, data: { reason: 'unknown_task' } });
    }
    const done = await settled(task.taskId);
    expect(isDetailedTaskV2(done)).toBe(true);
    expect(done).toMatchObject({ status: 'completed', resultType: 'complete', result: { structuredContent: { status: 'completed', is_running: false } } });
    expect(done).not.toHaveProperty('error');
    const sc = (done.result as { structuredContent: { uuid: string; started_at: string; summary: unknown }; content: Array<{ text: string }> }).structuredContent;
    expect(JSON.parse((done.result as { content: Array<{ text: string }> }).content[0].text)).toEqual(sc);
    // The inlined summary is the scan's own at that snapshot (get_scan).
    const scan = await send('tools/call', { name: 'get_scan', arguments: { uuid: sc.uuid, snapshot_at: sc.started_at } });
    expect(scan.json.result.structuredContent.summary).toEqual(sc.summary);
    // tasks/cancel: an empty acknowledgement, for a finished task as well; tasks/update: acknowledged (no task asks for input).
    expect((await send('tasks/cancel', { taskId: task.taskId })).json.result).toEqual({ resultType: 'complete', _meta: expect.any(Object) });
    expect((await send('tasks/update', { taskId: task.taskId, inputResponses: {} })).json.result).toMatchObject({ resultType: 'complete' });
    expect(await getTask(task.taskId)).toMatchObject({ result: { status: 'completed' } });
  });

  it('run_scan as a task; a failed run is a completed task whose result is a tool error', async () => {
    const queued = await send('tools/call', { name: 'create_scan', arguments: { ...CREATE, location: 'Failing Dental' } }, { tasks: false });
    const uuid = queued.json.result.structuredContent.uuid as string;
    await settledSync(uuid);
    const run = await send('tools/call', { name: 'run_scan', arguments: { uuid } });
    expect(run.json.result).toMatchObject({ resultType: 'task', status: 'working' });
    const runId = (run.json.result.taskId as string).replace(/^scan-run\./, '');
    await failRun(runId, 'The ranking provider refused the query.');
    const done = await settled(run.json.result.taskId);
    expect(done).toMatchObject({ status: 'completed', result: { isError: true } });
    expect(JSON.parse((done.result as { content: Array<{ text: string }> }).content[0].text)).toEqual({
      error: { reason: 'scan_failed', message: 'The ranking provider refused the query.' },
    });
  });

  it('answers without the extension, or on 2025-06-18, as before: a synchronous result with the run id', async () => {
    const sync = await send('tools/call', { name: 'create_scan', arguments: { ...CREATE, location: 'Sync Dental' } }, { tasks: false });
    expect(sync.json.result).toMatchObject({ resultType: 'complete', structuredContent: { is_running: true, run_id: expect.any(String) } });
    expect(sync.json.result).not.toHaveProperty('taskId');
    const init = { protocolVersion: '2025-06-18', capabilities: { extensions: { [TASKS]: {} } }, clientInfo: { name: 'old', version: '1' } };
    expect((await app.post(rpc('initialize', init), { token: world.ai.owner })).status).toBe(200);
    const old = await app.post(rpc('tools/call', { name: 'run_scan', arguments: { uuid: sync.json.result.structuredContent.uuid } }), { token: world.ai.owner });
    expect(old.json.result).toMatchObject({ isError: true }); // already running: the 2025 path answers the tool as before
    const legacyGet = await app.post(rpc('tasks/get', { taskId: 'scan-run.x' }), { token: world.ai.owner });
    expect(legacyGet.json.error).toMatchObject({ code: -32601 });
  });

  it('refuses the Tasks methods to a request that did not declare the extension (-32021), and unknown tasks (-32602)', async () => {
    for (const [method, params] of [
      ['tasks/get', { taskId: 'scan-run.00000000-0000-4000-8000-000000000000' }],
      ['tasks/update', { taskId: 'scan-run.00000000-0000-4000-8000-000000000000', inputResponses: {} }],
      ['tasks/cancel', { taskId: 'scan-run.00000000-0000-4000-8000-000000000000' }],
    ] as const) {
      const refused = await send(method, params, { tasks: false });
      expect([method, refused.json.error]).toEqual([method, expect.objectContaining({ code: -32021, data: expect.objectContaining({ requiredCapabilities: { extensions: { [TASKS]: {} } } }) })]);
    }
    for (const taskId of ['scan-run.00000000-0000-4000-8000-000000000000', 'scan-run.not-a-uuid', 'no-such-kind.1', 'plain']) {
      const unknown = await send('tasks/get', { taskId });
      expect([taskId, unknown.json.error]).toEqual([taskId, expect.objectContaining({ code: -32602, data: { reason: 'unknown_task' } })]);
      expect((await send('tasks/cancel', { taskId })).json.error).toMatchObject({ code: -32602 });
    }
    expect((await send('tasks/get', {})).json.error).toMatchObject({ code: -32602, data: { reason: 'invalid_params' } });
    expect((await send('tasks/update', { taskId: 'scan-run.x', inputResponses: 5 })).json.error).toMatchObject({ code: -32602 });
    // The 2025-11-25 methods the extension removed are unknown methods.
    for (const method of ['tasks/result', 'tasks/list']) expect((await send(method, { taskId: 'x' })).json.error).toMatchObject({ code: -32601 });
    // A task id must match the Mcp-Name header (the SDK's standard-header check).
    const mismatch = await app.post(rpc('tasks/get', { taskId: 'scan-run.a', _meta: meta(true) }), {
      token: world.ai.owner,
      headers: { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tasks/get', 'mcp-name': 'scan-run.b' },
    });
    expect(mismatch.status).toBe(400);
  });

  it('audits the Tasks methods like every call', async () => {
    const correlationId = `tasks-audit-${Date.now()}`;
    await app.post(rpc('tasks/get', { taskId: 'scan-run.00000000-0000-4000-8000-000000000000', _meta: meta(true) }), {
      token: world.ai.owner,
      headers: { 'x-correlation-id': correlationId, 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tasks/get', 'mcp-name': 'scan-run.00000000-0000-4000-8000-000000000000' },
    });
    await waitUntil(async () => (await McpAuditEntry.count({ where: { correlationId } })) === 1, 5_000, 20);
    expect(await McpAuditEntry.findOne({ where: { correlationId } })).toMatchObject({ method: 'tasks/get', tool: null, resultCode: -32602, errorReason: 'unknown_task' });
  });

  /** Waits for a scan queued without a task to finish its run (get_scan until it is idle). */
  async function settledSync(uuid: string) {
    await waitUntil(async () => (await send('tools/call', { name: 'get_scan', arguments: { uuid } }, { tasks: false })).json.result.structuredContent.is_running === false, 60_000, 200);
  }
});
