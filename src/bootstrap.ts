import 'reflect-metadata';
import Redis from 'ioredis';
import pino, { type Logger } from 'pino';
import type { Sequelize } from 'sequelize-typescript';
import type { Config } from './config';
import { createSequelize, ensureDatabase } from './db/connection';
import { migrate } from './db/umzug';
import { verifyAppKey } from './crypto/secrets';

export function createLogger(config: Pick<Config, 'LOG_LEVEL' | 'NODE_ENV'>): Logger {
  return pino({ level: config.LOG_LEVEL, base: { service: 'reviewgrid' } });
}

/** Creates the database when missing, connects and applies pending migrations. */
export async function openDatabase(
  config: Pick<Config, 'DATABASE_URL' | 'DATABASE_POOL_MAX'>,
  opts: { migrate?: boolean; logger?: Logger; /** API and worker processes: refuse an APP_KEY other than the installation's. */ verifyAppKey?: boolean } = {},
): Promise<Sequelize> {
  await ensureDatabase(config.DATABASE_URL);
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
