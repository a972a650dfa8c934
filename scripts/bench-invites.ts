import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { tsToMs } from '@temporalio/common/lib/time';
import { createTransport, type Transporter } from 'nodemailer';
import { QueryTypes } from 'sequelize';
import { SMTPServer } from 'smtp-server';
import { openDatabase } from '../src/bootstrap';
import { loadConfig } from '../src/config';
import { Campaign, Invite, Organization, Tenant, User } from '../src/models';
import { issueToken } from '../src/services/auth.service';
import { grantCredits } from '../src/services/credits.service';
import { seedDemo } from '../src/services/demo.service';
import { temporal } from '../workflows/client';
import { inviteWorkflowId } from '../workflows/invites/client';
import { assertBenchDatabase, markdownTable, pct, pool, startBenchApi, startBenchTemporal } from './bench-support';

/**
 * `npm run bench:invites`: BENCH_INVITES (2,000) review-request invites for distinct contacts, posted through the
 * REST facade (`POST /api/v1/request-reviews/campaigns/{uuid}/invite`, email channel, `send_after_hours` 0, a
 * campaign without a send window) at BENCH_CONCURRENCY (32) against the real app on a loopback port, delivered by
 * the `inviteDelivery` workflows on a real Temporal dev server (in memory) and worker through the account's own SMTP
 * settings, which point at a local SMTP server (the `smtp-server` package) that timestamps every message.
 *
 * Reports the p50/p99 of the 202 answer, the posting throughput, and the time from the first POST until the last
 * message reaches the SMTP server. Baselines, measured in the same run against the same SMTP server: the very
 * messages the platform delivered (the same bytes, hence the same size), sent straight through nodemailer at the
 * same concurrency, once without a pool (a connection per message, as the platform's account sender does) and
 * once with a pool of BENCH_CONCURRENCY connections.
 *
 * Environment: BENCH_INVITES, BENCH_CONCURRENCY, BENCH_DATABASE_URL (default `reviewgrid_bench_invites`).
 */
const INVITES = Number(process.env.BENCH_INVITES ?? 2000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 32);
const DATABASE_URL = process.env.BENCH_DATABASE_URL || 'mysql://root@127.0.0.1:3306/reviewgrid_bench_invites';
const DEADLINE_MS = 20 * 60_000;
/** Every n-th invite's workflow history is read for the breakdown of where the time goes. */
const SAMPLE_EVERY = 10;

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

/**
 * Where an invite's time goes, from its workflow history: the queue wait of its workflow tasks (the first one, from the
 * normal task queue, and the later ones, from the sticky queue), and per activity the
 * wait in the task queue (scheduled to started) and its run (started to completed), start to close overall.
 */
