import { Client, Connection } from '@temporalio/client';
import { findTemporalCli, startDevServer, type DevServer } from '../../src/temporal/dev-server';
import { ensureNamespace } from '../../src/temporal/namespace';
import type { TemporalSettings } from '../../workflows/client';
import { waitUntil } from './wait';

/** One Temporal dev server for the whole Jest run (global setup starts it, global teardown stops it). */
const KEY = '__reviewgridTemporal';
type Holder = typeof globalThis & { [KEY]?: DevServer };

export async function startTestTemporal(): Promise<string> {
  const port = 17_233 + (process.pid % 1000);
  const server = await startDevServer({
    cli: findTemporalCli(process.env.TEMPORAL_CLI),
    port,
    uiPort: null,
    namespace: 'default',
    dbFile: null,
  });
  (globalThis as Holder)[KEY] = server;
  process.env.REVIEWGRID_TEST_TEMPORAL = server.address;
  return server.address;
}

export async function stopTestTemporal(): Promise<void> {
  await (globalThis as Holder)[KEY]?.stop();
}

/**
 * Client settings on the run's dev server's `default` namespace for a task queue of the test's own: webhook retries
 * and the dispatcher shortened to test time, `extra` on top.
 */
export function testServerSettings(taskQueue: string, extra: Partial<TemporalSettings> = {}): TemporalSettings {
  const address = process.env.REVIEWGRID_TEST_TEMPORAL;
  if (!address) throw new Error('no Temporal dev server: global setup sets REVIEWGRID_TEST_TEMPORAL');
  return {
    address,
    namespace: 'default',
    taskQueue,
    webhookRetry: { maximumAttempts: 1, initialIntervalMs: 10, maximumIntervalMs: 10, timeoutMs: 1000 },
    dispatcher: { pollMs: 1000, batchSize: 10 },
    ...extra,
  };
}

/**
 * A namespace of the test's own on the test server (the production entry points create unscoped schedules that must
 * not meet other tests), waited for until calls in it succeed: the frontend learns new namespaces on its cache
 * refresh (some seconds).
 */
export async function ensureTestNamespace(namespace: string, taskQueue: string): Promise<void> {
  const connection = await Connection.connect({ address: process.env.REVIEWGRID_TEST_TEMPORAL! });
  try {
    const client = new Client({ connection });
    await ensureNamespace(client, namespace, { retentionDays: 1 });
    await waitUntil(
      () =>
        client.workflowService.describeTaskQueue({ namespace, taskQueue: { name: taskQueue } }).then(
          () => true,
          () => false,
        ),
      60_000,
      250,
    );
  } finally {
    await connection.close();
  }
}
