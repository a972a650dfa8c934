import { spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openDatabase } from '../../src/bootstrap';
import { dropDatabase } from '../../src/db/connection';
import { freePort } from '../../src/net/free-port';
import { databaseUrlFor } from '../support/env';
import { ROOT } from '../support/spawn';
import { ensureTestNamespace } from '../support/temporal-server';
import { waitUntil } from '../support/wait';

/**
 * With NODE_ENV=production the README promises JSON log lines only. A worker process (`npm run worker`, built: run
 * `npm run build` first) logs through pino, and so must the Temporal SDK it runs: its runtime is installed with a
 * logger that hands each SDK entry to pino (`sdk: true`), where the SDK's default logger wrote multi-line text.
 */
const WORKER = path.join(ROOT, 'dist', 'src', 'worker-main.js');

describe('worker process in production: logs and signals', () => {
  const url = databaseUrlFor(`wlogs_${process.env.JEST_WORKER_ID ?? '1'}`);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'reviewgrid-wlogs-'));
  // A namespace of its own: the production entry points create unscoped schedules that must not meet other tests.
  const namespace = `wlogs-${randomUUID().slice(0, 8)}`;
  const taskQueue = `wlogs-${randomUUID().slice(0, 8)}`;
  // One key for every start: the first start stores the database's secrets under it.
  const appKey = randomBytes(32).toString('base64');

  beforeAll(async () => {
    if (!fs.existsSync(WORKER)) throw new Error('dist/ is missing: run `npm run build` first');
    await dropDatabase(url);
    const sequelize = await openDatabase({ DATABASE_URL: url, DATABASE_POOL_MAX: 2 });
    await sequelize.close();
    await ensureTestNamespace(namespace, taskQueue);
  }, 120_000);
  afterAll(async () => {
    await dropDatabase(url);
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  /** The worker process as production runs it; `ready` resolves once `/health/ready` answers 200. */
  async function startWorker() {
    const port = await freePort();
    const child = spawn(process.execPath, [WORKER], {
      cwd: ROOT,
      env: {
        ...process.env,
        NODE_ENV: 'production',
        LOG_LEVEL: 'info',
        DATABASE_URL: url,
        APP_KEY: appKey,
        DATA_DIR: dataDir,
        SEED_DEMO: 'false',
        PUBLIC_URL: 'https://reviews.example.com',
        TEMPORAL_ADDRESS: process.env.REVIEWGRID_TEST_TEMPORAL!,
        TEMPORAL_NAMESPACE: namespace,
        TEMPORAL_TASK_QUEUE: taskQueue,
        WORKER_HTTP_PORT: String(port),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const out = { stdout: '', stderr: '' };
    child.stdout!.on('data', (d) => (out.stdout += d));
    child.stderr!.on('data', (d) => (out.stderr += d));
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
    const ready = () =>
      waitUntil(async () => {
        if (child.exitCode !== null) throw new Error('worker exited');
        return (await fetch(`http://127.0.0.1:${port}/health/ready`).catch(() => null))?.status === 200;
      }, 120_000, 250);
    /** Runs `test` against the started worker; whatever happens, the process is gone after it. */
    const whileUp = async (test: () => Promise<void>) => {
      try {
        await ready();
        await test();
      } catch (e) {
        throw new Error(`${(e as Error).message}\nstdout:\n${out.stdout}\nstderr:\n${out.stderr}`);
      } finally {
        if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
        await exited;
      }
    };
    return { child, out, exited, whileUp };
  }

  it('writes only JSON lines on stdout and stderr from start to SIGTERM, the SDK entries among them', async () => {
    const { child, out, exited, whileUp } = await startWorker();
    await whileUp(async () => {
      child.kill('SIGTERM');
      expect(await exited).toEqual({ code: 0, signal: null });
    });
    const { stdout, stderr } = out;
    const notJson = (text: string) =>
      text
        .split('\n')
        .filter((line) => line !== '')
        .filter((line) => {
          try {
            return typeof JSON.parse(line) !== 'object';
          } catch {
            return true;
          }
        });
    expect({ stdout: notJson(stdout), stderr: notJson(stderr) }).toEqual({ stdout: [], stderr: [] });
    const records = stdout
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line) as { level: number; msg: string; sdk?: boolean; service?: string });
    expect(records.find((r) => r.msg === 'worker running')).toBeDefined();
    // The SDK's own entries arrive as pino records of this process, marked.
    const sdk = records.filter((r) => r.sdk === true);
    expect(sdk.length).toBeGreaterThan(0);
    for (const r of sdk) expect(r).toMatchObject({ service: 'reviewgrid', level: expect.any(Number), msg: expect.any(String) });
  }, 300_000);

  it("ends on SIGUSR2 as Node does, rather than staying up with its worker shut down (the SDK's default signals)", async () => {
    const { child, exited, whileUp } = await startWorker();
    await whileUp(async () => {
      child.kill('SIGUSR2');
      expect(await exited).toEqual({ code: null, signal: 'SIGUSR2' });
    });
  }, 300_000);
});
