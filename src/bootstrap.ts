import 'reflect-metadata';
import { Connection } from '@temporalio/client';
import Redis from 'ioredis';
import pino, { type DestinationStream, type Logger } from 'pino';
import type { Sequelize } from 'sequelize-typescript';
import type { Config } from './config';
import { createSequelize, ensureDatabase } from './db/connection';
import { migrate } from './db/umzug';
import { verifyAppKey } from './crypto/secrets';
import { databaseUnreachable } from './observability/boot';
import { LOG_REDACTION } from './observability/log-redaction';

/** The product's logger (redacting secrets: src/observability/log-redaction.ts); `destination` for tests that read it. */
export function createLogger(config: Pick<Config, 'LOG_LEVEL' | 'NODE_ENV'>, destination?: DestinationStream): Logger {
  const options = { level: config.LOG_LEVEL, base: { service: 'reviewgrid' }, redact: LOG_REDACTION };
  return destination ? pino(options, destination) : pino(options);
}

/** Creates the database when missing, connects and applies pending migrations. */
export async function openDatabase(
  config: Pick<Config, 'DATABASE_URL' | 'DATABASE_POOL_MAX'>,
  opts: { migrate?: boolean; logger?: Logger; /** API and worker processes: refuse an APP_KEY other than the installation's. */ verifyAppKey?: boolean } = {},
): Promise<Sequelize> {
  await ensureDatabase(config.DATABASE_URL).catch((e) => {
    throw databaseUnreachable(config.DATABASE_URL, e);
  });
  const sequelize = createSequelize({ url: config.DATABASE_URL, poolMax: config.DATABASE_POOL_MAX });
  if (opts.migrate !== false) {
    const applied = await migrate(sequelize);
    if (applied.length) opts.logger?.info({ applied }, 'migrations applied');
  }
  if (opts.verifyAppKey) {
    try {
      await verifyAppKey(sequelize);
    } catch (e) {
      await sequelize.close();
      throw e;
    }
  }
  return sequelize;
}

export function openRedis(config: Pick<Config, 'REDIS_URL'>, logger?: Logger): Redis | null {
  if (!config.REDIS_URL) return null;
  const redis = new Redis(config.REDIS_URL, { maxRetriesPerRequest: 2, enableOfflineQueue: true });
  redis.on('error', (err) => logger?.warn({ err }, 'redis error'));
  return redis;
}

/**
 * Waits up to TEMPORAL_CONNECT_TIMEOUT_MS for the cluster at TEMPORAL_ADDRESS (containers start together), then gives
 * up with one clear message. Unset TEMPORAL_ADDRESS (the embedded dev server): nothing to wait for.
 */
export async function waitForTemporal(config: Pick<Config, 'TEMPORAL_ADDRESS' | 'TEMPORAL_CONNECT_TIMEOUT_MS'>, logger?: Logger): Promise<void> {
  const address = config.TEMPORAL_ADDRESS;
  if (!address) return;
  const deadline = Date.now() + config.TEMPORAL_CONNECT_TIMEOUT_MS;
  for (let logged = false; ; ) {
    try {
      const connection = await Connection.connect({ address, connectTimeout: Math.max(1_000, Math.min(10_000, deadline - Date.now())) });
      await connection.close();
      return;
    } catch (e) {
      if (Date.now() >= deadline) {
        const reason = e instanceof Error ? e.message : String(e);
        throw new Error(`Cannot reach Temporal at ${address} after ${Math.round(config.TEMPORAL_CONNECT_TIMEOUT_MS / 1000)} s: ${reason}`, { cause: e });
      }
      if (!logged) logger?.info({ address }, 'waiting for Temporal');
      logged = true;
      await new Promise((r) => setTimeout(r, Math.min(2_000, Math.max(0, deadline - Date.now()))));
    }
  }
}
