import 'reflect-metadata';
import { createLogger, openDatabase, waitForTemporal } from './bootstrap';
import { loadConfig, publicUrlProblem } from './config';
import { bootErrorLine, exitOnBootError, exitOnWorkerEnd } from './observability/boot';
import { installTemporalRuntime } from './observability/temporal-metrics';
import { startObservabilityServer, type ObservabilityServer } from './observability/worker-http';
import { startTemporal, type TemporalRuntime } from './temporal/runtime';
import { temporal as temporalClient } from '../workflows/client';
import { trustProxyOf } from './net/trust-proxy';
import type { Logger } from 'pino';

/**
 * `npm run worker`: a Temporal worker on its own (production; scale by running more). It needs
 * TEMPORAL_ADDRESS (a cluster); without it, it starts the embedded dev server like `npm start` does.
 * WORKER_HTTP_PORT serves `/health`, `/health/ready` and `/metrics` for probes and Prometheus.
 */
async function main(): Promise<void> {
  const config = loadConfig();
  const logger = createLogger(config);
  processLogger = logger;
  const publicUrl = publicUrlProblem(config);
  if (publicUrl) logger.warn(publicUrl);
  const sequelize = await openDatabase(config, { logger, migrate: false, verifyAppKey: true });
  // The SDK runtime (and its metrics exporter) must exist before the worker does.
  const temporalMetricsUrl = await installTemporalRuntime(config.TEMPORAL_METRICS_PORT, logger);
  let runtime: TemporalRuntime | null = null;
  let http: ObservabilityServer | null = null;
  if (config.WORKER_HTTP_PORT > 0) {
    // Up before Temporal: while the process waits for the cluster, probes see it alive but not ready.
    http = await startObservabilityServer({
      port: config.WORKER_HTTP_PORT,
      host: config.HOST,
      trustProxy: trustProxyOf(config.TRUST_PROXY),
      metricsToken: config.METRICS_TOKEN,
      temporalMetricsUrl,
      readiness: () => ({
        sequelize,
        role: 'worker',
        temporal: { client: runtime ? temporalClient().client : undefined, namespace: config.TEMPORAL_NAMESPACE, taskQueue: config.TEMPORAL_TASK_QUEUE },
        worker: runtime?.worker ?? undefined,
      }),
    });
  }
  // Before the wait for Temporal (up to TEMPORAL_CONNECT_TIMEOUT_MS): the SDK runtime installed above listens to
  // SIGTERM itself, which takes Node's own exit away, so a worker stopped while it waits must stop here.
  let stopping = false;
  const shutdown = async () => {
    if (stopping) return;
    stopping = true;
    await http?.close();
    await runtime?.stop();
    await sequelize.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown());
  process.on('SIGTERM', () => void shutdown());
  await waitForTemporal(config, logger);
  if (stopping) return;
  runtime = await startTemporal(config, logger, { worker: true, onWorkerEnd: exitOnWorkerEnd(logger, () => stopping) });
  logger.info(
    { address: runtime.address, taskQueue: config.TEMPORAL_TASK_QUEUE, namespace: config.TEMPORAL_NAMESPACE, httpPort: http?.port ?? null },
    'worker running',
  );
}

/** An unhandled rejection: one JSON line, exit 1 for the supervisor to restart the worker (as src/main.ts). */
let processLogger: Logger | null = null;
process.on('unhandledRejection', (reason) => {
  if (processLogger) processLogger.fatal({ err: reason }, 'unhandled promise rejection: exiting');
  else process.stderr.write(`${bootErrorLine('Unhandled promise rejection', reason)}\n`);
  process.exit(1);
});

main().catch(exitOnBootError('Worker failed to start'));
