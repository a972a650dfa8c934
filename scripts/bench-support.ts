import type { AddressInfo } from 'node:net';
import pino from 'pino';
import type { Config } from '../src/config';
import { parseDatabaseUrl } from '../src/db/connection';
import { getSchema } from '../src/graphql/schema';
import { createApp, type AppDeps } from '../src/http/app';
import { findTemporalCli, startDevServer } from '../src/temporal/dev-server';
import { WORKFLOW_BUNDLE } from '../src/temporal/runtime';
import { buildActivities } from '../workflows/activities';
import { connectTemporal, disconnectTemporal, requestedStart, temporal, temporalSettings, useWorkerConnection, type TemporalSettings } from '../workflows/client';
import { runWorker } from '../workflows/worker';

/**
 * What the durable-engine benchmarks (`bench:webhooks`, `bench:scans`) share: a database of their own, a Temporal
 * dev server in memory with a worker on the built workflow bundle, the real API on loopback, and the statistics.
 */

/** Refuses a database the benchmark does not own (it writes freely into it). */
export function assertBenchDatabase(url: string, suffix: string): void {
  if (!parseDatabaseUrl(url).database.endsWith(suffix)) throw new Error(`BENCH_DATABASE_URL must name a database ending in ${suffix}`);
}

/** Nearest-rank percentile of an ascending list. */
export const pct = (sorted: number[], p: number): number => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

export interface LatencySummary {
  count: number;
  p50Ms: number;
  p99Ms: number;
  perSecond: number;
}

export function latencySummary(latencies: number[], seconds: number): LatencySummary {
  const s = [...latencies].sort((a, b) => a - b);
  return { count: s.length, p50Ms: pct(s, 50), p99Ms: pct(s, 99), perSecond: s.length / seconds };
}

/** Runs `fn` over `items`, `n` at a time. */
export async function pool<T>(items: T[], n: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: n }, async () => {
      while (next < items.length) await fn(items[next++]);
    }),
  );
}

export interface BenchTemporal {
  settings: TemporalSettings;
  /** Stops only the worker (what is started meanwhile waits in Temporal), and starts it again. */
  stopWorker(): Promise<void>;
  startWorker(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * A Temporal dev server in memory on `port` (no UI), the client connected, and a worker on a task queue of this
 * process running the bundle `npm run build` wrote, with the real activities.
 */
export async function startBenchTemporal(config: Config, port: number): Promise<BenchTemporal> {
  const devServer = await startDevServer({ cli: findTemporalCli(config.TEMPORAL_CLI), port, uiPort: null, namespace: 'default', dbFile: null });
  try {
    const settings = temporalSettings(config, devServer.address);
    settings.taskQueue = `bench-${process.pid}`;
    await connectTemporal(settings);
    const launch = () =>
      runWorker({ address: devServer.address, namespace: 'default', taskQueue: settings.taskQueue, workflows: { bundlePath: WORKFLOW_BUNDLE }, activities: buildActivities(config) });
    let worker: Awaited<ReturnType<typeof launch>> | null = await launch();
    // As in `npm start`: starts a request asks for go eagerly to this process's worker.
    useWorkerConnection(worker.connection);
    return {
      settings,
      async stopWorker() {
        useWorkerConnection(null);
        await worker?.stop();
        worker = null;
      },
      async startWorker() {
        worker ??= await launch();
        useWorkerConnection(worker.connection);
      },
      async stop() {
        useWorkerConnection(null);
        await worker?.stop();
        await disconnectTemporal();
        await devServer.stop();
      },
    };
  } catch (err) {
    await disconnectTemporal().catch(() => undefined);
    await devServer.stop();
    throw err;
  }
}

/** The real app (every facade) listening on a loopback port; `origin` is `http://127.0.0.1:<port>`. */
export async function startBenchApi(config: Config, mcp?: AppDeps['mcp']): Promise<{ origin: string; stop(): Promise<void> }> {
  const { app, stop } = await createApp({ config, schema: await getSchema(), logger: pino({ level: 'warn' }), mcp });
  const server = app.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    async stop() {
      await new Promise((r) => server.close(r));
      await stop();
    },
  };
}

/** A table with aligned columns (first column left, the others right). */
export function alignedTable(rows: string[][]): string {
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  return rows.map((r) => r.map((c, i) => (i ? c.padStart(widths[i]) : c.padEnd(widths[i]))).join('  ')).join('\n');
}

/** A markdown table, ready for the README. */
export function markdownTable(rows: string[][]): string {
  const line = (r: string[]) => `| ${r.join(' | ')} |`;
  return [line(rows[0]), line(rows[0].map(() => '---')), ...rows.slice(1).map(line)].join('\n');
}

/**
 * The engine's ceiling on this server and worker: `count` one-activity workflows (`engineProbe`) started `concurrency`
 * at a time and awaited, in workflows per second. Every durable benchmark measures it in the same run, so its own
 * rate can be read as a share of what the engine allows.
 */
export async function engineCeiling(count = 400, concurrency = 32, opts: { eager?: boolean } = {}): Promise<number> {
  const { settings } = temporal();
  // Eager: as a request's start is made in a process with a worker (`requestedStart`).
  const { client, options } = opts.eager ? requestedStart() : { client: temporal().client, options: {} };
  const started = Date.now();
  await pool(Array.from({ length: count }, (_, i) => i), concurrency, async (i) => {
    await client.workflow.execute('engineProbe', { taskQueue: settings.taskQueue, workflowId: `engine-probe-${process.pid}-${started}-${i}${opts.eager ? '-eager' : ''}`, ...options });
  });
  return count / ((Date.now() - started) / 1000);
}

/** The peak resident set of this process so far, in MB. */
export const peakRssMb = (): number => Math.round(process.resourceUsage().maxRSS / 1024);
