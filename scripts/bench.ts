/**
 * `npm run bench`: the customer REST facade against a bare mysql2 baseline, side by side, on loopback.
 *
 * - Database `reviewgrid_bench` (BENCH_DATABASE_URL overrides), created and migrated like the app's own,
 *   seeded once with the demo tenant and 100,000 reviews (reused when already there).
 * - The real app with RATE_LIMIT_PER_MINUTE raised through its configuration, in its own process as production runs
 *   it (`node dist/src/main.js`, WORKER_IN_PROCESS=false, against a Temporal dev server of this run; its peak RSS is
 *   printed), and a bare Express app in this process serving the baseline routes with hand-written SQL through mysql2.
 * - autocannon in a worker thread (so the load generator does not share the server's event loop),
 *   32 connections, warm-up then measured run per target, alternating baseline and facade.
 *
 * Environment: BENCH_ROUNDS (rounds, default 3; figures are medians), BENCH_DURATION (measured seconds per target
 * and round, default 6), BENCH_WARMUP (seconds, default 3),
 * BENCH_CONNECTIONS (default 32), BENCH_DATABASE_URL, BENCH_ONLY (list or get: measure one endpoint).
 */
import 'reflect-metadata';
import fs from 'node:fs';
import os from 'node:os';
import type { Server } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import express, { type Express, type Request, type Response } from 'express';
import mysql, { type Pool, type RowDataPacket } from 'mysql2/promise';
import { envelope, baseUrlOf } from '../facades/shared/pagination';
import { bearerOf } from '../facades/shared/auth';
import { openDatabase } from '../src/bootstrap';
import { loadConfig } from '../src/config';
import { dropDatabase, parseDatabaseUrl } from '../src/db/connection';
import { CUSTOMER_PERMISSIONS } from '../src/domain/permissions';
import { fileUrl, placeholderAvatarUrl, sourceLogoUrl } from '../src/graphql/urls';
import { ApiToken, Review, Tenant, User } from '../src/models';
import { hashToken, issueToken } from '../src/services/auth.service';
import { insertReviews, seedDemo } from '../src/services/demo.service';
import { benchPeakRssMb, startBenchApi, startBenchTemporal } from './bench-support';

const REVIEW_COUNT = 100_000;
const PAGES = 50;
const SAMPLE_IDS = 1000;
const TARGET_RATIO = 0.5;
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

/* ---------- baseline: a bare Express app, hand-written SQL through mysql2 ---------- */

interface Caller {
  tenantId: number;
}

interface ReviewRow extends RowDataPacket {
  id: number;
  organization_id: number;
  location_id: number;
  integration_id: number;
  author: string;
  published_at: Date;
  rating: number;
  title: string | null;
  message: string;
  avatar_file_id: string | null;
  avatar_url: string | null;
  reply: string | null;
  reply_date: Date | null;
  hidden: number;
  verified: number;
}

const REVIEW_COLUMNS = `r.id, r.tenant_id, r.organization_id, r.location_id, r.integration_id, r.author, r.published_at, r.rating,
  r.title, r.message, r.avatar_file_id, r.avatar_url, r.reply, r.reply_date, r.hidden, r.verified`;

/** The same REST shape as facades/rest/customer/mappers.ts `review()` over the GraphQL ReviewType. */
function reviewJson(r: ReviewRow, source: { name: string; slug: string | null } | undefined, baseUrl: string) {
  return {
    id: r.id,
    organization_id: r.organization_id,
    location_id: r.location_id,
    integration_id: r.integration_id,
    author: r.author,
    date: r.published_at.toISOString(),
    rating: r.rating,
    title: r.title,
    message: r.message,
    source: source?.name ?? '',
    source_logo: sourceLogoUrl(baseUrl, source?.slug ?? 'custom'),
    avatar: r.avatar_file_id ? fileUrl(baseUrl, r.avatar_file_id) : (r.avatar_url ?? placeholderAvatarUrl(baseUrl, r.author)),
    reply: r.reply,
    reply_date: r.reply_date ? r.reply_date.toISOString() : null,
    hidden: Boolean(r.hidden),
    verified: Boolean(r.verified),
  };
}

