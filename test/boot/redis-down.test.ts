import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openDatabase } from '../../src/bootstrap';
import { dropDatabase } from '../../src/db/connection';
import { freePort } from '../../src/net/free-port';
import type { Readiness } from '../../src/observability/readiness';
import { databaseUrlFor } from '../support/env';
import { ROOT } from '../support/spawn';
import { ensureTestNamespace } from '../support/temporal-server';
import { waitUntil } from '../support/wait';

/**
 * A production API whose REDIS_URL answers nothing (Redis down at start): it logged "API up", then died of an
 * unhandled MaxRetriesPerRequestError (rate-limit-redis loads its scripts in its constructor and nobody waited on
 * that). It stays up: /health answers, a rate-limited route answers as without the limit (a failing store lets
 * requests through), /health/ready names Redis as failing, and the process is alive seconds later. The built entry
 * point (npm run build first, as `npm test` does).
 */
const MAIN = path.join(ROOT, 'dist', 'src', 'main.js');

describe('the API with Redis down at start (built entry point)', () => {
  const url = databaseUrlFor(`redisdown_${process.env.JEST_WORKER_ID ?? '1'}`);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'reviewgrid-redis-down-'));
  // A namespace of its own: the production entry point creates unscoped schedules that must not meet other tests.
  const namespace = `redisdown-${randomUUID().slice(0, 8)}`;
  const taskQueue = `redisdown-${randomUUID().slice(0, 8)}`;
  let child: ChildProcess | null = null;

  beforeAll(async () => {
    if (!fs.existsSync(MAIN)) throw new Error('dist/ is missing: run `npm run build` first');
    await dropDatabase(url);
    const sequelize = await openDatabase({ DATABASE_URL: url, DATABASE_POOL_MAX: 2 });
    await sequelize.close();
    await ensureTestNamespace(namespace, taskQueue);
  }, 120_000);
  afterAll(async () => {
    if (child && child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child!.once('exit', resolve));
      child.kill('SIGKILL');
      await exited;
    }
    await dropDatabase(url);
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  // One key for every process of the file: the first records its id in the database, and a process with another key is
  // refused at boot (APP_KEY mismatch), which would race with what a test waits for.
  const appKey = randomBytes(32).toString('base64');
  /** A production process of this file's database and data directory, logging warnings and worse. */
  const productionEnv = () => ({
    ...process.env,
    LOG_LEVEL: 'warn',
    NODE_ENV: 'production',
    DATABASE_URL: url,
    APP_KEY: appKey,
    DATA_DIR: dataDir,
    SEED_DEMO: 'false',
  });

  it('keeps serving: /health, a rate-limited route (401, not 500), /health/ready with redis failing; alive after 5 s', async () => {
    const port = await freePort();
    const redisPort = await freePort(); // nobody listens there
    const api = spawn(process.execPath, [MAIN], {
      cwd: ROOT,
      env: {
        ...productionEnv(),
        PORT: String(port),
        WORKER_IN_PROCESS: 'false',
        TEMPORAL_ADDRESS: process.env.REVIEWGRID_TEST_TEMPORAL!,
        TEMPORAL_NAMESPACE: namespace,
        TEMPORAL_TASK_QUEUE: taskQueue,
        REDIS_URL: `redis://127.0.0.1:${redisPort}`,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child = api;
    let stdout = '';
    let stderr = '';
    api.stdout!.on('data', (d) => (stdout += d));
    api.stderr!.on('data', (d) => (stderr += d));
    const output = () => `stdout:\n${stdout}\nstderr:\n${stderr}`;
    const alive = () => api.exitCode === null && api.signalCode === null;
    const get = async (p: string) => {
      const res = await fetch(`http://127.0.0.1:${port}${p}`, { signal: AbortSignal.timeout(20_000) });
      return { status: res.status, text: await res.text() };
    };

    try {
      await waitUntil(async () => {
        if (!alive()) throw new Error('API exited');
        return (await get('/health').catch(() => null))?.status === 200;
      }, 120_000, 250);
    } catch (e) {
      throw new Error(`${(e as Error).message}\n${output()}`);
    }
    const upAt = Date.now();

    // The REST limit (and the failed-authentication count) go to the store that fails: the request passes both.
    const rest = await get('/api/v1/reviews');
    expect({ status: rest.status, output: rest.status === 401 ? '' : output() }).toEqual({ status: 401, output: '' });
    expect(JSON.parse(rest.text)).toHaveProperty('message');
    for (let i = 0; i < 4; i++) expect((await get('/api/v1/reviews')).status).toBe(401);

    const ready = await get('/health/ready');
    expect(ready.status).toBe(503);
    expect((JSON.parse(ready.text) as Readiness).checks.find((c) => c.name === 'redis')).toMatchObject({ ok: false });

    // The script loads reject within the first second or so of the connection attempts; give it 5 s past "up".
    await new Promise((r) => setTimeout(r, Math.max(0, 5_000 - (Date.now() - upAt))));
    expect({ alive: alive(), output: alive() ? '' : output() }).toEqual({ alive: true, output: '' });
    expect((await get('/health')).status).toBe(200);
    expect(stdout + stderr).not.toContain('unhandled promise rejection');
    // No stack trace on stderr per limited request (express-rate-limit's own logger printed one for each).
    expect(stderr).not.toContain('express-rate-limit');

    // One JSON warning line about the limit store, from all its stores and every request (at most one a minute).
    const lines = stdout.split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as { level: number; msg: string });
    expect(lines.filter((l) => l.msg.startsWith('rate-limit store: Redis did not answer'))).toEqual([expect.objectContaining({ level: 40 })]);
  }, 240_000);

  it.each([
    ['API', MAIN],
    ['worker', path.join(ROOT, 'dist', 'src', 'worker-main.js')],
  ])('%s: an unhandled rejection is one JSON line through the process logger, then exit 1', async (_kind, entry) => {
    // A promise nobody handles, rejected while the process waits for Temporal (a closed port, a long timeout).
    const preload = path.join(dataDir, 'reject.js');
    fs.writeFileSync(preload, "setTimeout(() => { Promise.reject(new Error('nobody handles this')); }, 1500);\n");
    const closed = await freePort();
    const proc = spawn(process.execPath, ['-r', preload, entry], {
      cwd: ROOT,
      env: {
        ...productionEnv(),
        PORT: '0',
        WORKER_HTTP_PORT: '0',
        TEMPORAL_ADDRESS: `127.0.0.1:${closed}`,
        TEMPORAL_CONNECT_TIMEOUT_MS: '60000',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    proc.stdout!.on('data', (d) => (stdout += d));
    proc.stderr!.on('data', (d) => (stderr += d));
    const code = await new Promise<number | null>((resolve) => proc.on('exit', (c) => resolve(c)));
    expect({ code, stderr }).toEqual({ code: 1, stderr: '' });
    const fatal = stdout
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as { level: number; msg: string; err?: { message?: string } })
      .filter((l) => l.level === 60);
    expect(fatal).toEqual([expect.objectContaining({ msg: 'unhandled promise rejection: exiting', err: expect.objectContaining({ message: 'nobody handles this' }) })]);
  }, 60_000);
});
