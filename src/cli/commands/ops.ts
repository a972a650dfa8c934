import { Client, Connection } from '@temporalio/client';
import type { Sequelize } from 'sequelize-typescript';
import type { Config } from '../../config';
import { checkReadiness } from '../../observability/readiness';
import { ensureSearchAttributes } from '../../temporal/search-attributes';
import { ensureNamespace } from '../../temporal/namespace';
import { CliInputError, type CliResult } from '../run';

/** Seconds a command gives Temporal to accept the connection before it reports it unreachable. */
const CONNECT_TIMEOUT_MS = 5_000;

async function connect(address: string): Promise<Connection> {
  return Connection.connect({ address, connectTimeout: CONNECT_TIMEOUT_MS });
}

/**
 * `doctor`: the readiness checks of `/health/ready` as an API process sees them (database, migration level, Redis
 * when REDIS_URL is set, Temporal and the workers polling its task queue when TEMPORAL_ADDRESS is set), one line
 * each; exit 1 when any fails.
 */
export async function doctor(config: Config, sequelize: Sequelize): Promise<CliResult> {
  const skipped: string[] = [];
  let redis: import('ioredis').default | null = null;
  if (config.REDIS_URL) {
    const { default: Redis } = await import('ioredis');
    // No reconnect loop and no offline queue: a down Redis must fail the check now, not after retries.
    redis = new Redis(config.REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 0, enableOfflineQueue: false, retryStrategy: () => null });
    redis.on('error', () => undefined);
    await redis.connect().catch(() => undefined);
  } else skipped.push('redis (REDIS_URL unset: rate limits in memory)');

  let connection: Connection | null = null;
  let connectError: string | null = null;
  let temporal: { client?: Client; namespace: string; taskQueue: string } | undefined;
  if (config.TEMPORAL_ADDRESS) {
    try {
      connection = await connect(config.TEMPORAL_ADDRESS);
    } catch (e) {
      connectError = `cannot reach ${config.TEMPORAL_ADDRESS}: ${e instanceof Error ? e.message : String(e)}`;
    }
    const client = connection ? new Client({ connection, namespace: config.TEMPORAL_NAMESPACE }) : undefined;
    temporal = { client, namespace: config.TEMPORAL_NAMESPACE, taskQueue: config.TEMPORAL_TASK_QUEUE };
  } else skipped.push('temporal (TEMPORAL_ADDRESS unset: `npm start` runs the embedded dev server)');

  try {
    const readiness = await checkReadiness({ sequelize, redis, temporal, role: 'api' });
    const checks = readiness.checks.map((c) =>
      // The readiness check only knows there is no client; the reason it could not connect is more useful here.
      connectError && (c.name === 'temporal' || c.name === 'worker_pollers') ? { ...c, detail: c.name === 'temporal' ? connectError : 'not connected' } : c,
    );
    const width = Math.max(...checks.map((c) => c.name.length));
    const lines = checks.map((c) => `${c.ok ? 'ok  ' : 'FAIL'}  ${c.name.padEnd(width)}  ${String(c.ms).padStart(5)} ms${c.detail ? `  ${c.detail}` : ''}`);
    for (const s of skipped) lines.push(`skip  ${s}`);
    lines.push(readiness.status === 'ready' ? 'Ready.' : `Unavailable: ${checks.filter((c) => !c.ok).map((c) => c.name).join(', ')} failed.`);
    return { text: lines.join('\n'), data: { status: readiness.status, checks, skipped }, exitCode: readiness.status === 'ready' ? 0 : 1 };
  } finally {
    redis?.disconnect();
    await connection?.close().catch(() => undefined);
  }
}

/**
 * A namespace registered a moment ago reaches every frontend with the cluster's namespace cache refresh (seconds):
 * until then its operator calls answer "namespace not found", so those are retried for a while.
 */
async function withNamespaceRetry<T>(fn: () => Promise<T>, waitMs = 60_000): Promise<T> {
  const deadline = Date.now() + waitMs;
  for (;;) {
    try {
      return await fn();
    } catch (e) {
      if (!/namespace.*not found|not found.*namespace/i.test(String((e as Error).message)) || Date.now() > deadline) throw e;
      await new Promise((r) => setTimeout(r, 1_000));
    }
  }
}

/**
 * `temporal:setup`: what a Temporal cluster needs before the workers start: the namespace (registered when missing)
 * and the platform's search attributes. Idempotent; the compose `migrate` job runs it after `db:migrate`.
 */
export async function temporalSetup(config: Config): Promise<CliResult> {
  const address = config.TEMPORAL_ADDRESS;
  if (!address) throw new CliInputError('TEMPORAL_ADDRESS is not set (the embedded dev server registers its namespace and search attributes itself)');
  const { waitForTemporal } = await import('../../bootstrap');
  // The migrate job may start with the cluster: wait for it as the API and workers do (TEMPORAL_CONNECT_TIMEOUT_MS).
  await waitForTemporal(config);
  const connection = await connect(address);
  try {
    const client = new Client({ connection, namespace: config.TEMPORAL_NAMESPACE });
    const namespace = await ensureNamespace(client, config.TEMPORAL_NAMESPACE);
    const added = await withNamespaceRetry(() => ensureSearchAttributes(client, config.TEMPORAL_NAMESPACE));
    return {
      text:
        `Temporal ${address}, namespace "${config.TEMPORAL_NAMESPACE}" ${namespace === 'created' ? 'created' : 'exists'}; ` +
        (added.length ? `search attributes added: ${added.join(', ')}.` : 'search attributes present.'),
      data: { address, namespace: config.TEMPORAL_NAMESPACE, namespace_created: namespace === 'created', search_attributes_added: added },
    };
  } finally {
    await connection.close();
  }
}
