import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { dropDatabase } from '../../src/db/connection';
import { runId, TEST_SERVER_URL } from '../support/env';
import { startTs } from '../support/spawn';

/** `npm start` on an empty database: creates and migrates it, seeds the demo tenant, serves and prints tokens. */
describe('npm start (the embedded default)', () => {
  jest.setTimeout(90_000);
  const url = `${TEST_SERVER_URL}/reviewgrid_test_${runId()}_start`;
  afterAll(() => dropDatabase(url));

  it('comes up on an empty database with its own Temporal dev server, answers with the printed demo token, and stops both on SIGTERM', async () => {
    await dropDatabase(url);
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'reviewgrid-start-'));
    const temporalPort = 27_233 + (process.pid % 1000);
    const uiPort = 28_233 + (process.pid % 1000);
    const child = startTs('src/main.ts', {
      DATABASE_URL: url,
      PORT: '0',
      DATA_DIR: dataDir,
      REDIS_URL: '',
      TEMPORAL_ADDRESS: '',
      TEMPORAL_DEV_PORT: String(temporalPort),
      TEMPORAL_UI_PORT: String(uiPort),
      TEMPORAL_TASK_QUEUE: `start-test-${process.pid}`,
    });
    let out = '';
    child.stdout!.on('data', (d) => (out += d));
    child.stderr!.on('data', (d) => (out += d));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    try {
      const deadline = Date.now() + 80_000;
      while (!/Try: curl/.test(out) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
      expect(out).toMatch(/Customer REST API\s+http:\/\/127\.0\.0\.1:\d+\/api\/v1/);
      const base = /Customer REST API\s+(\S+)/.exec(out)![1];
      const token = /Bearer (rg_\S+)"/.exec(out)![1];
      expect(/GraphQL\s+(\S+)/.exec(out)![1]).toBe(base.replace('/api/v1', '/graphql'));

      const res = await fetch(`${base}/reviews`, { headers: { Authorization: `Bearer ${token}`, Accept: 'application/json' } });
      expect(res.status).toBe(200);
      const body = (await res.json()) as { meta: { total: number } };
      expect(body.meta.total).toBeGreaterThan(0);
      expect(JSON.parse(fs.readFileSync(path.join(dataDir, 'demo-tokens.json'), 'utf8'))[0].token).toBe(token);

      // The embedded Temporal dev server: persistent SQLite under DATA_DIR, the UI on.
      expect(out).toContain(`Temporal           127.0.0.1:${temporalPort}  (UI http://127.0.0.1:${uiPort}`);
      expect(fs.existsSync(path.join(dataDir, 'temporal.sqlite'))).toBe(true);
      expect((await fetch(`http://127.0.0.1:${uiPort}/`)).status).toBe(200);
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exited).toBe(0);
    // The dev server went with it.
    const net = await import('node:net');
    const open = await new Promise((resolve) => {
      const socket = net.connect({ host: '127.0.0.1', port: temporalPort }, () => (socket.end(), resolve(true)));
      socket.on('error', () => resolve(false));
    });
    expect(open).toBe(false);
  });
});
