import 'reflect-metadata';
import fs from 'node:fs';
import path from 'node:path';
import type { Server } from 'node:http';
import { createLogger, openDatabase, openRedis, waitForTemporal } from './bootstrap';
import { loadConfig, publicUrlProblem, seedsDemo, simulatorProblem } from './config';
import { getSchema } from './graphql/schema';
import { createApp } from './http/app';
import { setMailLogger } from './providers/smtp/platform-mailer';
import { Tenant } from './models';
import { seedDemo, type DemoToken } from './services/demo.service';
import { startTemporal } from './temporal/runtime';
import { temporal as temporalClient } from '../workflows/client';
import { bootErrorLine, exitOnBootError, exitOnWorkerEnd } from './observability/boot';
import { installTemporalRuntime } from './observability/temporal-metrics';
import type { Logger } from 'pino';

/**
 * `npm start`: the embedded default. Creates and migrates the database, seeds the demo tenant into an empty
 * database, serves the API and prints where everything is.
 */
async function main(): Promise<void> {
  const config = loadConfig();
  const logger = createLogger(config);
  processLogger = logger;
  setMailLogger(logger.child({ component: 'mail' }));
  const publicUrl = publicUrlProblem(config);
  if (publicUrl) logger.warn(publicUrl);
  const simulators = simulatorProblem(config);
  if (simulators) logger.warn(simulators);
  const sequelize = await openDatabase(config, { logger, verifyAppKey: true });
  const tokensFile = path.join(config.DATA_DIR, 'demo-tokens.json');

  if (seedsDemo(config) && (await Tenant.count()) === 0) {
    logger.info('empty database: seeding the demo tenant');
    const { tokens } = await seedDemo();
    fs.mkdirSync(config.DATA_DIR, { recursive: true });
    // Secrets are stored hashed; this local file is the only copy, for the developer's own machine.
    fs.writeFileSync(tokensFile, JSON.stringify(tokens, null, 2), { mode: 0o600 });
  }

  await waitForTemporal(config, logger);
  // The SDK runtime (and its metrics exporter) must exist before the in-process worker does.
  const temporalMetricsUrl = config.WORKER_IN_PROCESS === 'true' ? await installTemporalRuntime(config.TEMPORAL_METRICS_PORT, logger) : null;
  let stopping = false;
  const temporal = await startTemporal(config, logger, { worker: config.WORKER_IN_PROCESS === 'true', onWorkerEnd: exitOnWorkerEnd(logger, () => stopping) });
  const redis = openRedis(config, logger);
  const { app, stop } = await createApp({
    config,
    schema: await getSchema(),
    logger,
    redis,
    observability: {
      temporalMetricsUrl,
      readiness: () => ({
        sequelize,
        redis,
        role: 'api',
        temporal: { client: connectedClient(), namespace: config.TEMPORAL_NAMESPACE, taskQueue: config.TEMPORAL_TASK_QUEUE },
      }),
    },
  });
  let server: Server;
  try {
    server = await new Promise((resolve, reject) => {
      const s = app.listen(config.PORT, config.HOST, (err?: Error) => (err ? reject(err) : resolve(s)));
    });
  } catch (err) {
    await temporal.stop().catch(() => undefined);
    throw err;
  }
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.PORT;
  const base = config.PUBLIC_URL ?? `http://${config.HOST === '0.0.0.0' ? '127.0.0.1' : config.HOST}:${port}`;

  const lines = [
    '',
    `  Review platform API is up.`,
    `  Customer REST API  ${base}/api/v1`,
    `  Agency REST API    ${base}/api/agency/v1`,
    `  GraphQL            ${base}/graphql`,
    `  MCP (AI clients)   ${base}/api/mcp`,
    `  Health             ${base}/health  (ready: ${base}/health/ready, metrics: ${base}/metrics)`,
    `  Temporal           ${temporal.address}${temporal.uiUrl ? `  (UI ${temporal.uiUrl}, namespace ${config.TEMPORAL_NAMESPACE})` : ''}`,
  ];
  // The demo secrets are printed only where the demo is on (the embedded default), never in production setups.
  if (seedsDemo(config) && fs.existsSync(tokensFile)) {
    const tokens = JSON.parse(fs.readFileSync(tokensFile, 'utf8')) as DemoToken[];
    const shown = path.relative(process.cwd(), tokensFile);
    lines.push('', `  Demo tokens (from ${shown.startsWith('..') || path.isAbsolute(shown) ? tokensFile : shown}):`);
    for (const t of tokens) lines.push(`    ${t.label.padEnd(48)} ${t.token}`);
    lines.push('', `  Try: curl -H "Authorization: Bearer ${tokens[0].token}" ${base}/api/v1/reviews`);
  }
  // Production logs are JSON lines only (a log pipeline parses every line): the same facts as one record.
  if (config.NODE_ENV === 'production') logger.info({ publicUrl: base, temporal: temporal.address, namespace: config.TEMPORAL_NAMESPACE }, 'API up');
  else process.stdout.write(lines.join('\n') + '\n\n');

  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    // Whatever hangs, the process ends (the dev server with it: it is killed on exit).
    setTimeout(() => {
      logger.warn('shutdown took over 60 s: exiting');
      process.exit(1);
    }, 60_000).unref();
    // No new connections; the requests in flight finish (idle keep-alive connections close now), for up to
    // DRAIN_MS; whatever is still open then is cut.
    const drained = new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeIdleConnections();
    await Promise.race([drained, new Promise((resolve) => setTimeout(resolve, DRAIN_MS).unref())]);
    server.closeAllConnections();
    await temporal.stop().catch(() => undefined);
    logger.info('temporal stopped');
    await stop().catch(() => undefined);
    await redis?.quit().catch(() => undefined);
    await sequelize.close();
    logger.info('stopped');
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
}

/** How long a stopping API lets its requests in flight finish (compose gives the process 40 s in all). */
const DRAIN_MS = 25_000;

/** The Temporal client once connected (readiness reports "not connected" otherwise). */
function connectedClient() {
  try {
    return temporalClient().client;
  } catch {
    return undefined;
  }
}

/**
 * A promise nobody handles is a bug whose state nobody knows: logged as one JSON line (the process logger's, once it
 * exists; the boot error line before), then exit 1 for the supervisor to restart the process. Node's own handling
 * also ended it, with a bare stack on stderr, which is what a Redis down at start did to the API through the
 * rate-limit stores' script loads (now caught: facades/shared/rate-limit.ts `redisStore`).
 */
let processLogger: Logger | null = null;
process.on('unhandledRejection', (reason) => {
  if (processLogger) processLogger.fatal({ err: reason }, 'unhandled promise rejection: exiting');
  else process.stderr.write(`${bootErrorLine('Unhandled promise rejection', reason)}\n`);
  process.exit(1);
});

main().catch(exitOnBootError('Failed to start'));
