import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { ApiError, createAgencyClient, createCustomerClient, retryAfterSeconds } from '../../clients/typescript/src';

interface Seen {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
  at: number;
}

/** A stand-in API on loopback: `answer(n)` says what the n-th request gets (status, headers, JSON body). */
async function fakeApi(answer: (n: number, req: Seen) => { status: number; headers?: Record<string, string>; body?: unknown }) {
  const seen: Seen[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (d) => (body += d));
    req.on('end', () => {
      const r: Seen = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body, at: Date.now() };
      seen.push(r);
      const a = answer(seen.length, r);
      res.writeHead(a.status, { 'Content-Type': 'application/json', ...a.headers });
      res.end(JSON.stringify(a.body ?? {}));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const TOO_MANY = { status: 429, headers: { 'Retry-After': '1' }, body: { message: 'Too Many Attempts.' } };
const ME = { id: 7, name: 'Ada', email: 'ada@customer.test' };

describe('typed client: retries on 429', () => {
  let api: Awaited<ReturnType<typeof fakeApi>> | undefined;
  afterEach(async () => {
    await api?.close();
    api = undefined;
  });

  it('waits the Retry-After the server asked for, then answers the retry', async () => {
    api = await fakeApi((n) => (n === 1 ? TOO_MANY : { status: 200, body: ME }));
    const retries: number[] = [];
    const client = createCustomerClient({ baseUrl: api.origin, token: 'tok', retry: { onRetry: ({ delayMs }) => retries.push(delayMs) } });

    const { data } = await client.GET('/me');
    expect(data).toEqual(ME);
    expect(api.seen.map((r) => `${r.method} ${r.url}`)).toEqual(['GET /api/v1/me', 'GET /api/v1/me']);
    expect(api.seen[1].at - api.seen[0].at).toBeGreaterThanOrEqual(950);
    expect(retries).toEqual([1000]);
    expect(api.seen.every((r) => r.headers.authorization === 'Bearer tok')).toBe(true);
  });

  it('gives a POST an Idempotency-Key and sends the same key and body again', async () => {
    api = await fakeApi((n) => (n === 1 ? { ...TOO_MANY, headers: { 'Retry-After': '0' } } : { status: 201, body: { id: 1, name: 'Org' } }));
    const client = createCustomerClient({ baseUrl: api.origin, token: 'tok' });

    const { data, response } = await client.POST('/organizations', { body: { name: 'Org' } });
    expect(response.status).toBe(201);
    expect(data).toMatchObject({ id: 1 });
    const [first, second] = api.seen;
    expect(first.headers['idempotency-key']).toMatch(/^[0-9a-f-]{36}$/);
    expect(second.headers['idempotency-key']).toBe(first.headers['idempotency-key']);
    expect(JSON.parse(second.body)).toEqual({ name: 'Org' });
    expect(second.body).toBe(first.body);
  });

  it("keeps the caller's own Idempotency-Key", async () => {
    api = await fakeApi((n) => (n === 1 ? { ...TOO_MANY, headers: { 'Retry-After': '0' } } : { status: 201, body: {} }));
    const client = createAgencyClient({ baseUrl: api.origin, token: 'tok' });
    await client.POST('/connect-links', { body: { provider: 'google', location_id: 3 }, params: { header: { 'Idempotency-Key': 'order-42' } } });
    expect(api.seen.map((r) => [r.url, r.headers['idempotency-key']])).toEqual([
      ['/api/agency/v1/connect-links', 'order-42'],
      ['/api/agency/v1/connect-links', 'order-42'],
    ]);
  });

  it('stops after the configured number of tries and throws the last 429 as an ApiError', async () => {
    api = await fakeApi(() => ({ ...TOO_MANY, headers: { 'Retry-After': '0' } }));
    const client = createCustomerClient({ baseUrl: api.origin, token: 'tok', retry: { attempts: 4 } });
    const e = await client.GET('/me').catch((err: unknown) => err);
    expect(e).toBeInstanceOf(ApiError);
    expect(e).toMatchObject({ status: 429, message: 'Too Many Attempts.', retryAfter: 0 });
    expect(api.seen).toHaveLength(4);
  });

  it('does not wait longer than maxDelayMs: a long Retry-After is answered at once', async () => {
    api = await fakeApi(() => ({ ...TOO_MANY, headers: { 'Retry-After': '120' } }));
    const client = createCustomerClient({ baseUrl: api.origin, token: 'tok', retry: { maxDelayMs: 5_000 } });
    const e = (await client.GET('/me').catch((err: unknown) => err)) as ApiError;
    expect(e.status).toBe(429);
    expect(e.retryAfter).toBe(120);
    expect(api.seen).toHaveLength(1);
  });

  it('retry: false answers the first 429 and adds no Idempotency-Key', async () => {
    api = await fakeApi(() => ({ ...TOO_MANY, headers: { 'Retry-After': '0' } }));
    const client = createCustomerClient({ baseUrl: api.origin, token: 'tok', retry: false });
    await expect(client.POST('/organizations', { body: { name: 'Org' } })).rejects.toMatchObject({ status: 429 });
    expect(api.seen).toHaveLength(1);
    expect(api.seen[0].headers['idempotency-key']).toBeUndefined();
  });

  it('does not retry other errors', async () => {
    api = await fakeApi(() => ({ status: 503, headers: { 'Retry-After': '0' }, body: { message: 'Down.' } }));
    const client = createCustomerClient({ baseUrl: api.origin, token: 'tok' });
    await expect(client.GET('/me')).rejects.toMatchObject({ status: 503, message: 'Down.' });
    expect(api.seen).toHaveLength(1);
  });

  it('reads Retry-After as seconds or as an HTTP date', () => {
    const now = Date.parse('2026-11-25T12:00:00Z');
    expect(retryAfterSeconds('7', now)).toBe(7);
    expect(retryAfterSeconds('Wed, 25 Nov 2026 12:00:30 GMT', now)).toBe(30);
    expect(retryAfterSeconds('Wed, 25 Nov 2026 11:00:00 GMT', now)).toBe(0);
    expect(retryAfterSeconds('soon', now)).toBeUndefined();
    expect(retryAfterSeconds(null, now)).toBeUndefined();
  });
});
