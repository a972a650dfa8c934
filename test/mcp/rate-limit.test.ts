import { randomUUID } from 'node:crypto';
import Redis from 'ioredis';
import { makeOrgOwner, makeTenant, tokenFor } from '../support/factories';
import { AI_READ, auditRows, call, rpc, useMcpApp } from './support';

/** Spec "Limits": 120 calls per minute per token and 600 per workspace; small limits injected through the app's options. */
describe('MCP rate limits', () => {
  describe('in memory: 3 per token, 5 per workspace', () => {
    const app = useMcpApp({ perToken: 3, perWorkspace: 5 });

    it('answers the 4th call of a token in the minute with 429, -32002 and Retry-After; other tokens go on', async () => {
      const { owner } = await makeTenant();
      const first = await tokenFor(owner, AI_READ, 'ai');
      const second = await tokenFor(owner, AI_READ, 'ai');
      const statuses: number[] = [];
      for (let i = 0; i < 3; i++) statuses.push((await app.post(rpc('ping'), { token: first })).status);
      expect(statuses).toEqual([200, 200, 200]);
      const limited = await app.post(rpc('ping', undefined, 7), { token: first, headers: { 'x-correlation-id': 'limited-1' } });
      expect(limited.status).toBe(429);
      expect(limited.json).toMatchObject({ jsonrpc: '2.0', id: 7, error: { code: -32002, data: { reason: 'rate_limited' } } });
      expect(limited.json.error.message).toContain('per-token');
      const retryAfter = Number(limited.headers.get('retry-after'));
      expect(retryAfter).toBeGreaterThan(0);
      expect(retryAfter).toBeLessThanOrEqual(60);
      expect(limited.json.error.data.retry_after).toBe(retryAfter);
      expect(limited.headers.get('x-correlation-id')).toBe('limited-1');
      // Tool calls count the same; another token of the workspace still has its own budget.
      expect((await app.post(call('list_organizations'), { token: second })).status).toBe(200);
      // The refusal is audited.
      const rows = await auditRows(owner.tenantId, 5);
      expect(rows.filter((r) => r.resultCode === -32002).map((r) => [r.errorReason, r.correlationId])).toEqual([['rate_limited', 'limited-1']]);
    });

    it('answers the workspace (tenant) past 5 calls a minute with -32002 across its tokens and users; other tenants go on', async () => {
      const { tenant, owner } = await makeTenant();
      const customer = await makeOrgOwner(tenant.id);
      const tokens = [await tokenFor(owner, AI_READ, 'ai'), await tokenFor(customer, AI_READ, 'ai'), await tokenFor(customer, AI_READ, 'ai')];
      const statuses: number[] = [];
      for (const token of [tokens[0], tokens[1], tokens[2], tokens[0], tokens[1]]) statuses.push((await app.post(rpc('ping'), { token })).status);
      expect(statuses).toEqual([200, 200, 200, 200, 200]);
      const limited = await app.post(rpc('ping'), { token: tokens[2] });
      expect(limited.status).toBe(429);
      expect(limited.json.error).toMatchObject({ code: -32002, data: { reason: 'rate_limited' } });
      expect(limited.json.error.message).toContain('per-workspace');
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
      const elsewhere = await makeTenant();
      expect((await app.post(rpc('ping'), { token: await tokenFor(elsewhere.owner, AI_READ, 'ai') })).status).toBe(200);
    });

    it('counts failed authentications per client address against the per-token limit', async () => {
      const statuses: number[] = [];
      for (let i = 0; i < 4; i++) statuses.push((await app.post(rpc('ping'), { token: `rg_made-up-${i}` })).status);
      expect(statuses).toEqual([401, 401, 401, 429]);
    });
  });

  describe('with Redis (REDIS_URL): API processes share the budgets', () => {
    const clients: Redis[] = [];
    const redis = () => {
      const c = new Redis(process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379', { maxRetriesPerRequest: 1 });
      clients.push(c);
      return c;
    };
    const redisPrefix = `rl:mcp-test:${randomUUID()}`;
    const a = useMcpApp({ perToken: 3, perWorkspace: 100, redis, redisPrefix });
    const b = useMcpApp({ perToken: 3, perWorkspace: 100, redis, redisPrefix });
    afterAll(async () => {
      await Promise.all(clients.map((c) => c.quit()));
    });

    it('spends one token budget across two app instances', async () => {
      const { owner } = await makeTenant();
      const token = await tokenFor(owner, AI_READ, 'ai');
      const statuses: number[] = [];
      for (const app of [a, b, a, b]) statuses.push((await app.post(rpc('ping'), { token })).status);
      expect(statuses).toEqual([200, 200, 200, 429]);
    });
  });
});
