import 'reflect-metadata';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { QueryTypes } from 'sequelize';
import { openDatabase } from '../src/bootstrap';
import { loadConfig } from '../src/config';
import { Review, Tenant, User } from '../src/models';
import { issueToken } from '../src/services/auth.service';
import { insertReviews, seedDemo } from '../src/services/demo.service';
import { alignedTable, assertBenchDatabase, benchPeakRssMb, markdownTable, processCpuMs, startBenchApi, startBenchTemporal, untilQuiet } from './bench-support';

/**
 * `npm run bench:mcp`: the MCP endpoint against the customer REST API on the same data, in the same run, through
 * the same app: `tools/call list_reviews` against `GET /api/v1/reviews?page=N` (pages 1-50, 10 per page) and
 * `tools/call get_review` against `GET /api/v1/reviews/{id}` (500 random ids), at BENCH_CONNECTIONS (32)
 * connections with autocannon in a worker thread. MCP runs twice side by side: as a 2025-06-18 client calls it (plain
 * JSON-RPC, the SDK's Streamable HTTP transport) and as a 2026-07-28 client does (the per-request `_meta` envelope and
 * the MCP-Protocol-Version / Mcp-Method / Mcp-Name headers, the SDK's createMcpHandler). Both run the same GraphQL
 * operation as REST underneath; MCP adds the SDK's server per request, its JSON-RPC envelope, argument validation
 * (Ajv), the two limit counters, the text copy of the result and the audit log (batched inserts). REST and MCP
 * alternate within each round; figures are medians over the rounds.
 * Environment: BENCH_ROUNDS (2), BENCH_DURATION (6 s), BENCH_WARMUP (2 s), BENCH_CONNECTIONS (32),
 * BENCH_REVIEWS (20000), BENCH_DATABASE_URL (a database whose name ends in _bench_mcp), BENCH_TARGETS (a subset of the
 * targets by name, comma-separated substrings: "get_review,{id}" for the detail route only; the ratios need REST in it).
 */
const num = (value: string | undefined, fallback: number): number => {
  const n = Number(value);
  return value && Number.isFinite(n) && n > 0 ? n : fallback;
};
const ROUNDS = Math.round(num(process.env.BENCH_ROUNDS, 2));
const DURATION = num(process.env.BENCH_DURATION, 6);
const WARMUP = num(process.env.BENCH_WARMUP, 2);
const CONNECTIONS = Math.round(num(process.env.BENCH_CONNECTIONS, 32));
const REVIEWS = Math.round(num(process.env.BENCH_REVIEWS, 20_000));
const DATABASE_URL = process.env.BENCH_DATABASE_URL || 'mysql://root@127.0.0.1:3306/reviewgrid_bench_mcp';
const PAGES = 50;
const PER_PAGE = 10;
const SAMPLE_IDS = 500;

interface CannonRequest {
  method: 'GET' | 'POST';
  path: string;
  body?: string;
  headers?: Record<string, string>;
}
interface CannonResult {
  errors: number;
  timeouts: number;
  non2xx: number;
  latency: { p50: number; p99: number; totalCount: number };
  requests: { average: number };
}
type Autocannon = (
  opts: { url: string; connections: number; duration: number; workers?: number; headers?: Record<string, string>; requests: CannonRequest[] },
  cb: (err: Error | null, result: CannonResult) => void,
) => unknown;
const autocannon = createRequire(__filename)('autocannon') as Autocannon;

type Era = '2025-06-18' | '2026-07-28';

interface Target {
  name: string;
  endpoint: 'list' | 'get';
  kind: 'rest' | Era;
  token: string;
  requests: CannonRequest[];
}
interface Figures {
  requestsPerSecond: number;
  /** CPU (user + system, every thread) of the API process per answered request: steadier than req/s on a shared machine. */
  apiCpuMsPerRequest: number | null;
  p50Ms: number;
  p99Ms: number;
  completed: number;
  failed: number;
}

const median = (values: number[]): number => {
  const s = [...values].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
};

/** Requests autocannon gave up on are let finish before the next target: the API is done once its CPU stops moving. */
async function settle(pid: number): Promise<number | null> {
  await untilQuiet(pid, { share: 0, windowMs: 100 });
  return processCpuMs(pid);
}

async function measure(origin: string, apiPid: number, target: Target, duration: number): Promise<Figures> {
  const before = await settle(apiPid);
  const figures = await run(origin, target, duration);
  const after = await settle(apiPid);
  figures.apiCpuMsPerRequest = before === null || after === null || !figures.completed ? null : (after - before) / figures.completed;
  return figures;
}

