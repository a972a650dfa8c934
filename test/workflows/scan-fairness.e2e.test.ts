import { randomUUID } from 'node:crypto';
import { QueryTypes } from 'sequelize';
import { SimulatedMarket } from '../../src/providers/ranking/simulator';
import { Scan, ScanSnapshot } from '../../src/models';
import { configureGridProviders } from '../../src/services/grid-providers.service';
import { buildActivities } from '../../workflows/activities';
import { connectTemporal, disconnectTemporal, dispatcherWorkflowId, ensureDispatcher, temporal, type TemporalSettings } from '../../workflows/client';
import { configureScanEngine, scanPinQueue, scanRunWorkflowId } from '../../workflows/scans/client';
import { runWorker, type RunningWorker } from '../../workflows/worker';
import { useApp } from '../support/app';
import { agencyTokenFor, makeWorld } from '../support/factories';
import { startReceiver } from '../support/receiver';
import { quietRuntime, recordHistory } from '../support/temporal';
import { waitUntil } from '../support/wait';
import { testWorkflows } from '../support/workflow-bundle';

/**
 * One tenant's Local Search Grid scans must not stall everyone else's background work (docs/decisions/
 * local-search-grid.md, "one tenant's scans and everyone else's work"). Real parts: the Temporal dev server, a worker
 * with few activity slots (4 on the main queue, 4 for pin queries), MariaDB, the API, the simulated market (free for
 * the tenant) and a webhook receiver. The provider pace is slow, 2 calls a second per tenant.
 *
 * Tenant A creates 8 scans (72 pin searches: 36 s of A's pace); tenant B then creates one (9 searches: 4.5 s of its
 * own pace). Before the fix each of A's queries sat in a worker slot while it waited for A's pace, so B's queries and
 * the outbox dispatcher's activity queued behind A's for half a minute (32 s measured). Now a query whose pace slot is
 * more than half a second away waits for it at the server (no slot), pin queries have their own slots, and at most
 * SCAN_MAX_RUNNING_PER_TENANT (2) of A's runs query at once, the others waiting their turn: B's run and its
 * scan-completed webhook come promptly (5 s measured), and every one of A's runs still completes.
 */
jest.setTimeout(240_000);

const RATE = 2;
const A_SCANS = 8;
const PINS = 9; // a 3 x 3 grid, one keyword
/** B alone needs (PINS - 1) / RATE = 4 s; behind A's queries it needed about 30. */
const PROMPT_MS = 15_000;

