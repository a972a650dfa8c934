import { auditRows, mcpWorld, rpc, useMcpApp, type RawAnswer } from './support';

/**
 * Malformed params of spec methods: -32602 invalid params with the request's id on HTTP 200 (as every other -32602 of
 * ours), on both protocol generations. Left to the SDK, they came back as -32603 (HTTP 500, "Internal error.", an
 * error logged) for a non-string cursor or a capability that is not an object, and as a refusal of the whole message
 * (HTTP 400) for a `_meta` that is not an object.
 */
describe('MCP malformed params', () => {
  const app = useMcpApp();
  let world: Awaited<ReturnType<typeof mcpWorld>>;
  beforeAll(async () => {
    world = await mcpWorld({ scan: false });
  });

  const envelope = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' }, 'io.modelcontextprotocol/clientCapabilities': {} };
  const modernHeaders = (method: string) => ({ 'mcp-protocol-version': '2026-07-28', 'mcp-method': method });

  /** Sends `method` with `params` the 2025-06-18 way (plain) or the 2026-07-28 way (the `_meta` envelope and its headers). */
  const send = (era: '2025-06-18' | '2026-07-28', method: string, params: Record<string, unknown>, id: number | string) => {
    if (era === '2025-06-18') return app.post(rpc(method, params, id), { token: world.ai.owner });
    const meta = params._meta === undefined ? envelope : typeof params._meta === 'object' && params._meta ? { ...envelope, ...params._meta } : params._meta;
    return app.post(rpc(method, { ...params, _meta: meta }, id), { token: world.ai.owner, headers: modernHeaders(method) });
  };

  const expectInvalidParams = (res: RawAnswer, id: number | string, field: string) => {
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect([res.status, res.json.id, res.json.error?.code, res.json.error?.data?.reason]).toEqual([200, id, -32602, 'invalid_params']);
    expect(Object.keys(res.json.error.data.errors)).toContain(field);
    expect(res.json.result).toBeUndefined();
  };

  describe.each(['2025-06-18', '2026-07-28'] as const)('%s', (era) => {
    it.each([
      ['tools/list with a numeric cursor', 'tools/list', { cursor: 5 }, 'cursor'],
      ['resources/list with an object cursor', 'resources/list', { cursor: { page: 2 } }, 'cursor'],
      ['resources/list with a numeric cursor', 'resources/list', { cursor: 5 }, 'cursor'],
      ['tools/list with a progressToken that is an object', 'tools/list', { _meta: { progressToken: {} } }, '_meta.progressToken'],
    ])('answers %s with -32602 naming it', async (_what, method, params, field) => {
      expectInvalidParams(await send(era, method, params, 41), 41, field);
    });

    it.each([['ping'], ['tools/list'], ['resources/list'], ['tools/call']])('answers %s with params._meta "x" with -32602 and the id', async (method) => {
      const params = method === 'tools/call' ? { name: 'list_reviews', arguments: {}, _meta: 'x' } : { _meta: 'x' };
      const res =
        era === '2025-06-18'
          ? await app.post(rpc(method, params, 'req-7'), { token: world.ai.owner })
          : await app.post(rpc(method, params, 'req-7'), { token: world.ai.owner, headers: modernHeaders(method) });
      expectInvalidParams(res, 'req-7', '_meta');
    });
  });

  describe('initialize (2025-06-18)', () => {
    const init = (capabilities: unknown, clientInfo: unknown = { name: 'x', version: '1' }) => ({ protocolVersion: '2025-06-18', capabilities, clientInfo });

    it.each([
      ['capabilities.roots a number', init({ roots: 5 }), 'capabilities.roots'],
      ['capabilities.sampling a string', init({ sampling: 'yes' }), 'capabilities.sampling'],
      ['capabilities.roots.listChanged a string', init({ roots: { listChanged: 'yes' } }), 'capabilities.roots.listChanged'],
      ['clientInfo.icons a number', init({}, { name: 'x', version: '1', icons: 5 }), 'clientInfo.icons'],
      ['_meta a string', { ...init({}), _meta: 'x' }, '_meta'],
    ])('answers %s with -32602 naming it, not 500', async (_what, params, field) => {
      expectInvalidParams(await app.post(rpc('initialize', params, 9), { token: world.ai.owner }), 9, field);
    });

    it('still answers well-formed params, and 2026-07-28 still has no initialize (-32601, HTTP 404)', async () => {
      const ok = await app.post(rpc('initialize', init({ roots: { listChanged: true }, sampling: {} }), 3), { token: world.ai.owner });
      expect([ok.status, ok.json.result?.protocolVersion]).toEqual([200, '2025-06-18']);
      const modern = await send('2026-07-28', 'initialize', init({ roots: 5 }), 4);
      expect([modern.status, modern.json.id, modern.json.error.code]).toEqual([404, 4, -32601]);
    });

    it('leaves a malformed 2026-07-28 envelope to the SDK: -32602 with the id (its ladder answers on HTTP 400)', async () => {
      const res = await send('2026-07-28', 'tools/list', { _meta: { 'io.modelcontextprotocol/clientCapabilities': { roots: 5 } } }, 5);
      expect([res.status, res.json.id, res.json.error.code]).toEqual([400, 5, -32602]);
    });
  });

  it('audits the refusals as -32602 invalid_params, and well-formed list params are still answered', async () => {
    const w = await mcpWorld({ scan: false });
    const cursor = await app.post(rpc('tools/list', { cursor: 5 }), { token: w.ai.owner, headers: { 'x-correlation-id': 'p-1' } });
    expect(cursor.json.error.code).toBe(-32602);
    const rows = await auditRows(w.tenant.id, 1);
    expect(rows.map((r) => [r.correlationId, r.method, r.resultCode, r.errorReason])).toEqual([['p-1', 'tools/list', -32602, 'invalid_params']]);
    for (const era of ['2025-06-18', '2026-07-28'] as const) {
      const list = await send(era, 'tools/list', { cursor: 'next' }, 6);
      expect([era, list.status, Array.isArray(list.json.result?.tools)]).toEqual([era, 200, true]);
      const resources = await send(era, 'resources/list', { _meta: { progressToken: 7 } }, 8);
      expect([era, resources.status, Array.isArray(resources.json.result?.resources)]).toEqual([era, 200, true]);
    }
  });
});
