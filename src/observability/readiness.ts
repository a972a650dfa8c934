import type { Client } from '@temporalio/client';
import { optionalTsToMs } from '@temporalio/common/lib/time';
import type Redis from 'ioredis';
import { QueryTypes, type Sequelize } from 'sequelize';
import { migrations } from '../db/migrations';

export interface ReadinessCheck {
  name: string;
  ok: boolean;
  ms: number;
  detail?: string;
}

export interface Readiness {
  status: 'ready' | 'unavailable';
  checks: ReadinessCheck[];
}

export interface ReadinessDeps {
  sequelize: Sequelize;
  /** Checked (PING) only when given, i.e. when REDIS_URL is configured. */
  redis?: Redis | null;
  /** Checked when given; a missing client means the process has not connected (yet). */
  temporal?: { client?: Client; namespace: string; taskQueue: string };
  /** `api`: some worker polls the task queue; `worker`: this process's worker is running. */
  role: 'api' | 'worker';
  worker?: { getState(): string };
  /** Bound of each check (default 2 s): a probe must answer even when a dependency hangs. */
  timeoutMs?: number;
}

const DEFAULT_TIMEOUT_MS = 2_000;
// Proto enum values (temporal.api.enums.v1): @temporalio/proto is not a direct dependency.
const TASK_QUEUE_KIND_NORMAL = 1;
const TASK_QUEUE_TYPE_WORKFLOW = 1;
/**
 * How recent a poller's last poll must be for it to count as a live worker. DescribeTaskQueue keeps listing a poller
 * for about 5 minutes after its worker died; a live worker's idle long poll lasts about 60 s on the server (the SDK's
 * call gives up at 70 s) before the next one starts, so a live worker's lastAccessTime is never much older than
 * that. 90 s leaves room for a busy server and a little clock skew between this host and Temporal's.
 */
export const POLLER_FRESH_MS = 90_000;

/** Names of the migrations this code knows and the database has not applied. */
async function pendingMigrations(sequelize: Sequelize): Promise<string[]> {
  // A plain read (umzug's `pending()` would run CREATE TABLE IF NOT EXISTS on every probe).
  let applied: Set<string>;
  try {
    const rows = await sequelize.query<{ name: string }>('SELECT name FROM schema_migrations', { type: QueryTypes.SELECT, logging: false });
    applied = new Set(rows.map((r) => r.name));
  } catch (e) {
    if ((e as { original?: { code?: string } }).original?.code !== 'ER_NO_SUCH_TABLE') throw e;
    applied = new Set();
  }
  return migrations.map((m) => m.name).filter((name) => !applied.has(name));
}

async function timed(name: string, timeoutMs: number, check: () => Promise<string | void>): Promise<ReadinessCheck> {
  const started = performance.now();
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    const detail = await Promise.race([check(), timeout]);
    return { name, ok: true, ms: Math.round(performance.now() - started), ...(detail ? { detail } : {}) };
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    return { name, ok: false, ms: Math.round(performance.now() - started), detail: message.split('\n')[0].slice(0, 300) };
  } finally {
    clearTimeout(timer);
  }
}

/**
 * What `/health/ready`, the worker's probe and `reviewgrid doctor` report: every dependency this process needs to
 * do its work, checked concurrently, each bounded by a short timeout. Ready only when every check holds.
 */
export async function checkReadiness(deps: ReadinessDeps): Promise<Readiness> {
  const ms = deps.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const checks: Array<Promise<ReadinessCheck>> = [
    timed('database', ms, async () => {
      await deps.sequelize.query('SELECT 1', { type: QueryTypes.SELECT, logging: false });
    }),
    timed('migrations', ms, async () => {
      const pending = await pendingMigrations(deps.sequelize);
      // The first few name the upgrade that is missing; a fresh database lists them all.
      if (pending.length) throw new Error(`${pending.length} pending: ${pending.slice(0, 5).join(', ')}${pending.length > 5 ? ` and ${pending.length - 5} more` : ''}`);
      return `${migrations.length} applied`;
    }),
  ];
  const t = deps.temporal;
  if (t) {
    // The gRPC client retries an unavailable server for a long time (an abort signal does not stop its retries): a
    // deadline a little inside the probe's timeout ends the call itself, so nothing keeps retrying afterwards.
    const deadline = Date.now() + Math.max(50, ms - 100);
    const call = <R>(client: Client, fn: () => Promise<R>) => client.connection.withDeadline(deadline, fn);
    checks.push(
      timed('temporal', ms, async () => {
        const client = t.client;
        if (!client) throw new Error('not connected');
        await call(client, () => client.workflowService.describeNamespace({ namespace: t.namespace }));
      }),
    );
    if (deps.role === 'api') {
      checks.push(
        timed('worker_pollers', ms, async () => {
          const client = t.client;
          if (!client) throw new Error('not connected');
          const answer = await call(client, () =>
            client.workflowService.describeTaskQueue({
              namespace: t.namespace,
              taskQueue: { name: t.taskQueue, kind: TASK_QUEUE_KIND_NORMAL },
              taskQueueType: TASK_QUEUE_TYPE_WORKFLOW,
            }),
          );
          // The server lists the pollers it saw in the last ~5 minutes, dead workers' included: only a poll within
          // POLLER_FRESH_MS shows a live worker (a poller without a poll time is not counted).
          const now = Date.now();
          const lastPolls = (answer.pollers ?? []).map((p) => optionalTsToMs(p.lastAccessTime) ?? null);
          const fresh = lastPolls.filter((at) => at !== null && now - at < POLLER_FRESH_MS).length;
          if (fresh === 0) {
            const latest = Math.max(...lastPolls.map((at) => at ?? -Infinity));
            const since = Number.isFinite(latest) ? `: the last poll was ${Math.max(0, Math.round((now - latest) / 1000))} s ago` : '';
            throw new Error(`no worker polls the task queue "${t.taskQueue}"${since}`);
          }
          return `${fresh} poller(s) on "${t.taskQueue}"`;
        }),
      );
    }
  }
  if (deps.role === 'worker') {
    checks.push(
      timed('worker', ms, async () => {
        const state = deps.worker?.getState() ?? 'ABSENT';
        if (state !== 'RUNNING') throw new Error(`worker state ${state}`);
      }),
    );
  }
  const redis = deps.redis;
  if (redis) {
    checks.push(
      timed('redis', ms, async () => {
        const answer = await redis.ping();
        if (answer !== 'PONG') throw new Error(`PING answered ${answer}`);
      }),
    );
  }
  const results = await Promise.all(checks);
  return { status: results.every((c) => c.ok) ? 'ready' : 'unavailable', checks: results };
}
