import 'reflect-metadata';
import fs from 'node:fs';
import type http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import express from 'express';
import { openDatabase } from '../src/bootstrap';
import { loadConfig } from '../src/config';
import { SimulatedMarket } from '../src/providers/ranking/simulator';
import { gridProviderSimulator } from '../src/providers/ranking/simulator-http';
import { Scan, ScanResult, ScanSnapshot, Tenant, User } from '../src/models';
import { issueToken } from '../src/services/auth.service';
import { seedDemo } from '../src/services/demo.service';
import { configureGridProviders } from '../src/services/grid-providers.service';
import { temporal } from '../workflows/client';
import { configureScanEngine, scanRunWorkflowId } from '../workflows/scans/client';
import { assertBenchDatabase, benchPeakRssMb, engineCeiling, markdownTable, pct, RSS_TARGET_MB, startBenchApi, startBenchTemporal } from './bench-support';

/**
 * `npm run bench:scans`: one Local Search Grid run of a 15 x 15 grid with 5 keywords (1,125 provider tasks) on a real
 * Temporal dev server (in memory) and worker, against a loopback server speaking DataForSEO's wire format (the
 * simulated market behind `gridProviderSimulator`, answering each task after BENCH_PROVIDER_DELAY_MS, default 200)
 * configured as the tenant's live ranking provider. Reports the run's wall time against the ideal for the configured
 * SCAN_CONCURRENCY and SCAN_PROVIDER_RATE_PER_SECOND, then the API latency of `GET /api/agency/v1/scans/{uuid}` and
 * `/data_points` on that snapshot next to baselines measured in the same run (`GET /health`, `GET /api/v1/reviews`).
 *
 * Environment: SCAN_CONCURRENCY, SCAN_PROVIDER_RATE_PER_SECOND (the app's own settings), BENCH_REQUESTS (per endpoint,
 * default 200), BENCH_PROVIDER_DELAY_MS (default 200), BENCH_DATABASE_URL (default `reviewgrid_bench_scans`).
 */
const GRID = 15;
const KEYWORDS = ['dentist', 'dental clinic', 'emergency dentist', 'teeth whitening', 'orthodontist'];
const CENTRE = { lat: 30.2672, lng: -97.7431 };
const DELAY_MS = Number(process.env.BENCH_PROVIDER_DELAY_MS ?? 200);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 200);
const WARMUP = 20;
const DATABASE_URL = process.env.BENCH_DATABASE_URL || 'mysql://root@127.0.0.1:3306/reviewgrid_bench_scans';
const DFS = { login: 'bench-login', password: 'bench-password', apiKey: 'bench-maps-key' };

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const s1 = (ms: number) => (ms / 1000).toFixed(1);

