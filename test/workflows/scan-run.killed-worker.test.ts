import type http from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { QueryTypes } from 'sequelize';
import { SimulatedMarket } from '../../src/providers/ranking/simulator';
import { gridProviderSimulator } from '../../src/providers/ranking/simulator-http';
import { OutboxEvent, Scan, ScanPin, ScanResult, ScanSnapshot } from '../../src/models';
import { configureGridProviders } from '../../src/services/grid-providers.service';
import { temporal } from '../../workflows/client';
import { configureScanEngine, scanRunWorkflowId } from '../../workflows/scans/client';
import type { ScanRunResult } from '../../workflows/scans/run.workflow';
import { useApp } from '../support/app';
import { agencyTokenFor, makeWorld } from '../support/factories';
import { useTemporalWorker } from '../support/temporal';
import { waitUntil } from '../support/wait';
import { startWorkerProcess } from '../support/worker-process';

/**
 * A scan run whose worker process is SIGKILLed in the middle: another worker resumes the same workflow from its
 * history. Real parts throughout: the Temporal dev server, MariaDB, a worker in a child process, and a loopback
 * server speaking DataForSEO's wire format (the simulated market behind `gridProviderSimulator`, answering after
 * 250 ms) configured as the tenant's live ranking provider.
 *
 * What the design guarantees, and so what is asserted: a pin query whose activity completed is in the workflow
 * history and is never asked again; a query in flight when the worker died is retried (its result row, if it was
 * stored before the kill, is upserted, never duplicated). So the provider sees at most CONCURRENCY repeated tasks,
 * not zero: a result stored just before the kill, whose completion never reached Temporal, is fetched again.
 */
const CONCURRENCY = 4;
const KEYWORDS = ['plumber', 'emergency plumber'];
const GRID = 7;