function baselineApp(pool: Pool): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('query parser', 'extended');

  /** One indexed lookup of the token hash (api_tokens_hash_unique) joined to its user, as the facade does. */
  async function authenticate(req: Request, res: Response): Promise<Caller | null> {
    const secret = bearerOf(req);
    if (secret) {
      const [rows] = await pool.execute<RowDataPacket[]>(
        `SELECT t.permissions, t.expires_at, t.revoked_at, u.tenant_id, u.role
           FROM api_tokens t JOIN users u ON u.id = t.user_id WHERE t.token_hash = ? LIMIT 1`,
        [hashToken(secret)],
      );
      const t = rows[0];
      if (t && !t.revoked_at && !(t.expires_at && (t.expires_at as Date).getTime() <= Date.now())) {
        const permissions = JSON.parse(t.permissions as string) as string[];
        if (!permissions.includes('reviews:read')) {
          res.status(403).json({ message: 'This action is unauthorized: the token lacks reviews:read.' });
          return null;
        }
        // The baseline implements the tenant-owner scope only (the bench token's).
        if (t.role !== 'tenant_owner') {
          res.status(403).json({ message: 'The baseline serves tenant-owner tokens only.' });
          return null;
        }
        return { tenantId: t.tenant_id as number };
      }
    }
    res.status(401).json({ message: 'Unauthenticated.' });
    return null;
  }

  async function sourcesOf(ids: number[]): Promise<Map<number, { name: string; slug: string | null }>> {
    const map = new Map<number, { name: string; slug: string | null }>();
    if (!ids.length) return map;
    const [rows] = await pool.query<RowDataPacket[]>(
      'SELECT i.id, i.name, s.slug FROM integrations i LEFT JOIN review_sources s ON s.id = i.source_id WHERE i.id IN (?)',
      [ids],
    );
    for (const row of rows) map.set(row.id as number, { name: row.name as string, slug: row.slug as string | null });
    return map;
  }

  app.get('/baseline/reviews', async (req, res) => {
    try {
      const caller = await authenticate(req, res);
      if (!caller) return;
      const page = req.query.page === undefined ? 1 : Number(req.query.page);
      if (!Number.isInteger(page) || page < 1) {
        res.status(422).json({ message: 'The page must be at least 1.', errors: { page: ['The page must be at least 1.'] } });
        return;
      }
      const perPage = 10;
      const [[items], [counted]] = await Promise.all([
        pool.execute<ReviewRow[]>(
          `SELECT ${REVIEW_COLUMNS} FROM reviews r WHERE r.tenant_id = ? ORDER BY r.published_at DESC, r.id DESC LIMIT 10 OFFSET ?`,
          [caller.tenantId, String((page - 1) * perPage)],
        ),
        pool.execute<RowDataPacket[]>('SELECT SUM(n) AS total FROM review_counts WHERE tenant_id = ?', [caller.tenantId]),
      ]);
      const sources = await sourcesOf([...new Set(items.map((r) => r.integration_id))]);
      const baseUrl = baseUrlOf(req);
      const pageResult = { items, total: Number(counted[0].total), page, perPage };
      res.json(envelope(req, pageResult, (r) => reviewJson(r, sources.get(r.integration_id), baseUrl)));
    } catch (err) {
      res.status(500).json({ message: 'Server Error', detail: String(err) });
    }
  });

  app.get('/baseline/reviews/:id', async (req, res) => {
    try {
      const caller = await authenticate(req, res);
      if (!caller) return;
      const id = /^\d{1,10}$/.test(req.params.id) ? Number(req.params.id) : 0;
      const [rows] = await pool.execute<(ReviewRow & { source_name: string | null; source_slug: string | null })[]>(
        `SELECT ${REVIEW_COLUMNS}, i.name AS source_name, s.slug AS source_slug
           FROM reviews r LEFT JOIN integrations i ON i.id = r.integration_id LEFT JOIN review_sources s ON s.id = i.source_id
          WHERE r.id = ?`,
        [id],
      );
      const r = rows[0];
      if (!r || r.tenant_id !== caller.tenantId) {
        res.status(404).json({ message: 'Review not found.' });
        return;
      }
      const source = r.source_name === null ? undefined : { name: r.source_name, slug: r.source_slug };
      res.json({ data: reviewJson(r, source, baseUrlOf(req)) });
    } catch (err) {
      res.status(500).json({ message: 'Server Error', detail: String(err) });
    }
  });
  return app;
}

/* ---------- running ---------- */

interface Listening {
  /** Null for the API process (`statPath` then reads its main thread, and autocannon's count stands for `answered`). */
  server: Server | null;
  statPath?: string;
  origin: string;
  inFlight: () => number;
  /** Responses the server has ended so far. */
  answered: () => number;
}

/** Listens on an ephemeral loopback port and counts requests still being answered. */
function listen(app: Express): Promise<Listening> {
  let inFlight = 0;
  let answered = 0;
  return new Promise((resolve, reject) => {
    const server = app.listen(0, '127.0.0.1', (err?: Error) => {
      if (err) return reject(err);
      const { port } = server.address() as AddressInfo;
      resolve({ server, origin: `http://127.0.0.1:${port}`, inFlight: () => inFlight, answered: () => answered });
    });
    // A request is done when its handler ends the response (even on a socket autocannon already closed).
    server.on('request', (_req, res) => {
      inFlight++;
      const end = res.end;
      let ended = false;
      res.end = function (this: typeof res, ...args: Parameters<typeof end>) {
        if (!ended) {
          ended = true;
          inFlight--;
          answered++;
        }
        return end.apply(this, args);
      } as typeof end;
    });
  });
}