describe("one tenant's many scans and another tenant's work", () => {
  const t = useApp();
  const saved = { rate: process.env.SCAN_PROVIDER_RATE_PER_SECOND, stagger: process.env.SCAN_BURST_STAGGER_SECONDS };
  let worker: RunningWorker | null = null;
  let settings: TemporalSettings;

  beforeAll(async () => {
    quietRuntime();
    process.env.WEBHOOK_ALLOW_PRIVATE_URLS = 'true';
    process.env.SCAN_PROVIDER_RATE_PER_SECOND = String(RATE);
    // A's eight creations within a minute all start at once (the burst stagger is another, coarser brake).
    process.env.SCAN_BURST_STAGGER_SECONDS = '0';
    configureScanEngine({ concurrency: 8, maxRunningPerTenant: 2 });
    settings = {
      address: process.env.REVIEWGRID_TEST_TEMPORAL!,
      namespace: 'default',
      taskQueue: `test-fair-${process.env.JEST_WORKER_ID ?? '1'}-${randomUUID().slice(0, 8)}`,
      webhookRetry: { maximumAttempts: 11, initialIntervalMs: 20, maximumIntervalMs: 100, timeoutMs: 2_000 },
      webhookRetryWindowMs: 1_000,
      dispatcher: { pollMs: 200, batchSize: 100 },
    };
    await connectTemporal(settings);
    worker = await runWorker({
      address: settings.address,
      namespace: settings.namespace,
      taskQueue: settings.taskQueue,
      workflows: testWorkflows(),
      activities: buildActivities({ WEBHOOK_TIMEOUT_MS: 2_000, WEBHOOK_ALLOW_PRIVATE_URLS: 'true', WEBHOOK_HANDOFF_MS: 1_500 }),
      slots: { activities: 4 },
      scanPinSlots: 4,
    });
    await ensureDispatcher();
  }, 60_000);

  afterAll(async () => {
    await temporal().client.workflow.getHandle(dispatcherWorkflowId(settings.taskQueue)).terminate('test finished').catch(() => undefined);
    await worker?.stop();
    await disconnectTemporal();
    configureScanEngine({ concurrency: 8, maxRunningPerTenant: 2 });
    for (const [name, value] of [
      ['SCAN_PROVIDER_RATE_PER_SECOND', saved.rate],
      ['SCAN_BURST_STAGGER_SECONDS', saved.stagger],
    ] as const) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  }, 60_000);

  const market = new SimulatedMarket();
  const target = market.nearestPlace('dentist', 41.8781, -87.6298);
  const scanBody = (n: number) => ({ location: `Clinic ${n}`, keywords: ['dentist'], grid_size: 3, distance: 2, distance_unit: 'km', lat: target.lat, lng: target.lng });

  async function tenant() {
    const w = await makeWorld();
    await configureGridProviders({ tenantId: w.tenant.id, mode: 'simulator' });
    return { w, agency: t.as(await agencyTokenFor(w.owner)) };
  }
  const idle = async (uuids: string[]) => (await Scan.count({ where: { uuid: uuids, isRunning: false } })) === uuids.length;
  const runOf = async (uuid: string) => (await ScanSnapshot.findOne({ where: { scanId: (await Scan.findOne({ where: { uuid } }))!.id } }))!.runId;
  const historyOf = async (uuid: string) => (await temporal().client.workflow.getHandle(scanRunWorkflowId(uuid, await runOf(uuid))).fetchHistory()).events ?? [];

  it("tenant B's scan run and its webhook complete promptly while tenant A's eight runs take turns, two at a time", async () => {
    const a = await tenant();
    const b = await tenant();
    const receiver = await startReceiver(() => ({ status: 204 }));
    // A's runs holding a turn, looked at every 100 ms while the test goes.
    let mostHolding = 0;
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        const [row] = await t.db().query<{ n: number }>('SELECT COUNT(*) AS n FROM scans WHERE tenant_id = ? AND is_running = 1 AND run_turn_at IS NOT NULL', {
          replacements: [a.w.tenant.id],
          type: QueryTypes.SELECT,
        });
        mostHolding = Math.max(mostHolding, Number(row.n));
        await new Promise((r) => setTimeout(r, 100));
      }
    })();
    try {
      expect((await t.as(b.w.tokens.owner).post('/api/v1/webhooks').send({ url: receiver.url })).status).toBe(201);
      const aScans: string[] = [];
      for (let n = 1; n <= A_SCANS; n++) {
        const res = await a.agency.post('/api/agency/v1/scans').send(scanBody(n));
        expect(res.status).toBe(202);
        aScans.push(res.body.data.uuid);
      }

      // B's scan: its run is done, and its scan-completed delivered, within a few seconds of its pace.
      const bStart = Date.now();
      const created = await b.agency.post('/api/agency/v1/scans').send(scanBody(0));
      expect(created.status).toBe(202);
      const bScan = created.body.data.uuid as string;
      await waitUntil(() => idle([bScan]), 120_000, 50);
      const bRunMs = Date.now() - bStart;
      const completedEvent = () => receiver.received.find((r) => (JSON.parse(r.body) as { webhook_event?: string }).webhook_event === 'scan-completed');
      await waitUntil(async () => completedEvent() !== undefined, 120_000, 25);
      const bWebhookMs = completedEvent()!.at - bStart;
      expect(JSON.parse(completedEvent()!.body)).toMatchObject({ webhook_event: 'scan-completed', uuid: bScan, status: 'completed' });
      expect(bRunMs).toBeLessThan(PROMPT_MS);
      expect(bWebhookMs).toBeLessThan(PROMPT_MS);
      expect((await Scan.findOne({ where: { uuid: bScan } }))!.lastRunFailed).toBe(false);

      // B's pin queries ran on their own queue, each asking the provider at its first or second attempt (one wait for
      // the pace at the server at most, carried to the retry in its heartbeat details).
      const bHistory = await historyOf(bScan);
      const scheduled = bHistory.filter((e) => e.activityTaskScheduledEventAttributes?.activityType?.name === 'queryScanPin');
      expect(scheduled).toHaveLength(PINS);
      expect(new Set(scheduled.map((e) => e.activityTaskScheduledEventAttributes!.taskQueue!.name))).toEqual(new Set([scanPinQueue(settings.taskQueue)]));
      const scheduledIds = new Set(scheduled.map((e) => String(e.eventId)));
      const attempts = bHistory
        .filter((e) => e.activityTaskStartedEventAttributes && scheduledIds.has(String(e.activityTaskStartedEventAttributes.scheduledEventId)))
        .map((e) => e.activityTaskStartedEventAttributes!.attempt!);
      expect(attempts).toHaveLength(PINS);
      expect(Math.max(...attempts)).toBeLessThanOrEqual(2);

      // A's runs all complete, none failed; at most two of them held a turn at once.
      await waitUntil(() => idle(aScans), 180_000, 200);
      sampling = false;
      await sampler;
      const aRows = await Scan.findAll({ where: { uuid: aScans } });
      expect(aRows.map((s) => [s.lastRunFailed, s.runTurnAt])).toEqual(aScans.map(() => [false, null]));
      expect(mostHolding).toBe(2);
      for (const uuid of aScans) expect(await ScanSnapshot.findAll({ where: { scanId: aRows.find((s) => s.uuid === uuid)!.id } })).toEqual([expect.objectContaining({ status: 'completed', totalPins: PINS })]);
      // The runs that waited were woken by the ones that ended (a signal), not only by their own next look.
      const histories = await Promise.all(aScans.map(historyOf));
      const woken = histories.filter((events) => events.some((e) => e.workflowExecutionSignaledEventAttributes?.signalName === 'scanTurnFreed'));
      expect(woken.length).toBeGreaterThan(0);
      await recordHistory(scanRunWorkflowId(aScans[A_SCANS - 1], await runOf(aScans[A_SCANS - 1])), 'scan-run-waited-turn');
    } finally {
      sampling = false;
      await sampler;
      await receiver.close();
    }
  });
});
