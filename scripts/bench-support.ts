import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net, { type AddressInfo } from 'node:net';
import path from 'node:path';
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
import { PRODUCTION_NODE_FLAGS, PRODUCTION_WORKER_NODE_FLAGS } from './production-node-flags';

/**
 * What the benchmarks share: a database of their own, a Temporal dev server in memory, the API and the worker as
 * production runs them (each its own process, on the built code and workflow bundle) with their peak RSS measured
 * from outside, and the statistics. This process keeps the load generator, the receivers and the measuring.
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

/**
 * Waits until the process `pid` is quiet: under `share` of one core over a window of `windowMs` (what it was still
 * doing from before: its start's tail, a model loaded on first use, the previous phase's retries), for at most
 * `limitMs`. Answers the milliseconds waited, or null when it was not quiet by then.
 */
export async function untilQuiet(pid: number, opts: { share?: number; windowMs?: number; limitMs?: number } = {}): Promise<number | null> {
  const { share = 0.05, windowMs = 500, limitMs = 30_000 } = opts;
  const started = Date.now();
  let last = processCpuMs(pid);
  while (Date.now() - started < limitMs) {
    await new Promise((r) => setTimeout(r, windowMs));
    const now = processCpuMs(pid);
    if (now === null || last === null || now - last <= share * windowMs) return Date.now() - started;
    last = now;
  }
  return null;
}

/** Milliseconds of CPU (user + system) a process used so far, from /proc/<pid>/stat; null once it is gone. */
export function processCpuMs(pid: number): number | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The fields after the command name (which may hold spaces) start after its closing parenthesis.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
  } catch {
    return null;
  }
}
const CLOCK_TICKS = 100;

/**
 * A child process of the product (`node dist/src/main.js`, `node dist/src/worker-main.js`) and its memory, measured
 * from outside: VmRSS polled every RSS_POLL_MS from /proc/<pid>/status, and VmHWM (the kernel's own high-water mark)
 * read at each poll, so a peak between two polls is still counted. A role keeps its figures over restarts.
 */
export class ProductProcesses {
  private readonly peaks = new Map<string, number>();
  private readonly cpu = new Map<string, number>();
  private readonly live = new Map<string, { child: ChildProcess; timer: NodeJS.Timeout; lastCpuMs: number }>();

  constructor(private readonly baseEnv: NodeJS.ProcessEnv) {
    // A benchmark that fails (and exits) leaves no API or worker process behind.
    process.once('exit', () => {
      for (const { child } of this.live.values()) child.kill('SIGKILL');
    });
  }

