import 'reflect-metadata';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import fs from 'node:fs';
import path from 'node:path';
import { openDatabase } from '../src/bootstrap';
import { loadConfig } from '../src/config';
import { Integration, Tenant, User } from '../src/models';
import { issueToken } from '../src/services/auth.service';
import { seedDemo } from '../src/services/demo.service';
import { signatureHeaders } from '../src/webhooks/signing';
import { WEBHOOK_USER_AGENT } from '../workflows/activities';
import { ensureDispatcher } from '../workflows/client';
import { alignedTable, assertBenchDatabase, latencySummary as summary, pool, startBenchApi, startBenchTemporal } from './bench-support';

/**
 * `npm run bench:webhooks`: 1,000 review changes through REST, each delivered as a signed webhook by the
 * outbox dispatcher and a delivery workflow on a real Temporal dev server, to a receiver on loopback.
 * Latency runs from the event's commit time (the payload's `updated_at`, written in the same transaction)
 * to the receiver's arrival. Baseline: the same receiver, posted the same signed bodies directly in a loop
 * with the same concurrency. Environment: BENCH_CHANGES (default 1000), BENCH_CONCURRENCY (default 8).
 */
const CHANGES = Number(process.env.BENCH_CHANGES ?? 1000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 8);
const DATABASE_URL = process.env.BENCH_DATABASE_URL || 'mysql://root@127.0.0.1:3306/reviewgrid_bench_webhooks';

async function main(): Promise<void> {
  assertBenchDatabase(DATABASE_URL, '_webhooks');
  process.env.WEBHOOK_ALLOW_PRIVATE_URLS = 'true';
  const config = loadConfig({ ...process.env, DATABASE_URL, RATE_LIMIT_PER_MINUTE: '10000000', LOG_LEVEL: 'warn', WEBHOOK_ALLOW_PRIVATE_URLS: 'true', OUTBOX_POLL_MS: '1000' });
  const sequelize = await openDatabase(config);
  if (!(await Tenant.count())) await seedDemo({ reviews: 0, domain: 'bench-webhooks.localhost' });
  const owner = (await User.findOne({ where: { role: 'organization_owner' }, order: [['id', 'ASC']] }))!;
  const { token, plainText } = await issueToken(owner, { name: 'bench', kind: 'customer', permissions: ['reviews:read', 'reviews:create', 'organizations:read', 'organizations:update'] });
  const source = (await Integration.findOne({ where: { customerId: owner.customerId!, type: 'testimonials' }, order: [['id', 'ASC']] }))!;

  const engine = await startBenchTemporal(config, 27_933);
  await ensureDispatcher();

  // The receiver: records when each webhook arrives.
  const arrivals = new Map<string, { at: number; body: string }>();
  const receiver = http.createServer((req, res) => {
    let body = '';
    req.on('data', (d) => (body += d));
    req.on('end', () => {
      arrivals.set(String(req.headers['webhook-id']), { at: Date.now(), body });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  const receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;

  const apiServer = await startBenchApi(config);
  const api = `${apiServer.origin}/api/v1`;
  const headers = { authorization: `Bearer ${plainText}`, 'content-type': 'application/json' };
  const hook = await (await fetch(`${api}/webhooks`, { method: 'POST', headers, body: JSON.stringify({ url: receiverUrl }) })).json() as { data: { id: number; secret: string } };

  console.log(`${CHANGES} review changes through REST at concurrency ${CONCURRENCY}, delivered through Temporal to ${receiverUrl}`);
  const started = Date.now();
  await pool(Array.from({ length: CHANGES }, (_, i) => i), CONCURRENCY, async (i) => {
    const res = await fetch(`${api}/reviews`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ author: `Bench ${i}`, rating: 1 + (i % 5), published_on: '2026-11-01', organization_id: source.organizationId, location_id: source.locationId, source: source.id }),
    });
    if (res.status !== 201) throw new Error(`create answered ${res.status}: ${await res.text()}`);
  });
  const committedIn = (Date.now() - started) / 1000;
  const deadline = Date.now() + 180_000;
  while (arrivals.size < CHANGES && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  const arrived = [...arrivals.values()];
  const latencies = arrived.map((a) => a.at - Date.parse(JSON.parse(a.body).updated_at as string));
  const firstToLast = (Math.max(...arrived.map((a) => a.at)) - started) / 1000;
  const viaTemporal = summary(latencies, firstToLast);

  // Baseline: the same receiver, the same bodies, signed and posted directly.
  const bodies = arrived.map((a) => a.body);
  const direct: number[] = [];
  const baseStarted = Date.now();
  await pool(bodies.map((b, i) => [b, i] as const), CONCURRENCY, async ([body, i]) => {
    const t0 = Date.now();
    const res = await fetch(receiverUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'user-agent': WEBHOOK_USER_AGENT, ...signatureHeaders({ id: `baseline-${i}`, timestamp: new Date(), body, secrets: [hook.data.secret] }) },
      body,
    });
    await res.arrayBuffer();
    direct.push(Date.now() - t0);
  });
  const baseline = summary(direct, (Date.now() - baseStarted) / 1000);

  const rows = [
    ['path', 'delivered', 'p50 ms', 'p99 ms', 'deliveries/s'],
    ['outbox + Temporal (commit -> arrival)', `${viaTemporal.count}/${CHANGES}`, String(viaTemporal.p50Ms), String(viaTemporal.p99Ms), viaTemporal.perSecond.toFixed(0)],
    ['baseline: direct POST loop', `${baseline.count}/${bodies.length}`, String(baseline.p50Ms), String(baseline.p99Ms), baseline.perSecond.toFixed(0)],
  ];
  console.log('');
  console.log(alignedTable(rows));
  console.log(`\nREST changes committed in ${committedIn.toFixed(1)} s; Temporal throughput ${(viaTemporal.perSecond / baseline.perSecond * 100).toFixed(1)} % of the direct loop.`);
  const out = path.join(config.DATA_DIR, 'bench-webhooks-results.json');
  fs.mkdirSync(config.DATA_DIR, { recursive: true });
  fs.writeFileSync(out, JSON.stringify({ at: new Date().toISOString(), changes: CHANGES, concurrency: CONCURRENCY, viaTemporal, baseline }, null, 2));
  console.log(`Results written to ${path.relative(process.cwd(), out)}`);

  await fetch(`${api}/webhooks/${hook.data.id}`, { method: 'DELETE', headers });
  await token.destroy();
  await apiServer.stop();
  receiver.close();
  await engine.stop();
  await sequelize.close();
  if (viaTemporal.count < CHANGES) process.exitCode = 1;
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
