import { NativeConnection, Worker } from '@temporalio/worker';
import { webhookRetryQueue } from './client';
import { scanPinQueue } from './scans/client';

export interface WorkerSettings {
  address: string;
  namespace: string;
  taskQueue: string;
  /** Production: the bundle built by `npm run build`. Tests: the TypeScript source, bundled on start. */
  workflows: { bundlePath: string } | { workflowsPath: string };
  activities: object;
  /** Webhook retries' POSTs at once (their own queue and slots; default 200: most of them wait on a receiver). */
  webhookRetrySlots?: number;
  /** Scan runs' pin queries at once (their own queue and slots; default 100: most of them wait on the ranking provider). */
  scanPinSlots?: number;
  /** Slots of the main queue's worker (`TEMPORAL_WORKER_*`); absent: the SDK's defaults (100 activities, 40 workflow tasks). */
  slots?: { activities?: number; workflowTasks?: number; cachedWorkflows?: number };
  /**
   * Called once when the workers end without `stop` (a fatal SDK error, or the SDK shutting them down itself), with
   * the error or null: the process no longer takes work, and should exit for its supervisor to start another.
   */
  onUnexpectedEnd?: (err: unknown) => void;
}

export interface RunningWorker {
  worker: Worker;
  /** The workers' connection (a client on it can start workflows eagerly: `useWorkerConnection`). */
  connection: NativeConnection;
  /** Resolves when the worker has stopped (after `stop`). */
  done: Promise<void>;
  stop(): Promise<void>;
}

/**
 * Creates and runs a worker on the task queue, and beside it one for the webhook retries' POSTs on their own queue
 * (`webhookRetryQueue`): a receiver that hangs holds a slot there, never one the dispatcher or another workflow
 * needs; and one for scan runs' pin queries (`scanPinQueue`): a ranking provider that answers slowly, or many scans at
 * once, hold slots there, never the main queue's. `stop` drains them all and closes their connection.
 */
export async function runWorker(settings: WorkerSettings): Promise<RunningWorker> {
  const connection = await NativeConnection.connect({ address: settings.address });
  // A stopping worker lets in-flight deliveries (30 s timeout each) finish rather than be retried elsewhere.
  const shared = { connection, namespace: settings.namespace, activities: settings.activities, shutdownGraceTime: '40s' } as const;
  const worker = await Worker.create({
    ...shared,
    taskQueue: settings.taskQueue,
    ...(settings.slots?.activities ? { maxConcurrentActivityTaskExecutions: settings.slots.activities } : {}),
    ...(settings.slots?.workflowTasks ? { maxConcurrentWorkflowTaskExecutions: settings.slots.workflowTasks } : {}),
    ...(settings.slots?.cachedWorkflows !== undefined ? { maxCachedWorkflows: settings.slots.cachedWorkflows } : {}),
    ...('bundlePath' in settings.workflows
      ? { workflowBundle: { codePath: settings.workflows.bundlePath } }
      : { workflowsPath: settings.workflows.workflowsPath }),
  });
  const retries = await Worker.create({
    ...shared,
    taskQueue: webhookRetryQueue(settings.taskQueue),
    maxConcurrentActivityTaskExecutions: settings.webhookRetrySlots ?? 200,
  });
  const pins = await Worker.create({
    ...shared,
    taskQueue: scanPinQueue(settings.taskQueue),
    maxConcurrentActivityTaskExecutions: settings.scanPinSlots ?? 100,
  });
  // Any worker ending (its run rejects, or it stops) ends them all: the others alone are part of a worker.
  const all = [worker, retries, pins];
  const runs = all.map((w) => w.run().finally(() => stopAll()));
  let stopping = false;
  const stopAll = () => {
    for (const w of all) if (w.getState() === 'RUNNING') w.shutdown();
  };
  const done = Promise.allSettled(runs)
    .then((results) => {
      const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
      if (failed) throw failed.reason;
    })
    .finally(() => connection.close());
  done.then(
    () => !stopping && settings.onUnexpectedEnd?.(null),
    (err: unknown) => !stopping && settings.onUnexpectedEnd?.(err),
  );
  return {
    worker,
    connection,
    done,
    async stop() {
      stopping = true;
      stopAll();
      await done;
    },
  };
}
