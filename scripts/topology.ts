import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import mysql from 'mysql2/promise';
import { Webhook } from 'standardwebhooks';
import { buildImage, composeConfig, ensureBinaries, localPort, ROOT, sleep, Topology } from './topology/services';

/**
 * `npm run topology`: the production topology of docker-compose.yml, run as local processes (no Docker engine on
 * our machines): a real Temporal server built from go.temporal.io/server on PostgreSQL with its schema applied by
 * Temporal's SQL tool, Mailpit, MariaDB, Redis, the migrate job, one API and two workers on Node 24. Then a smoke
 * scenario through the public APIs, and a fault test: one worker SIGKILLed, then the API, then the Temporal server,
 * each in the middle of a burst of 300 webhook events, and every accepted event delivered.
 * TOPOLOGY_KEEP=1 leaves everything running (Ctrl+C stops it) and keeps the databases.
 */

const WORKERS = Number(process.env.TOPOLOGY_WORKERS ?? 2);
const BURST = Number(process.env.TOPOLOGY_BURST ?? 300);
const say = (line: string) => process.stdout.write(`[topology ${new Date().toISOString().slice(11, 19)}] ${line}\n`);

async function main(): Promise<void> {
  const started = Date.now();
  const bins = ensureBinaries();
  say(`binaries: ${Object.values(bins).map((p) => path.basename(p)).join(', ')} (node ${execFileSync(bins.NODE24_BIN, ['--version']).toString().trim()})`);
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'reviewgrid-topology-'));

  // `.env` as a new operator writes it (scripts/init-env.sh), plus what this machine needs: its own database names
  // (the machine's servers are shared), loopback receivers allowed, and no per-token limit in the way of the burst.
  const envFile = path.join(workDir, '.env');
  execFileSync('bash', [path.join(ROOT, 'scripts', 'init-env.sh'), envFile], { stdio: 'inherit' });
  fs.appendFileSync(
    envFile,
    [
      'MARIADB_DATABASE=reviewgrid_topology',
      'TEMPORAL_DBNAME=reviewgrid_topology_temporal',
      'TEMPORAL_VISIBILITY_DBNAME=reviewgrid_topology_visibility',
      'WEBHOOK_ALLOW_PRIVATE_URLS=true',
      `PUBLIC_URL=http://127.0.0.1:${localPort('api', 3000)}`,
      'RATE_LIMIT_PER_MINUTE=100000',
      // The request log on (info): step 8 searches every process's log for the secrets the run handled.
      'LOG_LEVEL=info',
      '',
    ].join('\n'),
  );
  const compose = composeConfig(envFile);
  const appDir = buildImage(workDir, bins, say);
  const topo = new Topology(compose, bins, workDir, { worker: WORKERS }, say, appDir);
  for (const name of topo.serviceNames) {
    const why = topo.skipped(name);
    if (why) say(`${name}: skipped (${why})`);
  }

  let ok = false;
  let interrupted = false;
  for (const sig of ['SIGINT', 'SIGTERM'] as const) process.once(sig, () => (interrupted = true));
  try {
    await topo.up();
    await topo.waitHealthy('api');
    for (let r = 1; r <= WORKERS; r += 1) await topo.waitHealthy('worker', r);
    say(`up in ${((Date.now() - started) / 1000).toFixed(0)} s: api and ${WORKERS} workers ready (compose healthchecks pass)`);
    await smoke(topo);
    await faults(topo);
    secretsSweep(envFile, path.join(workDir, 'logs'));
    ok = true;
    say(`passed in ${((Date.now() - started) / 1000).toFixed(0)} s; logs in ${workDir}/logs`);
  } catch (err) {
    say(`FAILED: ${err instanceof Error ? err.message : String(err)}`);
    for (const [name, list] of topo.running) for (const e of list) process.stdout.write(`\n--- ${name}-${e.replica} (last lines) ---\n${topo.tail(name, e.replica, 25)}\n`);
  } finally {
    if (process.env.TOPOLOGY_KEEP === '1' && !interrupted) {
      say('TOPOLOGY_KEEP=1: services keep running; Ctrl+C stops them');
      await new Promise<void>((resolve) => process.once('SIGINT', () => resolve()));
    }
    await topo.down();
    if (process.env.TOPOLOGY_KEEP !== '1') await dropDatabases(topo);
  }
  process.exit(ok ? 0 : 1);
}

