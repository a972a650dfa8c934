import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Express } from 'express';
import type Redis from 'ioredis';
import pino from 'pino';
import request from 'supertest';
import type { Clock } from '../../src/domain/clock';
import type { Location, User } from '../../src/models';
import { getSchema } from '../../src/graphql/schema';
import { createApp, type AppDeps } from '../../src/http/app';
import { contractRecorder } from './contract';
import { useDatabase } from './db';
import { tokenFor } from './factories';

type Seams = Omit<Partial<AppDeps>, 'config' | 'schema' | 'logger'>;

/** The app's dependencies in tests: the real schema, a quiet logger, a rate limit no ordinary test meets. */
async function appDeps(seams: Seams, rateLimit = 100_000): Promise<AppDeps> {
  return {
    config: { RATE_LIMIT_PER_MINUTE: rateLimit, AGENCY_RATE_LIMIT_PER_MINUTE: rateLimit, BODY_LIMIT: '1mb', TRUST_PROXY: 'false' },
    pages: { perMinute: 100_000, postsPerMinute: 100_000 },
    schema: await getSchema(),
    logger: pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' }),
    // Every REST answer of a test app is checked against the OpenAPI documents (test/support/contract-hooks.ts).
    observeApiResponse: contractRecorder.observe,
    ...seams,
  };
}

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
    const { app, stop } = await createApp(await appDeps({ redis: opts.redis?.() ?? null, clock: opts.clock }, opts.rateLimit));
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

export interface ServedApp {
  /** `http://127.0.0.1:<port>` */
  origin: string;
  /** Stops listening, then stops the app (its timers, the MCP audit writer). */
  close: () => Promise<void>;
}

/**
 * The real app listening on a loopback port of its own, for callers that need a URL (a browser, the MCP SDK client,
 * fetch), with the generous test rate limit; `deps` adds the seams a test needs (connect page, MCP limits, Redis).
 */
export async function serveApp(deps: Seams = {}): Promise<ServedApp> {
  const { app, stop } = await createApp(await appDeps(deps));
  const server = await new Promise<Server>((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await stop();
    },
  };
}

/** serveApp() around the tests of a describe block, on the worker's database; `origin` is read inside the tests. */
export function useServedApp(deps: Seams = {}): { readonly origin: string } {
  useDatabase();
  let served: ServedApp | null = null;
  beforeAll(async () => {
    served = await serveApp(deps);
  });
  afterAll(async () => {
    await served?.close();
  });
  return {
    get origin() {
      if (!served) throw new Error('app not served');
      return served.origin;
    },
  };
}

/** A Google connect link to `location`, created by the tenant owner `owner` through the served agency API. */
export async function createConnectLink(origin: string, owner: User, location: Location): Promise<{ token: string; connect_url: string }> {
  const agencyToken = await tokenFor(owner, [], 'agency');
  const created = await fetch(`${origin}/api/agency/v1/connect-links`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${agencyToken}`, 'Content-Type': 'application/json', Accept: 'application/json' },
    body: JSON.stringify({ provider: 'google', location_id: location.id }),
  });
  expect(created.status).toBe(201);
  return ((await created.json()) as { data: { token: string; connect_url: string } }).data;
}
