import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { createTransport, type Transporter } from 'nodemailer';
import { QueryTypes } from 'sequelize';
import { SMTPServer } from 'smtp-server';
import { openDatabase } from '../src/bootstrap';
import { closeSmtpPools } from '../src/providers/smtp/account-sender';
import { SMTP_TIMEOUTS } from '../src/providers/smtp/platform-mailer';
import { loadConfig } from '../src/config';
import { Campaign, Invite, Organization, Tenant, User } from '../src/models';
import { issueToken } from '../src/services/auth.service';
import { grantCredits } from '../src/services/credits.service';
import { seedDemo } from '../src/services/demo.service';
import { ensureInviteDispatcher } from '../workflows/client';
import { assertBenchDatabase, benchPeakRssMb, engineCeiling, markdownTable, pct, pool, startBenchApi, startBenchTemporal, startEagerProbeWorker, untilQuiet } from './bench-support';

/**
 * `npm run bench:invites`: BENCH_INVITES (2,000) review-request invites for distinct contacts, posted through the
 * REST facade (`POST /api/v1/request-reviews/campaigns/{uuid}/invite`, email channel, `send_after_hours` 0, a
 * campaign without a send window) at BENCH_CONCURRENCY (32) against the real app on a loopback port, delivered by
 * the invite dispatcher (`dispatchInvites`, one workflow sending from the invites table) on a real Temporal dev
 * server (in memory) and worker, through the account's own SMTP settings (pooled connections), which
 * point at a local SMTP server (the `smtp-server` package) that timestamps every message.
 *
 * Each of BENCH_RUNS (3) runs measures, in this order on the same server:
 * - end to end: the clock runs from the first POST until the last message reaches the SMTP server;
 * - end to end in batches: the same through the batch route (`POST .../campaigns/{uuid}/invites`, BENCH_BATCH contacts a
 *   request, BENCH_BATCH_CONCURRENCY requests at a time), as an integrator sending a campaign's list would;
 * - queued: the worker is stopped, BENCH_INVITES more invites are posted, and the clock runs from the worker's start
 *   until the last message arrives (the durable path alone, a backlog such as a campaign's send window opening);
 * - the engine ceiling: trivial one-activity workflows per second on this server and worker;
 * - baselines: the very messages the platform delivered (the same bytes), sent straight through nodemailer at the
 *   same concurrency, once with a pool of BENCH_CONCURRENCY connections and once without a pool.
 * Medians over the runs are printed, with the ratios. The API and the worker run as production runs them, each its own
 * process (`node dist/src/main.js`, `node dist/src/worker-main.js`), and their peak RSS is printed; this process holds
 * the load generator and the SMTP sink. "Stopping the worker" stops its process; "queued" starts a new one.
 *
 * Environment: BENCH_INVITES, BENCH_CONCURRENCY, BENCH_BATCH (250), BENCH_BATCH_CONCURRENCY (2), BENCH_RUNS, BENCH_DATABASE_URL (default `reviewgrid_bench_invites`).
 */
const INVITES = Number(process.env.BENCH_INVITES ?? 2000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 32);
const DATABASE_URL = process.env.BENCH_DATABASE_URL || 'mysql://root@127.0.0.1:3306/reviewgrid_bench_invites';
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const BATCH = Number(process.env.BENCH_BATCH ?? 250);
const BATCH_CONCURRENCY = Number(process.env.BENCH_BATCH_CONCURRENCY ?? 2);
const DEADLINE_MS = 20 * 60_000;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const ms1 = (ms: number) => ms.toFixed(1);
const s1 = (ms: number) => (ms / 1000).toFixed(1);

interface Arrival {
  at: number;
  from: string;
  to: string[];
  raw: Buffer;
}

