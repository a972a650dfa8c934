import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { buildActivities } from '../../workflows/activities';
import { connectTemporal, disconnectTemporal, dispatcherWorkflowId, ensureDispatcher, temporal, type TemporalSettings } from '../../workflows/client';
import type { DeliveryRetry } from '../../workflows/webhooks/deliver.workflow';
import { runWorker, type RunningWorker } from '../../workflows/worker';
import fs from 'node:fs';
import { historyToJSON } from '@temporalio/common/lib/proto-utils';
import { DefaultLogger, makeTelemetryFilterString, Runtime } from '@temporalio/worker';
import { testWorkflows } from './workflow-bundle';

/** Workers log every failed attempt as a warning; the tests provoke hundreds of them on purpose. */
export function quietRuntime(): void {
  try {
    Runtime.install({
      logger: new DefaultLogger('ERROR'),
      telemetryOptions: { logging: { filter: makeTelemetryFilterString({ core: 'ERROR' }), forward: {} } },
    });
  } catch {
    // Installed already in this module registry.
  }
}

/**
 * A real worker on the run's Temporal dev server, on a task queue of this test file's own, with the outbox
 * dispatcher. Time is shortened by configuration (retry intervals), never faked.
 */
export function useTemporalWorker(
  opts: {
    retry?: Partial<DeliveryRetry>;
    /** The webhook retry worker's activity slots (production: 200). */
    webhookRetrySlots?: number;
    /** Settings of the activities (`WEBHOOK_*`) besides the test defaults. */
    activities?: Omit<Parameters<typeof buildActivities>[0], 'WEBHOOK_TIMEOUT_MS' | 'WEBHOOK_ALLOW_PRIVATE_URLS'>;
  } = {},
) {
  const state: { worker: RunningWorker | null; settings: TemporalSettings | null } = { worker: null, settings: null };
  const retry: DeliveryRetry = { maximumAttempts: 11, initialIntervalMs: 20, maximumIntervalMs: 100, timeoutMs: 2_000, ...opts.retry };
  // A first attempt is handed off after 1.5 s rather than production's 250 ms: a test machine running the whole suite
  // is often that slow to answer on loopback, and the tests that expect no hand-off would see one.
  const activities = () => buildActivities({ WEBHOOK_TIMEOUT_MS: retry.timeoutMs, WEBHOOK_ALLOW_PRIVATE_URLS: 'true', WEBHOOK_HANDOFF_MS: 1_500, ...opts.activities });

  beforeAll(async () => {
    quietRuntime();
    process.env.WEBHOOK_ALLOW_PRIVATE_URLS = 'true'; // receivers live on loopback
    const address = process.env.REVIEWGRID_TEST_TEMPORAL;
    if (!address) throw new Error('no Temporal dev server: global setup sets REVIEWGRID_TEST_TEMPORAL');
    const settings: TemporalSettings = {
      address,
      namespace: 'default',
      taskQueue: `test-${process.env.JEST_WORKER_ID ?? '1'}-${randomUUID().slice(0, 8)}`,
      webhookRetry: retry,
      // Short windows: a receiver's retry run ends soon after its last delivery, so tests can wait for it.
      webhookRetryWindowMs: 1_000,
      dispatcher: { pollMs: 200, batchSize: 100 },
    };
    state.settings = settings;
    await connectTemporal(settings);
    state.worker = await startWorker(settings);
    await ensureDispatcher();
  }, 60_000);

  afterAll(async () => {
    const { client, settings } = temporal();
    await client.workflow.getHandle(dispatcherWorkflowId(settings.taskQueue)).terminate('test finished').catch(() => undefined);
    await recordHistory(dispatcherWorkflowId(settings.taskQueue), 'dispatch-outbox');
    await state.worker?.stop();
    await disconnectTemporal();
  }, 60_000);

  function startWorker(settings: TemporalSettings): Promise<RunningWorker> {
    return runWorker({
      address: settings.address,
      namespace: settings.namespace,
      taskQueue: settings.taskQueue,
      workflows: testWorkflows(),
      activities: activities(),
      ...(opts.webhookRetrySlots ? { webhookRetrySlots: opts.webhookRetrySlots } : {}),
    });
  }

  return {
    retry,
    settings: () => state.settings!,
    /** The running in-process worker's connection (eager starts: `useWorkerConnection`). */
    workerConnection: () => state.worker!.connection,
    /** Stops this file's in-process worker (graceful), so another process can take the task queue. */
    async stopWorker(): Promise<void> {
      await state.worker?.stop();
      state.worker = null;
    },
    async startWorker(): Promise<void> {
      state.worker = await startWorker(state.settings!);
    },
  };
}

export const HISTORIES_DIR = path.resolve(__dirname, '..', 'workflows', 'histories');

/**
 * With RECORD_HISTORIES=1, saves a finished workflow's history for the replay tests
 * (`RECORD_HISTORIES=1 npx jest test/workflows/webhooks.e2e.test.ts`, then commit test/workflows/histories).
 */
export async function recordHistory(workflowId: string, name: string): Promise<void> {
  if (process.env.RECORD_HISTORIES !== '1') return;
  const { client } = temporal();
  const handle = client.workflow.getHandle(workflowId);
  await handle.result().catch(() => undefined); // finished, failed or terminated: the history is complete
  const history = await handle.fetchHistory();
  fs.mkdirSync(HISTORIES_DIR, { recursive: true });
  fs.writeFileSync(path.join(HISTORIES_DIR, `${name}.json`), historyToJSON(history));
}