function run(origin: string, target: Target, duration: number): Promise<Figures> {
  return new Promise((resolve, reject) => {
    autocannon(
      { url: origin, connections: CONNECTIONS, duration, workers: 1, headers: { authorization: `Bearer ${target.token}` }, requests: target.requests },
      (err, r) =>
        err
          ? reject(err)
          : resolve({ requestsPerSecond: r.requests.average, apiCpuMsPerRequest: null, p50Ms: r.latency.p50, p99Ms: r.latency.p99, completed: r.latency.totalCount, failed: r.errors + r.timeouts + r.non2xx }),
    );
  });
}

/** A tools/call as a client of that protocol revision sends it (2026-07-28: envelope in `_meta` and its headers). */
const mcpCall = (name: string, args: object, id: number, era: Era): CannonRequest => {
  const modern = era === '2026-07-28';
  const _meta = { 'io.modelcontextprotocol/protocolVersion': era, 'io.modelcontextprotocol/clientInfo': { name: 'bench', version: '1' }, 'io.modelcontextprotocol/clientCapabilities': {} };
  return {
    method: 'POST',
    path: '/api/mcp',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': era,
      ...(modern ? { 'mcp-method': 'tools/call', 'mcp-name': name } : {}),
    },
    body: JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args, ...(modern ? { _meta } : {}) } }),
  };
};
const ERAS: Era[] = ['2025-06-18', '2026-07-28'];

