import type { Express } from 'express';
import type Redis from 'ioredis';
import pino from 'pino';
import request from 'supertest';
import type { Clock } from '../../src/domain/clock';
import { getSchema } from '../../src/graphql/schema';
import { createApp } from '../../src/http/app';
import { useDatabase } from './db';

export interface TestApp {
  app: Express;
  http: () => request.Agent;
  /** Requests carrying `token` as the bearer. */
  as: (token: string) => {
    get: (path: string) => request.Test;
    post: (path: string) => request.Test;
    put: (path: string) => request.Test;
    delete: (path: string) => request.Test;
  };
}

/**
 * The real HTTP app on the real database, driven with supertest. The rate limit is generous by default
 * so that ordinary tests never meet it; the rate-limit tests pass their own.
 */
export function useApp(opts: { rateLimit?: number; redis?: () => Redis | null; clock?: Clock } = {}): TestApp & {
  db: ReturnType<typeof useDatabase>;
} {
  const db = useDatabase();
  const holder: { app?: Express; stop?: () => Promise<void> } = {};
  beforeAll(async () => {
    const { app, stop } = await createApp({
      config: { RATE_LIMIT_PER_MINUTE: opts.rateLimit ?? 100_000, BODY_LIMIT: '1mb', TRUST_PROXY: 'false' },
      schema: await getSchema(),
      logger: pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' }),
      redis: opts.redis?.() ?? null,
      clock: opts.clock,
    });
    holder.app = app;
    holder.stop = stop;
  });
  afterAll(async () => {
    await holder.stop?.();
  });
  return {
    db,
    get app() {
      if (!holder.app) throw new Error('app not started');
      return holder.app;
    },
    http: () => request.agent(holder.app!),
    as: (token: string) => {
      const auth = (r: request.Test) => r.set('Authorization', `Bearer ${token}`);
      const agent = () => request.agent(holder.app!);
      return {
        get: (path: string) => auth(agent().get(path)),
        post: (path: string) => auth(agent().post(path)),
        put: (path: string) => auth(agent().put(path)),
        delete: (path: string) => auth(agent().delete(path)),
      };
    },
  };
}
