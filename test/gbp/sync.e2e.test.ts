import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import express from 'express';
import { Op } from 'sequelize';
import { WorkflowFailedError } from '@temporalio/client';
import { dayAt, isoOf, monthAt, monthIndex, monthOf } from '../../src/gbp/dates';
import { DAILY_METRICS } from '../../src/gbp/metrics';
import { performanceLocationName } from '../../src/providers/google/performance.client';
import { GbpDailyMetric, GbpSearchKeyword, type Integration, type Location } from '../../src/models';
import { attachSynced } from '../../src/services/integrations.service';
import { saveConnection } from '../../src/services/provider-connections.service';
import { GbpPerformanceSimulator } from '../../src/providers/google/performance.simulator';
import { temporal } from '../../workflows/client';
import { configureGbpSync, ensureGbpSyncSchedule, gbpSyncScheduleId, removeGbpSyncSchedule, startGbpSync } from '../../workflows/gbp/client';
import type { GbpSweepResult, GbpSyncResult } from '../../workflows/gbp/sync.workflow';
import { useApp } from '../support/app';
import { makeWorld } from '../support/factories';
import { useTemporalWorker } from '../support/temporal';
import { waitUntil } from '../support/wait';

/**
 * The business-profile performance sync end to end: `syncGbpPerformance` and the scheduled sweep run on the real
 * Temporal dev server; their activities call the Performance API simulator on loopback (through the real client,
 * in Google's wire format) with the stored token and upsert into MariaDB.
 */
jest.setTimeout(120_000);

