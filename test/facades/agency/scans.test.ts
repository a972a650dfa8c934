import { randomUUID } from 'node:crypto';
import express from 'express';
import type { AddressInfo } from 'node:net';
import type http from 'node:http';
import * as metrics from '../../../src/grid/metrics';
import { SimulatedMarket } from '../../../src/providers/ranking/simulator';
import { gridProviderSimulator } from '../../../src/providers/ranking/simulator-http';
import { OutboxEvent, Scan, ScanPin, ScanResult, ScanSnapshot } from '../../../src/models';
import { configureGridProviders } from '../../../src/services/grid-providers.service';
import { resumeStalledRuns, startDueScheduledScans } from '../../../src/jobs/scan-runs';
import { queueRun } from '../../../src/services/scans.service';
import { temporal } from '../../../workflows/client';
import { configureScanEngine, scanRunWorkflowId } from '../../../workflows/scans/client';
import { useApp } from '../../support/app';
import { agencyTokenFor, makeWorld, tokenFor } from '../../support/factories';
import { useTemporalWorker } from '../../support/temporal';
import { waitUntil } from '../../support/wait';

/** Local Search Grid scans of the agency API, with runs on the real Temporal dev server and the simulated market. */
jest.setTimeout(90_000);

describe('scans at /api/agency/v1/scans', () => {
  const t = useApp();
  useTemporalWorker();
  const market = new SimulatedMarket();
  let server: http.Server;
  let baseUrl = '';
  let gate: Promise<void> = Promise.resolve();
  let release: () => void = () => undefined;

  beforeAll(async () => {
    configureScanEngine({ concurrency: 4, retry: { maximumAttempts: 2, initialIntervalMs: 50, maximumIntervalMs: 100 } });
    const app = express();
    // Holds provider answers while the gate is closed (a run that stays running, deterministically).
    app.use(async (_req, _res, next) => {
      await gate;
      next();
    });
    app.use(gridProviderSimulator(market, { login: 'dfs-login', password: 'dfs-secret', apiKey: 'maps-key' }));
    server = await new Promise<http.Server>((resolve) => {
      const s = app.listen(0, '127.0.0.1', () => resolve(s));
    });
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    release();
    await new Promise((r) => server.close(r));
  });

  const api = (token: string) => ({
    get: (path: string) => t.http().get(`/api/agency/v1${path}`).set('Authorization', `Bearer ${token}`),
    post: (path: string, body?: object) => t.http().post(`/api/agency/v1${path}`).set('Authorization', `Bearer ${token}`).send(body ?? {}),
    put: (path: string, body?: object) => t.http().put(`/api/agency/v1${path}`).set('Authorization', `Bearer ${token}`).send(body ?? {}),
  });

  async function agency(mode: 'simulator' | 'live' | 'none' = 'simulator', password = 'dfs-secret') {
    const w = await makeWorld();
    if (mode === 'simulator') await configureGridProviders({ tenantId: w.tenant.id, mode: 'simulator' });
    if (mode === 'live') {
      await configureGridProviders({
        tenantId: w.tenant.id,
        mode: 'live',
        dataforseoLogin: 'dfs-login',
        dataforseoPassword: password,
        googleMapsKey: 'maps-key',
        dataforseoBaseUrl: baseUrl,
        googleMapsBaseUrl: baseUrl,
      });
    }
    return { ...w, agency: api(await agencyTokenFor(w.owner)) };
  }

  const target = market.nearestPlace('dentist', 40.7128, -74.006);
  const body = (extra: object = {}) => ({
    location: 'Main Street Dental',
    keywords: ['dentist', 'teeth whitening'],
    grid_size: 3,
    distance: 2,
    distance_unit: 'km',
    lat: target.lat,
    lng: target.lng,
    target_place_id: target.placeId,
    ...extra,
  });
  const idle = (uuid: string) => waitUntil(async () => (await Scan.findOne({ where: { uuid } }))?.isRunning === false);

  describe('access', () => {
    it('answers 403 to customer tokens, even the tenant owner\'s, and 401 without a token', async () => {
      const w = await agency();
      expect((await api(w.tokens.orgOwner).get('/scans')).status).toBe(403);
      expect((await api(await tokenFor(w.owner)).post('/scans', body())).status).toBe(403);
      expect((await t.http().get('/api/agency/v1/scans')).status).toBe(401);
    });

    it("answers 404 for another tenant's scan and for a path that is not a UUID", async () => {
      const a = await agency();
      const b = await agency();
      const created = await a.agency.post('/scans', body());
      await idle(created.body.data.uuid);
      expect((await b.agency.get(`/scans/${created.body.data.uuid}`)).status).toBe(404);
      expect((await a.agency.get('/scans/not-a-uuid')).status).toBe(404);
    });
  });

  describe('POST /scans', () => {
    it('in simulator mode, a scan without target_place_id tracks the simulated business nearest the centre; live mode never guesses', async () => {
      const sim = await agency();
      const simulated = await sim.agency.post('/scans', body({ target_place_id: undefined, lat: 40.7128, lng: -74.006 }));
      expect(simulated.status).toBe(202);
      const nearest = market.nearestPlace('dentist', 40.7128, -74.006);
      expect((await Scan.findOne({ where: { uuid: simulated.body.data.uuid } }))!.targetPlaceId).toBe(nearest.placeId);
      await idle(simulated.body.data.uuid);

      const live = await agency('live');
      const guessed = await live.agency.post('/scans', body({ target_place_id: undefined }));
      expect(guessed.status).toBe(202);
      expect((await Scan.findOne({ where: { uuid: guessed.body.data.uuid } }))!.targetPlaceId).toBeNull();
      await idle(guessed.body.data.uuid);
    });

    it('answers 202 {data: {uuid, started_at, is_running}}, runs the snapshot and emits scan-completed with metrics.ts numbers', async () => {
      const w = await agency();
      const res = await w.agency.post('/scans', body());
      expect(res.status).toBe(202);
      expect(res.body).toEqual({ data: { uuid: expect.any(String), started_at: expect.any(String), is_running: true } });
      const uuid = res.body.data.uuid;
      await idle(uuid);
      const scan = (await Scan.findOne({ where: { uuid } }))!;
      expect(await ScanPin.count({ where: { scanId: scan.id } })).toBe(9);
      const snaps = await ScanSnapshot.findAll({ where: { scanId: scan.id } });
      expect(snaps.map((s) => s.status)).toEqual(['completed', 'completed']);
      const results = await ScanResult.findAll({ where: { snapshotId: snaps.map((s) => s.id) } });
      expect(results).toHaveLength(18);

      const detail = await w.agency.get(`/scans/${uuid}`);
      expect(detail.status).toBe(200);
      const pins = await ScanPin.findAll({ where: { scanId: scan.id } });
      const outcomes = results.map((r) => {
        const pin = pins.find((p) => p.id === r.pinId)!;
        return { row: pin.row, col: pin.col, targetRank: r.targetRank, results: r.topResults.map((x) => ({ placeId: x.place_id, name: x.name, rank: x.rank })) };
      });
      const s = metrics.summarise(outcomes);
      expect(detail.body.data).toMatchObject({
        uuid,
        location: 'Main Street Dental',
        keyword: 'dentist',
        keywords: ['dentist', 'teeth whitening'],
        grid_size: 3,
        is_running: false,
        progress: null,
        summary: { average_rank: s.avgRank, top_3_count: s.top3, top_4_to_10_count: s.top4to10, not_ranking_count: s.notRanking },
        available_snapshots: [snaps[0].snapshotAt.toISOString()],
      });
      expect(detail.body.data.report_url).toMatch(new RegExp(`/reports/scans/${uuid}$`));
      expect(detail.body.data.results).toHaveLength(18);
      expect(detail.body.data.results[0]).toEqual({
        lat: expect.any(Number),
        lng: expect.any(Number),
        rank: expect.anything(),
        keyword: 'dentist',
        status: 'complete',
        top_results: expect.any(Array),
      });
      expect(detail.body.data.results.every((r: { top_results: unknown[] }) => r.top_results.length <= 5)).toBe(true);
      expect((await w.agency.get(`/scans/${uuid}?top_n=0`)).body.data.results[0].top_results).toEqual([]);
      expect((await w.agency.get(`/scans/${uuid}?top_n=21`)).status).toBe(422);

      const event = await OutboxEvent.findOne({ where: { aggregateType: 'scan', aggregateId: uuid } });
      expect(event?.event).toBe('scan-completed');
      expect(event?.payload).toEqual({
        webhook_event: 'scan-completed',
        uuid,
        status: 'completed',
        snapshot_at: snaps[0].snapshotAt.toISOString(),
        location: 'Main Street Dental',
        keyword: 'dentist',
        keywords: ['dentist', 'teeth whitening'],
        grid_size: 3,
        summary: { average_rank: s.avgRank, top_3_count: s.top3, top_4_to_10_count: s.top4to10, not_ranking_count: s.notRanking },
        report_url: `/reports/scans/${uuid}`,
      });
    });

    it('emits scan-completed with no summary for a scan without a business to track (its rank is unknown, as its detail says)', async () => {
      const w = await agency();
      const res = await w.agency.post('/scans', body());
      expect(res.status).toBe(202);
      const uuid = res.body.data.uuid;
      await idle(uuid);
      // The business is no longer tracked (a live provider's scan created without one is the same), then runs again.
      expect((await w.agency.put(`/scans/${uuid}`, { target_place_id: null })).status).toBe(200);
      expect((await w.agency.post(`/scans/${uuid}/run`, {})).status).toBe(202);
      await idle(uuid);
      expect((await w.agency.get(`/scans/${uuid}`)).body.data.summary).toBeNull();
      const events = await OutboxEvent.findAll({ where: { aggregateType: 'scan', aggregateId: uuid }, order: [['id', 'ASC']] });
      expect(events.map((e) => [e.event, (e.payload as { summary: unknown }).summary === null])).toEqual([
        ['scan-completed', false],
        ['scan-completed', true],
      ]);
    });

    it('answers 422 provider_not_configured without providers', async () => {
      const w = await agency('none');
      const res = await w.agency.post('/scans', body());
      expect(res.status).toBe(422);
      expect(res.body.code).toBe('provider_not_configured');
    });

    it('answers 422 invalid_grid_params for an unsupported size or pins closer than 100 m', async () => {
      const w = await agency();
      for (const extra of [{ grid_size: 4 }, { grid_size: 15, distance: 0.5 }, { distance: 51 }, { distance: 0 }]) {
        const res = await w.agency.post('/scans', body(extra));
        expect(res.status).toBe(422);
        expect(res.body.code).toBe('invalid_grid_params');
      }
    });

    it('geocodes an address alone and answers 422 missing_coords when geocoding fails', async () => {
      const w = await agency();
      const ok = await w.agency.post('/scans', body({ lat: undefined, lng: undefined, address: '1 Main St, Springfield' }));
      expect(ok.status).toBe(202);
      await idle(ok.body.data.uuid);
      const scan = (await Scan.findOne({ where: { uuid: ok.body.data.uuid } }))!;
      const geo = (await market.geocode('1 Main St, Springfield'))!;
      expect([scan.lat, scan.lng]).toEqual([geo.lat, geo.lng]);
      const bad = await w.agency.post('/scans', body({ lat: undefined, lng: undefined, address: 'nowhere at all' }));
      expect(bad.status).toBe(422);
      expect(bad.body.code).toBe('missing_coords');
      const none = await w.agency.post('/scans', body({ lat: undefined, lng: undefined }));
      expect(none.body.code).toBe('missing_coords');
    });

    it('dry_run: 200 with the cost (one credit per pin search) after the same checks, and nothing created, charged or started', async () => {
      const w = await agency('none'); // no providers: the cost needs none, and no provider is asked
      const before = { scans: await Scan.count(), snapshots: await ScanSnapshot.count() };
      const res = await w.agency.post('/scans', body({ grid_size: 7, keywords: ['dentist', 'teeth whitening', 'dental implants'], dry_run: true }));
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        data: {
          pins: 49,
          keywords: 3,
          credits_per_run: 147,
          schedules: [
            { frequency: 'weekly', runs_per_year: 52, credits_per_year: 7644 },
            { frequency: 'bi-weekly', runs_per_year: 26, credits_per_year: 3822 },
            { frequency: 'monthly', runs_per_year: 12, credits_per_year: 1764 },
          ],
        },
      });
      // Duplicate keywords count once, as a created scan keeps them once; an address needs no geocoding to be priced.
      const dup = await w.agency.post('/scans', body({ keywords: ['dentist', 'Dentist'], lat: undefined, lng: undefined, address: 'nowhere at all', dry_run: true }));
      expect(dup.body.data).toMatchObject({ pins: 9, keywords: 1, credits_per_run: 9 });
      // The create rules still hold, with the create's answers; dry_run false is a create.
      const bad = await w.agency.post('/scans', body({ keywords: [], grid_size: 4, dry_run: true }));
      expect([bad.status, Object.keys(bad.body.errors ?? {})]).toEqual([422, ['keywords']]);
      const grid = await w.agency.post('/scans', body({ grid_size: 4, dry_run: true }));
      expect([grid.status, grid.body.code]).toEqual([422, 'invalid_grid_params']);
      expect((await w.agency.post('/scans', body({ dry_run: 'maybe' }))).body.errors.dry_run).toBeDefined();
      expect((await w.agency.post('/scans', body({ dry_run: false }))).body.code).toBe('provider_not_configured');
      expect({ scans: await Scan.count(), snapshots: await ScanSnapshot.count() }).toEqual(before);
    });

    it('answers 422 with field errors for bad keywords, units and types', async () => {
      const w = await agency();
      const res = await w.agency.post('/scans', body({ keywords: [], distance_unit: 'feet', type: 'shop' }));
      expect(res.status).toBe(422);
      expect(Object.keys(res.body.errors).sort()).toEqual(['distance_unit', 'keywords', 'type']);
      const many = await w.agency.post('/scans', body({ keywords: Array.from({ length: 21 }, (_, i) => `k${i}`) }));
      expect(many.body.errors.keywords).toBeDefined();
      expect((await w.agency.post('/scans', body({ grid_size: 'x' }))).body.errors.grid_size).toBeDefined();
    });

    it('answers 422 for a target_place_id over the 255 characters it is stored in, on create and update, and stores one of 255', async () => {
      const w = await agency();
      const long = await w.agency.post('/scans', body({ target_place_id: 'x'.repeat(256) }));
      expect(long.status).toBe(422);
      expect(long.body.errors.target_place_id).toEqual(['The target place id may not be greater than 255 characters.']);
      expect(await Scan.count({ where: { tenantId: w.tenant.id } })).toBe(0);

      const uuid = (await w.agency.post('/scans', body({ target_place_id: '\u{1F600}'.repeat(255) }))).body.data.uuid;
      expect((await Scan.findOne({ where: { uuid } }))!.targetPlaceId).toBe('\u{1F600}'.repeat(255));
      await idle(uuid);
      const update = await w.agency.put(`/scans/${uuid}`, { location: 'Renamed', target_place_id: 'y'.repeat(256) });
      expect(update.status).toBe(422);
      expect(Object.keys(update.body.errors)).toEqual(['target_place_id']);
      expect((await Scan.findOne({ where: { uuid } }))!).toMatchObject({ location: 'Main Street Dental', targetPlaceId: '\u{1F600}'.repeat(255) });
    });
  });

  describe('runs: 409 while running, failure -> scan-failed', () => {
    it('answers 409 to POST /run while a run goes, then 202 once idle', async () => {
      const w = await agency('live');
      gate = new Promise((r) => (release = r));
      const created = await w.agency.post('/scans', body({ keywords: ['dentist'] }));
      expect(created.status).toBe(202);
      const uuid = created.body.data.uuid;
      const again = await w.agency.post(`/scans/${uuid}/run`);
      expect(again.status).toBe(409);
      // While the run waits on the provider: its progress, 0 of 9 pin searches (one keyword, a 3 x 3 grid).
      expect((await w.agency.get(`/scans/${uuid}`)).body.data).toMatchObject({ is_running: true, progress: { pins_done: 0, pins_total: 9 } });
      expect((await w.agency.get('/scans?completed=false')).body.data.map((s: { uuid: string }) => s.uuid)).toContain(uuid);
      release();
      await idle(uuid);
      const run = await w.agency.post(`/scans/${uuid}/run`);
      expect(run.status).toBe(202);
      expect(run.body.data).toEqual({ uuid, started_at: expect.any(String), is_running: true });
      await idle(uuid);
      expect((await w.agency.get(`/scans/${uuid}/snapshots`)).body.data).toHaveLength(2);
    });

    it('the tick starts a run queued but never started (its process died after the commit) and fails one whose workflow was terminated', async () => {
      const w = await agency('live');
      const uuid = (await w.agency.post('/scans', body({ keywords: ['dentist'] }))).body.data.uuid;
      await idle(uuid);
      // Queued as POST /run queues it, but its workflow never started: the API died between the commit and the start.
      const scan = (await Scan.findOne({ where: { uuid } }))!;
      const queuedAt = new Date(Date.now() - 5 * 60_000);
      const orphan = await Scan.sequelize!.transaction((transaction) => queueRun(scan, queuedAt, transaction, queuedAt));
      expect((await w.agency.post(`/scans/${uuid}/run`)).status).toBe(409);
      expect(await resumeStalledRuns()).toBeGreaterThanOrEqual(1);
      await idle(uuid);
      expect(await ScanSnapshot.count({ where: { runId: orphan, status: 'completed' } })).toBe(1);
      expect((await w.agency.get(`/scans/${uuid}/snapshots`)).body.data).toHaveLength(2);

      // A run going on (the provider held), its workflow terminated by an operator: the tick lets the scan run again.
      gate = new Promise((r) => (release = r));
      expect((await w.agency.post(`/scans/${uuid}/run`)).status).toBe(202);
      const runId = (await Scan.findOne({ where: { uuid } }))!.currentRunId!;
      // Within the grace a run's workflow may still be starting: left alone.
      await resumeStalledRuns();
      expect((await Scan.findOne({ where: { uuid } }))!).toMatchObject({ isRunning: true, currentRunId: runId });
      await temporal().client.workflow.getHandle(scanRunWorkflowId(uuid, runId)).terminate('operator');
      release();
      const { fixedClock } = await import('../../../src/domain/clock');
      await resumeStalledRuns({ clock: fixedClock(new Date(Date.now() + 5 * 60_000)) });
      expect((await Scan.findOne({ where: { uuid } }))!).toMatchObject({ isRunning: false, currentRunId: null, lastRunFailed: true, lastError: "The run's workflow ended (terminated) without finishing the run." });
      expect(await ScanSnapshot.count({ where: { runId, status: 'failed' } })).toBe(1);
      expect((await w.agency.post(`/scans/${uuid}/run`)).status).toBe(202);
      await idle(uuid);
    });

    it('fails the run on a provider refusal: scan-failed, last run failed, no snapshot (empty data points, null summary)', async () => {
      const w = await agency('live', 'wrong-password');
      const created = await w.agency.post('/scans', body({ keywords: ['dentist'] }));
      const uuid = created.body.data.uuid;
      await idle(uuid);
      const event = await OutboxEvent.findOne({ where: { aggregateType: 'scan', aggregateId: uuid } });
      expect(event?.event).toBe('scan-failed');
      expect(event?.payload).toEqual({ webhook_event: 'scan-failed', uuid, status: 'failed', error_message: expect.any(String), failed_at: expect.any(String) });
      expect((await w.agency.get('/scans?failed=true')).body.data.map((s: { uuid: string }) => s.uuid)).toEqual([uuid]);
      const points = await w.agency.get(`/scans/${uuid}/data_points`);
      expect(points.status).toBe(200);
      expect(points.body.data).toEqual([]);
      expect(points.body.meta.total).toBe(0);
      const insights = await w.agency.get(`/scans/${uuid}/insights`);
      expect(insights.status).toBe(200);
      expect(insights.body.data.summary).toBeNull();
      expect((await w.agency.get(`/scans/${uuid}`)).body.data.summary).toBeNull();
    });

    it('answers 422 provider_not_configured to POST /run when the providers are gone', async () => {
      const w = await agency();
      const created = await w.agency.post('/scans', body({ keywords: ['dentist'] }));
      await idle(created.body.data.uuid);
      const { GridProviderSetting } = await import('../../../src/models');
      await GridProviderSetting.destroy({ where: { tenantId: w.tenant.id } });
      const res = await w.agency.post(`/scans/${created.body.data.uuid}/run`);
      expect(res.status).toBe(422);
      expect(res.body.code).toBe('provider_not_configured');
    });
  });

  describe('reads of a completed scan', () => {
    it('compares a snapshot with the one before, pin by pin: gained, lost, same, and who moved past whom', async () => {
      const w = await agency();
      const uuid = (await w.agency.post('/scans', body({ keywords: ['dentist'] }))).body.data.uuid;
      await idle(uuid);
      // One snapshot only: nothing to compare with yet.
      const alone = await w.agency.get(`/scans/${uuid}/pin-changes`);
      expect(alone.status).toBe(200);
      expect(alone.body.data).toMatchObject({ scan_uuid: uuid, keyword: 'dentist', previous_snapshot_at: null, pins: [] });
      await w.agency.post(`/scans/${uuid}/run`);
      await idle(uuid);
      const [older, newer] = await ScanSnapshot.findAll({ where: { scanId: (await Scan.findOne({ where: { uuid } }))!.id }, order: [['snapshotAt', 'ASC']] });
      // The market is deterministic: make every pin the same in both, then move two pins.
      const me = { place_id: target.placeId, name: 'Main Street Dental' };
      const a = { place_id: 'place-a', name: 'Alpha Dental' };
      const b = { place_id: 'place-b', name: 'Beta Dental' };
      const top = (...places: Array<typeof me>) => places.map((p, i) => ({ ...p, rank: i + 1 }));
      await ScanResult.update({ targetRank: 2, topResults: top(a, me, b) }, { where: { snapshotId: [older.id, newer.id] } });
      const [lostPin, gainedPin] = (await ScanResult.findAll({ where: { snapshotId: newer.id }, order: [['pinId', 'ASC']] })).slice(0, 2);
      await lostPin.update({ targetRank: 3, topResults: top(a, b, me) });
      await ScanResult.update({ targetRank: 3, topResults: top(a, b, me) }, { where: { snapshotId: older.id, pinId: gainedPin.pinId } });
      await gainedPin.update({ targetRank: 1, topResults: top(me, a, b) });

      const res = await w.agency.get(`/scans/${uuid}/pin-changes?keyword=dentist`);
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({ snapshot_at: newer.snapshotAt.toISOString(), previous_snapshot_at: older.snapshotAt.toISOString(), gained: 1, lost: 1, same: 7 });
      const byPin = (r: ScanResult) => res.body.data.pins.find((p: { lat: number; lng: number }) => p.lat === r.lat && p.lng === r.lng);
      expect(byPin(lostPin)).toEqual({ lat: lostPin.lat, lng: lostPin.lng, rank: 3, previous_rank: 2, change: 'lost', overtaken_by: [{ ...b, rank: 2 }], overtook: [] });
      expect(byPin(gainedPin)).toEqual({
        lat: gainedPin.lat,
        lng: gainedPin.lng,
        rank: 1,
        previous_rank: 3,
        change: 'gained',
        overtaken_by: [],
        overtook: [
          { ...a, rank: 1 },
          { ...b, rank: 2 },
        ],
      });
      // The same pair asked for explicitly; compare_to must be earlier; an unknown snapshot is 404; another tenant's scan 404.
      const explicit = await w.agency.get(`/scans/${uuid}/pin-changes?snapshot_at=${newer.snapshotAt.toISOString()}&compare_to=${older.snapshotAt.toISOString()}`);
      expect(explicit.body.data.gained).toBe(1);
      const backwards = await w.agency.get(`/scans/${uuid}/pin-changes?snapshot_at=${older.snapshotAt.toISOString()}&compare_to=${newer.snapshotAt.toISOString()}`);
      expect([backwards.status, Object.keys(backwards.body.errors ?? {})]).toEqual([422, ['compare_to']]);
      expect((await w.agency.get(`/scans/${uuid}/pin-changes?compare_to=2020-01-01T00:00:00.000Z`)).status).toBe(404);
      const other = await agency();
      expect((await other.agency.get(`/scans/${uuid}/pin-changes`)).status).toBe(404);
    });

    it('pages data points (per_page 1-500, default 100), top_n 0 gives lat/lng/target_rank only, snapshots and insights', async () => {
      const w = await agency();
      const created = await w.agency.post('/scans', body());
      const uuid = created.body.data.uuid;
      await idle(uuid);
      const all = await w.agency.get(`/scans/${uuid}/data_points`);
      expect(all.status).toBe(200);
      expect(all.body.meta).toMatchObject({ per_page: 100, total: 18, current_page: 1, scan_uuid: uuid, keyword: null, top_n: 5 });
      expect(all.body.data[0]).toEqual({
        lat: expect.any(Number),
        lng: expect.any(Number),
        keyword: 'dentist',
        snapshot_at: all.body.meta.snapshot_at,
        target_rank: expect.anything(),
        results: expect.any(Array),
      });
      const page = await w.agency.get(`/scans/${uuid}/data_points?keyword=teeth%20whitening&per_page=4&page=3&top_n=0`);
      expect(page.body.meta).toMatchObject({ per_page: 4, total: 9, current_page: 3, keyword: 'teeth whitening', top_n: 0 });
      expect(page.body.data).toHaveLength(1);
      expect(Object.keys(page.body.data[0]).sort()).toEqual(['lat', 'lng', 'target_rank']);
      for (const bad of ['per_page=0', 'per_page=501', 'top_n=-1', 'snapshot_at=yesterday']) {
        expect((await w.agency.get(`/scans/${uuid}/data_points?${bad}`)).status).toBe(422);
      }
      expect((await w.agency.get(`/scans/${uuid}/data_points?snapshot_at=2020-01-01T00:00:00.000Z`)).status).toBe(404);

      const snaps = await w.agency.get(`/scans/${uuid}/snapshots`);
      expect(snaps.body.data).toHaveLength(1);
      const row = snaps.body.data[0];
      const stored = (await ScanSnapshot.findOne({ where: { keyword: 'dentist', scanId: (await Scan.findOne({ where: { uuid } }))!.id } }))!;
      expect(row).toEqual({
        snapshot_at: stored.snapshotAt.toISOString(),
        label: expect.any(String),
        short_label: expect.any(String),
        month_year: expect.any(String),
        avg_rank: stored.avgRank,
        change_from_previous: 0,
        top_3_count: stored.top3Count,
        top_10_count: stored.top10Count,
        below_top_10_count: stored.belowTop10Count,
        not_ranking_count: stored.notRankingCount,
        total_pins: 9,
        visibility_score: stored.visibilityScore,
      });
      const ins = await w.agency.get(`/scans/${uuid}/insights`);
      expect(ins.status).toBe(200);
      expect(ins.body.data).toMatchObject({
        scan_uuid: uuid,
        keyword: 'dentist',
        summary: { avg_rank: stored.avgRank, visibility_score: stored.visibilityScore, total_pins: 9 },
        trends_vs_first_snapshot: null,
        trends_vs_previous_snapshot: null,
      });
      expect(ins.body.data.recommendations.length).toBeGreaterThan(0);
      expect(ins.body.data.top_competitors[0]).toEqual({ name: expect.any(String), avg_rank: expect.any(Number), visibility: expect.any(Number), threat_score: expect.any(Number) });
    });

    it("finds a keyword's snapshots whatever its letter case, and keeps its history when only its case changes", async () => {
      const w = await agency();
      const uuid = (await w.agency.post('/scans', body())).body.data.uuid;
      await idle(uuid);
      const [first] = (await w.agency.get(`/scans/${uuid}/snapshots`)).body.data;
      expect((await w.agency.get(`/scans/${uuid}/snapshots?keyword=Dentist`)).body.data).toEqual([first]);
      const ins = await w.agency.get(`/scans/${uuid}/insights?keyword=DENTIST`);
      expect(ins.body.data).toMatchObject({ keyword: 'dentist', summary: { avg_rank: first.avg_rank } });
      expect((await w.agency.get(`/scans/${uuid}/data_points?keyword=Dentist`)).body.meta.total).toBe(9);
      // The keyword's case changes: the next run compares with the history, which the default list still shows.
      expect((await w.agency.put(`/scans/${uuid}`, { keywords: ['Dentist', 'teeth whitening'] })).status).toBe(200);
      expect((await w.agency.post(`/scans/${uuid}/run`, {})).status).toBe(202);
      await idle(uuid);
      const history = (await w.agency.get(`/scans/${uuid}/snapshots`)).body.data;
      expect(history).toHaveLength(2);
      expect(history[1]).toEqual(first);
      expect(history[0].change_from_previous).toBe(Math.round((history[0].avg_rank - first.avg_rank) * 100) / 100);
      expect((await w.agency.get(`/scans/${uuid}/insights`)).body.data.trends_vs_previous_snapshot).not.toBeNull();
    });

    it('lists newest first with filters (search, completed, is_scheduled, since_days, archived) and per_page 1-100', async () => {
      const w = await agency();
      const a = (await w.agency.post('/scans', body({ location: 'Alpha Dental' }))).body.data.uuid;
      const b = (await w.agency.post('/scans', body({ location: 'Beta Bakery', keywords: ['bakery'] }))).body.data.uuid;
      await idle(a);
      await idle(b);
      const list = await w.agency.get('/scans');
      expect(list.body.data.map((s: { uuid: string }) => s.uuid)).toEqual([b, a]);
      expect(list.body.meta).toEqual({ current_page: 1, per_page: 20, total: 2 });
      expect(list.body.data[0]).toEqual({
        uuid: b,
        location: 'Beta Bakery',
        keyword: 'bakery',
        keywords: ['bakery'],
        grid_size: 3,
        is_scheduled: false,
        is_running: false,
        last_run_at: expect.any(String),
        next_run_at: null,
      });
      expect((await w.agency.get('/scans?search=bakery')).body.data.map((s: { uuid: string }) => s.uuid)).toEqual([b]);
      expect((await w.agency.get('/scans?search=Alpha')).body.data.map((s: { uuid: string }) => s.uuid)).toEqual([a]);
      expect((await w.agency.get('/scans?completed=1')).body.meta.total).toBe(2);
      expect((await w.agency.get('/scans?is_scheduled=true')).body.meta.total).toBe(0);
      expect((await w.agency.get('/scans?since_days=1')).body.meta.total).toBe(2);
      for (const bad of ['since_days=0', 'since_days=366', 'per_page=101', 'completed=maybe']) {
        expect((await w.agency.get(`/scans?${bad}`)).status).toBe(422);
      }
      expect((await w.agency.post(`/scans/${a}/archive`)).status).toBe(200);
      expect((await w.agency.get('/scans')).body.data.map((s: { uuid: string }) => s.uuid)).toEqual([b]);
      expect((await w.agency.get('/scans?archived_only=true')).body.data.map((s: { uuid: string }) => s.uuid)).toEqual([a]);
      expect((await w.agency.get('/scans?include_archived=true')).body.meta.total).toBe(2);
    });

    it('search matches the keywords themselves, not their JSON text, and the location as before', async () => {
      const w = await agency();
      const a = (await w.agency.post('/scans', body({ location: 'Alpha Dental' }))).body.data.uuid;
      const g = (await w.agency.post('/scans', body({ location: 'Gamma Grill', keywords: ['pizza "best"', 'café'] }))).body.data.uuid;
      await idle(a);
      await idle(g);
      const found = async (term: string) =>
        ((await w.agency.get(`/scans?search=${encodeURIComponent(term)}`)).body.data as Array<{ uuid: string }>).map((s) => s.uuid).sort();
      // Stored as ["dentist","teeth whitening"] and ["pizza \"best\"","café"]: the JSON's punctuation is no keyword's.
      expect(await found('[')).toEqual([]);
      expect(await found('","')).toEqual([]);
      expect(await found('\\')).toEqual([]);
      // A keyword with a double quote is found by its text (the JSON text has `\"` there).
      expect(await found('"best"')).toEqual([g]);
      expect(await found('pizza "best"')).toEqual([g]);
      expect(await found('café')).toEqual([g]);
      expect(await found('WHITENING')).toEqual([a]);
      expect(await found('%')).toEqual([]);
      // The location name as before.
      expect(await found('Alpha')).toEqual([a]);
      expect(await found('grill')).toEqual([g]);
    });
  });

  describe('PUT /scans/{uuid}', () => {
    it('changes metadata always, geometry only with regenerate_pins once a snapshot completed; old snapshots stay queryable', async () => {
      const w = await agency();
      const uuid = (await w.agency.post('/scans', body())).body.data.uuid;
      await idle(uuid);
      const first = (await w.agency.get(`/scans/${uuid}`)).body.data.available_snapshots[0];
      const meta = await w.agency.put(`/scans/${uuid}`, { location: 'Renamed Dental', keywords: ['orthodontist'] });
      expect(meta.status).toBe(200);
      expect(meta.body.data).toMatchObject({ uuid, location: 'Renamed Dental', keyword: 'orthodontist', keywords: ['orthodontist'], grid_size: 3 });
      const refused = await w.agency.put(`/scans/${uuid}`, { grid_size: 5 });
      expect(refused.status).toBe(422);
      expect(refused.body.code).toBe('geometry_change_requires_acknowledgement');
      const ok = await w.agency.put(`/scans/${uuid}`, { grid_size: 5, regenerate_pins: 'true' });
      expect(ok.status).toBe(200);
      expect(ok.body.data.grid_size).toBe(5);
      const scan = (await Scan.findOne({ where: { uuid } }))!;
      expect(await ScanPin.count({ where: { scanId: scan.id, version: scan.pinVersion } })).toBe(25);
      const old = await w.agency.get(`/scans/${uuid}?snapshot_at=${encodeURIComponent(first)}`);
      expect(old.status).toBe(200);
      expect(old.body.data.results).toHaveLength(18);
      expect((await w.agency.put(`/scans/${uuid}`, { keywords: ['x'.repeat(101)] })).status).toBe(422);
    });

    it('allows geometry changes before any completed snapshot, and answers 404 when archived', async () => {
      const w = await agency('live', 'wrong-password');
      const uuid = (await w.agency.post('/scans', body())).body.data.uuid;
      await idle(uuid);
      expect((await w.agency.put(`/scans/${uuid}`, { distance: 3, distance_unit: 'miles' })).status).toBe(200);
      // A snapshot in progress completes on the grid it started with: like a completed one, it asks for the acknowledgement.
      const scan = (await Scan.findOne({ where: { uuid } }))!;
      const running = await ScanSnapshot.create({ tenantId: scan.tenantId, scanId: scan.id, runId: randomUUID(), keyword: 'dentist', pinVersion: scan.pinVersion, snapshotAt: new Date(), status: 'running' });
      const refused = await w.agency.put(`/scans/${uuid}`, { grid_size: 5 });
      expect([refused.status, refused.body.code]).toEqual([422, 'geometry_change_requires_acknowledgement']);
      expect((await w.agency.put(`/scans/${uuid}`, { grid_size: 5, regenerate_pins: true })).status).toBe(200);
      await running.destroy();
      expect((await w.agency.post(`/scans/${uuid}/archive`)).status).toBe(200);
      expect((await w.agency.put(`/scans/${uuid}`, { location: 'x' })).status).toBe(404);
    });
  });

  describe('archive, restore and schedule', () => {
    it('archive clears next_run_at and keeps the schedule; restore recomputes it; both idempotent', async () => {
      const w = await agency();
      const uuid = (await w.agency.post('/scans', body())).body.data.uuid;
      await idle(uuid);
      const set = await w.agency.post(`/scans/${uuid}/schedule`, {
        is_scheduled: true,
        frequency: 'weekly',
        scheduled_from: '09:00',
        scheduled_to: '17:00',
        scheduled_days: [1, 3],
        timezone: 'Europe/London',
      });
      expect(set.status).toBe(200);
      expect(set.body.data).toEqual({
        uuid,
        is_scheduled: true,
        frequency: 'weekly',
        next_run_at: expect.any(String),
        scheduled_from: '09:00',
        scheduled_to: '17:00',
        scheduled_days: [1, 3],
        timezone: 'Europe/London',
      });
      const archived = await w.agency.post(`/scans/${uuid}/archive`);
      expect(archived.body.data).toMatchObject({ uuid, next_run_at: null, is_scheduled: true, archived_at: expect.any(String) });
      expect((await w.agency.post(`/scans/${uuid}/archive`)).body.data.archived_at).toBe(archived.body.data.archived_at);
      expect((await w.agency.get(`/scans/${uuid}/schedule`)).body.data).toMatchObject({ frequency: 'weekly', next_run_at: null });
      const restored = await w.agency.post(`/scans/${uuid}/restore`);
      expect(restored.body.data).toMatchObject({ archived_at: null, next_run_at: expect.any(String) });
      expect((await w.agency.post(`/scans/${uuid}/restore`)).status).toBe(200);
      const off = await w.agency.post(`/scans/${uuid}/schedule`, { is_scheduled: 0 });
      expect(off.body.data).toMatchObject({ is_scheduled: false, next_run_at: null, frequency: 'weekly', scheduled_from: '09:00' });
    });

    it('answers 422 invalid_schedule_window, invalid_timezone and field errors', async () => {
      const w = await agency();
      const uuid = (await w.agency.post('/scans', body())).body.data.uuid;
      await idle(uuid);
      const base = { is_scheduled: true, frequency: 'monthly', scheduled_from: '10:00', scheduled_to: '11:00', timezone: 'America/New_York' };
      const window = await w.agency.post(`/scans/${uuid}/schedule`, { ...base, scheduled_to: '10:00' });
      expect(window.body.code).toBe('invalid_schedule_window');
      const zone = await w.agency.post(`/scans/${uuid}/schedule`, { ...base, timezone: 'Mars/Olympus' });
      expect(zone.body.code).toBe('invalid_timezone');
      expect((await w.agency.post(`/scans/${uuid}/schedule`, { ...base, frequency: 'daily' })).body.errors.frequency).toBeDefined();
      expect((await w.agency.post(`/scans/${uuid}/schedule`, { ...base, scheduled_days: [7] })).body.errors.scheduled_days).toBeDefined();
      expect((await w.agency.post(`/scans/${uuid}/schedule`, {})).body.errors.is_scheduled).toBeDefined();
    });

    it('the tick starts due scheduled runs and advances next_run_at', async () => {
      const w = await agency();
      const uuid = (await w.agency.post('/scans', body({ keywords: ['dentist'] }))).body.data.uuid;
      await idle(uuid);
      await w.agency.post(`/scans/${uuid}/schedule`, { is_scheduled: true, frequency: 'weekly', scheduled_from: '00:00', scheduled_to: '23:00', timezone: 'UTC' });
      const due = (await Scan.findOne({ where: { uuid } }))!.nextRunAt!;
      const { fixedClock } = await import('../../../src/domain/clock');
      const started = await startDueScheduledScans({ clock: fixedClock(new Date(due.getTime() + 1000)) });
      expect(started).toBeGreaterThanOrEqual(1);
      const after = (await Scan.findOne({ where: { uuid } }))!;
      expect(after.nextRunAt!.getTime()).toBeGreaterThanOrEqual(due.getTime() + 7 * 24 * 3600 * 1000);
      await idle(uuid);
      expect((await w.agency.get(`/scans/${uuid}/snapshots`)).body.data).toHaveLength(2);
    });
  });
});