/** autocannon stops sending at the deadline; requests the server already took are let finish before going on. */
async function drain(target: Listening, limitMs = 60_000): Promise<void> {
  const until = Date.now() + limitMs;
  if (!target.server) {
    // Another process: finished once its main thread's CPU stops moving (100 ms apart).
    let last = cpuMs(target.statPath!);
    for (;;) {
      await new Promise((r) => setTimeout(r, 100));
      const now = cpuMs(target.statPath!);
      if (now === last || Date.now() > until) return;
      last = now;
    }
  }
  while (target.inFlight() > 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 25));
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
const MAIN_THREAD_STAT = `/proc/self/task/${process.pid}/stat`;
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

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
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
  endpoint: 'list' | 'get';
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
  const stat = server.statPath ?? MAIN_THREAD_STAT;
  const cpu0 = cpuMs(stat);
  const db0 = cpuMs(dbStat);
  const answered0 = server.answered();
  const r = await cannon({ ...opts, duration: DURATION });
  await drain(server);
  const cpu1 = cpuMs(stat);
  const db1 = cpuMs(dbStat);
  // CPU is divided by what the server answered, including requests autocannon left behind at its deadline (for the
  // API process, which this process cannot count in, what autocannon saw completed).
  const answered = server.server ? server.answered() - answered0 : r.latency.totalCount;
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
  // The settings the API process runs with (this process's own config reads the same); no Redis: in-memory limits.
  const env = { DATABASE_URL, RATE_LIMIT_PER_MINUTE: '10000000', LOG_LEVEL: 'warn', REDIS_URL: '' };
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
  const facade: Listening = { server: null, statPath: `/proc/${api.pid}/task/${api.pid}/stat`, origin: api.origin, inFlight: () => 0, answered: () => 0 };
  const baseline = await listen(baselineApp(pool));

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
        `Facade  : the real app (node dist/src/main.js, pid ${api.pid}) at ${facade.origin}/api/v1, RATE_LIMIT_PER_MINUTE=${config.RATE_LIMIT_PER_MINUTE} (configuration), in-memory rate-limit store, log level ${config.LOG_LEVEL}.`,
        `Baseline: a bare Express app in the benchmark's process at ${baseline.origin}/baseline, mysql2 pool (${config.DATABASE_POOL_MAX} connections, as Sequelize's).`,
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
    // BENCH_ONLY=list|get measures one endpoint (for profiling); both by default.
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
      rounds.push(measured);
    }
    const results: Figures[] = rounds[0].map((first, i) => medianFigures(rounds.map((r) => r[i]), first));

    const rows: string[][] = [
      ['target', 'route', 'req/s', 'p50 ms', 'p99 ms', 'errors/non-2xx', 'ratio', 'throughput >= 50%', 'p99 < 50 ms', 'node CPU ms/req', 'db CPU ms/req'],
    ];
    const cpuCell = (v: number | null) => (v === null ? 'n/a' : v.toFixed(2));
    const verdicts: Record<string, { ratio: number; throughputPass: boolean; p99Pass: boolean }> = {};
    for (const r of results) {
      const base = results.find((b) => b.kind === 'baseline' && b.endpoint === r.endpoint)!;
      const ratio = r.requestsPerSecond / base.requestsPerSecond;
      const route =
        r.endpoint === 'list'
          ? r.kind === 'facade'
            ? 'GET /api/v1/reviews?page=N'
            : 'GET /baseline/reviews?page=N'
          : r.kind === 'facade'
            ? 'GET /api/v1/reviews/{id}'
            : 'GET /baseline/reviews/{id}';
      let throughputCell = '-';
      let p99Cell = '-';
      if (r.kind === 'facade') {
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
      `Targets: the facade keeps >= ${TARGET_RATIO * 100}% of the baseline's requests/s and p99 < ${TARGET_P99_MS} ms at ${CONNECTIONS} connections.`,
    );
    console.log('"ratio" is facade requests/s divided by the baseline\'s for the same endpoint; errors = socket errors + timeouts.');
    console.log(
      '"node CPU" is the server\'s main thread (autocannon runs in a worker thread); "db CPU" the whole local MariaDB/MySQL process,',
    );
    console.log('so it includes any other client\'s load on that server during the run.');
    console.log(`${engine.processes.peakRssLine()}; this process (baseline, load generator): ${benchPeakRssMb()} MB.`);
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
    await closeServer(baseline.server!);
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