/** A loopback SMTP server that keeps each message's bytes, envelope and arrival time (no parsing: it must keep up). */
async function startSmtpSink() {
  const arrivals: Arrival[] = [];
  let connections = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    maxClients: 1000,
    onConnect(_session, callback) {
      connections += 1;
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const from = session.envelope.mailFrom ? session.envelope.mailFrom.address : '';
        arrivals.push({ at: Date.now(), from, to: session.envelope.rcptTo.map((r) => r.address), raw: Buffer.concat(chunks) });
        callback();
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  return {
    port: (server.server.address() as AddressInfo).port,
    arrivals,
    connections: () => connections,
    reset() {
      arrivals.length = 0;
      connections = 0;
    },
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

type Sink = Awaited<ReturnType<typeof startSmtpSink>>;

async function waitForArrivals(sink: Sink, n: number, what: string): Promise<void> {
  const deadline = Date.now() + DEADLINE_MS;
  let lastReport = Date.now();
  while (sink.arrivals.length < n) {
    if (Date.now() > deadline) throw new Error(`${what}: ${sink.arrivals.length}/${n} messages arrived within ${DEADLINE_MS / 60_000} minutes`);
    if (Date.now() - lastReport > 15_000) {
      console.log(`  ... ${sink.arrivals.length}/${n} messages arrived`);
      lastReport = Date.now();
    }
    await sleep(50);
  }
}

/** Sends the recorded messages (same envelope, same bytes) through one nodemailer transport, `CONCURRENCY` at a time. */
async function baseline(sink: Sink, messages: Arrival[], transport: Transporter) {
  sink.reset();
  const latencies: number[] = [];
  const t0 = Date.now();
  await pool(messages, CONCURRENCY, async (m) => {
    const start = performance.now();
    await transport.sendMail({ envelope: { from: m.from, to: m.to }, raw: m.raw });
    latencies.push(performance.now() - start);
  });
  await waitForArrivals(sink, messages.length, 'baseline');
  const lastMs = Math.max(...sink.arrivals.map((a) => a.at)) - t0;
  transport.close();
  return { latencies: [...latencies].sort((a, b) => a - b), lastMs, connections: sink.connections() };
}

/** The server's InnoDB row-lock counters (server-wide: other databases' work shows too). */
async function rowLockStatus(): Promise<{ waits: number; timeMs: number }> {
  const rows = (await Invite.sequelize!.query(`SHOW GLOBAL STATUS LIKE 'Innodb_row_lock_%'`, { type: QueryTypes.SELECT })) as Array<{ Variable_name: string; Value: string }>;
  const value = (name: string) => Number(rows.find((r) => r.Variable_name === name)?.Value ?? 0);
  return { waits: value('Innodb_row_lock_waits'), timeMs: value('Innodb_row_lock_time') };
}

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)];

interface RunResult {
  postedMs: number;
  post202: { p50: number; p99: number };
  endToEndMs: number;
  postToMessage: { p50: number; p99: number };
  /** The batch route's phase: all posted, and first POST to last message. */
  batchPostedMs: number;
  batchedMs: number;
  queuedMs: number;
  /** First to last message of the queued phase (without the worker's start and first poll). */
  queuedSpanMs: number;
  ceilingPerSecond: number;
  /** The same with eager start (the client on the worker's connection). */
  eagerCeilingPerSecond: number;
  pooledMs: number;
  noPoolMs: number;
  platformConnections: number;
  lockWaits: number;
  lockWaitMs: number;
  cpuMsPerInvite: number;
  /** The queued phase's new worker process: spawn until its /health/ready answers (inside the queued clock). */
  workerBootMs: number;
}

async function main(): Promise<void> {
  assertBenchDatabase(DATABASE_URL, '_invites');
  // The account's SMTP host is 127.0.0.1: loopback hosts are refused unless private addresses are allowed.
  process.env.WEBHOOK_ALLOW_PRIVATE_URLS = 'true';
  // The settings the API and worker processes run with (this process's own config reads the same).
  const env = { DATABASE_URL, RATE_LIMIT_PER_MINUTE: '10000000', LOG_LEVEL: 'warn', WEBHOOK_ALLOW_PRIVATE_URLS: 'true' };
  const config = loadConfig({ ...process.env, ...env });
  const sequelize = await openDatabase(config);
  if (!(await Tenant.count())) await seedDemo({ reviews: 0, domain: 'bench-invites.localhost' });
  const owner = (await User.findOne({ where: { role: 'organization_owner' }, order: [['id', 'ASC']] }))!;
  const org = (await Organization.findOne({ where: { customerId: owner.customerId! }, order: [['id', 'ASC']] }))!;
  const { token, plainText } = await issueToken(owner, {
    name: 'bench invites',
    kind: 'customer',
    permissions: ['request:read', 'request:create', 'organizations:read', 'organizations:update'],
  });
  await grantCredits({ id: owner.customerId!, tenantId: owner.tenantId }, { type: 'email', credits: 3 * INVITES * RUNS, expiresAt: null, notes: 'bench:invites' });

  const sink = await startSmtpSink();
  const engine = await startBenchTemporal(config, 27_935, env);
  await ensureInviteDispatcher();
  const api = await startBenchApi(engine);
  // Eager starts reach only a worker sharing the starter's connection: a probe worker in this process, for that figure.
  const eagerProbe = await startEagerProbeWorker(config, engine);
  const headers = { authorization: `Bearer ${plainText}`, 'content-type': 'application/json' };
  const gql = async <T>(query: string, variables: Record<string, unknown>): Promise<T> => {
    const res = await fetch(`${api.origin}/graphql`, { method: 'POST', headers, body: JSON.stringify({ query, variables }) });
    const body = (await res.json()) as { data?: T; errors?: unknown[] };
    if (!body.data || body.errors) throw new Error(`GraphQL: ${JSON.stringify(body.errors)}`);
    return body.data;
  };

  // The account's own SMTP server is the local sink.
  await gql(`mutation ($input: EmailSettingsInput!) { setEmailSettings(input: $input) { configured } }`, {
    input: { host: '127.0.0.1', port: sink.port, secure: false, fromEmail: 'reviews@bench-invites.test', fromName: org.name },
  });
  /** A new campaign (no send window, one email step) and its invite URL. */
  const newCampaign = async (name: string) => {
    const { createCampaign } = await gql<{ createCampaign: { id: string } }>(`mutation ($input: CreateCampaignInput!) { createCampaign(input: $input) { id } }`, {
      input: {
        organizationId: org.id,
        locationId: org.defaultLocationId,
        name,
        sendAfterHours: 0,
        steps: [{ channel: 'email', subject: 'How did we do, {first_name}?', body: 'Hi {first_name}, please rate {business_name}: {review_link}\nUnsubscribe: {unsubscribe_link}' }],
      },
    });
    const campaign = (await Campaign.findOne({ where: { uuid: createCampaign.id } }))!;
    return { campaign, url: `${api.origin}/api/v1/request-reviews/campaigns/${campaign.uuid}/invite` };
  };
  /** POSTs one invite per contact, CONCURRENCY at a time: when each was posted, and the 202 latencies. */
  const postAll = async (url: string, prefix: string) => {
    const answered: number[] = [];
    const postedAt = new Map<string, number>();
    await pool(
      Array.from({ length: INVITES }, (_, i) => i),
      CONCURRENCY,
      async (i) => {
        const email = `${prefix}-${i}@bench-invites.test`;
        const start = performance.now();
        postedAt.set(email, Date.now());
        const res = await fetch(url, { method: 'POST', headers, body: JSON.stringify({ email, first_name: `Guest${i}`, send_after_hours: 0 }) });
        const text = await res.text();
        answered.push(performance.now() - start);
        if (res.status !== 202) throw new Error(`invite ${i} answered ${res.status}: ${text}`);
      },
    );
    return { answered: answered.sort((a, b) => a - b), postedAt };
  };
  /** POSTs the invites through the batch route, BATCH contacts a request, BATCH_CONCURRENCY requests at a time. */
  const postBatches = async (url: string, prefix: string) => {
    const postedAt = new Map<string, number>();
    const chunks = Array.from({ length: Math.ceil(INVITES / BATCH) }, (_, c) => c);
    await pool(chunks, BATCH_CONCURRENCY, async (c) => {
      const contacts = Array.from({ length: Math.min(BATCH, INVITES - c * BATCH) }, (_, k) => {
        const i = c * BATCH + k;
        return { email: `${prefix}-${i}@bench-invites.test`, first_name: `Guest${i}`, send_after_hours: 0 };
      });
      const now = Date.now();
      for (const contact of contacts) postedAt.set(contact.email, now);
      const res = await fetch(`${url}s`, { method: 'POST', headers, body: JSON.stringify({ contacts }) });
      const text = await res.text();
      if (res.status !== 202) throw new Error(`batch ${c} answered ${res.status}: ${text}`);
    });
    return { postedAt };
  };
  const checkSent = async (campaign: Campaign, arrivals: Arrival[], postedAt: Map<string, number>) => {
    const distinct = new Set(arrivals.filter((a) => a.to.some((t) => postedAt.has(t))).flatMap((a) => a.to)).size;
    const sent = await Invite.count({ where: { campaignId: campaign.id, status: 'sent' } });
    if (distinct !== INVITES || sent !== INVITES) throw new Error(`expected ${INVITES} distinct recipients and sent invites, got ${distinct} recipients, ${sent} sent`);
  };
  console.log(`${INVITES} invites per phase (distinct contacts, email, send_after_hours 0, no send window) at concurrency ${CONCURRENCY}, ${RUNS} runs; SMTP sink on 127.0.0.1:${sink.port}`);

  const runs: RunResult[] = [];
  let sizes: number[] = [];
  for (let r = 0; r < RUNS; r++) {
    const run = randomUUID().slice(0, 8);
    // End to end: POST every invite; the clock runs until the last message reaches the SMTP server.
    const live = await newCampaign(`Bench ${run}`);
    sink.reset();
    const locks0 = await rowLockStatus();
    // CPU of every process the invites go through: this one (load generator, sink), the API and the worker.
    const cpuNow = () => (process.cpuUsage().user + process.cpuUsage().system) / 1000 + engine.processes.cpuMs('API') + engine.processes.cpuMs('worker');
    const cpu0 = cpuNow();
    const t0 = Date.now();
    const posted = await postAll(live.url, `live-${run}`);
    const postedMs = Date.now() - t0;
    await waitForArrivals(sink, INVITES, 'platform');
    const arrivals = [...sink.arrivals];
    const endToEndMs = Math.max(...arrivals.map((a) => a.at)) - t0;
    const cpuMs = cpuNow() - cpu0;
    const locks1 = await rowLockStatus();
    const platformConnections = sink.connections();
    await checkSent(live.campaign, arrivals, posted.postedAt);
    const delays = arrivals.map((a) => a.at - posted.postedAt.get(a.to[0])!).sort((a, b) => a - b);
    sizes = arrivals.map((a) => a.raw.length).sort((a, b) => a - b);

    // End to end in batches: the same, through the batch route, once the API and worker are quiet (the messages of the
    // phase before have all arrived, but the worker may still be recording them as sent).
    const batched = await newCampaign(`Bench ${run} batched`);
    const quietMs = await Promise.all((['API', 'worker'] as const).map((role) => untilQuiet(engine.processes.pid(role)!)));
    sink.reset();
    const b0 = Date.now();
    const batchPosts = await postBatches(batched.url, `batched-${run}`);
    const batchPostedMs = Date.now() - b0;
    await waitForArrivals(sink, INVITES, 'batched');
    const batchedMs = Math.max(...sink.arrivals.map((a) => a.at)) - b0;
    await checkSent(batched.campaign, [...sink.arrivals], batchPosts.postedAt);

    // Queued: the invites wait in the table while the worker is down; the clock runs from its start.
    const queued = await newCampaign(`Bench ${run} queued`);
    await engine.stopWorker();
    const queuedPosts = await postAll(queued.url, `queued-${run}`);
    sink.reset();
    const q0 = Date.now();
    const workerBootMs = await engine.startWorker();
    await waitForArrivals(sink, INVITES, 'queued');
    const queuedMs = Math.max(...sink.arrivals.map((a) => a.at)) - q0;
    const queuedSpanMs = Math.max(...sink.arrivals.map((a) => a.at)) - Math.min(...sink.arrivals.map((a) => a.at));
    await checkSent(queued.campaign, [...sink.arrivals], queuedPosts.postedAt);

    const ceilingPerSecond = await engineCeiling();
    const eagerCeilingPerSecond = await engineCeiling(400, 32, { eager: true, taskQueue: eagerProbe.taskQueue });
    // Baselines: the same messages, straight through nodemailer to the same server at the same concurrency.
    const smtp = { host: '127.0.0.1', port: sink.port, secure: false, ...SMTP_TIMEOUTS };
    const pooled = await baseline(sink, arrivals, createTransport({ ...smtp, pool: true, maxConnections: CONCURRENCY, maxMessages: Infinity }));
    const noPool = await baseline(sink, arrivals, createTransport(smtp));
    const result: RunResult = {
      postedMs,
      post202: { p50: pct(posted.answered, 50), p99: pct(posted.answered, 99) },
      endToEndMs,
      postToMessage: { p50: pct(delays, 50), p99: pct(delays, 99) },
      batchPostedMs,
      batchedMs,
      queuedMs,
      queuedSpanMs,
      ceilingPerSecond,
      eagerCeilingPerSecond,
      pooledMs: pooled.lastMs,
      noPoolMs: noPool.lastMs,
      platformConnections,
      lockWaits: locks1.waits - locks0.waits,
      lockWaitMs: locks1.timeMs - locks0.timeMs,
      cpuMsPerInvite: cpuMs / INVITES,
      workerBootMs,
    };
    runs.push(result);
    console.log(
      `  run ${r + 1}: posted in ${s1(postedMs)} s, last message ${s1(endToEndMs)} s after the first POST; in batches: posted in ${s1(batchPostedMs)} s, ` +
        `last message after ${s1(batchedMs)} s (begun once the API and worker were quiet: ${quietMs.map((ms) => (ms === null ? 'not within 30 s' : `${s1(ms)} s`)).join(', ')}); queued ${s1(queuedMs)} s; ` +
        `against the pooled loop ${(endToEndMs / pooled.lastMs).toFixed(1)} x, ${(batchedMs / pooled.lastMs).toFixed(1)} x in batches, ${(queuedMs / pooled.lastMs).toFixed(1)} x queued; ` +
        `pooled nodemailer ${s1(pooled.lastMs)} s, no pool ${s1(noPool.lastMs)} s; ceiling ${ceilingPerSecond.toFixed(0)} workflows/s`,
    );
  }

  const m = (pick: (r: RunResult) => number) => median(runs.map(pick));
  const rate = (ms: number) => (INVITES / (ms / 1000)).toFixed(0);
  const pooledMs = m((r) => r.pooledMs);
  // Times against the pooled loop are taken within each run (the loop and the platform on the same machine minutes
  // apart) and their median reported: the loop's time swings with the VM as the platform's does.
  const vsPooled = (pick: (r: RunResult) => number) => m((r) => pick(r) / r.pooledMs).toFixed(1);
  const ceiling = m((r) => r.ceilingPerSecond);
  const rows = [
    ['path (medians of ' + RUNS + ' runs)', 'p50 ms', 'p99 ms', 'invites per second', 'time, s', 'time / pooled nodemailer (median of the runs\' own)', 'rate / engine ceiling'],
    ['REST invite: POST to 202', ms1(m((r) => r.post202.p50)), ms1(m((r) => r.post202.p99)), `${rate(m((r) => r.postedMs))} posted`, `(posting: ${s1(m((r) => r.postedMs))})`, '', ''],
    [
      'platform end to end: first POST to last message',
      ms1(m((r) => r.postToMessage.p50)),
      ms1(m((r) => r.postToMessage.p99)),
      `${rate(m((r) => r.endToEndMs))} delivered`,
      `**${s1(m((r) => r.endToEndMs))}**`,
      `**${vsPooled((r) => r.endToEndMs)} x**`,
      `${(INVITES / (m((r) => r.endToEndMs) / 1000) / ceiling).toFixed(1)} x`,
    ],
    [`REST batch invite (${BATCH} contacts a request, ${BATCH_CONCURRENCY} at a time): posting`, '', '', `${rate(m((r) => r.batchPostedMs))} posted`, `(posting: ${s1(m((r) => r.batchPostedMs))})`, '', ''],
    [
      'platform end to end in batches: first POST to last message',
      '',
      '',
      `${rate(m((r) => r.batchedMs))} delivered`,
      `**${s1(m((r) => r.batchedMs))}**`,
      `**${vsPooled((r) => r.batchedMs)} x**`,
      `${(INVITES / (m((r) => r.batchedMs) / 1000) / ceiling).toFixed(1)} x`,
    ],
    ['platform queued: worker start to last message', '', '', `${rate(m((r) => r.queuedMs))} delivered`, `**${s1(m((r) => r.queuedMs))}**`, `**${vsPooled((r) => r.queuedMs)} x**`, `${(INVITES / (m((r) => r.queuedMs) / 1000) / ceiling).toFixed(1)} x`],
    ['platform queued: first to last message', '', '', `${rate(m((r) => r.queuedSpanMs))} delivered`, s1(m((r) => r.queuedSpanMs)), `${vsPooled((r) => r.queuedSpanMs)} x`, `${(INVITES / (m((r) => r.queuedSpanMs) / 1000) / ceiling).toFixed(1)} x`],
    [`baseline: nodemailer, pool of ${CONCURRENCY}`, '', '', `${rate(pooledMs)} delivered`, s1(pooledMs), '1.0 x', ''],
    ['baseline: nodemailer, no pool', '', '', `${rate(m((r) => r.noPoolMs))} delivered`, s1(m((r) => r.noPoolMs)), `${vsPooled((r) => r.noPoolMs)} x`, ''],
    ['engine ceiling: one-activity workflows', '', '', `${ceiling.toFixed(0)} workflows`, '', '', '1.0 x'],
    ['engine ceiling, eager start', '', '', `${m((r) => r.eagerCeilingPerSecond).toFixed(0)} workflows`, '', '', `${(m((r) => r.eagerCeilingPerSecond) / ceiling).toFixed(1)} x`],
  ];
  console.log('\n' + markdownTable(rows));
  console.log(
    `\nMessages of ${sizes[0]}-${sizes[sizes.length - 1]} bytes; SMTP connections the platform opened per run: ${runs.map((r) => r.platformConnections).join(', ')} ` +
      `(SMTP_POOL_SIZE=${config.SMTP_POOL_SIZE}); INVITE_SEND_CONCURRENCY=${config.INVITE_SEND_CONCURRENCY}; DATABASE_POOL_MAX=${config.DATABASE_POOL_MAX}. ` +
      `CPU per invite end to end (API, worker and this process together, as when they were one process): ${runs.map((r) => r.cpuMsPerInvite.toFixed(1)).join(', ')} ms; ` +
      `the queued phase's worker process was ready ${runs.map((r) => s1(r.workerBootMs)).join(', ')} s after its spawn; InnoDB row-lock waits (server-wide): ` +
      `${runs.map((r) => `${r.lockWaits} (${s1(r.lockWaitMs)} s)`).join(', ')}. Eager ceiling: a probe worker in this process (eager start needs a shared connection).\n${engine.processes.peakRssLine()}; this process (load generator, sink, probe worker): ${benchPeakRssMb()} MB.`,
  );

  const out = path.join(config.DATA_DIR, 'bench-invites-results.json');
  fs.mkdirSync(config.DATA_DIR, { recursive: true });
  fs.writeFileSync(out, JSON.stringify({ at: new Date().toISOString(), invites: INVITES, concurrency: CONCURRENCY, runs, peakRss: engine.processes.peakRss(), benchProcessPeakRssMb: benchPeakRssMb() }, null, 2));
  console.log(`Results written to ${path.relative(process.cwd(), out)}`);

  await token.destroy();
  await api.stop();
  await eagerProbe.stop();
  await engine.stop();
  closeSmtpPools();
  await sink.close();
  await sequelize.close();
}
main().catch((err) => {
  console.error(err);
  process.exit(1);
});
