import 'reflect-metadata';
import { createLogger, openDatabase } from './bootstrap';
import { loadConfig } from './config';
import { startTemporal } from './temporal/runtime';

/**
 * `npm run worker`: a Temporal worker on its own (production; scale by running more). It needs
 * TEMPORAL_ADDRESS (a cluster); without it, it starts the embedded dev server like `npm start` does.
 */
async function main(): Promise<void> {
  const config = loadConfig();
  const logger = createLogger(config);
  const sequelize = await openDatabase(config, { logger, migrate: false, verifyAppKey: true });
  const runtime = await startTemporal(config, logger, { worker: true });
  logger.info({ address: runtime.address, taskQueue: config.TEMPORAL_TASK_QUEUE, namespace: config.TEMPORAL_NAMESPACE }, 'worker running');
  let stopping = false;
  const shutdown = async () => {
    if (stopping) return;
    stopping = true;
    await runtime.stop();
    await sequelize.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown());
  process.on('SIGTERM', () => void shutdown());
}

main().catch((err) => {
  process.stderr.write(`Worker failed to start: ${err instanceof Error ? err.stack ?? err.message : String(err)}\n`);
  process.exit(1);
});
