import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import express, { type Express, type Request, type Response } from 'express';
import pino from 'pino';
import request from 'supertest';
import { getSchema } from '../../src/graphql/schema';
import { createApp } from '../../src/http/app';
import { writeEvent } from '../../src/outbox/writer';
import { OutboxEvent } from '../../src/models';
import { isLoopbackAddress, isLoopbackClient } from '../../src/observability/access';
import { routeLabel } from '../../src/observability/http-metrics';
import { useApp } from '../support/app';
import { useDatabase } from '../support/db';
import { makeWorld, tokenFor } from '../support/factories';
import { AI_READ, call, rpc } from '../mcp/support';
import { parseMetrics, valueOf, type Sample } from './prometheus';

/** Issue 13 "Metrics": /metrics in Prometheus text format, by route template, outbox backlog and lag, limiter rejections. */
describe('GET /metrics', () => {
  const t = useApp({ rateLimit: 3 });
  const scrape = async (): Promise<Sample[]> => {
    const res = await t.http().get('/metrics');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    return parseMetrics(res.text);
  };

  it('counts REST, GraphQL and MCP requests by route template, method and status, never by raw URL', async () => {
    const world = await makeWorld();
    const ai = await tokenFor(world.owner, AI_READ, 'ai');
    await t.as(world.tokens.orgOwner).get('/api/v1/reviews/987654321').expect(404);
    await t.as(world.tokens.orgOwner).get('/api/v1/organizations').expect(200);
    await t.as(world.tokens.orgOwner).post('/graphql').send({ query: 'query TenantBrand { tenant { brandName } }' }).expect(200);
    await t.as(ai).post('/api/mcp').send(call('list_organizations')).expect(200);
    await t.as(ai).post('/api/mcp').send(rpc('tools/list')).expect(200);

    const samples = await scrape();
    expect(valueOf(samples, 'http_requests_total', { route: '/api/v1/reviews/:id', method: 'GET', status: '404' })).toBeGreaterThanOrEqual(1);
    expect(valueOf(samples, 'http_requests_total', { route: '/api/v1/organizations', method: 'GET', status: '200' })).toBeGreaterThanOrEqual(1);
    expect(valueOf(samples, 'http_requests_total', { route: 'graphql:TenantBrand', method: 'POST', status: '200' })).toBe(1);
    expect(valueOf(samples, 'http_requests_total', { route: 'mcp:list_organizations', method: 'POST', status: '200' })).toBe(1);
    expect(valueOf(samples, 'http_requests_total', { route: 'mcp:tools/list', method: 'POST', status: '200' })).toBe(1);
    // The latency histogram carries the same labels.
    expect(valueOf(samples, 'http_request_duration_seconds_count', { route: '/api/v1/reviews/:id', method: 'GET', status: '404' })).toBeGreaterThanOrEqual(1);
    expect(valueOf(samples, 'http_request_duration_seconds_bucket', { route: 'graphql:TenantBrand', le: '+Inf' })).toBe(1);
    // Bounded labels: no raw id or query string ever becomes a route.
    const routes = new Set(samples.filter((s) => s.name === 'http_requests_total').map((s) => s.labels.route));
    expect([...routes].filter((r) => /\d{3,}|\?/.test(r))).toEqual([]);
    // prom-client's default process series are there too.
    expect(samples.some((s) => s.name === 'process_cpu_seconds_total')).toBe(true);
  });

  it('labels unnamed GraphQL operations graphql:anonymous and unmatched paths other', async () => {
    const world = await makeWorld();
    await t.as(world.tokens.orgOwner).post('/graphql').send({ query: '{ tenant { brandName } }' }).expect(200);
    await t.http().get('/no/such/path/42').expect(404);
    const samples = await scrape();
    expect(valueOf(samples, 'http_requests_total', { route: 'graphql:anonymous', method: 'POST', status: '200' })).toBeGreaterThanOrEqual(1);
    expect(valueOf(samples, 'http_requests_total', { route: 'other', method: 'GET', status: '404' })).toBeGreaterThanOrEqual(1);
  });

  it('gives an operation name its own label only once a signed-in caller had an answer with it: made-up names cannot fill the slots', async () => {
    const world = await makeWorld();
    const name = `Probe${Date.now()}`;
    const total = (samples: Sample[], route: string) =>
      samples.filter((s) => s.name === 'http_requests_total' && s.labels.route === route).reduce((sum, s) => sum + s.value, 0);
    const before = await scrape();
    // Without a token, and signed in but refused (an invalid document: 400): graphql:other, the name takes no slot.
    await t.http().post('/graphql').send({ query: `query ${name} { tenant { brandName } }` });
    const refused = await t.as(world.tokens.owner).post('/graphql').send({ query: `query ${name} { noSuchField }` });
    expect(refused.status).toBe(400);
    const unnamed = await scrape();
    expect(total(unnamed, `graphql:${name}`)).toBe(0);
    expect(total(unnamed, 'graphql:other') - total(before, 'graphql:other')).toBe(2);
    // A signed-in caller's answered request gives the name its label; from then on anyone's request with it counts there.
    await t.as(world.tokens.owner).post('/graphql').send({ query: `query ${name} { tenant { brandName } }` }).expect(200);
    await t.http().post('/graphql').send({ query: `query ${name} { tenant { brandName } }` });
    const named = await scrape();
    expect(total(named, `graphql:${name}`)).toBe(2);
    expect(total(named, 'graphql:other') - total(unnamed, 'graphql:other')).toBe(0);
  });

  it('counts a 429 of the REST limit and of the failed-authentication limit by limiter', async () => {
    const before = await scrape();
    const world = await makeWorld();
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await t.as(world.tokens.owner).get('/api/v1/organizations')).status);
    expect(statuses[3]).toBe(429);
    for (let i = 0; i < 4; i++) statuses.push((await t.as(`rg_made-up-${i}`).get('/api/v1/organizations')).status);
    expect(statuses.slice(4)).toEqual([401, 401, 401, 429]);
    const after = await scrape();
    const delta = (limiter: string) => valueOf(after, 'rate_limit_rejections_total', { limiter }) - valueOf(before, 'rate_limit_rejections_total', { limiter });
    expect(delta('rest')).toBe(1);
    expect(delta('auth_failures')).toBe(1);
    // Answered before any route matched: the mount's wildcard, not the raw path.
    expect(valueOf(after, 'http_requests_total', { route: '/api/v1/*', method: 'GET', status: '429' })).toBeGreaterThanOrEqual(2);
  });

  it('shows an undispatched outbox event in the backlog gauge and its age in the lag gauge', async () => {
    const world = await makeWorld(); // its own events are in the backlog before the first scrape
    const before = await scrape();
    const twoMinutesAgo = new Date(Date.now() - 120_000);
    const event = await t.db().transaction((transaction) =>
      writeEvent(
        transaction,
        { tenantId: world.tenant.id, customerId: null, event: 'organization-updated', aggregateType: 'organization', aggregateId: 'metrics-test', payload: {} },
        { clock: { now: () => twoMinutesAgo } },
      ),
    );
    try {
      const after = await scrape();
      expect(valueOf(after, 'outbox_backlog')).toBe(valueOf(before, 'outbox_backlog') + 1);
      expect(valueOf(after, 'outbox_lag_seconds')).toBeGreaterThanOrEqual(119);
    } finally {
      await OutboxEvent.destroy({ where: { id: event.id } });
    }
  });
});