  /** Starts `script` (under dist/) as `role` with `env` over the bench's environment; resolves once `readyUrl` answers 200. */
  async start(role: 'API' | 'worker', script: string, env: Record<string, string>, readyUrl: string): Promise<number> {
    if (this.live.has(role)) throw new Error(`${role} is already running`);
    const child = spawn(process.execPath, [...PRODUCT_NODE_OPTIONS[role], path.join(DIST, script)], {
      env: { ...this.baseEnv, ...env },
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    const entry = { child, timer: setInterval(() => this.sample(role, child.pid!), RSS_POLL_MS), lastCpuMs: 0 };
    this.live.set(role, entry);
    child.once('exit', () => {
      clearInterval(entry.timer);
      this.live.delete(role);
    });
    const t0 = Date.now();
    while (!(await answers(readyUrl))) {
      if (child.exitCode !== null || child.signalCode !== null) throw new Error(`the ${role} process (${script}) exited with ${child.exitCode ?? child.signalCode} before it was ready`);
      if (Date.now() - t0 > 180_000) {
        await this.stop(role, 'SIGKILL');
        throw new Error(`the ${role} process (${script}) was not ready within 3 minutes`);
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    return Date.now() - t0;
  }

  /** Stops `role` with `signal` (SIGTERM: its graceful shutdown; SIGKILL: a crash) and waits for it to exit. */
  async stop(role: 'API' | 'worker', signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
    const entry = this.live.get(role);
    if (!entry) return;
    this.sample(role, entry.child.pid!);
    const exited = new Promise((r) => entry.child.once('exit', r));
    entry.child.kill(signal);
    await exited;
  }

  /** The pid of the running process of `role`, if any. */
  pid(role: 'API' | 'worker'): number | undefined {
    return this.live.get(role)?.child.pid;
  }

  async stopAll(): Promise<void> {
    await Promise.all([...this.live.keys()].map((role) => this.stop(role as 'API' | 'worker')));
  }

  private sample(role: string, pid: number): void {
    try {
      const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
      const kb = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0);
      this.peaks.set(role, Math.max(this.peaks.get(role) ?? 0, kb('VmRSS'), kb('VmHWM')));
    } catch {
      // Gone between two polls: its last sample stands.
    }
    const entry = this.live.get(role);
    const cpuMs = processCpuMs(pid);
    if (entry && cpuMs !== null) {
      this.cpu.set(role, (this.cpu.get(role) ?? 0) + cpuMs - entry.lastCpuMs);
      entry.lastCpuMs = cpuMs;
    }
  }

  /** Peak RSS of `role` in MB over every process that held it (null: never started). */
  peakRssMb(role: 'API' | 'worker'): number | null {
    const entry = this.live.get(role);
    if (entry) this.sample(role, entry.child.pid!);
    const kb = this.peaks.get(role);
    return kb === undefined ? null : Math.round(kb / 1024);
  }

  /** CPU milliseconds `role` used so far, over every process that held it. */
  cpuMs(role: 'API' | 'worker'): number {
    const entry = this.live.get(role);
    if (entry) this.sample(role, entry.child.pid!);
    return this.cpu.get(role) ?? 0;
  }

  /** `{ api, worker, targetMb }` for a results JSON. */
  peakRss(): PeakRss {
    return { apiMb: this.peakRssMb('API'), workerMb: this.peakRssMb('worker'), targetMb: RSS_TARGET_MB, pollMs: RSS_POLL_MS, method: 'max of VmRSS polled and VmHWM, /proc/<pid>/status', node: process.version };
  }

  /**
   * The line every benchmark prints: "peak RSS: API N MB, worker M MB (target < 400 MB each: met|missed), on Node vX"
   * (the processes run on the benchmark's own Node: `npm run bench*` starts it on Node 24, scripts/production-node.sh).
   */
  peakRssLine(): string {
    const { apiMb, workerMb } = this.peakRss();
    const shown = [apiMb, workerMb].filter((v): v is number => v !== null);
    const verdict = shown.every((v) => v < RSS_TARGET_MB) ? 'met' : 'missed';
    return `peak RSS: API ${apiMb ?? '-'} MB, worker ${workerMb === null ? 'not run' : `${workerMb} MB`} (target < ${RSS_TARGET_MB} MB each: ${verdict}), on Node ${process.version}`;
  }
}

export interface PeakRss {
  apiMb: number | null;
  workerMb: number | null;
  targetMb: number;
  pollMs: number;
  method: string;
  /** The Node the benchmark and the processes it started ran on (`process.version`). */
  node: string;
}

/** Issue 17's memory target: API and worker under 400 MB of RSS each, through every benchmark. */
export const RSS_TARGET_MB = 400;
const RSS_POLL_MS = 200;
/**
 * Node flags of the product processes: the production ones (`PRODUCTION_NODE_FLAGS`, as docker-compose.yml, the
 * Dockerfile and `npm run worker` run them). BENCH_PRODUCT_NODE_OPTIONS adds some after them, to theirs only, for
 * looking into memory (e.g. `--heapsnapshot-signal=SIGUSR2`, or another `--max-old-space-size`: the last one counts).
 */
const EXTRA_NODE_OPTIONS = (process.env.BENCH_PRODUCT_NODE_OPTIONS ?? '').split(' ').filter(Boolean);
const PRODUCT_NODE_OPTIONS: Record<'API' | 'worker', string[]> = {
  API: [...PRODUCTION_NODE_FLAGS, ...EXTRA_NODE_OPTIONS],
  worker: [...PRODUCTION_WORKER_NODE_FLAGS, ...EXTRA_NODE_OPTIONS],
};
const DIST = path.resolve(__dirname, '..', ...(__dirname.includes(`${path.sep}dist${path.sep}`) ? [] : ['dist']));

async function answers(url: string): Promise<boolean> {
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(2_000) });
    await res.arrayBuffer();
    return res.ok;
  } catch {
    return false;
  }
}

/** A free loopback port (bound and released). */
export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  await new Promise((r) => server.close(r));
  return port;
}

export interface BenchTemporal {
  settings: TemporalSettings;
  address: string;
  /** Whether this run has a worker process (the API's readiness asks for one polling the task queue). */
  withWorker: boolean;
  /** The product processes: the API and the worker, and their peak RSS. */
  processes: ProductProcesses;
  /** Stops only the worker process (what is started meanwhile waits in Temporal), and starts a new one. */
  stopWorker(signal?: NodeJS.Signals): Promise<void>;
  /** Starts the worker process again; resolves once it is ready, with the milliseconds that took. */
  startWorker(): Promise<number>;
  stop(): Promise<void>;
}

/**
 * A Temporal dev server in memory on `port` (no UI), this process's client connected to it (the load generator
 * starts probes and reads workflows), and the worker as production runs it: its own process,
 * `node dist/src/worker-main.js`, on a task queue of this benchmark, with the real activities, against the bench's
 * database (`env` holds the settings the benchmark runs the product with: DATABASE_URL and its overrides).
 * `worker: false` runs no worker (the REST and MCP benchmarks need none).
 */