const API = () => `http://127.0.0.1:${localPort('api', 3000)}`;
const MAILPIT = () => `http://127.0.0.1:${localPort('mailpit', 8025)}`;

interface Tokens {
  customer: string;
  agency: string;
  tenantDomain: string;
}
let tokens: Tokens;
/** Every secret the run handled, by name: step 8 finds none of them in any log. */
const handled: Record<string, string> = {};
let ownerAccount = 0;
let orgId = 0;
let locationId = 0;
let sourceId = 0;

async function api<T = Record<string, unknown>>(method: string, p: string, body?: unknown, opts: { token?: string; form?: boolean; expect?: number } = {}): Promise<{ status: number; body: T }> {
  const headers: Record<string, string> = { Authorization: `Bearer ${opts.token ?? tokens.customer}`, Accept: 'application/json' };
  let payload: string | undefined;
  if (body !== undefined) {
    headers['Content-Type'] = 'application/json';
    payload = JSON.stringify(body);
  }
  const res = await fetch(`${API()}${p}`, { method, headers, body: payload });
  const text = await res.text();
  const parsed = (text ? JSON.parse(text) : null) as T;
  if (opts.expect !== undefined && res.status !== opts.expect) throw new Error(`${method} ${p}: expected ${opts.expect}, got ${res.status} ${text.slice(0, 300)}`);
  return { status: res.status, body: parsed };
}

async function until<T>(what: string, fn: () => Promise<T | null | undefined | false>, timeoutMs = 120_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn().catch(() => null);
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(500);
  }
}

