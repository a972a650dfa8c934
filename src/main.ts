import 'reflect-metadata';
import fs from 'node:fs';
import path from 'node:path';
import type { Server } from 'node:http';
import { createLogger, openDatabase, openRedis } from './bootstrap';
import { loadConfig } from './config';
import { getSchema } from './graphql/schema';
import { createApp } from './http/app';
import { setMailLogger } from './mail/mailer';
import { Tenant } from './models';
import { seedDemo, type DemoToken } from './services/demo.service';
import { startTemporal } from './temporal/runtime';

/**
 * `npm start`: the embedded default. Creates and migrates the database, seeds the demo tenant into an empty
 * database, serves the API and prints where everything is.
 */
async function main(): Promise<void> {
  const config = loadConfig();
  const logger = createLogger(config);
  setMailLogger(logger.child({ component: 'mail' }));
  const sequelize = await openDatabase(config, { logger, verifyAppKey: true });
  const tokensFile = path.join(config.DATA_DIR, 'demo-tokens.json');

  if (config.SEED_DEMO === 'true' && (await Tenant.count()) === 0) {
    logger.info('empty database: seeding the demo tenant');
    const { tokens } = await seedDemo();
    fs.mkdirSync(config.DATA_DIR, { recursive: true });
    // Secrets are stored hashed; this local file is the only copy, for the developer's own machine.
    fs.writeFileSync(tokensFile, JSON.stringify(tokens, null, 2), { mode: 0o600 });
  }

  const temporal = await startTemporal(config, logger, { worker: config.WORKER_IN_PROCESS === 'true' });
  const redis = openRedis(config, logger);
  const { app, stop } = await createApp({ config, schema: await getSchema(), logger, redis });
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
    `  Health             ${base}/health`,
    `  Temporal           ${temporal.address}${temporal.uiUrl ? `  (UI ${temporal.uiUrl}, namespace ${config.TEMPORAL_NAMESPACE})` : ''}`,
  ];
  // The demo secrets are printed only where the demo is on (the embedded default), never in production setups.
  if (config.SEED_DEMO === 'true' && fs.existsSync(tokensFile)) {
    const tokens = JSON.parse(fs.readFileSync(tokensFile, 'utf8')) as DemoToken[];
    const shown = path.relative(process.cwd(), tokensFile);
    lines.push('', `  Demo tokens (from ${shown.startsWith('..') || path.isAbsolute(shown) ? tokensFile : shown}):`);
    for (const t of tokens) lines.push(`    ${t.label.padEnd(48)} ${t.token}`);
    lines.push('', `  Try: curl -H "Authorization: Bearer ${tokens[0].token}" ${base}/api/v1/reviews`);
  }
  process.stdout.write(lines.join('\n') + '\n\n');

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    // Whatever hangs, the process ends (the dev server with it: it is killed on exit).
    setTimeout(() => {
      logger.warn('shutdown took over 60 s: exiting');
      process.exit(1);
    }, 60_000).unref();
    server.close();
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

main().catch((err) => {
  process.stderr.write(`Failed to start: ${err instanceof Error ? err.stack ?? err.message : String(err)}\n`);
  process.exit(1);
});