describe('business-profile performance sync on Temporal', () => {
  const t = useApp();
  const worker = useTemporalWorker();
  const sim = new GbpPerformanceSimulator({ seed: false, legacyMetrics: true });
  const saved = process.env.GBP_PERFORMANCE_URL;
  let server: Server;
  let seq = 0;

  beforeAll(async () => {
    const app = express();
    app.set('query parser', 'extended');
    app.use(sim.router);
    server = await new Promise((resolve) => {
      const s = app.listen(0, '127.0.0.1', () => resolve(s));
    });
    process.env.GBP_PERFORMANCE_URL = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    // Schedules and workflow ids live in the namespace: scope them to this file's task queue.
    configureGbpSync({ idScope: worker.settings().taskQueue, intervalMs: 60 * 60_000, retry: { maximumAttempts: 3, initialIntervalMs: 100, maximumIntervalMs: 200 } });
  });
  afterAll(async () => {
    await removeGbpSyncSchedule().catch(() => undefined);
    if (saved === undefined) delete process.env.GBP_PERFORMANCE_URL;
    else process.env.GBP_PERFORMANCE_URL = saved;
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  async function connected(provider: 'google' | 'facebook' = 'google', token = 'perf-token', connect = true) {
    const w = await makeWorld();
    const externalId = provider === 'google' ? `accounts/70/locations/${Date.now()}${++seq}` : `page-${Date.now()}${++seq}`;
    const integration = await attachSynced(w.home, provider, externalId);
    if (connect) await saveConnection({ integrationId: integration.id, provider, accessToken: token, refreshToken: null, expiresAt: null, scope: null });
    return { w, integration, location: provider === 'google' ? performanceLocationName(externalId) : externalId };
  }

  const run = async (integration: Integration): Promise<GbpSyncResult> => {
    const started = await startGbpSync(integration.id);
    if (!started) throw new Error('a sync is running already');
    return started.result();
  };

  const metricRows = (location: Location) => GbpDailyMetric.count({ where: { locationId: location.id } });
  const valueOf = async (location: Location, metric: string, date: string) =>
    (await GbpDailyMetric.findOne({ where: { locationId: location.id, metric, date } }))?.value;
  const keywordsOf = async (location: Location, ym: { year: number; month: number }) =>
    (await GbpSearchKeyword.findAll({ where: { locationId: location.id, year: ym.year, month: ym.month }, order: [['keyword', 'ASC']] })).map((k) =>
      k.belowThreshold ? `${k.keyword}<${k.threshold}` : `${k.keyword}=${k.impressions}`,
    );

  it('backfills 540 days and 18 months on the first run, then upserts: no duplicates, changes applied, dropped keywords removed', async () => {
    const { w, integration, location } = await connected();
    const today = dayAt(new Date());
    const yesterday = isoOf(today - 1);
    const twoDaysAgo = isoOf(today - 2);
    const longAgo = isoOf(today - 500);
    sim.setDaily(location, 'CALL_CLICKS', yesterday, 5);
    sim.setDaily(location, 'BUSINESS_IMPRESSIONS_MOBILE_SEARCH', twoDaysAgo, 40);
    sim.setDaily(location, 'WEBSITE_CLICKS', longAgo, 7);
    // Older-style data on the wire: profile and photo views must not be stored.
    sim.setDaily(location, 'VIEWS_MAPS', yesterday, 900);
    sim.setDaily(location, 'PHOTOS_VIEWS_CUSTOMERS', twoDaysAgo, 800);
    const lastMonth = monthOf(monthIndex(monthAt(new Date())) - 1);
    const olderMonth = monthOf(monthIndex(monthAt(new Date())) - 6);
    sim.setKeywords(location, lastMonth, [{ keyword: 'dentist', value: 120 }, { keyword: 'braces', threshold: 15 }]);
    sim.setKeywords(location, olderMonth, [{ keyword: 'old keyword', value: 33 }]);

    const first = await run(integration);
    expect(first).toEqual({ status: 'synced', reason: null, values: 540 * DAILY_METRICS.length, months: 18, keywords: 3 });
    expect(await metricRows(w.home)).toBe(540 * DAILY_METRICS.length); // every day of every metric, zeros included
    expect(await GbpDailyMetric.count({ where: { locationId: w.home.id, metric: { [Op.notIn]: [...DAILY_METRICS] } } })).toBe(0);
    expect(await valueOf(w.home, 'CALL_CLICKS', yesterday)).toBe(5);
    expect(await valueOf(w.home, 'BUSINESS_IMPRESSIONS_MOBILE_SEARCH', twoDaysAgo)).toBe(40);
    expect(await valueOf(w.home, 'WEBSITE_CLICKS', longAgo)).toBe(7);
    expect(await keywordsOf(w.home, lastMonth)).toEqual(['braces<15', 'dentist=120']);
    expect(await keywordsOf(w.home, olderMonth)).toEqual(['old keyword=33']);
    const calls = sim.requests.filter((r) => r.path.startsWith(`/v1/${location}`));
    expect(calls.every((r) => r.authorization === 'Bearer perf-token')).toBe(true);

    // Google revises yesterday and last month's keywords; the next run fetches the last week and two months only.
    sim.setDaily(location, 'CALL_CLICKS', yesterday, 6);
    sim.setKeywords(location, lastMonth, [{ keyword: 'dentist', value: 130 }, { keyword: 'implants', value: 20 }]);
    const second = await run(integration);
    expect(second).toEqual({ status: 'synced', reason: null, values: 8 * DAILY_METRICS.length, months: 2, keywords: 2 });
    expect(await metricRows(w.home)).toBe(540 * DAILY_METRICS.length);
    expect(await valueOf(w.home, 'CALL_CLICKS', yesterday)).toBe(6);
    expect(await keywordsOf(w.home, lastMonth)).toEqual(['dentist=130', 'implants=20']);
    expect(await keywordsOf(w.home, olderMonth)).toEqual(['old keyword=33']);

    // A third run with nothing new stores the same rows again: still no duplicates.
    await run(integration);
    expect(await metricRows(w.home)).toBe(540 * DAILY_METRICS.length);
    expect(await GbpSearchKeyword.count({ where: { locationId: w.home.id } })).toBe(3);

    // What the API then answers for yesterday.
    const res = await t.as(w.tokens.orgOwner).get(`/api/v1/gbp/metrics?location_id=${w.home.id}&from=${yesterday}&to=${yesterday}`);
    expect(res.body.data.totals).toMatchObject({ call_clicks: 6, impressions_total: 0 });
  });

  it('fails the run at once, without retrying, when Google refuses the token', async () => {
    const { w, integration, location } = await connected('google', 'revoked-token');
    sim.revokeToken('revoked-token');
    const err = await run(integration).catch((e) => e);
    expect(err).toBeInstanceOf(WorkflowFailedError);
    expect(String((err as WorkflowFailedError).cause?.message)).toContain('Google refused the request (401)');
    expect(sim.requests.filter((r) => r.path.startsWith(`/v1/${location}`))).toHaveLength(1);
    expect(await metricRows(w.home)).toBe(0);
  });

  it('skips integrations that are not connected Google profiles', async () => {
    const facebook = await connected('facebook');
    expect(await run(facebook.integration)).toMatchObject({ status: 'skipped', reason: 'not_google' });
    const unconnected = await connected('google', 'x', false);
    expect(await run(unconnected.integration)).toMatchObject({ status: 'skipped', reason: 'no_connection' });
  });

  it('runs the sweep from its schedule: every connected Google location, a failing one counted without stopping the others', async () => {
    const a = await connected();
    const b = await connected();
    const revoked = await connected('google', 'revoked-sweep-token');
    sim.revokeToken('revoked-sweep-token');
    const facebook = await connected('facebook');
    sim.setDaily(a.location, 'CALL_CLICKS', isoOf(dayAt(new Date()) - 1), 3);

    expect(await ensureGbpSyncSchedule()).toBe(true);
    expect(await ensureGbpSyncSchedule()).toBe(false); // exists: left alone
    const handle = temporal().client.schedule.getHandle(gbpSyncScheduleId());
    const schedule = await handle.describe();
    expect(schedule.policies.overlap).toBe('SKIP');
    expect(schedule.spec.intervals?.[0].every).toBe(60 * 60_000);
    expect(schedule.action).toMatchObject({ workflowType: 'syncGbpPerformanceSweep', taskQueue: worker.settings().taskQueue });

    // Created with an immediate run.
    let sweepId: string | null = null;
    await waitUntil(async () => {
      const d = await handle.describe();
      sweepId = [...d.info.recentActions, ...d.info.runningActions.map((action) => ({ action }))][0]?.action.workflow.workflowId ?? null;
      return sweepId !== null;
    });
    const result = (await temporal().client.workflow.getHandle(sweepId!).result()) as GbpSweepResult;
    // The sweep covers every connected Google integration of the database, and other test files on this Jest
    // worker leave some (with tokens the simulator refuses): the totals hold at least this file's profiles
    // (one more good and one more revoked from its earlier tests); the rows below tell which ones synced.
    expect(result.synced).toBeGreaterThanOrEqual(3);
    expect(result.failed).toBeGreaterThanOrEqual(2);
    expect(await metricRows(a.w.home)).toBe(540 * DAILY_METRICS.length);
    expect(await valueOf(a.w.home, 'CALL_CLICKS', isoOf(dayAt(new Date()) - 1))).toBe(3);
    expect(await metricRows(b.w.home)).toBe(540 * DAILY_METRICS.length);
    expect(await metricRows(revoked.w.home)).toBe(0);
    expect(await metricRows(facebook.w.home)).toBe(0);
    await removeGbpSyncSchedule();
  });
});
