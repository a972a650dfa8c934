import { spawn, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import { randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openDatabase } from '../../src/bootstrap';
import { dropDatabase } from '../../src/db/connection';
import type { Readiness } from '../../src/observability/readiness';
import { freePort } from '../../src/net/free-port';
import { databaseUrlFor } from '../support/env';
import { ROOT } from '../support/spawn';
import { ensureTestNamespace } from '../support/temporal-server';
import { waitUntil } from '../support/wait';
import { parseMetrics } from './prometheus';

/**
 * Issue 13 "Bad input and faults" and the worker's probe server: the built entry points (`npm run build` first, as
 * `npm test` does) print one clear line and exit 1 when they cannot start; a worker process serves /health/ready
 * and /metrics (with the Temporal SDK's series) on WORKER_HTTP_PORT.
 */
const MAIN = path.join(ROOT, 'dist', 'src', 'main.js');
const WORKER = path.join(ROOT, 'dist', 'src', 'worker-main.js');

function start(entry: string, env: Record<string, string>): { child: ChildProcess; output: () => string; exited: Promise<number | null> } {
  const child = spawn(process.execPath, [entry], { cwd: ROOT, env: { ...process.env, LOG_LEVEL: 'warn', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, output: () => out, exited };
}

async function run(entry: string, env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [entry], { cwd: ROOT, env: { ...process.env, LOG_LEVEL: 'warn', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d) => (stdout += d));
  child.stderr!.on('data', (d) => (stderr += d));
  const code = await new Promise<number | null>((resolve) => child.on('exit', (c) => resolve(c)));
  return { code, stdout, stderr };
}

describe('boot errors and the worker probe server (built entry points)', () => {
  const url = databaseUrlFor(`boot_${process.env.JEST_WORKER_ID ?? '1'}`);
  const appKey = randomBytes(32).toString('base64');
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'reviewgrid-boot-'));
  const base = { DATABASE_URL: url, APP_KEY: appKey, DATA_DIR: dataDir, SEED_DEMO: 'false' };
  let closedPort: number;

  beforeAll(async () => {
    if (!fs.existsSync(MAIN) || !fs.existsSync(WORKER)) throw new Error('dist/ is missing: run `npm run build` first');
    await dropDatabase(url);
    const sequelize = await openDatabase({ DATABASE_URL: url, DATABASE_POOL_MAX: 2 });
    await sequelize.close();
    closedPort = await freePort();
  });
  afterAll(async () => {
    await dropDatabase(url);
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const oneLine = (stderr: string) => {
    expect(stderr.endsWith('\n')).toBe(true);
    expect(stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(stderr).not.toMatch(/\n\s+at /);
    return stderr.trimEnd();
  };

  it.each([
    ['API', MAIN, 'Failed to start'],
    ['worker', WORKER, 'Worker failed to start'],
  ])('%s: an invalid configuration is one line naming the setting, exit 1', async (_kind, entry, prefix) => {
    const r = await run(entry, { ...base, PORT: 'not-a-port', WORKER_HTTP_PORT: 'x' });
    expect(r.code).toBe(1);
    const line = oneLine(r.stderr);
    expect(line.startsWith(`${prefix}: Invalid configuration: PORT: `)).toBe(true);
    expect(line).toContain('WORKER_HTTP_PORT: ');
  });

  it.each([
    ['API', MAIN, 'Failed to start'],
    ['worker', WORKER, 'Worker failed to start'],
  ])('%s: an unreachable database is one line with its address and the cause, exit 1', async (_kind, entry, prefix) => {
    const r = await run(entry, { ...base, DATABASE_URL: `mysql://root@127.0.0.1:${closedPort}/x` });
    expect(r.code).toBe(1);
    expect(oneLine(r.stderr)).toBe(`${prefix}: Cannot reach the database at mysql://root@127.0.0.1:${closedPort}/x: ECONNREFUSED`);
  });

  it.each([
    ['API', MAIN],
    ['worker', WORKER],
  ])('%s in production: warns at start when PUBLIC_URL is a loopback origin, not when it is public https', async (_kind, entry) => {
    const env = { ...base, NODE_ENV: 'production', TEMPORAL_ADDRESS: `127.0.0.1:${closedPort}`, TEMPORAL_CONNECT_TIMEOUT_MS: '500', WORKER_HTTP_PORT: '0' };
    const warnings = (stdout: string) =>
      stdout
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .map((l) => JSON.parse(l) as { level: number; msg: string })
        .filter((l) => l.level === 40 && l.msg.startsWith('PUBLIC_URL'));
    const loopback = await run(entry, { ...env, PUBLIC_URL: 'http://localhost:3000' });
    expect(loopback.code).toBe(1); // no Temporal: the warning comes before that wait
    expect(warnings(loopback.stdout).map((w) => w.msg)).toEqual([expect.stringContaining('PUBLIC_URL (http://localhost:3000) is a loopback address')]);
    const public_ = await run(entry, { ...env, PUBLIC_URL: 'https://reviews.example.com' });
    expect(public_.code).toBe(1);
    expect(warnings(public_.stdout)).toEqual([]);
  });

  it('API in production: warns at start which providers run simulated, not when all are configured', async () => {
    const env = { ...base, NODE_ENV: 'production', PUBLIC_URL: 'https://reviews.example.com', TEMPORAL_ADDRESS: `127.0.0.1:${closedPort}`, TEMPORAL_CONNECT_TIMEOUT_MS: '500' };
    const warnings = (stdout: string) =>
      stdout
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .map((l) => JSON.parse(l) as { level: number; msg: string })
        .filter((l) => l.level === 40 && l.msg.startsWith('Simulated providers'))
        .map((l) => l.msg);
    const simulated = await run(MAIN, { ...env, SMS_SIMULATOR: 'true' });
    expect(simulated.code).toBe(1); // no Temporal: the warning comes before that wait
    expect(warnings(simulated.stdout)).toEqual([
      expect.stringContaining('Google (GOOGLE_CLIENT_ID unset), Facebook (FACEBOOK_CLIENT_ID unset), SMS (SMS_SIMULATOR)'),
    ]);
    const real = { GOOGLE_CLIENT_ID: 'g-id', GOOGLE_CLIENT_SECRET: 'g-secret', FACEBOOK_CLIENT_ID: 'f-id', FACEBOOK_CLIENT_SECRET: 'f-secret', SMS_SIMULATOR: 'false' };
    const configured = await run(MAIN, { ...env, ...real });
    expect(configured.code).toBe(1);
    expect(warnings(configured.stdout)).toEqual([]);
  });

  it('never prints the database password', async () => {
    const r = await run(WORKER, { ...base, DATABASE_URL: `mysql://root:s3cret-pw@127.0.0.1:${closedPort}/x` });
    expect(r.code).toBe(1);
    expect(r.stderr).not.toContain('s3cret-pw');
    expect(oneLine(r.stderr)).toContain(`mysql://root:***@127.0.0.1:${closedPort}/x`);
  });

  it.each([
    ['API', MAIN, 'Failed to start'],
    ['worker', WORKER, 'Worker failed to start'],
  ])('%s: Temporal unreachable after TEMPORAL_CONNECT_TIMEOUT_MS is one line, exit 1', async (_kind, entry, prefix) => {
    const r = await run(entry, { ...base, TEMPORAL_ADDRESS: `127.0.0.1:${closedPort}`, TEMPORAL_CONNECT_TIMEOUT_MS: '1000', WORKER_HTTP_PORT: '0' });
    expect(r.code).toBe(1);
    expect(oneLine(r.stderr).startsWith(`${prefix}: Cannot reach Temporal at 127.0.0.1:${closedPort} after 1 s: `)).toBe(true);
  });

  it('worker: stops at once on SIGTERM while it waits for Temporal (exit 0)', async () => {
    const port = await freePort();
    const worker = start(WORKER, { ...base, TEMPORAL_ADDRESS: `127.0.0.1:${closedPort}`, TEMPORAL_CONNECT_TIMEOUT_MS: '60000', WORKER_HTTP_PORT: String(port) });
    // Its probe server is up before the wait: alive, not ready.
    await waitUntil(async () => (await fetch(`http://127.0.0.1:${port}/health`).catch(() => null))?.status === 200, 30_000, 100);
    // Without its own handlers the SDK's swallowed the signal: the wait ran out (60 s) and the worker exited 1.
    worker.child.kill('SIGTERM');
    expect(await worker.exited).toBe(0);
  });

  it('keeps the stack at LOG_LEVEL=debug', async () => {
    const r = await run(WORKER, { ...base, DATABASE_URL: `mysql://root@127.0.0.1:${closedPort}/x`, LOG_LEVEL: 'debug' });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('Cannot reach the database');
    expect(r.stderr).toMatch(/\n\s+at /);
  });

  describe('a worker process and an API process on a real Temporal server', () => {
    const namespace = `obs-${randomUUID().slice(0, 8)}`;
    const taskQueue = `obs-${randomUUID().slice(0, 8)}`;
    const procs: Array<ReturnType<typeof start>> = [];

    beforeAll(async () => {
      await ensureTestNamespace(namespace, taskQueue);
    });
    afterAll(async () => {
      for (const p of procs) if (p.child.exitCode === null) p.child.kill('SIGKILL');
      await Promise.all(procs.map((p) => p.exited));
    });

    const get = async (port: number, p: string) => {
      const res = await fetch(`http://127.0.0.1:${port}${p}`);
      return { status: res.status, text: await res.text() };
    };
    const env = () => ({ ...base, TEMPORAL_ADDRESS: process.env.REVIEWGRID_TEST_TEMPORAL!, TEMPORAL_NAMESPACE: namespace, TEMPORAL_TASK_QUEUE: taskQueue });

    it('serves /health, /health/ready (database, migrations, temporal, worker) and /metrics with the Temporal SDK series; the API sees its pollers', async () => {
      const workerPort = await freePort();
      const worker = start(WORKER, { ...env(), WORKER_HTTP_PORT: String(workerPort) });
      procs.push(worker);
      let ready: Readiness | null = null;
      try {
        await waitUntil(async () => {
          if (worker.child.exitCode !== null) throw new Error(`worker exited:\n${worker.output()}`);
          const res = await get(workerPort, '/health/ready').catch(() => null);
          if (res?.status === 200) ready = JSON.parse(res.text) as Readiness;
          return ready !== null;
        }, 120_000, 250);
      } catch (e) {
        throw new Error(`${(e as Error).message}\n${worker.output()}`);
      }
      expect(ready!.checks.map((c) => [c.name, c.ok])).toEqual([
        ['database', true],
        ['migrations', true],
        ['temporal', true],
        ['worker', true],
      ]);
      expect(await get(workerPort, '/health')).toEqual({ status: 200, text: '{"status":"ok"}' });

      // The SDK exporter's page joins the app's own series once the worker has polled.
      let samples = parseMetrics((await get(workerPort, '/metrics')).text);
      await waitUntil(async () => {
        samples = parseMetrics((await get(workerPort, '/metrics')).text);
        return samples.some((s) => s.name.startsWith('temporal_'));
      }, 60_000, 250);
      expect(samples.some((s) => s.name === 'process_cpu_seconds_total')).toBe(true);
      expect(samples.some((s) => s.name.startsWith('temporal_worker_task_slots_available') && s.labels.task_queue === taskQueue)).toBe(true);

      // An API process without an in-process worker is ready once a worker polls its task queue.
      const apiPort = await freePort();
      // In production mode: Apollo stops itself on SIGTERM there unless told not to, which failed the request below.
      const api = start(MAIN, { ...env(), NODE_ENV: 'production', PORT: String(apiPort), WORKER_IN_PROCESS: 'false' });
      procs.push(api);
      let apiReady: Readiness | null = null;
      try {
        await waitUntil(async () => {
          if (api.child.exitCode !== null) throw new Error(`API exited:\n${api.output()}`);
          const res = await get(apiPort, '/health/ready').catch(() => null);
          if (res?.status === 200) apiReady = JSON.parse(res.text) as Readiness;
          return apiReady !== null;
        }, 120_000, 250);
      } catch (e) {
        throw new Error(`${(e as Error).message}\n${api.output()}`);
      }
      expect(apiReady!.checks.find((c) => c.name === 'worker_pollers')).toMatchObject({ ok: true });

      // SIGTERM with a request in flight (its body half sent): the API lets it finish before it closes, then exits.
      const body = JSON.stringify({ query: '{ __typename }' });
      const answer = new Promise<{ status: number; text: string }>((resolve, reject) => {
        const req = http.request({ host: '127.0.0.1', port: apiPort, path: '/graphql', method: 'POST', headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } }, (res) => {
          let text = '';
          res.on('data', (c: Buffer) => (text += c.toString()));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
        });
        req.on('error', reject);
        req.write(body.slice(0, 10));
        setTimeout(() => {
          api.child.kill('SIGTERM');
          setTimeout(() => req.end(body.slice(10)), 1_000);
        }, 300);
      });
      expect(await answer).toEqual({ status: 200, text: expect.stringContaining('"__typename":"Query"') });
      worker.child.kill('SIGTERM');
      expect(await worker.exited).toBe(0);
      expect(await api.exited).toBe(0);
    }, 300_000);
  });
});
