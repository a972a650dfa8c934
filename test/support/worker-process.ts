import 'reflect-metadata';
import { spawn } from 'node:child_process';
import { createSequelize } from '../../src/db/connection';
import { configureInviteDelivery, type InviteDeliverySettings } from '../../src/messaging/settings';
import { buildActivities } from '../../workflows/activities';
import { connectTemporal, type TemporalSettings } from '../../workflows/client';
import { runWorker } from '../../workflows/worker';
import { databaseUrlFor } from './env';
import { ROOT } from './spawn';
import { testWorkflows } from './workflow-bundle';

/**
 * A worker in a process of its own, for the tests that kill one mid-run (SIGKILL: a crash, no graceful shutdown):
 * startWorkerProcess() runs this file as that process; run directly, it is the worker. Settings (Temporal's, and invite
 * delivery's) come as JSON in argv.
 */

export interface WorkerProcess {
  /** SIGKILLs the worker (if it still runs) and resolves once the process is gone. */
  kill: () => Promise<void>;
}

/**
 * Starts the worker process on the test's task queue and Jest worker's database and resolves once it polls. The
 * child loads the run's workflow bundle (its path comes in the environment); it gets 150 s (a busy machine), then is
 * killed and the test fails with what it printed.
 */
export async function startWorkerProcess(
  settings: TemporalSettings,
  env: Record<string, string> = {},
  inviteDelivery: Partial<InviteDeliverySettings> = {},
): Promise<WorkerProcess> {
  const child = spawn(process.execPath, ['-r', '@swc-node/register', __filename, JSON.stringify(settings), JSON.stringify(inviteDelivery)], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: databaseUrlFor(process.env.JEST_WORKER_ID ?? '1'), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  const kill = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await exited;
  };
  const deadline = Date.now() + 150_000;
  while (!out.includes('worker ready')) {
    if (Date.now() > deadline || child.exitCode !== null) {
      await kill();
      throw new Error(`worker process did not start:\n${out}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return { kill };
}

async function main(): Promise<void> {
  const settings = JSON.parse(process.argv[2]);
  configureInviteDelivery(JSON.parse(process.argv[3] ?? '{}'));
  createSequelize({ url: process.env.DATABASE_URL!, poolMax: 2 });
  await connectTemporal(settings);
  const worker = await runWorker({
    address: settings.address,
    namespace: settings.namespace,
    taskQueue: settings.taskQueue,
    workflows: testWorkflows(),
    activities: buildActivities({ WEBHOOK_TIMEOUT_MS: settings.webhookRetry.timeoutMs, WEBHOOK_ALLOW_PRIVATE_URLS: 'true' }),
  });
  process.stdout.write('worker ready\n');
  await worker.done;
}

if (require.main === module) {
  main().catch((err) => {
    process.stderr.write(String(err?.stack ?? err));
    process.exit(1);
  });
}