async function historyBreakdown(workflowIds: string[]) {
  const spans = new Map<string, number[]>();
  const add = (name: string, ms: number) => spans.set(name, [...(spans.get(name) ?? []), ms]);
  for (const id of workflowIds) {
    const events = (await temporal().client.workflow.getHandle(id).fetchHistory()).events ?? [];
    const at = (i: number) => tsToMs(events[i].eventTime);
    const byId = new Map(events.map((e, i) => [Number(e.eventId), i]));
    let workflowTasks = 0;
    for (const [i, e] of events.entries()) {
      const taskStarted = e.workflowTaskStartedEventAttributes;
      if (taskStarted) {
        // The first task of a new workflow comes from the normal task queue, later ones from the worker's sticky queue.
        const label = workflowTasks++ === 0 ? 'first workflow task' : 'later workflow tasks';
        add(`${label}: scheduled to started (queue)`, at(i) - at(byId.get(Number(taskStarted.scheduledEventId))!));
      }
      const done = e.activityTaskCompletedEventAttributes;
      if (!done) continue;
      const scheduled = byId.get(Number(done.scheduledEventId))!;
      const started = byId.get(Number(done.startedEventId))!;
      const name = events[scheduled].activityTaskScheduledEventAttributes?.activityType?.name ?? '?';
      add(`${name}: scheduled to started (queue)`, at(started) - at(scheduled));
      add(`${name}: started to completed (run)`, at(i) - at(started));
    }
    if (events.length > 1) add('workflow start to close', at(events.length - 1) - at(0));
  }
  return [...spans.entries()].map(([name, values]) => {
    const sorted = values.sort((a, b) => a - b);
    return { name, count: sorted.length, p50: pct(sorted, 50), p90: pct(sorted, 90), max: sorted[sorted.length - 1] };
  });
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

async function main(): Promise<void> {
  assertBenchDatabase(DATABASE_URL, '_invites');
  // The account's SMTP host is 127.0.0.1: loopback hosts are refused unless private addresses are allowed.
  process.env.WEBHOOK_ALLOW_PRIVATE_URLS = 'true';
  const config = loadConfig({ ...process.env, DATABASE_URL, RATE_LIMIT_PER_MINUTE: '10000000', LOG_LEVEL: 'warn', WEBHOOK_ALLOW_PRIVATE_URLS: 'true' });
  const sequelize = await openDatabase(config);
  if (!(await Tenant.count())) await seedDemo({ reviews: 0, domain: 'bench-invites.localhost' });
  const owner = (await User.findOne({ where: { role: 'organization_owner' }, order: [['id', 'ASC']] }))!;
  const org = (await Organization.findOne({ where: { customerId: owner.customerId }, order: [['id', 'ASC']] }))!;
  const { token, plainText } = await issueToken(owner, {
    name: 'bench invites',
    kind: 'customer',
    permissions: ['request:read', 'request:create', 'organizations:read', 'organizations:update'],
  });
  await grantCredits({ id: owner.customerId!, tenantId: owner.tenantId }, { type: 'email', credits: INVITES, expiresAt: null, notes: 'bench:invites' });

  const sink = await startSmtpSink();
  const engine = await startBenchTemporal(config, 27_935);
  const api = await startBenchApi(config);
  const headers = { authorization: `Bearer ${plainText}`, 'content-type': 'application/json' };
  const gql = async <T>(query: string, variables: Record<string, unknown>): Promise<T> => {
    const res = await fetch(`${api.origin}/graphql`, { method: 'POST', headers, body: JSON.stringify({ query, variables }) });
    const body = (await res.json()) as { data?: T; errors?: unknown[] };
    if (!body.data || body.errors) throw new Error(`GraphQL: ${JSON.stringify(body.errors)}`);
    return body.data;
  };

  // The account's own SMTP server is the local sink; a new campaign (no send window, one email step) per run.
  await gql(`mutation ($input: EmailSettingsInput!) { setEmailSettings(input: $input) { configured } }`, {
    input: { host: '127.0.0.1', port: sink.port, secure: false, fromEmail: 'reviews@bench-invites.test', fromName: org.name },
  });
  const run = randomUUID().slice(0, 8);
  const { createCampaign } = await gql<{ createCampaign: { id: string } }>(`mutation ($input: CreateCampaignInput!) { createCampaign(input: $input) { id } }`, {
    input: {
      organizationId: org.id,
      locationId: org.defaultLocationId,
      name: `Bench ${run}`,
      sendAfterHours: 0,
      steps: [{ channel: 'email', subject: 'How did we do, {first_name}?', body: 'Hi {first_name}, please rate {business_name}: {review_link}\nUnsubscribe: {unsubscribe_link}' }],
    },
  });
  const campaign = (await Campaign.findOne({ where: { uuid: createCampaign.id } }))!;
  const inviteUrl = `${api.origin}/api/v1/request-reviews/campaigns/${campaign.uuid}/invite`;
  console.log(`${INVITES} invites (distinct contacts, email, send_after_hours 0, no send window) at concurrency ${CONCURRENCY} to ${inviteUrl}; SMTP sink on 127.0.0.1:${sink.port}`);

  // The run: POST every invite; the clock runs until the last message reaches the SMTP server.
  const answered: number[] = [];
  const postedAt = new Map<string, number>();
  const contactUuids: string[] = [];
  const locks0 = await rowLockStatus();
  const t0 = Date.now();
  const cpu0 = process.cpuUsage();
  await pool(
    Array.from({ length: INVITES }, (_, i) => i),
    CONCURRENCY,
    async (i) => {
      const email = `contact-${run}-${i}@bench-invites.test`;
      const start = performance.now();
      postedAt.set(email, Date.now());
      const res = await fetch(inviteUrl, { method: 'POST', headers, body: JSON.stringify({ email, first_name: `Guest${i}`, send_after_hours: 0 }) });
      const text = await res.text();
      answered.push(performance.now() - start);
      if (res.status !== 202) throw new Error(`invite ${i} answered ${res.status}: ${text}`);
      if (i % SAMPLE_EVERY === 0) contactUuids.push((JSON.parse(text) as { id: string }).id);
    },
  );
  const postedMs = Date.now() - t0;
  const arrivedWhilePosting = sink.arrivals.length;
  console.log(`  all ${INVITES} answered 202 in ${s1(postedMs)} s; waiting for the messages`);
  await waitForArrivals(sink, INVITES, 'platform');
  const arrivals = [...sink.arrivals];
  const lastMs = Math.max(...arrivals.map((a) => a.at)) - t0;
  const cpu = process.cpuUsage(cpu0);
  const locks1 = await rowLockStatus();
  const lockWaits = locks1.waits - locks0.waits;
  const lockWaitMs = locks1.timeMs - locks0.timeMs;
  const cpuMs = (cpu.user + cpu.system) / 1000;
  const platformConnections = sink.connections();
  const toContacts = arrivals.filter((a) => a.to.some((t) => postedAt.has(t)));
  const distinct = new Set(toContacts.flatMap((a) => a.to)).size;
  const delays = toContacts.map((a) => a.at - postedAt.get(a.to[0])!).sort((a, b) => a - b);
  const sent = await Invite.count({ where: { campaignId: campaign.id, status: 'sent' } });
  if (distinct !== INVITES || sent !== INVITES) throw new Error(`expected ${INVITES} distinct recipients and sent invites, got ${distinct} recipients, ${sent} sent`);
  const sizes = arrivals.map((a) => a.raw.length).sort((a, b) => a - b);
  const breakdown = await historyBreakdown(contactUuids.map((uuid) => inviteWorkflowId(campaign.uuid, uuid)));

  // Baselines: the same messages, straight through nodemailer to the same server at the same concurrency.
  const smtp = { host: '127.0.0.1', port: sink.port, secure: false, connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 20_000 };
  const noPool = await baseline(sink, arrivals, createTransport(smtp));
  const pooled = await baseline(sink, arrivals, createTransport({ ...smtp, pool: true, maxConnections: CONCURRENCY, maxMessages: Infinity }));

  const answeredSorted = [...answered].sort((a, b) => a - b);
  const rate = (n: number, ms: number) => (n / (ms / 1000)).toFixed(0);
  const rows = [
    ['path', 'p50 ms', 'p99 ms', 'per second', 'first send to last arrival, s', 'SMTP connections', 'time / baseline (no pool)'],
    ['REST invite: POST to 202', ms1(pct(answeredSorted, 50)), ms1(pct(answeredSorted, 99)), `${rate(INVITES, postedMs)} posted`, `(posting: ${s1(postedMs)})`, '', ''],
    [
      'platform: POST to message at SMTP (per invite)',
      ms1(pct(delays, 50)),
      ms1(pct(delays, 99)),
      `${rate(INVITES, lastMs)} delivered`,
      `**${s1(lastMs)}**`,
      String(platformConnections),
      `**${(lastMs / noPool.lastMs).toFixed(1)} x**`,
    ],
    ['baseline: nodemailer, no pool (sendMail)', ms1(pct(noPool.latencies, 50)), ms1(pct(noPool.latencies, 99)), `${rate(INVITES, noPool.lastMs)} delivered`, s1(noPool.lastMs), String(noPool.connections), '1.0 x'],
    [
      `baseline: nodemailer, pool of ${CONCURRENCY} (sendMail)`,
      ms1(pct(pooled.latencies, 50)),
      ms1(pct(pooled.latencies, 99)),
      `${rate(INVITES, pooled.lastMs)} delivered`,
      s1(pooled.lastMs),
      String(pooled.connections),
      `${(pooled.lastMs / noPool.lastMs).toFixed(2)} x`,
    ],
  ];
  console.log('\n' + markdownTable(rows));
  console.log(
    `\n${INVITES} messages of ${sizes[0]}-${sizes[sizes.length - 1]} bytes (median ${pct(sizes, 50)}); ${sent} invites sent; ` +
      `last 202 at ${s1(postedMs)} s, last message at ${s1(lastMs)} s (platform end to end = ${(lastMs / noPool.lastMs).toFixed(1)} x the no-pool baseline, ` +
      `${(lastMs / pooled.lastMs).toFixed(1)} x the pooled one); ${arrivedWhilePosting} messages had arrived by the last 202.`,
  );
  console.log(
    `This Node process (API, worker and its activities, SMTP sink, load generator; the Temporal dev server is another process) used ` +
      `${s1(cpuMs)} s of CPU over those ${s1(lastMs)} s (${((cpuMs / lastMs) * 100).toFixed(0)} % of one core, ${(cpuMs / INVITES).toFixed(1)} ms per invite); DATABASE_POOL_MAX=${config.DATABASE_POOL_MAX}. ` +
      `InnoDB row-lock waits meanwhile (server-wide): ${lockWaits}, ${s1(lockWaitMs)} s in total.`,
  );
  console.log(`\nWhere the time goes (workflow histories of every ${SAMPLE_EVERY}th invite):\n`);
  console.log(markdownTable([['span', 'count', 'p50 ms', 'p90 ms', 'max ms'], ...breakdown.map((b) => [b.name, String(b.count), String(b.p50), String(b.p90), String(b.max)])]));

  const out = path.join(config.DATA_DIR, 'bench-invites-results.json');
  fs.mkdirSync(config.DATA_DIR, { recursive: true });
  fs.writeFileSync(
    out,
    JSON.stringify(
      {
        at: new Date().toISOString(),
        invites: INVITES,
        concurrency: CONCURRENCY,
        messageBytes: { min: sizes[0], p50: pct(sizes, 50), max: sizes[sizes.length - 1] },
        post202: { p50Ms: pct(answeredSorted, 50), p99Ms: pct(answeredSorted, 99), postingMs: postedMs, perSecond: INVITES / (postedMs / 1000) },
        breakdown,
        platform: { lockWaits, lockWaitMs, cpuMs, databasePoolMax: config.DATABASE_POOL_MAX, arrivedWhilePosting, firstPostToLastMessageMs: lastMs, postToMessage: { p50Ms: pct(delays, 50), p99Ms: pct(delays, 99) }, smtpConnections: platformConnections },
        baselineNoPool: { p50Ms: pct(noPool.latencies, 50), p99Ms: pct(noPool.latencies, 99), firstSendToLastMessageMs: noPool.lastMs, smtpConnections: noPool.connections },
        baselinePool: { p50Ms: pct(pooled.latencies, 50), p99Ms: pct(pooled.latencies, 99), firstSendToLastMessageMs: pooled.lastMs, smtpConnections: pooled.connections },
      },
      null,
      2,
    ),
  );
  console.log(`Results written to ${path.relative(process.cwd(), out)}`);

  await token.destroy();
  await api.stop();
  await engine.stop();
  await sink.close();
  await sequelize.close();
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