async function main(): Promise<void> {
  assertBenchDatabase(DATABASE_URL, '_bench_mcp');
  // The settings the API process runs with (this process's own config reads the same).
  const env = {
    DATABASE_URL,
    LOG_LEVEL: 'warn',
    // Raised through configuration, not switched off: both paths still count every request.
    RATE_LIMIT_PER_MINUTE: '100000000',
    MCP_RATE_LIMIT_PER_TOKEN: '100000000',
    MCP_RATE_LIMIT_PER_WORKSPACE: '100000000',
  };
  const config = loadConfig({ ...process.env, ...env });
  const sequelize = await openDatabase(config);
  let tenant = await Tenant.findOne({ order: [['id', 'ASC']] });
  if (!tenant) {
    process.stdout.write(`Seeding ${DATABASE_URL} with the demo tenant and ${REVIEWS.toLocaleString('en')} reviews... `);
    tenant = (await seedDemo({ reviews: 0, domain: 'bench-mcp.localhost' })).tenant;
    await insertReviews(tenant.id, REVIEWS);
    console.log('done.');
  }
  const owner = (await User.findOne({ where: { tenantId: tenant.id, role: 'tenant_owner' }, order: [['id', 'ASC']] }))!;
  const rest = await issueToken(owner, { name: 'bench-mcp rest', kind: 'customer', permissions: ['reviews:read'] });
  const ai = await issueToken(owner, { name: 'bench-mcp ai', kind: 'ai', permissions: ['mcp:access', 'reviews:read'] });
  const reviewCount = await Review.count({ where: { tenantId: tenant.id } });
  const ids = (
    await sequelize.query<{ id: number }>('SELECT id FROM reviews WHERE tenant_id = ? ORDER BY RAND() LIMIT ?', {
      replacements: [tenant.id, SAMPLE_IDS],
      type: QueryTypes.SELECT,
    })
  ).map((r) => r.id);
  const pages = Array.from({ length: PAGES }, (_, i) => i + 1);

  // The API in its own process (`node dist/src/main.js`, as production runs it) against a dev server of this run; no
  // worker process: nothing here is durable work.
  const engine = await startBenchTemporal(config, 27_936, env, { worker: false });
  const api = await startBenchApi(engine);
  const origin = api.origin;
  try {
    // Same data both ways before measuring: the MCP structured result is the REST page's `data`.
    const restPage = (await (await fetch(`${origin}/api/v1/reviews?page=3&per_page=${PER_PAGE}`, { headers: { authorization: `Bearer ${rest.plainText}` } })).json()) as { data: unknown[] };
    for (const era of ERAS) {
      const call = mcpCall('list_reviews', { page: 3, per_page: PER_PAGE }, 1, era);
      const mcpPage = (await (await fetch(`${origin}/api/mcp`, { method: 'POST', headers: { ...call.headers, authorization: `Bearer ${ai.plainText}` }, body: call.body })).json()) as {
        result: { structuredContent: { data: unknown[] } };
      };
      if (JSON.stringify(restPage.data) !== JSON.stringify(mcpPage.result.structuredContent.data)) throw new Error(`REST and MCP ${era} disagree on page 3 of the reviews.`);
    }

    const targets: Target[] = [
      { name: 'REST GET /api/v1/reviews', endpoint: 'list', kind: 'rest', token: rest.plainText, requests: pages.map((p) => ({ method: 'GET', path: `/api/v1/reviews?page=${p}&per_page=${PER_PAGE}` })) },
      ...ERAS.map((era): Target => ({
        name: `MCP ${era} list_reviews`,
        endpoint: 'list',
        kind: era,
        token: ai.plainText,
        requests: pages.map((p, i) => mcpCall('list_reviews', { page: p, per_page: PER_PAGE }, i + 1, era)),
      })),
      { name: 'REST GET /api/v1/reviews/{id}', endpoint: 'get', kind: 'rest', token: rest.plainText, requests: ids.map((id) => ({ method: 'GET', path: `/api/v1/reviews/${id}` })) },
      ...ERAS.map((era): Target => ({ name: `MCP ${era} get_review`, endpoint: 'get', kind: era, token: ai.plainText, requests: ids.map((id, i) => mcpCall('get_review', { review_id: id }, i + 1, era)) })),
    ];
    // BENCH_TARGETS: a comma-separated subset of target names (substring match), e.g. "get" or "2026-07-28,REST".
    const only = process.env.BENCH_TARGETS?.split(',').map((s) => s.trim()).filter(Boolean);
    if (only?.length) targets.splice(0, targets.length, ...targets.filter((t) => only.some((o) => t.name.includes(o))));
    console.log(`\n${reviewCount.toLocaleString('en')} reviews; ${CONNECTIONS} connections; ${ROUNDS} round(s) of ${WARMUP} s warm-up + ${DURATION} s per target, REST and MCP alternating.`);
    const rounds = new Map<string, Figures[]>(targets.map((t) => [t.name, []]));
    for (let round = 1; round <= ROUNDS; round++) {
      console.log(`Round ${round}`);
      for (const t of targets) {
        process.stdout.write(`  ${t.name.padEnd(36)} `);
        await run(origin, t, WARMUP);
        const f = await measure(origin, api.pid, t, DURATION);
        if (f.failed) throw new Error(`${t.name}: ${f.failed} failed requests`);
        rounds.get(t.name)!.push(f);
        console.log(`${f.requestsPerSecond.toFixed(0)} req/s, p99 ${f.p99Ms} ms, API CPU ${f.apiCpuMsPerRequest?.toFixed(2) ?? 'n/a'} ms/req`);
      }
    }
    const figures = targets.map((t) => {
      const all = rounds.get(t.name)!;
      const cpu = all.flatMap((f) => (f.apiCpuMsPerRequest === null ? [] : [f.apiCpuMsPerRequest]));
      return { ...t, requestsPerSecond: median(all.map((f) => f.requestsPerSecond)), apiCpuMsPerRequest: cpu.length ? median(cpu) : null, p50Ms: median(all.map((f) => f.p50Ms)), p99Ms: median(all.map((f) => f.p99Ms)) };
    });
    const ratio = (f: (typeof figures)[number]) => {
      const r = figures.find((x) => x.endpoint === f.endpoint && x.kind === 'rest');
      return r ? `${((f.requestsPerSecond / r.requestsPerSecond) * 100).toFixed(1)} %` : '-';
    };
    // The same ratio by CPU: REST's API CPU per request over MCP's (100 % = an MCP call costs the API what a REST request does).
    const cpuRatio = (f: (typeof figures)[number]) => {
      const r = figures.find((x) => x.endpoint === f.endpoint && x.kind === 'rest');
      return r?.apiCpuMsPerRequest && f.apiCpuMsPerRequest ? `${((r.apiCpuMsPerRequest / f.apiCpuMsPerRequest) * 100).toFixed(1)} %` : '-';
    };
    const cpuCell = (v: number | null) => (v === null ? 'n/a' : v.toFixed(2));
    const rows = [
      ['target', 'req/s', 'p50 ms', 'p99 ms', 'API CPU ms/req', 'MCP / REST (req/s)', 'MCP / REST (CPU)'],
      ...figures.map((f) => [f.name, f.requestsPerSecond.toFixed(0), String(f.p50Ms), String(f.p99Ms), cpuCell(f.apiCpuMsPerRequest), f.kind === 'rest' ? '' : ratio(f), f.kind === 'rest' ? '' : cpuRatio(f)]),
    ];
    console.log(`\n${alignedTable(rows)}\n\n${markdownTable(rows)}`);
    console.log(`\n${engine.processes.peakRssLine()}; this process (load generator): ${benchPeakRssMb()} MB.`);
    const out = path.join(config.DATA_DIR, 'bench-mcp-results.json');
    fs.mkdirSync(config.DATA_DIR, { recursive: true });
    fs.writeFileSync(out, JSON.stringify({ at: new Date().toISOString(), connections: CONNECTIONS, rounds: ROUNDS, duration: DURATION, reviews: reviewCount, figures: figures.map(({ requests: _r, token: _t, ...f }) => ({ ...f, rounds: rounds.get(f.name) })), peakRss: engine.processes.peakRss(), benchProcessPeakRssMb: benchPeakRssMb() }, null, 2));
    console.log(`\nResults written to ${path.relative(process.cwd(), out)}`);
  } finally {
    await api.stop();
    await engine.stop();
    await rest.token.destroy();
    await ai.token.destroy();
    await sequelize.close();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