/** A webhook receiver on loopback that verifies every signature and records review ids. */
async function startReceiver() {
  const bodies: Array<Record<string, unknown>> = [];
  let secret = '';
  let badSignatures = 0;
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (d) => (body += d));
    req.on('end', () => {
      try {
        new Webhook(secret).verify(body, req.headers as Record<string, string>);
        bodies.push(JSON.parse(body));
      } catch {
        badSignatures += 1;
      }
      res.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    bodies,
    setSecret: (s: string) => (secret = s),
    badSignatures: () => badSignatures,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
let receiver: Awaited<ReturnType<typeof startReceiver>>;

async function smoke(topo: Topology): Promise<void> {
  // 1. The first agency, as the README's production section says (`docker compose run --rm api reviewgrid ...`).
  const domain = 'reviews.topology.test';
  const out = await topo.runIn('api', ['reviewgrid', '--json', 'tenant:create', '--name', 'Topology Agency', '--domain', domain, '--owner-email', 'owner@topology.test', '--issue-tokens']);
  const created = JSON.parse(out.trim().split('\n').pop()!) as { owner?: { customer_id?: number }; tokens?: Array<{ kind: string; token: string }> };
  const find = (kind: string) => created.tokens?.find((t) => t.kind === kind)?.token;
  ownerAccount = created.owner?.customer_id ?? 0;
  if (!find('customer') || !find('agency')) throw new Error(`tenant:create printed no tokens: ${out}`);
  tokens = { customer: find('customer')!, agency: find('agency')!, tenantDomain: domain };
  await topo.runIn('api', ['reviewgrid', 'grid:configure', '--tenant', domain, '--mode', 'simulator']);
  const me = await api<{ data?: { email?: string }; email?: string }>('GET', '/api/v1/me', undefined, { expect: 200 });
  say(`1. first tenant ${domain}: owner token works (GET /api/v1/me ${JSON.stringify(me.body).slice(0, 80)})`);

  // Readiness of every process, as the compose healthchecks see it, with the checks named.
  const ready = await api<{ status: string; checks: Array<{ name: string; ok: boolean }> }>('GET', '/health/ready', undefined, { expect: 200 });
  say(`   /health/ready: ${ready.body.status} (${ready.body.checks.map((c) => `${c.name} ${c.ok ? 'ok' : 'FAIL'}`).join(', ')})`);

  // 2. A review whose webhook reaches a receiver, signed.
  receiver = await startReceiver();
  const hook = await api<{ data?: { secret?: string }; secret?: string }>('POST', '/api/v1/webhooks', { url: receiver.url, description: 'topology' }, { expect: 201 });
  const secret = hook.body.secret ?? hook.body.data?.secret;
  if (!secret) throw new Error(`no webhook secret in ${JSON.stringify(hook.body)}`);
  receiver.setSecret(secret);
  handled['webhook signing secret'] = secret;
  const orgs = await api<{ data: Array<{ id: number; locations: Array<{ id: number }> }> }>('GET', '/api/v1/organizations', undefined, { expect: 200 });
  if (!orgs.body.data.length) {
    await api('POST', '/api/v1/organizations', { name: 'Main Street Dental' }, { expect: 201 });
  }
  const again = await api<{ data: Array<{ id: number; locations: Array<{ id: number }> }> }>('GET', '/api/v1/organizations', undefined, { expect: 200 });
  orgId = again.body.data[0].id;
  locationId = again.body.data[0].locations[0].id;
  const sources = await api<{ data: Array<{ id: number }> }>('GET', `/api/v1/reviews/sources?organization_id=${orgId}`, undefined, { expect: 200 });
  sourceId = sources.body.data[0].id;
  const review = await createReview('Ada Lovelace', 'Wonderful team.');
  await until('the review-created webhook', async () => receiver.bodies.find((b) => b.webhook_event === 'review-created' && b.id === review));
  say(`2. review ${review} created through REST; its review-created webhook arrived, signature verified`);

  // 3. A campaign invite that arrives in Mailpit (the platform mailer: SMTP_URL = mailpit).
  const email = `ann.${randomUUID().slice(0, 8)}@customer.test`;
  const gql = await api<{ data?: { createCampaign?: { id: string } }; errors?: unknown }>(
    'POST',
    '/graphql',
    {
      query: 'mutation ($input: CreateCampaignInput!) { createCampaign(input: $input) { id } }',
      variables: {
        input: {
          organizationId: orgId,
          locationId,
          name: 'Topology campaign',
          steps: [{ channel: 'email', subject: 'How did we do, {first_name}?', body: 'Hi {first_name}, please rate us: {review_link}' }],
        },
      },
    },
    { expect: 200 },
  );
  const campaign = gql.body.data?.createCampaign?.id;
  if (!campaign) throw new Error(`createCampaign: ${JSON.stringify(gql.body)}`);
  await grantEmailCredits(topo);
  await api('POST', `/api/v1/request-reviews/campaigns/${campaign}/invite`, { email, first_name: 'Ann', send_after_hours: 0 }, { expect: 202 });
  const mail = await until('the invite in Mailpit', async () => {
    const r = await fetch(`${MAILPIT()}/api/v1/search?query=${encodeURIComponent(`to:${email}`)}`);
    const j = (await r.json()) as { messages?: Array<{ Subject: string; From: { Name: string; Address: string } }> };
    return j.messages?.[0];
  });
  say(`3. invite to ${email} arrived in Mailpit: "${mail.Subject}" from ${mail.From.Name} <${mail.From.Address}>`);

  // 4. A scan that completes (the simulated market: no ranking provider account here).
  const scan = await api<{ data: { uuid: string } }>(
    'POST',
    '/api/agency/v1/scans',
    { location: 'Main Street Dental', keywords: ['dentist'], grid_size: 3, distance: 1, distance_unit: 'km', lat: 30.2672, lng: -97.7431 },
    { token: tokens.agency, expect: 202 },
  );
  const done = await until('the scan snapshot', async () => {
    const r = await api<{ data: { is_running?: boolean; last_run_status?: string; available_snapshots?: string[] } }>('GET', `/api/agency/v1/scans/${scan.body.data.uuid}`, undefined, { token: tokens.agency });
    return r.status === 200 && !r.body.data.is_running && (r.body.data.available_snapshots?.length ?? 0) > 0 ? r.body.data : null;
  });
  say(`4. scan ${scan.body.data.uuid} completed: ${done.available_snapshots?.length} snapshot(s)`);

  // 5. A connect link that expires. TTLs are whole days (1-30), so the day passes in the database, as the clock would.
  const link = await api<{ data: { token: string; status: string; connect_url: string } }>('POST', '/api/agency/v1/connect-links', { provider: 'google', location_id: locationId, ttl_days: 1 }, { token: tokens.agency, expect: 201 });
  if (link.body.data.status !== 'active') throw new Error(`new connect link is ${link.body.data.status}`);
  handled['connect link token'] = link.body.data.token;
  const page = await fetch(`${API()}/connect/${link.body.data.token}`);
  if (page.status !== 200) throw new Error(`connect page answered ${page.status}`);
  await withDatabase(topo, (db) => db.query('UPDATE connect_links SET expires_at = NOW(3) - INTERVAL 1 SECOND WHERE token = ?', [link.body.data.token]));
  const expired = await api<{ data: { status: string } }>('GET', `/api/agency/v1/connect-links/${link.body.data.token}`, undefined, { token: tokens.agency, expect: 200 });
  const gone = await fetch(`${API()}/connect/${link.body.data.token}`);
  if (expired.body.data.status !== 'expired' || gone.status !== 410) throw new Error(`expired link: status ${expired.body.data.status}, page ${gone.status}`);
  say(`5. connect link ${link.body.data.token.slice(0, 8)}… active, then expired (API status "expired", page 410)`);

  // A worker started with another APP_KEY refuses to start, in one line, instead of writing unreadable secrets.
  const other = Buffer.alloc(32, 7).toString('base64');
  const refused = await topo.runIn('worker', ['node', 'dist/src/worker-main.js'], { APP_KEY: other, WORKER_HTTP_PORT: '0' }).then(
    () => null,
    (e: Error) => e.message,
  );
  const line = refused?.split('\n').find((l) => l.includes('APP_KEY mismatch'));
  if (!line) throw new Error(`a worker with another APP_KEY was not refused: ${refused ?? 'it exited 0'}`);
  say(`   a worker with another APP_KEY exits 1: "${line.trim().slice(0, 110)}…"`);

  // 6. Metrics of the API and of a worker, behind the token.
  const metrics = await fetch(`${API()}/metrics`, { headers: { Authorization: `Bearer ${compose(topo).METRICS_TOKEN}` } });
  const text = await metrics.text();
  if (metrics.status !== 200 || !text.includes('http_requests_total')) throw new Error(`/metrics answered ${metrics.status}`);
  const workerPort = topo.running.get('worker')![0].env.WORKER_HTTP_PORT;
  const wm = await fetch(`http://127.0.0.1:${workerPort}/metrics`, { headers: { Authorization: `Bearer ${compose(topo).METRICS_TOKEN}` } });
  const wtext = await wm.text();
  if (wm.status !== 200 || !/webhook_deliveries_total|temporal_/.test(wtext)) throw new Error(`worker /metrics answered ${wm.status}`);
  say(`6. /metrics of the API (${text.split('\n').length} lines) and of worker 1 (${wtext.split('\n').length} lines) answer with the token`);
}

const compose = (topo: Topology) => topo.environment('api');

/**
 * 8. No secret in any log (issue 14; docs/security.md "Secrets"): the API tokens, the webhook signing secret, the
 * connect link token, and every key, token and password of .env, searched for in the log of
 * every process of the run (API, workers, migrate, Temporal, Mailpit) after the smoke scenario and the fault test.
 */
function secretsSweep(envFile: string, logDir: string): void {
  const secrets: Record<string, string> = { ...handled, 'customer token': tokens.customer, 'agency token': tokens.agency };
  // Every secret of .env as scripts/init-env.sh wrote it (keys, tokens, passwords).
  for (const line of fs.readFileSync(envFile, 'utf8').split('\n')) {
    const m = /^([A-Z0-9_]*(KEY|KEYS|TOKEN|PASSWORD|SECRET))=(.{8,})$/.exec(line.trim());
    if (m) secrets[m[1]] = m[3];
  }
  const files = fs.readdirSync(logDir).filter((f) => fs.statSync(path.join(logDir, f)).isFile());
  let bytes = 0;
  let requestLines = 0;
  const found: string[] = [];
  for (const f of files) {
    const text = fs.readFileSync(path.join(logDir, f), 'utf8');
    bytes += text.length;
    requestLines += text.split('\n').filter((l) => l.includes('"request completed"')).length;
    for (const [name, value] of Object.entries(secrets)) if (text.includes(value)) found.push(`${name} in ${f}`);
  }
  if (requestLines === 0) throw new Error('the request log is empty: the secrets sweep would prove nothing');
  if (found.length) throw new Error(`secrets in the logs: ${found.join('; ')}`);
  say(`8. no secret in the logs: ${Object.keys(secrets).length} secrets searched in ${files.length} log files (${(bytes / 1024).toFixed(0)} KB, ${requestLines} request lines): 0 found`);
}

async function createReview(author: string, message: string): Promise<number> {
  const r = await api<{ data?: { id: number }; id?: number }>(
    'POST',
    '/api/v1/reviews',
    { author, rating: 5, published_on: '2026-11-01', organization_id: orgId, location_id: locationId, source: sourceId, message },
    { expect: 201 },
  );
  return (r.body.data?.id ?? r.body.id)!;
}

/** The owner's account gets email credits as an operator grants them (`reviewgrid credits:grant`). */
async function grantEmailCredits(topo: Topology): Promise<void> {
  await topo.runIn('api', ['reviewgrid', 'credits:grant', '--customer', String(ownerAccount), '--type', 'email', '--credits', '100', '--notes', 'topology']);
}

async function withDatabase<T>(topo: Topology, fn: (db: mysql.Connection) => Promise<T>): Promise<T> {
  const conn = await mysql.createConnection(topo.environment('api').DATABASE_URL);
  try {
    return await fn(conn);
  } finally {
    await conn.end();
  }
}

/**
 * Faults: a burst of BURST review-created events; a third of the way in one worker is SIGKILLed, at two thirds the
 * API, then the Temporal server; the restart policies bring each back. Every review the API accepted (201) must
 * arrive at the receiver.
 */
async function faults(topo: Topology): Promise<void> {
  const accepted: number[] = [];
  let refused = 0;
  let next = 0;
  const kills: Array<[number, string, () => void]> = [
    [Math.floor(BURST / 4), 'SIGKILL worker 1', () => topo.signal('worker', 1, 'SIGKILL')],
    [Math.floor(BURST / 2), 'SIGKILL the API', () => topo.signal('api', 1, 'SIGKILL')],
    [Math.floor((BURST * 3) / 4), 'SIGKILL the Temporal server', () => topo.signal('temporal', 1, 'SIGKILL')],
  ];
  const t0 = Date.now();
  const lane = async () => {
    while (next < BURST) {
      const i = next++;
      const kill = kills.find(([at]) => at === i);
      if (kill) {
        say(`   burst: ${accepted.length} accepted; ${kill[1]}`);
        kill[2]();
      }
      // A client retries what was not accepted (the API was down): only a 201 counts as accepted.
      for (let attempt = 0; ; attempt += 1) {
        try {
          accepted.push(await createReview(`Burst ${i}`, `Burst review ${i}`));
          break;
        } catch {
          refused += 1;
          if (attempt > 120) throw new Error(`review ${i} was never accepted`);
          await sleep(500);
        }
      }
    }
  };
  await Promise.all(Array.from({ length: 8 }, lane));
  say(`7. burst: ${accepted.length} reviews accepted in ${((Date.now() - t0) / 1000).toFixed(0)} s (${refused} attempts refused while the API restarted)`);
  await topo.waitHealthy('api');
  for (let r = 1; r <= WORKERS; r += 1) await topo.waitHealthy('worker', r);
  const want = new Set(accepted);
  const arrived = await until(
    `${accepted.length} review-created webhooks`,
    async () => {
      const got = new Set(receiver.bodies.filter((b) => b.webhook_event === 'review-created').map((b) => b.id as number));
      const missing = [...want].filter((id) => !got.has(id));
      return missing.length === 0 ? got : null;
    },
    300_000,
  ).catch(() => {
    const got = new Set(receiver.bodies.filter((b) => b.webhook_event === 'review-created').map((b) => b.id as number));
    throw new Error(`missing webhooks for reviews ${[...want].filter((id) => !got.has(id)).slice(0, 20).join(', ')} (${[...want].filter((id) => !got.has(id)).length} of ${want.size})`);
  });
  const restarts = ['worker', 'api', 'temporal'].map((n) => `${n} ${topo.running.get(n)?.reduce((s, e) => s + e.restarts, 0) ?? 0}`).join(', ');
  say(`   every accepted event delivered: ${want.size} of ${want.size} (${receiver.bodies.length - arrived.size} extra deliveries: at-least-once), 0 bad signatures: ${receiver.badSignatures() === 0}; restarts: ${restarts}`);
  if (receiver.badSignatures() !== 0) throw new Error(`${receiver.badSignatures()} deliveries failed signature verification`);
  await receiver.close();
}

async function dropDatabases(topo: Topology): Promise<void> {
  const db = topo.compose.services.mariadb?.environment?.MARIADB_DATABASE;
  if (db) {
    const conn = await mysql.createConnection('mysql://root@127.0.0.1:3306');
    await conn.query(`DROP DATABASE IF EXISTS \`${db}\``).finally(() => conn.end());
  }
  for (const name of topo.temporalDatabases()) {
    try {
      execFileSync('psql', ['-h', '127.0.0.1', '-U', 'postgres', '-qAtc', `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`], { stdio: 'ignore' });
    } catch {
      // Left for the next run, which drops it first.
    }
  }
}

main().catch((err) => {
  process.stderr.write(`topology: ${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
