import { randomUUID } from 'node:crypto';
import net from 'node:net';
import type { Client } from '@temporalio/client';
import { msNumberToTs } from '@temporalio/common/lib/time';
import Redis from 'ioredis';
import pino from 'pino';
import request from 'supertest';
import type { Sequelize } from 'sequelize';
import { createSequelize, dropDatabase, ensureDatabase } from '../../src/db/connection';
import { migrations } from '../../src/db/migrations';
import { getSchema } from '../../src/graphql/schema';
import { createApp } from '../../src/http/app';
import { checkReadiness, POLLER_FRESH_MS, type ReadinessCheck } from '../../src/observability/readiness';
import { temporal } from '../../workflows/client';
import { useApp } from '../support/app';
import { databaseUrlFor } from '../support/env';
import { useTemporalWorker } from '../support/temporal';

const byName = (checks: ReadinessCheck[]) => Object.fromEntries(checks.map((c) => [c.name, c]));

/** Issue 13 "Readiness and liveness": /health is alive, /health/ready checks every dependency and names what failed. */
describe('GET /health and GET /health/ready', () => {
  const t = useApp({ redis: () => new Redis(process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379', { maxRetriesPerRequest: 1 }) });

  it('answers /health 200 {"status":"ok"}', async () => {
    const res = await t.http().get('/health');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ok' });
  });

  it('answers /health/ready 200 with the database, migration and Redis checks when nothing else is configured', async () => {
    const res = await t.http().get('/health/ready');
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('ready');
    expect(res.body.checks.map((c: ReadinessCheck) => c.name).sort()).toEqual(['database', 'migrations', 'redis']);
    for (const c of res.body.checks) {
      expect(c.ok).toBe(true);
      expect(typeof c.ms).toBe('number');
    }
  });

  describe('on a database whose migrations have not run', () => {
    const url = databaseUrlFor(`ready_${process.env.JEST_WORKER_ID ?? '1'}`);
    let empty: Sequelize;
    beforeAll(async () => {
      await dropDatabase(url);
      await ensureDatabase(url);
      empty = createSequelize({ url, poolMax: 2 }) as unknown as Sequelize;
    });
    afterAll(async () => {
      await empty.close();
      await dropDatabase(url);
    });

    it('answers 503 {status:"unavailable"} naming the migrations check and the pending migrations', async () => {
      const { app, stop } = await createApp({
        config: { RATE_LIMIT_PER_MINUTE: 1000, BODY_LIMIT: '1mb', TRUST_PROXY: 'false' },
        schema: await getSchema(),
        logger: pino({ level: 'silent' }),
        observability: { readiness: () => ({ sequelize: empty, role: 'api' }) },
      });
      try {
        const res = await request(app).get('/health/ready');
        expect(res.status).toBe(503);
        expect(res.headers['content-type']).toMatch(/json/);
        expect(res.body.status).toBe('unavailable');
        const checks = byName(res.body.checks);
        expect(checks.database.ok).toBe(true);
        expect(checks.migrations.ok).toBe(false);
        expect(checks.migrations.detail).toMatch(/^\d+ pending: 20261121000100-/);
        expect(checks.migrations.detail).toMatch(/ and \d+ more$/);
      } finally {
        await stop();
      }
    });
  });
});

describe('checkReadiness against Temporal and Redis', () => {
  const w = useTemporalWorker();
  const db = useApp().db;

  it('holds for an API whose task queue has a polling worker', async () => {
    const { client } = temporal();
    const r = await checkReadiness({ sequelize: db() as unknown as Sequelize, role: 'api', temporal: { client, namespace: 'default', taskQueue: w.settings().taskQueue } });
    const checks = byName(r.checks);
    expect(r.status).toBe('ready');
    expect(checks.temporal.ok).toBe(true);
    expect(checks.worker_pollers).toMatchObject({ ok: true });
    expect(checks.worker_pollers.detail).toContain(w.settings().taskQueue);
  });

  it('fails worker_pollers when no worker serves the task queue', async () => {
    const { client } = temporal();
    const queue = `nobody-polls-${randomUUID()}`;
    const r = await checkReadiness({ sequelize: db() as unknown as Sequelize, role: 'api', temporal: { client, namespace: 'default', taskQueue: queue } });
    expect(r.status).toBe('unavailable');
    expect(byName(r.checks).worker_pollers).toMatchObject({ ok: false, detail: `no worker polls the task queue "${queue}"` });
    expect(byName(r.checks).temporal.ok).toBe(true);
  });

  it('fails temporal for an unknown namespace and when the client is not connected', async () => {
    const { client } = temporal();
    const r = await checkReadiness({ sequelize: db() as unknown as Sequelize, role: 'worker', worker: { getState: () => 'RUNNING' }, temporal: { client, namespace: `missing-${randomUUID()}`, taskQueue: 'q' } });
    expect(byName(r.checks).temporal.ok).toBe(false);
    expect(byName(r.checks).temporal.detail).toMatch(/not found/i);
    const none = await checkReadiness({ sequelize: db() as unknown as Sequelize, role: 'worker', worker: { getState: () => 'RUNNING' }, temporal: { namespace: 'default', taskQueue: 'q' } });
    expect(byName(none.checks).temporal).toMatchObject({ ok: false, detail: 'not connected' });
  });

  it('bounds a dependency that accepts connections but never answers by the timeout', async () => {
    // A TCP server that takes the connection and says nothing: the PING would wait forever.
    const sockets: net.Socket[] = [];
    const blackHole = net.createServer((socket) => sockets.push(socket));
    await new Promise<void>((resolve) => blackHole.listen(0, '127.0.0.1', () => resolve()));
    const silent = new Redis({ host: '127.0.0.1', port: (blackHole.address() as net.AddressInfo).port, maxRetriesPerRequest: 0 });
    silent.on('error', () => undefined);
    try {
      const r = await checkReadiness({ sequelize: db() as unknown as Sequelize, role: 'api', redis: silent, timeoutMs: 300 });
      expect(r.status).toBe('unavailable');
      expect(byName(r.checks).redis).toMatchObject({ ok: false, detail: 'no answer within 300 ms' });
      expect(byName(r.checks).database.ok).toBe(true);
    } finally {
      silent.disconnect();
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => blackHole.close(() => resolve()));
    }
  });

  it('checks the worker state for a worker process', async () => {
    const stopping = await checkReadiness({ sequelize: db() as unknown as Sequelize, role: 'worker', worker: { getState: () => 'STOPPING' } });
    expect(byName(stopping.checks).worker).toMatchObject({ ok: false, detail: 'worker state STOPPING' });
    const absent = await checkReadiness({ sequelize: db() as unknown as Sequelize, role: 'worker' });
    expect(byName(absent.checks).worker).toMatchObject({ ok: false, detail: 'worker state ABSENT' });
    expect(byName(absent.checks).worker_pollers).toBeUndefined();
  });

  it('checks Redis only when given, and fails it when Redis does not answer', async () => {
    const down = new Redis({ host: '127.0.0.1', port: 1, lazyConnect: true, maxRetriesPerRequest: 0, enableOfflineQueue: true, retryStrategy: () => null });
    down.on('error', () => undefined);
    try {
      const r = await checkReadiness({ sequelize: db() as unknown as Sequelize, role: 'api', redis: down, timeoutMs: 1_000 });
      expect(byName(r.checks).redis.ok).toBe(false);
      expect(r.status).toBe('unavailable');
    } finally {
      down.disconnect();
    }
    const none = await checkReadiness({ sequelize: db() as unknown as Sequelize, role: 'api' });
    expect(byName(none.checks).redis).toBeUndefined();
    expect(none.status).toBe('ready');
  });
});

/**
 * DescribeTaskQueue keeps listing a dead worker's poller for about 5 minutes: worker_pollers counts only pollers whose
 * last poll is recent. A Temporal client and a database that answer what the test says (no server involved).
 */
describe('worker_pollers against the pollers DescribeTaskQueue lists', () => {
  const sequelize = {
    query: async (sql: string) => (sql.includes('schema_migrations') ? migrations.map((m) => ({ name: m.name })) : [{ 1: 1 }]),
  } as unknown as Sequelize;
  const clientListing = (pollers: Array<{ identity: string; lastAccessTime?: ReturnType<typeof msNumberToTs> }>) =>
    ({
      connection: { withDeadline: <R>(_deadline: number, fn: () => Promise<R>) => fn() },
      workflowService: {
        describeNamespace: async () => ({}),
        describeTaskQueue: async () => ({ pollers }),
      },
    }) as unknown as Client;
  const ready = (client: Client) => checkReadiness({ sequelize, role: 'api', temporal: { client, namespace: 'default', taskQueue: 'q' } });

  it('is not ready when the only poller listed last polled longer ago than a live worker would (its worker died)', async () => {
    const r = await ready(clientListing([{ identity: 'dead@host', lastAccessTime: msNumberToTs(Date.now() - 240_000) }]));
    expect(r.status).toBe('unavailable');
    expect(byName(r.checks).worker_pollers.ok).toBe(false);
    expect(byName(r.checks).worker_pollers.detail).toMatch(/^no worker polls the task queue "q": the last poll was 24\d s ago$/);
    expect(byName(r.checks).temporal.ok).toBe(true);
  });

  it('is not ready just past the threshold, and counts only the fresh pollers next to stale ones', async () => {
    const atLimit = await ready(clientListing([{ identity: 'old@host', lastAccessTime: msNumberToTs(Date.now() - POLLER_FRESH_MS - 1_000) }]));
    expect(byName(atLimit.checks).worker_pollers.ok).toBe(false);
    const mixed = await ready(
      clientListing([
        { identity: 'dead@host', lastAccessTime: msNumberToTs(Date.now() - 200_000) },
        { identity: 'live@host', lastAccessTime: msNumberToTs(Date.now() - 55_000) },
        { identity: 'unknown@host' },
      ]),
    );
    expect(mixed.status).toBe('ready');
    expect(byName(mixed.checks).worker_pollers).toMatchObject({ ok: true, detail: '1 poller(s) on "q"' });
  });

  it('is ready with a poller that polled just now', async () => {
    const r = await ready(clientListing([{ identity: 'live@host', lastAccessTime: msNumberToTs(Date.now() - 2_000) }]));
    expect(r.status).toBe('ready');
    expect(byName(r.checks).worker_pollers).toMatchObject({ ok: true, detail: '1 poller(s) on "q"' });
  });
});