describe('a scan run whose worker is killed mid-run', () => {
  const t = useApp();
  const engine = useTemporalWorker();
  const market = new SimulatedMarket();
  const target = market.nearestPlace('plumber', 53.4808, -2.2426);
  /** Every task the provider received, in arrival order, as `keyword|lat,lng` with the arrival time. */
  const tasks: Array<{ key: string; at: number }> = [];
  let server: http.Server;
  let baseUrl = '';

  beforeAll(async () => {
    configureScanEngine({ concurrency: CONCURRENCY, retry: { maximumAttempts: 8, initialIntervalMs: 200, maximumIntervalMs: 1_000 } });
    const app = express();
    app.use(express.json());
    // Counted on arrival, before the simulated latency: a request the dying worker never saw answered still counts.
    app.use((req, _res, next) => {
      const task = Array.isArray(req.body) ? (req.body[0] as { keyword?: string; location_coordinate?: string }) : undefined;
      if (task?.keyword) tasks.push({ key: `${task.keyword}|${task.location_coordinate}`, at: Date.now() });
      next();
    });
    app.use(gridProviderSimulator(market, { login: 'dfs-login', password: 'dfs-secret', apiKey: 'maps-key', delayMs: 250 }));
    server = await new Promise<http.Server>((resolve) => {
      const s = app.listen(0, '127.0.0.1', () => resolve(s));
    });
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    configureScanEngine({ concurrency: 8, retry: undefined });
    await new Promise((r) => server.close(r));
  });

  it('resumes on a new worker: pins x keywords results, none duplicated, one snapshot, one scan-completed, at most CONCURRENCY tasks asked twice', async () => {
    const w = await makeWorld();
    await configureGridProviders({
      tenantId: w.tenant.id,
      mode: 'live',
      dataforseoLogin: 'dfs-login',
      dataforseoPassword: 'dfs-secret',
      googleMapsKey: 'maps-key',
      dataforseoBaseUrl: baseUrl,
      googleMapsBaseUrl: baseUrl,
    });
    const agency = await agencyTokenFor(w.owner);

    // The only worker on the task queue is a child process.
    await engine.stopWorker();
    const worker = await startWorkerProcess(engine.settings(), { LOG_LEVEL: 'warn' });
    try {
      const res = await t
        .as(agency)
        .post('/api/agency/v1/scans')
        .send({ location: 'Pipe Co', keywords: KEYWORDS, grid_size: GRID, distance: 3, distance_unit: 'km', lat: target.lat, lng: target.lng, target_place_id: target.placeId });
      expect(res.status).toBe(202);
      const uuid = res.body.data.uuid as string;
      const scan = (await Scan.findOne({ where: { uuid } }))!;
      const snapshots = await ScanSnapshot.findAll({ where: { scanId: scan.id } });
      expect(snapshots).toHaveLength(KEYWORDS.length);
      const total = GRID * GRID * KEYWORDS.length;
      const stored = () => ScanResult.count({ where: { snapshotId: snapshots.map((s) => s.id) } });

      // Kill it once some, but far from all, results are stored.
      await waitUntil(async () => (await stored()) >= 12, 90_000, 50);
      await worker.kill();
      const killedAt = Date.now();
      const storedAtKill = await ScanResult.findAll({ where: { snapshotId: snapshots.map((s) => s.id) } });
      expect(storedAtKill.length).toBeGreaterThanOrEqual(12);
      expect(storedAtKill.length).toBeLessThan(total);
      expect((await Scan.findByPk(scan.id))!.isRunning).toBe(true);

      await engine.startWorker();
      const outcome = (await temporal().client.workflow.getHandle(scanRunWorkflowId(uuid, snapshots[0].runId)).result()) as ScanRunResult;
      expect(outcome).toEqual({ status: 'completed', queries: total, error: null });
      // The dead worker's queries are retried after the 20 s heartbeat timeout, not the 2-minute start-to-close one
      // (about 30 s from kill to completion here, 130 s without heartbeats); the bound leaves room for a busy machine.
      expect(Date.now() - killedAt).toBeLessThan(100_000);

      // Results: exactly pins x keywords, one per (snapshot, pin), each the provider's answer for that pin.
      const pins = await ScanPin.findAll({ where: { scanId: scan.id } });
      expect(pins).toHaveLength(GRID * GRID);
      const results = await ScanResult.findAll({ where: { snapshotId: snapshots.map((s) => s.id) } });
      expect(results).toHaveLength(total);
      const unique = await t.db().query<{ Key_name: string }>("SHOW INDEX FROM scan_results WHERE Key_name = 'scan_results_snapshot_pin'", { type: QueryTypes.SELECT });
      expect(unique.length).toBeGreaterThan(0);
      const pairs = new Set(results.map((r) => `${r.snapshotId}:${r.pinId}`));
      expect(pairs.size).toBe(total);
      for (const r of results) {
        const pin = pins.find((p) => p.id === r.pinId)!;
        const keyword = snapshots.find((s) => s.id === r.snapshotId)!.keyword;
        expect(r.topResults.map((x) => x.place_id)).toEqual(market.rank(keyword, pin.lat, pin.lng).map((x) => x.placeId));
      }

      // One snapshot (one row per keyword, one snapshot time), completed; the scan idle; one scan-completed.
      const after = await ScanSnapshot.findAll({ where: { scanId: scan.id } });
      expect(after.map((s) => [s.status, s.totalPins])).toEqual(KEYWORDS.map(() => ['completed', GRID * GRID]));
      expect(new Set(after.map((s) => s.snapshotAt.getTime())).size).toBe(1);
      const detail = await t.as(agency).get(`/api/agency/v1/scans/${uuid}`);
      expect(detail.body.data.available_snapshots).toHaveLength(1);
      expect(detail.body.data.results).toHaveLength(total);
      const reloaded = (await Scan.findByPk(scan.id))!;
      expect([reloaded.isRunning, reloaded.lastRunFailed]).toEqual([false, false]);
      const events = await OutboxEvent.findAll({ where: { aggregateType: 'scan', aggregateId: uuid } });
      expect(events.map((e) => e.event)).toEqual(['scan-completed']);

      // The provider: every task asked, at most CONCURRENCY of them twice (the queries in flight at the kill).
      const counts = new Map<string, number>();
      for (const x of tasks) counts.set(x.key, (counts.get(x.key) ?? 0) + 1);
      expect(counts.size).toBe(total);
      const repeated = [...counts.values()].filter((n) => n > 1);
      expect(repeated.every((n) => n === 2)).toBe(true);
      expect(repeated.length).toBeLessThanOrEqual(CONCURRENCY);
      expect(tasks.length - total).toBe(repeated.length);
      // Stored results whose completion Temporal recorded are not fetched again: only in-flight ones may be.
      const keyOf = (r: ScanResult) => {
        const pin = pins.find((p) => p.id === r.pinId)!;
        return `${snapshots.find((s) => s.id === r.snapshotId)!.keyword}|${pin.lat.toFixed(7)},${pin.lng.toFixed(7)},15z`;
      };
      const storedKeys = new Set(storedAtKill.map(keyOf));
      expect([...storedKeys].every((k) => counts.has(k))).toBe(true);
      const refetchedStored = tasks.filter((x) => x.at > killedAt && storedKeys.has(x.key));
      expect(refetchedStored.length).toBeLessThanOrEqual(CONCURRENCY);
    } finally {
      await worker.kill();
    }
  }, 300_000);
});
