import { randomUUID } from 'node:crypto';
import { Connection } from '@temporalio/client';
import { dropDatabase, ensureDatabase } from '../../src/db/connection';
import { SEARCH_ATTRIBUTE_KEYS } from '../../src/temporal/search-attributes';
import { runId, TEST_SERVER_URL } from '../support/env';
import { useTemporalWorker } from '../support/temporal';
import { cli } from './binary';

/**
 * `reviewgrid doctor` prints the readiness checks of `/health/ready` against the real database, Redis and Temporal
 * dev server of the test run, and `reviewgrid temporal:setup` prepares a namespace on that server.
 */
jest.setTimeout(120_000);

const temporalAddress = (): string => {
  const address = process.env.REVIEWGRID_TEST_TEMPORAL;
  if (!address) throw new Error('no Temporal dev server: global setup sets REVIEWGRID_TEST_TEMPORAL');
  return address;
};

interface Check {
  name: string;
  ok: boolean;
  ms: number;
  detail?: string;
}
const byName = (checks: Check[]) => Object.fromEntries(checks.map((c) => [c.name, c]));

describe('reviewgrid doctor', () => {
  const worker = useTemporalWorker();

  it('checks the database and its migration level; Redis and Temporal are skipped when not configured', async () => {
    const res = await cli(['--json', 'doctor']);
    expect(res.code).toBe(0);
    expect(res.json.status).toBe('ready');
    expect(res.json.checks.map((c: Check) => [c.name, c.ok])).toEqual([
      ['database', true],
      ['migrations', true],
    ]);
    expect(res.json.skipped.join('\n')).toMatch(/redis[\s\S]*temporal/);
    const text = await cli(['doctor']);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/^ok\s+database\s+\d+ ms$/m);
    expect(text.stdout).toMatch(/^ok\s+migrations\s+\d+ ms\s+\d+ applied$/m);
    expect(text.stdout).toMatch(/^Ready\.$/m);
  });

  it('checks Redis and Temporal with the worker pollers of the task queue when configured', async () => {
    const env = { REDIS_URL: 'redis://127.0.0.1:6379', TEMPORAL_ADDRESS: temporalAddress(), TEMPORAL_TASK_QUEUE: worker.settings().taskQueue };
    const res = await cli(['--json', 'doctor'], env);
    expect(res.code).toBe(0);
    const checks = byName(res.json.checks);
    expect(Object.keys(checks).sort()).toEqual(['database', 'migrations', 'redis', 'temporal', 'worker_pollers']);
    expect(Object.values(checks).every((c) => c.ok)).toBe(true);
    expect(checks.worker_pollers.detail).toMatch(/poller/);
    expect(res.json.skipped).toEqual([]);
  });

  it('exits 1 naming the failed checks: no worker on the queue, Redis and Temporal unreachable', async () => {
    const idle = await cli(['--json', 'doctor'], { TEMPORAL_ADDRESS: temporalAddress(), TEMPORAL_TASK_QUEUE: `nobody-${randomUUID()}` });
    expect(idle.code).toBe(1);
    expect(idle.json.status).toBe('unavailable');
    const checks = byName(idle.json.checks);
    expect(checks.temporal.ok).toBe(true);
    expect(checks.worker_pollers).toMatchObject({ ok: false, detail: expect.stringMatching(/no worker polls the task queue/) });

    const down = await cli(['doctor'], { REDIS_URL: 'redis://127.0.0.1:1', TEMPORAL_ADDRESS: '127.0.0.1:1' });
    expect(down.code).toBe(1);
    expect(down.stdout).toMatch(/^FAIL\s+redis\s/m);
    expect(down.stdout).toMatch(/^FAIL\s+temporal\s+\d+ ms\s+cannot reach 127\.0\.0\.1:1/m);
    expect(down.stdout).toMatch(/^FAIL\s+worker_pollers\s/m);
    expect(down.stdout).toMatch(/^ok\s+database\s/m);
    expect(down.stdout).toMatch(/^Unavailable: .*redis/m);
  });

  it('exits 1 for an unreachable database and for a database with pending migrations', async () => {
    const unreachable = await cli(['--json', 'doctor'], { DATABASE_URL: 'mysql://root@127.0.0.1:1/reviewgrid' });
    expect(unreachable.code).toBe(1);
    expect(byName(unreachable.json.checks).database.ok).toBe(false);

    const url = `${TEST_SERVER_URL}/reviewgrid_test_${runId()}_doc_${randomUUID().slice(0, 8)}`;
    await ensureDatabase(url);
    try {
      const empty = await cli(['--json', 'doctor'], { DATABASE_URL: url });
      expect(empty.code).toBe(1);
      const checks = byName(empty.json.checks);
      expect(checks.database.ok).toBe(true);
      expect(checks.migrations).toMatchObject({ ok: false, detail: expect.stringMatching(/pending/) });
    } finally {
      await dropDatabase(url);
    }
  });
});

describe('reviewgrid temporal:setup', () => {
  it('registers a missing namespace and the search attributes, idempotently', async () => {
    const namespace = `rg-cli-${randomUUID().slice(0, 8)}`;
    const env = { TEMPORAL_ADDRESS: temporalAddress(), TEMPORAL_NAMESPACE: namespace };
    const first = await cli(['--json', 'temporal:setup'], env);
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    const names = SEARCH_ATTRIBUTE_KEYS.map((k) => k.name);
    expect(first.json).toMatchObject({ namespace, namespace_created: true });
    expect([...first.json.search_attributes_added].sort()).toEqual([...names].sort());

    const connection = await Connection.connect({ address: temporalAddress() });
    try {
      const listed = await connection.operatorService.listSearchAttributes({ namespace });
      expect(Object.keys(listed.customAttributes ?? {})).toEqual(expect.arrayContaining(names));
    } finally {
      await connection.close();
    }

    const again = await cli(['--json', 'temporal:setup'], env);
    expect(again.code).toBe(0);
    expect(again.json).toMatchObject({ namespace_created: false, search_attributes_added: [] });
  });

  it('needs TEMPORAL_ADDRESS (exit 2)', async () => {
    const res = await cli(['temporal:setup']);
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(/TEMPORAL_ADDRESS is not set/);
  });
});
