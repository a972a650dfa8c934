import 'reflect-metadata';
import { createSequelize } from '../../src/db/connection';
import { buildActivities } from '../../workflows/activities';
import { connectTemporal } from '../../workflows/client';
import { runWorker } from '../../workflows/worker';
import { WORKFLOWS_PATH } from './temporal';

/** A worker in a process of its own, for the test that kills one mid-delivery. Settings come as JSON in argv. */
async function main(): Promise<void> {
  const settings = JSON.parse(process.argv[2]);
  createSequelize({ url: process.env.DATABASE_URL!, poolMax: 2 });
  await connectTemporal(settings);
  const worker = await runWorker({
    address: settings.address,
    namespace: settings.namespace,
    taskQueue: settings.taskQueue,
    workflows: { workflowsPath: WORKFLOWS_PATH },
    activities: buildActivities({ WEBHOOK_TIMEOUT_MS: settings.webhookRetry.timeoutMs, WEBHOOK_ALLOW_PRIVATE_URLS: 'true' }),
  });
  process.stdout.write('worker ready\n');
  await worker.done;
}

main().catch((err) => {
  process.stderr.write(String(err?.stack ?? err));
  process.exit(1);
});
