import http from 'node:http';
import { McpAuditEntry, TenantDomain } from '../../src/models';
import { hostnameOf } from '../../src/http/mcp-origin';
import { tokenFor } from '../support/factories';
import { AI_ALL, mcpWorld, rpc, useMcpApp } from './support';

/**
 * DNS-rebinding protection of the MCP endpoint (issue 16 item 2; docs/security.md "MCP: Origin and Host"): the
 * transport's MUST to validate `Origin`, and `Host` as the conformance suite's dns-rebinding scenario checks it. A
 * request for another host or from another origin is 403 with a JSON-RPC error before authentication, and nothing
 * of it is recorded as a call.
 */
describe('MCP Origin and Host validation', () => {
  const app = useMcpApp();

  /** A raw POST with the Host and Origin given (fetch would not send the Host asked for). */
  function post(headers: Record<string, string>, body: unknown): Promise<{ status: number; json: any }> { // eslint-disable-line @typescript-eslint/no-explicit-any -- wire JSON
    const url = new URL(app.url());
    const payload = JSON.stringify(body);
    return new Promise((resolve, reject) => {
      const req = http.request(
        { host: url.hostname, port: url.port, path: url.pathname, method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'content-length': Buffer.byteLength(payload), ...headers } },
        (res) => {
          let text = '';
          res.on('data', (d) => (text += d));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, json: text ? JSON.parse(text) : null }));
        },
      );
      req.on('error', reject);
      req.end(payload);
    });
  }

  const initialize = rpc('initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'origin-test', version: '1' } });

  it('refuses a rebound host and a foreign origin with 403 before authentication, recording nothing', async () => {
    const w = await mcpWorld({ scan: false });
    const token = await tokenFor(w.owner, AI_ALL, 'ai');
    const port = new URL(app.url()).port;
    const before = await McpAuditEntry.count({ where: { tenantId: w.tenant.id } });

    // The conformance suite's scenario: the attacker's name, re-pointed at this server.
    const rebound = await post({ host: `evil.example.com:${port}`, origin: `http://evil.example.com:${port}`, authorization: `Bearer ${token}` }, initialize);
    expect(rebound.status).toBe(403);
    expect(rebound.json).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32001, data: { reason: 'host_not_allowed' } } });

    // The right host, a page of another site (a browser always sends Origin with a POST).
    const foreign = await post({ host: `127.0.0.1:${port}`, origin: 'https://attacker.example', authorization: `Bearer ${token}` }, initialize);
    expect(foreign.status).toBe(403);
    expect(foreign.json).toMatchObject({ id: null, error: { code: -32001, data: { reason: 'origin_not_allowed' } } });
    for (const origin of ['null', `http://127.0.0.1:${port}/path`, `https://user@localhost`]) {
      expect([origin, (await post({ host: `127.0.0.1:${port}`, origin, authorization: `Bearer ${token}` }, initialize)).status]).toEqual([origin, 403]);
    }
    // A refused request is not a call: the audit log has nothing of them.
    expect(await McpAuditEntry.count({ where: { tenantId: w.tenant.id } })).toBe(before);
  });

  it("answers server-side clients (no Origin), loopback origins and the tenants' own https origins and hosts", async () => {
    const w = await mcpWorld({ scan: false });
    const token = await tokenFor(w.owner, AI_ALL, 'ai');
    const port = new URL(app.url()).port;
    const ok = async (headers: Record<string, string>) => {
      const res = await post({ authorization: `Bearer ${token}`, ...headers }, initialize);
      expect([headers, res.status, res.json?.result?.protocolVersion]).toEqual([headers, 200, '2025-06-18']);
    };
    await ok({ host: `127.0.0.1:${port}` });
    await ok({ host: `localhost:${port}`, origin: 'http://localhost:6274' }); // a local inspector page
    const domain = (await TenantDomain.findOne({ where: { tenantId: w.tenant.id } }))!.domain;
    await ok({ host: domain, origin: `https://${domain}` });
    await ok({ host: `${domain}:443` });
    // The tenant's domain over plain http is not its origin.
    expect((await post({ host: domain, origin: `http://${domain}`, authorization: `Bearer ${token}` }, initialize)).status).toBe(403);
    // An unknown request without a token still meets authentication (401), not the Origin check.
    expect((await post({ host: `127.0.0.1:${port}` }, initialize)).status).toBe(401);
  });

  it('reads the host of a Host header with or without a port, IPv6 too', () => {
    expect(hostnameOf('Reviews.Agency.test:8443')).toBe('reviews.agency.test');
    expect(hostnameOf('[::1]:3000')).toBe('[::1]');
    expect(hostnameOf('127.0.0.1')).toBe('127.0.0.1');
  });
});