async function main(): Promise<void> {
  assertBenchDatabase(DATABASE_URL, '_scans');
  // The settings the API and worker processes run with (this process's own config reads the same).
  const env = { DATABASE_URL, RATE_LIMIT_PER_MINUTE: '10000000', AGENCY_RATE_LIMIT_PER_MINUTE: '10000000', LOG_LEVEL: 'warn' };
  const config = loadConfig({ ...process.env, ...env });
  const sequelize = await openDatabase(config);
  if (!(await Tenant.count())) await seedDemo({ reviews: 250, domain: 'bench-scans.localhost' });
  const tenant = (await Tenant.findOne({ order: [['id', 'ASC']] }))!;
  const owner = (await User.findOne({ where: { tenantId: tenant.id, role: 'tenant_owner' }, order: [['id', 'ASC']] }))!;
  const orgOwner = (await User.findOne({ where: { tenantId: tenant.id, role: 'organization_owner' }, order: [['id', 'ASC']] }))!;
  const agencyToken = await issueToken(owner, { name: 'bench scans', kind: 'agency', permissions: [] });
  const customerToken = await issueToken(orgOwner, { name: 'bench scans', kind: 'customer', permissions: ['reviews:read'] });

  // The provider: DataForSEO's wire format on loopback, every task answered after DELAY_MS; tasks are counted.
  const market = new SimulatedMarket();
  const seen = new Map<string, number>();
  const providerApp = express();
  providerApp.use(express.json({ limit: '1mb' }));
  providerApp.use((req, _res, next) => {
    const task = Array.isArray(req.body) ? (req.body[0] as { keyword?: string; location_coordinate?: string }) : undefined;
    if (task?.keyword) seen.set(`${task.keyword}|${task.location_coordinate}`, (seen.get(`${task.keyword}|${task.location_coordinate}`) ?? 0) + 1);
    next();
  });
  providerApp.use(gridProviderSimulator(market, { ...DFS, delayMs: DELAY_MS }));
  const provider = await new Promise<http.Server>((resolve) => {
    const s = providerApp.listen(0, '127.0.0.1', () => resolve(s));
  });
  const providerUrl = `http://127.0.0.1:${(provider.address() as AddressInfo).port}`;
  await configureGridProviders({
    tenantId: tenant.id,
    mode: 'live',
    dataforseoLogin: DFS.login,
    dataforseoPassword: DFS.password,
    googleMapsKey: DFS.apiKey,
    dataforseoBaseUrl: providerUrl,
    googleMapsBaseUrl: providerUrl,
  });

  const engine = await startBenchTemporal(config, 27_934, env);
  configureScanEngine({ concurrency: config.SCAN_CONCURRENCY });
  const api = await startBenchApi(engine);
  const agency = { authorization: `Bearer ${agencyToken.plainText}`, 'content-type': 'application/json' };
  const customer = { authorization: `Bearer ${customerToken.plainText}` };

  const tasks = GRID * GRID * KEYWORDS.length;
  const concurrencyBoundMs = (tasks * DELAY_MS) / config.SCAN_CONCURRENCY;
  const rateBoundMs = (tasks / config.SCAN_PROVIDER_RATE_PER_SECOND) * 1000;
  const idealMs = Math.max(concurrencyBoundMs, rateBoundMs);
  console.log(
    `${GRID} x ${GRID} grid, ${KEYWORDS.length} keywords: ${tasks} provider tasks at ${DELAY_MS} ms each, SCAN_CONCURRENCY=${config.SCAN_CONCURRENCY}, ` +
      `SCAN_PROVIDER_RATE_PER_SECOND=${config.SCAN_PROVIDER_RATE_PER_SECOND}, provider ${providerUrl}`,
  );

  // The run: POST /scans until the scan is idle again (its snapshot computed and scan-completed written).
  const t0 = Date.now();
  const created = await fetch(`${api.origin}/api/agency/v1/scans`, {
    method: 'POST',
    headers: agency,
    body: JSON.stringify({ location: 'Bench Dental', keywords: KEYWORDS, grid_size: GRID, distance: 5, distance_unit: 'km', ...CENTRE }),
  });
  if (created.status !== 202) throw new Error(`POST /scans answered ${created.status}: ${await created.text()}`);
  const uuid = ((await created.json()) as { data: { uuid: string } }).data.uuid;
  let scan = (await Scan.findOne({ where: { uuid } }))!;
  while (scan.isRunning) {
    if (Date.now() - t0 > 15 * 60_000) throw new Error('the run did not finish within 15 minutes');
    await sleep(100);
    scan = (await Scan.findOne({ where: { uuid } }))!;
  }
  const wallMs = Date.now() - t0;
  if (scan.lastRunFailed) throw new Error(`the run failed: ${scan.lastError}`);
  const snapshots = await ScanSnapshot.findAll({ where: { scanId: scan.id } });
  const stored = await ScanResult.count({ where: { snapshotId: snapshots.map((s) => s.id) } });
  if (stored !== tasks || snapshots.some((s) => s.status !== 'completed')) throw new Error(`expected ${tasks} results in completed snapshots, got ${stored}`);
  // The scan turns idle in the run's last activity; the workflow closes a moment later.
  const handle = temporal().client.workflow.getHandle(scanRunWorkflowId(uuid, snapshots[0].runId));
  await handle.result();
  const description = await handle.describe();
  const workflowMs = (description.closeTime?.getTime() ?? NaN) - description.startTime.getTime();
  const asked = [...seen.values()].reduce((a, b) => a + b, 0);
  // The engine's ceiling on the same server and worker: what one workflow per task would allow at most.
  const ceiling = await engineCeiling();
  const tasksPerSecond = tasks / (wallMs / 1000);

  // API latency on that snapshot: the targets take turns (one request each per round), so drift hits all alike.
  const targets: Array<{ name: string; url: string; headers: Record<string, string> }> = [
    { name: 'baseline: GET /health', url: `${api.origin}/health`, headers: {} },
    { name: 'baseline: GET /api/v1/reviews', url: `${api.origin}/api/v1/reviews`, headers: customer },
    { name: 'GET /api/agency/v1/scans/{uuid}', url: `${api.origin}/api/agency/v1/scans/${uuid}`, headers: agency },
    { name: 'GET /api/agency/v1/scans/{uuid}/data_points', url: `${api.origin}/api/agency/v1/scans/${uuid}/data_points`, headers: agency },
  ];
  const latencies = targets.map(() => [] as number[]);
  const bytes = targets.map(() => 0);
  for (let round = 0; round < WARMUP + REQUESTS; round++) {
    for (const [i, target] of targets.entries()) {
      const start = performance.now();
      const res = await fetch(target.url, { headers: target.headers });
      const body = await res.arrayBuffer();
      const ms = performance.now() - start;
      if (res.status !== 200) throw new Error(`${target.name} answered ${res.status}`);
      if (round >= WARMUP) latencies[i].push(ms);
      bytes[i] = body.byteLength;
    }
  }
  const stats = latencies.map((l) => {
    const sorted = [...l].sort((a, b) => a - b);
    return { p50: pct(sorted, 50), p99: pct(sorted, 99) };
  });
  const reviews = stats[1];

  const runRows = [
    ['measure', 'seconds', 'note'],
    ['bound by concurrency: tasks x delay / SCAN_CONCURRENCY', s1(concurrencyBoundMs), `${tasks} x ${DELAY_MS} ms / ${config.SCAN_CONCURRENCY}`],
    ['bound by rate: tasks / SCAN_PROVIDER_RATE_PER_SECOND', s1(rateBoundMs), `${tasks} / ${config.SCAN_PROVIDER_RATE_PER_SECOND} per s`],
    ['**ideal** = max of the two', `**${s1(idealMs)}**`, rateBoundMs >= concurrencyBoundMs ? 'the rate limit binds' : 'the concurrency binds'],
    ['wall time: POST /scans to idle with snapshot', `**${s1(wallMs)}**`, `**${(wallMs / idealMs).toFixed(2)} x ideal**`],
    ['workflow runScan start to close', s1(workflowMs), `${(workflowMs / idealMs).toFixed(2)} x ideal`],
    ['provider tasks received', String(asked), `${seen.size} distinct; ${stored} results stored`],
    ['engine ceiling: one-activity workflows per second', ceiling.toFixed(0), `the run's ${tasksPerSecond.toFixed(1)} tasks per second = ${(tasksPerSecond / ceiling).toFixed(2)} x the ceiling`],
    ['peak RSS of the API process, MB', String(engine.processes.peakRssMb('API')), `target < ${RSS_TARGET_MB}`],
    ['peak RSS of the worker process, MB', String(engine.processes.peakRssMb('worker')), `target < ${RSS_TARGET_MB}`],
  ];
  const apiRows = [
    ['endpoint', 'p50 ms', 'p99 ms', 'body KB', 'p50 / reviews p50', 'p99 / reviews p99'],
    ...targets.map((target, i) => [
      target.name,
      stats[i].p50.toFixed(1),
      stats[i].p99.toFixed(1),
      (bytes[i] / 1024).toFixed(1),
      (stats[i].p50 / reviews.p50).toFixed(2),
      (stats[i].p99 / reviews.p99).toFixed(2),
    ]),
  ];
  console.log('\n' + markdownTable(runRows));
  console.log(`\n${REQUESTS} sequential requests per endpoint (after ${WARMUP} warm-up), taking turns; the scan detail carries all ${tasks} pins (top_n 5), data_points its default page of 100.\n`);
  console.log(markdownTable(apiRows));
  console.log(`\n${engine.processes.peakRssLine()}; this process (load generator, provider): ${benchPeakRssMb()} MB.`);

  const out = path.join(config.DATA_DIR, 'bench-scans-results.json');
  fs.mkdirSync(config.DATA_DIR, { recursive: true });
  fs.writeFileSync(
    out,
    JSON.stringify(
      {
        at: new Date().toISOString(),
        tasks,
        delayMs: DELAY_MS,
        concurrency: config.SCAN_CONCURRENCY,
        ratePerSecond: config.SCAN_PROVIDER_RATE_PER_SECOND,
        concurrencyBoundMs,
        rateBoundMs,
        idealMs,
        wallMs,
        workflowMs,
        providerTasks: asked,
        engineCeilingPerSecond: ceiling,
        tasksPerSecond,
        peakRss: engine.processes.peakRss(),
        benchProcessPeakRssMb: benchPeakRssMb(),
        api: targets.map((target, i) => ({ name: target.name, ...stats[i], bytes: bytes[i] })),
      },
      null,
      2,
    ),
  );
  console.log(`\nResults written to ${path.relative(process.cwd(), out)}`);

  await agencyToken.token.destroy();
  await customerToken.token.destroy();
  await api.stop();
  await engine.stop();
  await new Promise((r) => provider.close(r));
  await sequelize.close();
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