export async function startBenchTemporal(config: Config, port: number, env: Record<string, string>, opts: { worker?: boolean } = {}): Promise<BenchTemporal> {
  const devServer = await startDevServer({ cli: findTemporalCli(config.TEMPORAL_CLI), port, uiPort: null, namespace: 'default', dbFile: null });
  const processes = new ProductProcesses({
    ...process.env,
    ...env,
    TEMPORAL_ADDRESS: devServer.address,
    TEMPORAL_NAMESPACE: 'default',
    TEMPORAL_TASK_QUEUE: `bench-${process.pid}`,
    HOST: '127.0.0.1',
    SEED_DEMO: 'false',
    DATA_DIR: config.DATA_DIR,
  });
  try {
    const settings = temporalSettings(config, devServer.address);
    settings.taskQueue = `bench-${process.pid}`;
    await connectTemporal(settings);
    const startWorker = async () => {
      const httpPort = await freePort();
      return processes.start('worker', 'src/worker-main.js', { WORKER_HTTP_PORT: String(httpPort) }, `http://127.0.0.1:${httpPort}/health/ready`);
    };
    if (opts.worker !== false) await startWorker();
    return {
      settings,
      address: devServer.address,
      withWorker: opts.worker !== false,
      processes,
      stopWorker: (signal) => processes.stop('worker', signal),
      startWorker,
      async stop() {
        await processes.stopAll();
        await disconnectTemporal();
        await devServer.stop();
      },
    };
  } catch (err) {
    await processes.stopAll().catch(() => undefined);
    await disconnectTemporal().catch(() => undefined);
    await devServer.stop();
    throw err;
  }
}

/**
 * The real app (every facade) as production runs it: `node dist/src/main.js` in its own process with
 * WORKER_IN_PROCESS=false (the worker is `startBenchTemporal`'s process), listening on a loopback port against the
 * bench's Temporal server; `origin` is `http://127.0.0.1:<port>`.
 */
export async function startBenchApi(engine: BenchTemporal, env: Record<string, string> = {}): Promise<{ origin: string; pid: number; stop(): Promise<void> }> {
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  // Ready: `/health/ready` (database, migrations, a worker polling); without a worker process, serving `/health`.
  await engine.processes.start('API', 'src/main.js', { ...env, PORT: String(port), WORKER_IN_PROCESS: 'false' }, `${origin}/health${engine.withWorker ? '/ready' : ''}`);
  return {
    origin,
    pid: engine.processes.pid('API')!,
    stop: () => engine.processes.stop('API'),
  };
}

/**
 * A worker in this process on a task queue of its own with the same bundle and activities, its connection shared
 * with this process's client: what the eager engine ceiling needs (`requestEagerStart` only reaches a worker that
 * shares the starter's connection, as in an API run with WORKER_IN_PROCESS). Not the product worker: its memory is
 * this process's.
 */
export async function startEagerProbeWorker(config: Config, engine: BenchTemporal): Promise<{ taskQueue: string; stop(): Promise<void> }> {
  const taskQueue = `${engine.settings.taskQueue}-eager-probe`;
  const worker = await runWorker({ address: engine.address, namespace: 'default', taskQueue, workflows: { bundlePath: WORKFLOW_BUNDLE }, activities: buildActivities(config) });
  useWorkerConnection(worker.connection);
  return {
    taskQueue,
    async stop() {
      useWorkerConnection(null);
      await worker.stop();
    },
  };
}

/**
 * The real app (every facade) in this process, on a loopback port (`npm run mcp:conformance`, which registers
 * fixture tools through `mcp`); the benchmarks run the API in its own process (`startBenchApi`).
 */
export async function startInProcessApi(config: Config, mcp?: AppDeps['mcp']): Promise<{ origin: string; stop(): Promise<void> }> {
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
export async function engineCeiling(count = 400, concurrency = 32, opts: { eager?: boolean; taskQueue?: string } = {}): Promise<number> {
  const { settings } = temporal();
  // Eager: as a request's start is made in a process with a worker (`requestedStart`).
  const { client, options } = opts.eager ? requestedStart() : { client: temporal().client, options: {} };
  const started = Date.now();
  await pool(Array.from({ length: count }, (_, i) => i), concurrency, async (i) => {
    await client.workflow.execute('engineProbe', { taskQueue: opts.taskQueue ?? settings.taskQueue, workflowId: `engine-probe-${process.pid}-${started}-${i}${opts.eager ? '-eager' : ''}`, ...options });
  });
  return count / ((Date.now() - started) / 1000);
}

/** The peak resident set of this process (the load generator, receivers and measuring) so far, in MB. */
export const benchPeakRssMb = (): number => Math.round(process.resourceUsage().maxRSS / 1024);
