import { NativeConnection, Worker } from '@temporalio/worker';

export interface WorkerSettings {
  address: string;
  namespace: string;
  taskQueue: string;
  /** Production: the bundle built by `npm run build`. Tests: the TypeScript source, bundled on start. */
  workflows: { bundlePath: string } | { workflowsPath: string };
  activities: object;
}

export interface RunningWorker {
  worker: Worker;
  /** Resolves when the worker has stopped (after `stop`). */
  done: Promise<void>;
  stop(): Promise<void>;
}

/** Creates and runs a worker on the task queue; `stop` drains it and closes its connection. */
export async function runWorker(settings: WorkerSettings): Promise<RunningWorker> {
  const connection = await NativeConnection.connect({ address: settings.address });
  const worker = await Worker.create({
    connection,
    namespace: settings.namespace,
    taskQueue: settings.taskQueue,
    activities: settings.activities,
    // A stopping worker lets in-flight deliveries (30 s timeout each) finish rather than be retried elsewhere.
    shutdownGraceTime: '40s',
    ...('bundlePath' in settings.workflows
      ? { workflowBundle: { codePath: settings.workflows.bundlePath } }
      : { workflowsPath: settings.workflows.workflowsPath }),
  });
  const done = worker.run().finally(() => connection.close());
  return {
    worker,
    done,
    async stop() {
      if (worker.getState() === 'RUNNING') worker.shutdown();
      await done;
    },
  };
}