/** Every casing of a path, at random: Express matches mounts and routes case-insensitively. */
const anyCase = (path: string): string => [...path].map((c) => (Math.random() < 0.5 ? c.toUpperCase() : c.toLowerCase())).join('');
const randomSegment = (): string => Math.random().toString(36).slice(2, 10);

/** Security review: the labels of the HTTP metrics come from the code, so no request can add series without bound. */
describe('GET /metrics: no request text in a label', () => {
  const t = useApp();
  const scrape = async (): Promise<Sample[]> => parseMetrics((await t.http().get('/metrics').expect(200)).text);
  const requests = (samples: Sample[]) => samples.filter((s) => s.name === 'http_requests_total');

  it('labels every casing and path below a mount with the mount as declared: one series per route, method and status', async () => {
    const before = requests(await scrape());
    const n = 60;
    for (let i = 0; i < n; i++) {
      // A GET below the inbound webhook (its one route is a POST): the router's own 404.
      await t.http().get(`${anyCase('/api/webhooks/inbound')}/${anyCase(randomSegment())}/${randomSegment()}`).expect(404);
      // Inside a router mounted below another (the developer pages' assets).
      await t.http().get(`${anyCase('/docs/assets')}/${randomSegment()}.js`).expect(404);
      // Below a path only a rate limit is mounted at: the app's 404.
      await t.http().get(`${anyCase('/oauth')}/${randomSegment()}`).expect(404);
      // The GraphQL endpoint in any casing is still GraphQL.
      await t.http().post(anyCase('/graphql')).send({ query: '{ __typename }' }).expect(200);
    }
    const after = requests(await scrape());
    const grown = (route: string, method: string, status: string) =>
      valueOf(after, 'http_requests_total', { route, method, status }) - valueOf(before, 'http_requests_total', { route, method, status });
    expect(grown('/api/webhooks/inbound/*', 'GET', '404')).toBe(n);
    expect(grown('/docs/assets/*', 'GET', '404')).toBe(n);
    expect(grown('/oauth/*', 'GET', '404')).toBe(n);
    expect(grown('graphql:anonymous', 'POST', '200')).toBe(n);
    // 4n requests, at most those four new series (a series line per route, method and status).
    const key = (s: Sample) => `${s.labels.route} ${s.labels.method} ${s.labels.status}`;
    const added = [...new Set(after.map(key))].filter((k) => !before.some((s) => key(s) === k));
    expect(added.length).toBeLessThanOrEqual(4);
    // No route is there twice in two casings.
    const routes = [...new Set(after.map((s) => s.labels.route))];
    expect(routes.length).toBe(new Set(routes.map((r) => r.toLowerCase())).size);
    // The latency histogram has the same labels: one _count line for the 60 GETs of the inbound mount.
    const counts = (await scrape()).filter((s) => s.name === 'http_request_duration_seconds_count' && s.labels.route.toLowerCase().startsWith('/api/webhooks/inbound') && s.labels.method === 'GET');
    expect(counts.map((s) => s.labels.route)).toEqual(['/api/webhooks/inbound/*']);
  });

  it('labels a route of the app itself below a mount\'s path with its own template', async () => {
    await t.http().get('/api/v1/openapi.json').expect(200);
    const samples = await scrape();
    expect(valueOf(samples, 'http_requests_total', { route: '/api/v1/openapi.json', method: 'GET', status: '200' })).toBeGreaterThanOrEqual(1);
    expect(requests(samples).filter((s) => s.labels.route.includes('/api/v1/api/v1'))).toEqual([]);
  });

  it('labels methods other than GET, HEAD, POST, PUT, PATCH, DELETE and OPTIONS as OTHER', async () => {
    const before = await scrape();
    await t.http().propfind('/no/such/path').expect(404);
    await t.http().purge(`/${randomSegment()}`).expect(404);
    await t.http().mkcol(anyCase('/api/webhooks/inbound/x')).expect(404);
    const after = requests(await scrape());
    expect(valueOf(after, 'http_requests_total', { route: 'other', method: 'OTHER', status: '404' }) - valueOf(before, 'http_requests_total', { route: 'other', method: 'OTHER', status: '404' })).toBe(2);
    expect(valueOf(after, 'http_requests_total', { route: '/api/webhooks/inbound/*', method: 'OTHER', status: '404' })).toBeGreaterThanOrEqual(1);
    expect([...new Set(after.map((s) => s.labels.method))].filter((m) => !['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'OTHER'].includes(m))).toEqual([]);
  });

  it('labels every mount of the app, in any casing, with its declared path', () => {
    // The app's middleware and routers and the routers below them, with the paths they are mounted at.
    interface Layer {
      route?: unknown;
      rawPath?: string | RegExp | Array<string | RegExp>;
      handle: { stack?: Layer[] };
    }
    const mounts = new Set<string>();
    const walk = (stack: Layer[], prefix: string) => {
      for (const layer of stack) {
        if (layer.route) continue;
        expect(layer.rawPath).toBeDefined(); // the router's own record of the path a layer was mounted at
        for (const raw of [layer.rawPath].flat()) {
          if (typeof raw !== 'string') throw new Error(`a mount path that is not a string: ${String(raw)}`);
          const path = raw === '/' ? prefix : `${prefix}${raw}`;
          if (path) mounts.add(path);
          if (layer.handle.stack) walk(layer.handle.stack, path);
        }
      }
    };
    walk((t.app as Express & { router: { stack: Layer[] } }).router.stack, '');
    expect(mounts.size).toBeGreaterThan(10);
    for (const mount of mounts) {
      const spelled = anyCase(mount);
      const req = { originalUrl: `${spelled}/x`, baseUrl: spelled, method: 'GET', query: {}, route: undefined } as unknown as Request;
      const label = routeLabel(req, { locals: {} } as Response);
      const expected = mount === '/graphql' ? 'graphql:anonymous' : mount === '/api/mcp' ? 'mcp:other' : mount.startsWith('/simulators/') ? '/simulators/*' : `${mount}/*`;
      expect({ mount, label }).toEqual({ mount, label: expected });
    }
  });
});

describe('the number of route labels', () => {
  it('stays at MAX_ROUTE_LABELS, the rest labelled other, even should a facade label requests with their own text', async () => {
    // A fresh registry and label set, so that this test's labels meet no other test's.
    let metrics!: typeof import('../../src/observability/http-metrics');
    let registry!: typeof import('../../src/observability/metrics').registry;
    await jest.isolateModulesAsync(async () => {
      metrics = await import('../../src/observability/http-metrics');
      registry = (await import('../../src/observability/metrics')).registry;
    });
    const app = express();
    app.use(metrics.httpMetrics());
    app.use((req, res) => {
      metrics.setRouteLabel(res, req.path);
      res.status(204).end();
    });
    const server = app.listen(0, '127.0.0.1');
    try {
      const sent = metrics.MAX_ROUTE_LABELS + 50;
      for (let i = 0; i < sent; i++) await request(server).get(`/${i}`).expect(204);
      const samples = parseMetrics(await registry.metrics()).filter((s) => s.name === 'http_requests_total');
      expect(samples.length).toBe(metrics.MAX_ROUTE_LABELS);
      expect(new Set(samples.map((s) => s.labels.route)).size).toBe(metrics.MAX_ROUTE_LABELS);
      expect(valueOf(samples, 'http_requests_total', { route: 'other' })).toBe(sent - (metrics.MAX_ROUTE_LABELS - 1));
      expect(samples.reduce((sum, s) => sum + s.value, 0)).toBe(sent);
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});

describe('who may read /metrics', () => {
  it('treats 127.0.0.0/8, ::1 and their IPv4-mapped forms as loopback, nothing else', () => {
    for (const a of ['127.0.0.1', '127.3.2.1', '::1', '::ffff:127.0.0.1']) expect(isLoopbackAddress(a)).toBe(true);
    for (const a of ['10.0.0.1', '192.0.2.2', '::ffff:10.0.0.1', 'fd00::2', '', undefined]) expect(isLoopbackAddress(a)).toBe(false);
  });

  it('behind a trusted proxy, requires the forwarded client to be loopback too', () => {
    expect(isLoopbackClient({ remoteAddress: '127.0.0.1', ip: '127.0.0.1', trustProxy: false })).toBe(true);
    // Without TRUST_PROXY, X-Forwarded-For is ignored: the socket's peer decides.
    expect(isLoopbackClient({ remoteAddress: '127.0.0.1', ip: '203.0.113.9', trustProxy: false })).toBe(true);
    expect(isLoopbackClient({ remoteAddress: '127.0.0.1', ip: '203.0.113.9', trustProxy: true })).toBe(false);
    expect(isLoopbackClient({ remoteAddress: '127.0.0.1', ip: '127.0.0.1', trustProxy: true })).toBe(true);
    expect(isLoopbackClient({ remoteAddress: '10.1.2.3', ip: '127.0.0.1', trustProxy: true })).toBe(false);
    expect(isLoopbackClient({ remoteAddress: '10.1.2.3', ip: '10.1.2.3', trustProxy: false })).toBe(false);
  });

  it('behind a trusted proxy on this machine, a client cannot pass as local by writing 127.0.0.1 into X-Forwarded-For', async () => {
    const built = await createApp({
      config: { RATE_LIMIT_PER_MINUTE: 100_000, BODY_LIMIT: '1mb', TRUST_PROXY: 'true' },
      schema: await getSchema(),
      logger: pino({ level: 'silent' }),
    });
    try {
      // The proxy appends the address it saw: the client's own entry stands left of it and is not read.
      const spoofed = await request(built.app).get('/metrics').set('X-Forwarded-For', '127.0.0.1, 203.0.113.9');
      expect(spoofed.status).toBe(403);
      expect(spoofed.body).toMatchObject({ code: 'metrics_forbidden' });
      // A scraper on this machine, through the local proxy.
      expect((await request(built.app).get('/metrics').set('X-Forwarded-For', '127.0.0.1')).status).toBe(200);
    } finally {
      await built.stop();
    }
  });

  describe('over the network (a non-loopback address of this machine)', () => {
    const token = 'metrics-token-for-the-test-0123456789';
    let server: Server;
    let stop: () => Promise<void>;
    let origin: string;
    useDatabase(); // the outbox gauges read this Jest worker's database
    beforeAll(async () => {
      const address = Object.values(os.networkInterfaces())
        .flat()
        .find((i) => i && !i.internal && i.family === 'IPv4')?.address;
      if (!address) throw new Error('this test needs a non-loopback IPv4 address on the machine');
      const built = await createApp({
        config: { RATE_LIMIT_PER_MINUTE: 100_000, BODY_LIMIT: '1mb', TRUST_PROXY: 'false', METRICS_TOKEN: token },
        schema: await getSchema(),
        logger: pino({ level: 'silent' }),
      });
      stop = built.stop;
      server = await new Promise<Server>((resolve) => {
        const s = built.app.listen(0, address, () => resolve(s));
      });
      origin = `http://${address}:${(server.address() as AddressInfo).port}`;
    });
    afterAll(async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await stop();
    });

    it('answers 403 JSON without the token, and the page with Authorization: Bearer <METRICS_TOKEN>', async () => {
      const anonymous = await request(origin).get('/metrics');
      expect(anonymous.status).toBe(403);
      expect(anonymous.body).toMatchObject({ code: 'metrics_forbidden' });
      expect(anonymous.body.message).toContain('METRICS_TOKEN');
      const wrong = await request(origin).get('/metrics').set('Authorization', 'Bearer not-the-token');
      expect(wrong.status).toBe(403);
      const allowed = await request(origin).get('/metrics').set('Authorization', `Bearer ${token}`);
      expect(allowed.status).toBe(200);
      expect(parseMetrics(allowed.text).some((s) => s.name === 'http_requests_total')).toBe(true);
      // Health stays public: orchestrators probe it from elsewhere.
      expect((await request(origin).get('/health')).status).toBe(200);
    });
  });
});
