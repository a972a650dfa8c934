/**
 * `npm run bench`: the customer REST facade against a bare mysql2 baseline, side by side, on loopback.
 *
 * - Database `reviewgrid_bench` (BENCH_DATABASE_URL overrides), created and migrated like the app's own,
 *   seeded once with the demo tenant and 100,000 reviews (reused when already there).
 * - The real app with RATE_LIMIT_PER_MINUTE raised through its configuration, in its own process as production runs
 *   it (`node dist/src/main.js`, WORKER_IN_PROCESS=false, against a Temporal dev server of this run; its peak RSS is
 *   printed), and the baseline in a process of its own (scripts/bench-baseline.ts): a bare Express app serving the
 *   baseline routes with hand-written SQL through mysql2.
 * - autocannon in a worker thread (so the load generator does not share the server's event loop),
 *   32 connections, warm-up then measured run per target, alternating baseline and facade.
 *
 * Environment: BENCH_ROUNDS (rounds, default 3; figures are medians), BENCH_DURATION (measured seconds per target
 * and round, default 6), BENCH_WARMUP (seconds, default 3),
 * BENCH_CONNECTIONS (default 32), BENCH_DATABASE_URL, BENCH_ONLY (list, get or front: measure one endpoint).
 */
import 'reflect-metadata';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import { createRequire } from 'node:module';
import path from 'node:path';
import mysql, { type RowDataPacket } from 'mysql2/promise';
import { openDatabase } from '../src/bootstrap';
import { loadConfig, type Config } from '../src/config';
import { dropDatabase, parseDatabaseUrl } from '../src/db/connection';
import { CUSTOMER_PERMISSIONS } from '../src/domain/permissions';
import { ApiToken, Review, Tenant, User } from '../src/models';
import { issueToken } from '../src/services/auth.service';
import { insertReviews, seedDemo } from '../src/services/demo.service';
import { benchPeakRssMb, startBenchApi, startBenchTemporal } from './bench-support';

const REVIEW_COUNT = 100_000;
const PAGES = 50;
const SAMPLE_IDS = 1000;
/** Issue 17: list and detail routes at >= 80 % of the bare baseline's requests/s (issue 9's was 50 %). */
const TARGET_RATIO = 0.8;
const TARGET_P99_MS = 50;

const num = (value: string | undefined, fallback: number): number => {
  const n = Number(value);
  return value && Number.isFinite(n) && n > 0 ? n : fallback;
};
const DURATION = num(process.env.BENCH_DURATION, 6);
const ROUNDS = Math.max(1, Math.round(num(process.env.BENCH_ROUNDS, 3)));
const WARMUP = num(process.env.BENCH_WARMUP, 2);
const CONNECTIONS = Math.round(num(process.env.BENCH_CONNECTIONS, 32));
const DATABASE_URL = process.env.BENCH_DATABASE_URL || 'mysql://root@127.0.0.1:3306/reviewgrid_bench';

/* ---------- autocannon (no bundled types): the part of its API used here ---------- */

interface AutocannonRequest {
  method: 'GET';
  path: string;
}
interface AutocannonOptions {
  url: string;
  connections: number;
  duration: number;
  workers?: number;
  headers?: Record<string, string>;
  requests?: AutocannonRequest[];
}
interface Histogram {
  average: number;
  mean: number;
  stddev: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
  totalCount: number;
}
interface AutocannonResult {
  duration: number;
  errors: number;
  timeouts: number;
  non2xx: number;
  '2xx': number;
  statusCodeStats: Record<string, { count: number }>;
  latency: Histogram;
  requests: Histogram & { sent: number };
}
type Autocannon = (opts: AutocannonOptions, cb: (err: Error | null, result: AutocannonResult) => void) => unknown;
const autocannon = createRequire(__filename)('autocannon') as Autocannon;

function cannon(opts: AutocannonOptions): Promise<AutocannonResult> {
  return new Promise((resolve, reject) => {
    autocannon(opts, (err, result) => (err ? reject(err) : resolve(result)));
  });
}

/* ---------- database ---------- */

