import Redis from 'ioredis';
import { openRedis } from '../../../src/bootstrap';
import { redisStore } from '../../../facades/shared/rate-limit';
import { useApp } from '../../support/app';
import { makeTenant, tokenFor } from '../../support/factories';
import { tcpProxy, type TcpProxy } from '../../support/tcp-proxy';
import { waitUntil } from '../../support/wait';

describe('REST rate limit: 60 requests per minute per token', () => {
  describe('with the in-memory store', () => {
    const t = useApp({ rateLimit: 3 });

    it('sends X-RateLimit-Limit and X-RateLimit-Remaining on every response, then 429 with Retry-After', async () => {
      const { owner } = await makeTenant();
      const token = await tokenFor(owner, ['organizations:read']);
      const auth = { Authorization: `Bearer ${token}` };
      const seen: Array<[number, string, string]> = [];
      for (const path of ['/api/v1/me', '/api/v1/reviews', '/api/v1/locations/999999999']) {
        const res = await t.http().get(path).set(auth);
        seen.push([res.status, res.headers['x-ratelimit-limit'], res.headers['x-ratelimit-remaining']]);
        expect(res.headers['retry-after']).toBeUndefined();
      }
      // 200 (me), 403 (no reviews:read), 404 (unknown location): all counted, all with the headers.
      expect(seen).toEqual([
        [200, '3', '2'],
        [403, '3', '1'],
        [404, '3', '0'],
      ]);
      const limited = await t.http().get('/api/v1/me').set(auth);
      expect(limited.status).toBe(429);
      expect(limited.headers['content-type']).toMatch(/application\/json/);
      expect(limited.body).toEqual({ message: 'Too Many Attempts.' });
      expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
      expect(Number(limited.headers['retry-after'])).toBeLessThanOrEqual(60);
      expect(limited.headers['x-ratelimit-remaining']).toBe('0');
    });

    it('counts each token on its own', async () => {
      const { owner } = await makeTenant();
      const first = await tokenFor(owner, []);
      const second = await tokenFor(owner, []);
      for (let i = 0; i < 3; i++) await t.http().get('/api/v1/me').set('Authorization', `Bearer ${first}`);
      expect((await t.http().get('/api/v1/me').set('Authorization', `Bearer ${first}`)).status).toBe(429);
      const other = await t.http().get('/api/v1/me').set('Authorization', `Bearer ${second}`);
      expect(other.status).toBe(200);
      expect(other.headers['x-ratelimit-remaining']).toBe('2');
    });

    it('limits requests without a valid token too, and still answers them 401 with the headers', async () => {
      const res = await t.http().get('/api/v1/me').set('Authorization', 'Bearer rg_unknown-rate-limit-probe');
      expect(res.status).toBe(401);
      expect(res.headers['x-ratelimit-limit']).toBe('3');
    });
  });

  describe('with Redis (REDIS_URL): several API processes share one budget', () => {
    const clients: Redis[] = [];
    const redis = () => {
      const c = new Redis(process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379', { maxRetriesPerRequest: 1 });
      clients.push(c);
      return c;
    };
    const a = useApp({ rateLimit: 4, redis });
    const b = useApp({ rateLimit: 4, redis });
    afterAll(async () => {
      await Promise.all(clients.map((c) => c.quit()));
    });

    it('spends the budget across two app instances', async () => {
      const { owner } = await makeTenant();
      const auth = { Authorization: `Bearer ${await tokenFor(owner, [])}` };
      const statuses: number[] = [];
      const remaining: string[] = [];
      for (const app of [a, b, a, b, a]) {
        const res = await app.http().get('/api/v1/me').set(auth);
        statuses.push(res.status);
        remaining.push(res.headers['x-ratelimit-remaining']);
      }
      expect(statuses).toEqual([200, 200, 200, 200, 429]);
      expect(remaining).toEqual(['3', '2', '1', '0', '0']);
    });
  });

  describe('with Redis lost, then back (the production client, through a proxy the test cuts)', () => {
    const redisUrl = new URL(process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379');
    let proxy: TcpProxy;
    let client: Redis;
    beforeAll(async () => {
      proxy = await tcpProxy({ host: redisUrl.hostname, port: Number(redisUrl.port || 6379) });
    });
    const t = useApp({ rateLimit: 3, redis: () => (client = openRedis({ REDIS_URL: `redis://127.0.0.1:${proxy.port}` })!) });
    afterAll(async () => {
      client.disconnect();
      await proxy.close();
    });

    it('lets requests through at once, without a stack trace per request, while Redis is away; limits again once it is back', async () => {
      const { owner } = await makeTenant();
      const auth = { Authorization: `Bearer ${await tokenFor(owner, [])}` };
      const first = await t.http().get('/api/v1/me').set(auth);
      expect([first.status, first.headers['x-ratelimit-remaining']]).toEqual([200, '2']);

      await proxy.cut();
      await waitUntil(async () => client.status === 'reconnecting', 10_000, 20);
      // A limit store's call fails at once instead of queueing for ioredis' next connection attempts.
      await expect(redisStore(client, 'rl:test-away:').increment('k')).rejects.toThrow('Redis connection is reconnecting');
      const consoleError = jest.spyOn(console, 'error').mockImplementation(() => undefined);
      try {
        const away: number[] = [];
        for (let i = 0; i < 5; i++) away.push((await t.http().get('/api/v1/me').set(auth)).status);
        expect(away).toEqual([200, 200, 200, 200, 200]); // past the limit of 3: passed without it
        expect(consoleError).not.toHaveBeenCalled(); // express-rate-limit's own logger printed a stack for each
      } finally {
        consoleError.mockRestore();
      }

      await proxy.restore();
      await waitUntil(async () => client.status === 'ready', 30_000, 50);
      const back: [number, string | undefined][] = [];
      for (let i = 0; i < 3; i++) {
        const res = await t.http().get('/api/v1/me').set(auth);
        back.push([res.status, res.headers['x-ratelimit-remaining']]);
      }
      // The hit counted before Redis went away still counts: the shared budget goes on where it was.
      expect(back).toEqual([
        [200, '1'],
        [200, '0'],
        [429, '0'],
      ]);
    });
  });
});
