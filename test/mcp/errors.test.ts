import { revokeToken } from '../../src/services/auth.service';
import { ApiToken } from '../../src/models';
import { makeTenant, makeWorld, tokenFor } from '../support/factories';
import { AI_READ, brokenDocument, call, mcpWorld, rpc, throwingMapper, TOOLS, useMcpApp, type RawAnswer } from './support';

/** The spec's "MCP errors" table over raw HTTP: every code, its HTTP status, and never an HTML page. */
describe('MCP errors at POST /api/mcp', () => {
  const app = useMcpApp({ tools: [...TOOLS, brokenDocument, throwingMapper] });
  let world: Awaited<ReturnType<typeof mcpWorld>>;
  beforeAll(async () => {
    world = await mcpWorld();
  });

  const expectError = (res: RawAnswer, status: number, code: number, id: unknown = 1) => {
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.status).toBe(status);
    expect(res.json).toMatchObject({ jsonrpc: '2.0', id, error: { code, message: expect.any(String) } });
    expect(res.json.result).toBeUndefined();
  };

  describe('-32700 parse error', () => {
    it('answers a body that is not JSON with 400 and id null', async () => {
      const res = await app.post('{"jsonrpc": "2.0", "id": 1, "method": ', { token: world.ai.owner });
      expectError(res, 400, -32700, null);
    });
  });

  describe('-32600 invalid request', () => {
    it.each([
      ['a wrong jsonrpc version', { jsonrpc: '1.0', id: 1, method: 'ping' }],
      ['a missing method', { jsonrpc: '2.0', id: 1 }],
      ['params that are not an object', { jsonrpc: '2.0', id: 1, method: 'ping', params: [1, 2] }],
      ['an id that is an object', { jsonrpc: '2.0', id: { a: 1 }, method: 'ping' }],
      ['a JSON string', 'hello'],
    ])('refuses %s with 400', async (_what, body) => {
      const res = await app.post(typeof body === 'string' ? JSON.stringify(body) : body, { token: world.ai.owner });
      expectError(res, 400, -32600, typeof body === 'object' && typeof body.id === 'number' ? 1 : null);
    });

    it('refuses a batch (JSON array): 2025-06-18 has none', async () => {
      const res = await app.post([rpc('ping', undefined, 1), rpc('ping', undefined, 2)], { token: world.ai.owner });
      expectError(res, 400, -32600, null);
      expect(res.json.error.data.reason).toBe('batch_not_supported');
    });

    it('refuses an MCP-Protocol-Version other than 2025-06-18', async () => {
      const res = await app.post(rpc('ping'), { token: world.ai.owner, headers: { 'mcp-protocol-version': '2024-11-05' } });
      expectError(res, 400, -32600);
      expect(res.json.error.data).toEqual({ reason: 'unsupported_protocol_version', supported: ['2026-07-28', '2025-06-18'], requested: '2024-11-05' });
      // initialize negotiates in its body: a 2025-11-25 client that sends its own revision in the header is answered 2025-06-18.
      const init = { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'newer', version: '1' } };
      const hello = await app.post(rpc('initialize', init), { token: world.ai.owner, headers: { 'mcp-protocol-version': '2025-11-25' } });
      expect([hello.status, hello.json.result?.protocolVersion]).toEqual([200, '2025-06-18']);
      const ok = await app.post(rpc('ping'), { token: world.ai.owner, headers: { 'mcp-protocol-version': '2025-06-18' } });
      expect(ok.json).toEqual({ jsonrpc: '2.0', id: 1, result: {} });
    });

    it('answers GET (and other verbs) with 405 and a JSON-RPC envelope', async () => {
      for (const method of ['GET', 'DELETE', 'PUT']) {
        const res = await fetch(app.url(), { method, headers: { authorization: `Bearer ${world.ai.owner}` } });
        expect(res.status).toBe(405);
        expect(res.headers.get('allow')).toBe('POST');
        expect(res.headers.get('content-type')).toMatch(/^application\/json/);
        expect(await res.json()).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32600 } });
      }
      const below = await fetch(`${app.url()}/extra`, { method: 'POST', headers: { authorization: `Bearer ${world.ai.owner}` }, body: '{}' });
      expect(below.status).toBe(404);
      expect(await below.json()).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32600 } });
    });

    it('answers a body over the limit with 413 JSON, never HTML', async () => {
      const res = await app.post({ ...rpc('ping'), params: { pad: 'x'.repeat(1_100_000) } }, { token: world.ai.owner });
      expectError(res, 413, -32600, null);
    });
  });

  describe('-32601 method not found', () => {
    it('answers an unknown method and an unknown tool with 200', async () => {
      expectError(await app.post(rpc('prompts/list'), { token: world.ai.owner }), 200, -32601);
      const tool = await app.post(call('delete_everything'), { token: world.ai.owner });
      expectError(tool, 200, -32601);
      expect(tool.json.error.data.reason).toBe('unknown_tool');
    });
  });

  describe('-32602 invalid params', () => {
    it.each([
      ['an unknown argument', call('list_reviews', { colour: 'red' }), 'colour'],
      ['a missing required argument', call('get_review', {}), 'review_id'],
      ['per_page above the bound', call('list_reviews', { per_page: 51 }), 'per_page'],
      ['per_page below the bound', call('list_organizations', { per_page: 0 }), 'per_page'],
      ['a number sent as text', call('get_review', { review_id: '1' }), 'review_id'],
      ['location_id without organization_id', call('list_reviews', { location_id: 1 }), 'location_id'],
      ['a date that is not a date', call('list_reviews', { date_from: '2026-02-30' }), 'date_from'],
      ['a value outside the enum', call('list_reviews', { sort_by: 'Random' }), 'sort_by'],
      ['a rating out of range', call('list_reviews', { ratings: [6] }), 'ratings'],
      ['list_scans per_page above 100', call('list_scans', { per_page: 101 }), 'per_page'],
      ['since_days above 365', call('list_scans', { since_days: 366 }), 'since_days'],
      ['top_n above 20', call('get_scan', { uuid: '6f1d2c3b-1111-4222-8333-444455556666', top_n: 21 }), 'top_n'],
      ['a grid size not offered', call('create_scan', { location: 'X', keywords: ['a'], grid_size: 4, distance: 1, distance_unit: 'km' }), 'grid_size'],
      ['a distance of 0', call('create_scan', { location: 'X', keywords: ['a'], grid_size: 3, distance: 0, distance_unit: 'km' }), 'distance'],
      ['21 keywords', call('create_scan', { location: 'X', keywords: Array.from({ length: 21 }, (_, i) => `k${i}`), grid_size: 3, distance: 1, distance_unit: 'km' }), 'keywords'],
      ['a schedule time that is not HH:MM', call('schedule_scan', { uuid: '6f1d2c3b-1111-4222-8333-444455556666', is_scheduled: true, scheduled_from: '9am' }), 'scheduled_from'],
    ])('refuses %s with 200 and names the argument', async (_what, body, field) => {
      const res = await app.post(body, { token: world.ai.owner });
      expectError(res, 200, -32602);
      expect(Object.keys(res.json.error.data.errors)).toContain(field);
    });

    it('names every problem at once', async () => {
      const res = await app.post(call('list_reviews', { per_page: 0, page: 0, colour: 'red' }), { token: world.ai.owner });
      expect(Object.keys(res.json.error.data.errors).sort()).toEqual(['colour', 'page', 'per_page']);
    });

    it('carries a rule of the review query (date_to before date_from) as -32602 naming the argument', async () => {
      const res = await app.post(call('list_reviews', { date_from: '2026-01-12', date_to: '2026-01-11' }), { token: world.ai.owner });
      expectError(res, 200, -32602);
      expect(res.json.error.data.errors).toEqual({ date_to: ['The date to must be a date after or equal to date from.'] });
    });

    it('refuses tools/call without a name, arguments that are not an object, and initialize without clientInfo', async () => {
      expectError(await app.post(rpc('tools/call', { arguments: {} }), { token: world.ai.owner }), 200, -32602);
      expectError(await app.post(rpc('tools/call', { name: 'list_reviews', arguments: [1] }), { token: world.ai.owner }), 200, -32602);
      expectError(await app.post(rpc('initialize', { protocolVersion: '2025-06-18', capabilities: {} }), { token: world.ai.owner }), 200, -32602);
    });

    it('carries a service rule (schedule window) as -32602 with its code', async () => {
      const res = await app.post(
        call('schedule_scan', { uuid: world.scan.uuid, is_scheduled: true, frequency: 'weekly', scheduled_from: '18:00', scheduled_to: '09:00' }),
        { token: world.ai.owner },
      );
      expectError(res, 200, -32602);
      expect(res.json.error.data.reason).toBe('invalid_schedule_window');
    });
  });

  describe('-32603 internal error', () => {
    it('answers 500 with a bare message: no SQL, no stack, no document', async () => {
      for (const name of ['fixture_broken_document', 'fixture_throwing_mapper']) {
        const res = await app.post(call(name), { token: world.ai.owner });
        expectError(res, 500, -32603);
        expect(res.json.error).toEqual({ code: -32603, message: 'Internal error.' });
        expect(res.text).not.toMatch(/SELECT|noSuchField|at |secret/);
      }
    });
  });

  describe('-32001 unauthenticated, missing permission, access denied', () => {
    it('answers a missing or unknown token with 401 and WWW-Authenticate', async () => {
      for (const token of [null, 'rg_not-a-token']) {
        const res = await app.post(rpc('tools/list'), { token });
        expectError(res, 401, -32001);
        // The challenge names where to get a token (RFC 9728; issue 16's OAuth sign-in).
        expect(res.headers.get('www-authenticate')).toBe(
          `Bearer realm="mcp", resource_metadata="${new URL(app.url()).origin}/.well-known/oauth-protected-resource/api/mcp", scope="mcp:access mcp:writes reviews:pii"`,
        );
        expect(res.json.error.data.reason).toBe('unauthenticated');
      }
    });

    it('answers a revoked or expired AI token with 401', async () => {
      const revoked = await tokenFor(world.owner, AI_READ, 'ai');
      await revokeToken((await ApiToken.findOne({ where: { tokenPrefix: revoked.slice(0, 10) } }))!.id);
      expectError(await app.post(rpc('ping'), { token: revoked }), 401, -32001);
      const expiring = await tokenFor(world.owner, AI_READ, 'ai', new Date(Date.now() + 60_000));
      await ApiToken.update({ expiresAt: new Date(Date.now() - 1000) }, { where: { tokenPrefix: expiring.slice(0, 10) } });
      expectError(await app.post(rpc('ping'), { token: expiring }), 401, -32001);
    });

    it('answers 403 to customer and agency tokens (even with mcp:access) and to AI tokens without mcp:access', async () => {
      const customer = await app.post(rpc('ping'), { token: await tokenFor(world.owner, ['mcp:access', 'reviews:read'], 'customer') });
      expectError(customer, 403, -32001);
      expect(customer.json.error.data.reason).toBe('wrong_token_kind');
      const agency = await app.post(rpc('ping'), { token: await tokenFor(world.owner, ['mcp:access'], 'agency') });
      expectError(agency, 403, -32001);
      const noAccess = await app.post(rpc('ping'), { token: await tokenFor(world.owner, ['reviews:read'], 'ai') });
      expectError(noAccess, 403, -32001);
      expect(noAccess.json.error.data.reason).toBe('mcp_access_required');
    });

    it('answers a write tool without mcp:writes, and a tool without its permission, with missing_permission', async () => {
      const noWrites = await tokenFor(world.owner, ['mcp:access', 'reviews:read', 'organizations:read'], 'ai');
      const res = await app.post(call('run_scan', { uuid: world.scan.uuid }), { token: noWrites });
      expectError(res, 200, -32001);
      expect(res.json.error).toMatchObject({ data: { reason: 'missing_permission' }, message: expect.stringContaining('mcp:writes') });
      const reviewsOnly = await tokenFor(world.orgOwner, ['mcp:access', 'reviews:read'], 'ai');
      const locations = await app.post(call('list_locations'), { token: reviewsOnly });
      expectError(locations, 200, -32001);
      expect(locations.json.error).toMatchObject({ data: { reason: 'missing_permission' }, message: expect.stringContaining('locations.view') });
    });

    it('answers Local Search Grid tools for customers with tenant_owner_required', async () => {
      const res = await app.post(call('get_scan', { uuid: world.scan.uuid }), { token: world.ai.orgOwner });
      expectError(res, 200, -32001);
      expect(res.json.error.data.reason).toBe('tenant_owner_required');
    });

    it('answers an organization_id or location_id outside the scope with access_denied', async () => {
      const other = await makeWorld();
      const cases: Array<[string, object, string]> = [
        ['list_reviews', { organization_id: other.org.id }, world.ai.owner],
        ['list_reviews', { organization_id: other.org.id, location_id: other.home.id }, world.ai.orgOwner],
        ['list_reviews', { organization_id: world.org.id, location_id: world.home.id }, world.ai.member],
        ['list_reviews', { organization_id: 2_000_000_000 }, world.ai.owner],
        ['list_locations', { organization_id: other.org.id }, world.ai.orgOwner],
        ['list_organizations', { organization_id: other.org.id }, world.ai.owner],
      ].map(([tool, args, token]) => [tool as string, args as object, token as string]);
      for (const [tool, args, token] of cases) {
        const res = await app.post(call(tool, args), { token });
        expectError(res, 200, -32001);
        expect(res.json.error.data.reason).toBe('access_denied');
      }
      // A location of another organisation of the caller's own: the arguments contradict each other.
      const mismatch = await app.post(call('list_reviews', { organization_id: world.org.id, location_id: other.home.id }), { token: world.ai.owner });
      expect(mismatch.json.error.data.reason).toBe('access_denied');
    });
  });

  describe('-32002 not found', () => {
    it('answers an unknown review or scan with 200 and not_found', async () => {
      const { owner } = await makeTenant();
      const stranger = await tokenFor(owner, ['mcp:access', 'reviews:read'], 'ai');
      for (const [body, token] of [
        [call('get_review', { review_id: 2_000_000_000 }), world.ai.owner],
        [call('get_review', { review_id: world.reviews[0].id }), stranger],
        [call('get_scan', { uuid: '6f1d2c3b-1111-4222-8333-444455556666' }), world.ai.owner],
        [call('get_scan', { uuid: world.scan.uuid, snapshot_at: '2020-01-01T00:00:00Z' }), world.ai.owner],
      ] as const) {
        const res = await app.post(body, { token });
        expectError(res, 200, -32002);
        expect(res.json.error.data.reason).toBe('not_found');
      }
    });
  });

  describe('the rest of the protocol', () => {
    it('answers ping with {} and keeps string ids', async () => {
      expect((await app.post(rpc('ping', undefined, 'abc'), { token: world.ai.owner })).json).toEqual({ jsonrpc: '2.0', id: 'abc', result: {} });
    });

    it('accepts notifications with 202 and no body, whatever their method', async () => {
      for (const method of ['notifications/initialized', 'notifications/cancelled', 'notifications/whatever']) {
        const res = await app.post({ jsonrpc: '2.0', method }, { token: world.ai.owner });
        expect(res.status).toBe(202);
        expect(res.text).toBe('');
      }
    });

    it('takes requests without an Accept header', async () => {
      const res = await fetch(app.url(), { method: 'POST', headers: { authorization: `Bearer ${world.ai.owner}`, 'content-type': 'application/json' }, body: JSON.stringify(rpc('ping')) });
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ jsonrpc: '2.0', id: 1, result: {} });
    });

    it('returns structuredContent and the same JSON as text content', async () => {
      const res = await app.post(call('get_review', { review_id: world.reviews[2].id }), { token: world.ai.orgOwner });
      expect(res.status).toBe(200);
      const { structuredContent, content } = res.json.result;
      expect(content).toEqual([{ type: 'text', text: JSON.stringify(structuredContent) }]);
      expect(structuredContent).toMatchObject({ author: 'Cy Branch', source: 'Google' });
    });
  });

  describe('X-Correlation-Id', () => {
    it('echoes an id of up to 64 characters on results and errors', async () => {
      const id = 'c'.repeat(64);
      for (const [body, token] of [
        [rpc('ping'), world.ai.owner],
        [rpc('ping'), null],
        ['{oops', world.ai.owner],
        [call('get_review', {}), world.ai.owner],
      ] as const) {
        const res = await app.post(body, { token, headers: { 'x-correlation-id': id } });
        expect(res.headers.get('x-correlation-id')).toBe(id);
      }
      const get = await fetch(app.url(), { headers: { 'x-correlation-id': 'trace-405' } });
      expect(get.headers.get('x-correlation-id')).toBe('trace-405');
    });

    it('replaces a longer or malformed id with a server-made UUID, and makes one when none is sent', async () => {
      for (const given of ['c'.repeat(65), 'has space', undefined]) {
        const res = await app.post(rpc('ping'), { token: world.ai.owner, headers: given === undefined ? {} : { 'x-correlation-id': given } });
        expect(res.status).toBe(200);
        expect(res.headers.get('x-correlation-id')).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      }
    });
  });

});