async function prepareDatabase(config: ReturnType<typeof loadConfig>) {
  // The bench may drop and recreate its database: only ever one whose name says it is the bench's.
  if (!parseDatabaseUrl(config.DATABASE_URL).database.endsWith('_bench')) {
    throw new Error(`BENCH_DATABASE_URL must name a database ending in _bench (got ${parseDatabaseUrl(config.DATABASE_URL).database}).`);
  }
  let sequelize = await openDatabase(config);
  let tenant = await Tenant.findOne({ order: [['id', 'ASC']] });
  const reviews = tenant ? await Review.count({ where: { tenantId: tenant.id } }) : 0;
  if (tenant && reviews === REVIEW_COUNT) {
    console.log(`Reusing ${DATABASE_URL}: ${reviews.toLocaleString('en')} reviews already seeded.`);
  } else {
    if (tenant) {
      console.log(`${DATABASE_URL} holds ${reviews} reviews, not ${REVIEW_COUNT}: recreating it.`);
      await sequelize.close();
      await dropDatabase(config.DATABASE_URL);
      sequelize = await openDatabase(config);
    }
    const started = Date.now();
    process.stdout.write(`Seeding ${DATABASE_URL} with the demo tenant and ${REVIEW_COUNT.toLocaleString('en')} reviews... `);
    const seeded = await seedDemo({ reviews: 0 });
    await insertReviews(seeded.tenant.id, REVIEW_COUNT);
    console.log(`done in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
    tenant = seeded.tenant;
  }
  const owner = await User.findOne({ where: { tenantId: tenant.id, role: 'tenant_owner' }, order: [['id', 'ASC']] });
  if (!owner) throw new Error('The bench tenant has no tenant owner.');
  const issued = await issueToken(owner, { name: 'bench', kind: 'customer', permissions: [...CUSTOMER_PERMISSIONS] });
  return { sequelize, tenantId: tenant.id, token: issued.plainText, tokenId: issued.token.id };
}

/* ---------- the baseline's process ---------- */

/** Starts scripts/bench-baseline.ts in its own process against the bench database; resolves once it listens. */
async function startBaseline(config: Config): Promise<{ pid: number; origin: string; stop(): Promise<void> }> {
  const script = path.join(__dirname, 'bench-baseline.js');
  const child = spawn(process.execPath, [script], {
    env: { ...process.env, BENCH_BASELINE_DATABASE_URL: config.DATABASE_URL, BENCH_BASELINE_POOL: String(config.DATABASE_POOL_MAX) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const origin = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const m = /listening (\S+)/.exec(out);
      if (m) resolve(m[1]);
    });
    child.once('exit', (code: number | null) => reject(new Error(`The baseline process exited (${code}) before it listened.`)));
  });
  return {
    pid: child.pid!,
    origin,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

/* ---------- running ---------- */

/** A server under test: the API's or the baseline's process, each measured from outside. */
interface Listening {
  /** The process's main thread in /proc: its CPU, and whether it is still busy. */
  statPath: string;
  origin: string;
}

/**
 * autocannon stops sending at the deadline; requests the server already took are let finish before going on: the
 * server is done once its main thread's CPU stops moving (100 ms apart).
 */
async function drain(target: Listening, limitMs = 60_000): Promise<void> {
  const until = Date.now() + limitMs;
  let last = cpuMs(target.statPath);
  for (;;) {
    await new Promise((r) => setTimeout(r, 100));
    const now = cpuMs(target.statPath);
    if (now === last || Date.now() > until) return;
    last = now;
  }
}

/* CPU accounting from /proc (Linux): the server's main thread and, when local, the database server. */
const TICK_MS = 10; // USER_HZ is 100 on Linux
function cpuMs(statPath: string | null): number | null {
  if (!statPath) return null;
  try {
    const stat = fs.readFileSync(statPath, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
  } catch {
    return null;
  }
}
function databaseStatPath(): string | null {
  if (!/@(127\.0\.0\.1|localhost)[:/]/.test(DATABASE_URL)) return null;
  try {
    for (const pid of fs.readdirSync('/proc')) {
      if (!/^\d+$/.test(pid)) continue;
      const comm = fs.readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
      if (comm === 'mariadbd' || comm === 'mysqld') return `/proc/${pid}/stat`;
    }
  } catch {
    return null;
  }
  return null;
}

function shuffled<T>(list: T[]): T[] {
  const out = [...list];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

interface Figures {
  target: string;
  kind: 'baseline' | 'facade';
  /** `front`: the cheapest answer each server has (the facade's `/health`, the baseline's `/baseline/health`). */
  endpoint: 'list' | 'get' | 'front';
  url: string;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  completed: number;
  errors: number;
  timeouts: number;
  non2xx: number;
  statusCodes: Record<string, number>;
  /** CPU of the server's main thread (Express + app code) per completed request. */
  serverCpuMsPerRequest: number | null;
  /** CPU of the local database server per completed request. */
  databaseCpuMsPerRequest: number | null;
  /** Per-round figures behind the medians. */
  rounds?: { requestsPerSecond: number; p50Ms: number; p99Ms: number }[];
}

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};
const medianOrNull = (values: (number | null)[]): number | null =>
  values.some((v) => v === null) ? null : median(values as number[]);

/** One target's figures over the rounds: medians of rates, latencies and CPU; sums of counts. */
function medianFigures(all: Figures[], first: Figures): Figures {
  return {
    ...first,
    requestsPerSecond: median(all.map((f) => f.requestsPerSecond)),
    p50Ms: median(all.map((f) => f.p50Ms)),
    p99Ms: median(all.map((f) => f.p99Ms)),
    completed: all.reduce((n, f) => n + f.completed, 0),
    errors: all.reduce((n, f) => n + f.errors, 0),
    timeouts: all.reduce((n, f) => n + f.timeouts, 0),
    non2xx: all.reduce((n, f) => n + f.non2xx, 0),
    serverCpuMsPerRequest: medianOrNull(all.map((f) => f.serverCpuMsPerRequest)),
    databaseCpuMsPerRequest: medianOrNull(all.map((f) => f.databaseCpuMsPerRequest)),
    rounds: all.map((f) => ({ requestsPerSecond: f.requestsPerSecond, p50Ms: f.p50Ms, p99Ms: f.p99Ms })),
  };
}

async function measure(
  target: string,
  kind: Figures['kind'],
  endpoint: Figures['endpoint'],
  server: Listening,
  paths: string[],
  token: string,
  dbStat: string | null,
): Promise<Figures> {
  const origin = server.origin;
  const opts = {
    url: origin,
    connections: CONNECTIONS,
    workers: 1,
    headers: { authorization: `Bearer ${token}` },
    requests: paths.map((p) => ({ method: 'GET' as const, path: p })),
  };
  process.stdout.write(`  ${target.padEnd(24)} warm-up ${WARMUP} s, measuring ${DURATION} s... `);
  await cannon({ ...opts, duration: WARMUP });
  await drain(server);
  const stat = server.statPath;
  const cpu0 = cpuMs(stat);
  const db0 = cpuMs(dbStat);
  const r = await cannon({ ...opts, duration: DURATION });
  await drain(server);
  const cpu1 = cpuMs(stat);
  const db1 = cpuMs(dbStat);
  // CPU is divided by the requests autocannon saw completed (both servers are processes this one cannot count in).
  const answered = r.latency.totalCount;
  const perRequest = (a: number | null, b: number | null) => (a === null || b === null || !answered ? null : (b - a) / answered);
  const statusCodes = Object.fromEntries(Object.entries(r.statusCodeStats).map(([code, s]) => [code, s.count]));
  const figures: Figures = {
    target,
    kind,
    endpoint,
    url: `${origin}${paths[0]}`,
    requestsPerSecond: r.requests.average,
    p50Ms: r.latency.p50,
    p99Ms: r.latency.p99,
    completed: r.latency.totalCount,
    errors: r.errors,
    timeouts: r.timeouts,
    non2xx: r.non2xx,
    statusCodes,
    serverCpuMsPerRequest: perRequest(cpu0, cpu1),
    databaseCpuMsPerRequest: perRequest(db0, db1),
  };
  console.log(`${figures.requestsPerSecond.toFixed(0)} req/s`);
  return figures;
}

/** Facade and baseline answers must be the same document (origins and route prefixes aside). */
async function compareAnswers(facade: string, baseline: string, token: string, pathsFacade: string[], pathsBaseline: string[]) {
  const headers = { authorization: `Bearer ${token}` };
  for (let i = 0; i < pathsFacade.length; i++) {
    const [a, b] = await Promise.all([
      fetch(`${facade}${pathsFacade[i]}`, { headers }).then(async (r) => ({ status: r.status, text: await r.text() })),
      fetch(`${baseline}${pathsBaseline[i]}`, { headers }).then(async (r) => ({ status: r.status, text: await r.text() })),
    ]);
    const normalise = (s: string) => s.replaceAll(facade, 'ORIGIN').replaceAll(baseline, 'ORIGIN').replaceAll('/api/v1/reviews', '/R').replaceAll('/baseline/reviews', '/R');
    if (a.status !== 200 || b.status !== 200 || normalise(a.text) !== normalise(b.text)) {
      throw new Error(
        `Facade and baseline disagree on ${pathsFacade[i]}:\n  facade ${a.status} ${a.text.slice(0, 400)}\n  baseline ${b.status} ${b.text.slice(0, 400)}`,
      );
    }
  }
}

const fmt = (n: number, digits = 0) => n.toFixed(digits);

async function main(): Promise<void> {
  const started = Date.now();
  // The settings the API process runs with (this process's own config reads the same). Rate limits in memory, or
  // with BENCH_REDIS_URL in Redis, as a production installation of several API processes keeps them.
  const env = { DATABASE_URL, RATE_LIMIT_PER_MINUTE: '10000000', LOG_LEVEL: 'warn', REDIS_URL: process.env.BENCH_REDIS_URL ?? '' };
  const config = loadConfig({ ...process.env, ...env });
  const { sequelize, tenantId, token, tokenId } = await prepareDatabase(config);
  const pool = mysql.createPool({
    uri: config.DATABASE_URL,
    connectionLimit: config.DATABASE_POOL_MAX,
    timezone: 'Z',
    supportBigNumbers: true,
  });

  // The API in its own process against a dev server of this run; no worker process (nothing here is durable work).
  const engine = await startBenchTemporal(config, 27_937, env, { worker: false });
  const api = await startBenchApi(engine);
  const facade: Listening = { statPath: `/proc/${api.pid}/task/${api.pid}/stat`, origin: api.origin };
  const baselineProcess = await startBaseline(config);
  const baseline: Listening = { statPath: `/proc/${baselineProcess.pid}/task/${baselineProcess.pid}/stat`, origin: baselineProcess.origin };

  let exitCode = 0;
  try {
    const [idRows] = await pool.query<RowDataPacket[]>('SELECT id FROM reviews WHERE tenant_id = ? ORDER BY RAND() LIMIT ?', [tenantId, SAMPLE_IDS]);
    const ids = idRows.map((r) => r.id as number);
    const pages = shuffled(Array.from({ length: PAGES }, (_, i) => i + 1));

    await compareAnswers(
      facade.origin,
      baseline.origin,
      token,
      [`/api/v1/reviews?page=${pages[0]}`, `/api/v1/reviews/${ids[0]}`],
      [`/baseline/reviews?page=${pages[0]}`, `/baseline/reviews/${ids[0]}`],
    );

    console.log(
      [
        '',
        `Facade  : the real app (node dist/src/main.js, pid ${api.pid}) at ${facade.origin}/api/v1, RATE_LIMIT_PER_MINUTE=${config.RATE_LIMIT_PER_MINUTE} (configuration), ${config.REDIS_URL ? `rate limits in Redis (${config.REDIS_URL})` : 'in-memory rate-limit store'}, log level ${config.LOG_LEVEL}.`,
        `Baseline: a bare Express app in its own process (node dist/scripts/bench-baseline.js, pid ${baselineProcess.pid}) at ${baseline.origin}/baseline, mysql2 pool (${config.DATABASE_POOL_MAX} connections, as Sequelize's).`,
        `          It authenticates the bearer token with the equivalent SQL (one indexed lookup of the token hash joined to its user),`,
        `          then runs the same list + total from review_counts + integration/source lookup (list) or by-id + integration join (get), same JSON.`,
        `          Facade and baseline answers were checked identical before measuring.`,
        `Load    : autocannon in a worker thread, ${CONNECTIONS} connections, ${WARMUP} s warm-up + ${DURATION} s per target,`,
        `          pages 1..${PAGES} and ${ids.length} random review ids of ${REVIEW_COUNT.toLocaleString('en')}; tenant-owner customer token with every permission.`,
        '',
      ].join('\n'),
    );

    const dbStat = databaseStatPath();
    const listPaths = (prefix: string) => pages.map((p) => `${prefix}?page=${p}`);
    const getPaths = (prefix: string) => ids.map((id) => `${prefix}/${id}`);
    // BENCH_ONLY=list|get|front measures one endpoint (for profiling); all by default.
    const only = process.env.BENCH_ONLY;
    // Several rounds, baseline and facade alternating within each: this machine's speed drifts by tens of
    // percent from minute to minute, so each figure is the median over the rounds.
    const rounds: Figures[][] = [];
    for (let round = 1; round <= ROUNDS; round++) {
      console.log(`round ${round} of ${ROUNDS}`);
      const measured: Figures[] = [];
      if (!only || only === 'list') {
        measured.push(await measure('baseline list', 'baseline', 'list', baseline, listPaths('/baseline/reviews'), token, dbStat));
        measured.push(await measure('facade   list', 'facade', 'list', facade, listPaths('/api/v1/reviews'), token, dbStat));
      }
      if (!only || only === 'get') {
        measured.push(await measure('baseline get', 'baseline', 'get', baseline, getPaths('/baseline/reviews'), token, dbStat));
        measured.push(await measure('facade   get', 'facade', 'get', facade, getPaths('/api/v1/reviews'), token, dbStat));
      }
      // What every request pays before its route: the facade's middleware (metrics, security headers, request log,
      // routers) against bare Express, each answering its cheapest route, no database.
      if (!only || only === 'front') {
        measured.push(await measure('baseline front', 'baseline', 'front', baseline, ['/baseline/health'], token, dbStat));
        measured.push(await measure('facade   front', 'facade', 'front', facade, ['/health'], token, dbStat));
      }
      rounds.push(measured);
    }
    const results: Figures[] = rounds[0].map((first, i) => medianFigures(rounds.map((r) => r[i]), first));

    const rows: string[][] = [
      ['target', 'route', 'req/s', 'p50 ms', 'p99 ms', 'errors/non-2xx', 'ratio', `throughput >= ${TARGET_RATIO * 100}%`, 'p99 < 50 ms', 'node CPU ms/req', 'db CPU ms/req'],
    ];
    const cpuCell = (v: number | null) => (v === null ? 'n/a' : v.toFixed(2));
    const verdicts: Record<string, { ratio: number; throughputPass: boolean; p99Pass: boolean }> = {};
    for (const r of results) {
      const base = results.find((b) => b.kind === 'baseline' && b.endpoint === r.endpoint)!;
      const ratio = r.requestsPerSecond / base.requestsPerSecond;
      const route = {
        list: { facade: 'GET /api/v1/reviews?page=N', baseline: 'GET /baseline/reviews?page=N' },
        get: { facade: 'GET /api/v1/reviews/{id}', baseline: 'GET /baseline/reviews/{id}' },
        front: { facade: 'GET /health', baseline: 'GET /baseline/health' },
      }[r.endpoint][r.kind];
      let throughputCell = '-';
      let p99Cell = '-';
      // The front is what the routes' figures are made of, not a route with a target.
      if (r.kind === 'facade' && r.endpoint !== 'front') {
        const throughputPass = ratio >= TARGET_RATIO;
        const p99Pass = r.p99Ms < TARGET_P99_MS;
        verdicts[r.endpoint] = { ratio, throughputPass, p99Pass };
        throughputCell = throughputPass ? 'PASS' : 'MISS';
        p99Cell = p99Pass ? 'PASS' : 'MISS';
      }
      rows.push([
        r.target,
        route,
        fmt(r.requestsPerSecond),
        fmt(r.p50Ms),
        fmt(r.p99Ms),
        `${r.errors + r.timeouts}/${r.non2xx}`,
        r.kind === 'facade' ? `${(ratio * 100).toFixed(1)}%` : '(base)',
        throughputCell,
        p99Cell,
        cpuCell(r.serverCpuMsPerRequest),
        cpuCell(r.databaseCpuMsPerRequest),
      ]);
    }
    const widths = rows[0].map((_, i) => Math.max(...rows.map((row) => row[i].length)));
    const line = (row: string[]) => row.map((cell, i) => (i >= 2 && i !== 7 && i !== 8 ? cell.padStart(widths[i]) : cell.padEnd(widths[i]))).join('  ');
    console.log('');
    console.log(line(rows[0]));
    console.log(widths.map((w) => '-'.repeat(w)).join('  '));
    for (const row of rows.slice(1)) console.log(line(row));
    console.log('');
    console.log(
      `Targets: the facade's list and detail routes keep >= ${TARGET_RATIO * 100}% of the baseline's requests/s (issue 17) and p99 < ${TARGET_P99_MS} ms at ${CONNECTIONS} connections;`,
    );
    console.log(
      '"front" is no target: each server\'s cheapest answer (no database), what every request of that server pays before its route.',
    );
    console.log('"ratio" is facade requests/s divided by the baseline\'s for the same endpoint; errors = socket errors + timeouts.');
    console.log(
      '"node CPU" is the server\'s main thread (autocannon runs in a worker thread); "db CPU" the whole local MariaDB/MySQL process,',
    );
    console.log('so it includes any other client\'s load on that server during the run.');
    console.log(`${engine.processes.peakRssLine()}; this process (load generator): ${benchPeakRssMb()} MB.`);
    const [load1] = os.loadavg();
    const cores = os.cpus().length;
    console.log(`Machine: ${cores} CPUs, load average ${load1.toFixed(2)} at the end of the run${load1 > cores ? ' (busy: other processes competed for the CPUs, figures are noisy)' : ''}.`);

    const failed = results.filter((r) => r.errors + r.timeouts + r.non2xx > 0);
    if (failed.length) {
      for (const r of failed) console.error(`Requests failed on ${r.target}: status codes ${JSON.stringify(r.statusCodes)}, errors ${r.errors}, timeouts ${r.timeouts}.`);
      exitCode = 1;
    }

    const out = path.resolve(process.cwd(), 'data', 'bench-results.json');
    fs.mkdirSync(path.dirname(out), { recursive: true });
    fs.writeFileSync(
      out,
      JSON.stringify(
        {
          date: new Date().toISOString(),
          node: process.version,
          cpus: os.cpus().length,
          loadAverage: os.loadavg(),
          database: DATABASE_URL.replace(/\/\/[^@/]*@/, '//'),
          reviews: REVIEW_COUNT,
          connections: CONNECTIONS,
          warmupSeconds: WARMUP,
          durationSeconds: DURATION,
          poolMax: config.DATABASE_POOL_MAX,
          targets: { minThroughputRatio: TARGET_RATIO, maxP99Ms: TARGET_P99_MS },
          results,
          verdicts,
          peakRss: engine.processes.peakRss(),
          benchProcessPeakRssMb: benchPeakRssMb(),
        },
        null,
        2,
      ) + '\n',
    );
    console.log(`Results written to ${path.relative(process.cwd(), out)}; whole run ${((Date.now() - started) / 1000).toFixed(0)} s.`);
  } finally {
    await baselineProcess.stop();
    await engine.stop().catch(() => undefined);
    await ApiToken.destroy({ where: { id: tokenId } }).catch(() => undefined);
    await pool.end();
    await sequelize.close();
  }
  process.exitCode = exitCode;
}

main().catch((err) => {
  process.stderr.write(`Benchmark failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
