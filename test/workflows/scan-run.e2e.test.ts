import * as metrics from '../../src/grid/metrics';
import { SimulatedMarket } from '../../src/providers/ranking/simulator';
import { Scan, ScanPin, ScanResult, ScanSnapshot } from '../../src/models';
import { configureGridProviders } from '../../src/services/grid-providers.service';
import { scanRunWorkflowId } from '../../workflows/scans/client';
import { useApp } from '../support/app';
import { agencyTokenFor, makeWorld } from '../support/factories';
import { startReceiver } from '../support/receiver';
import { recordHistory, useTemporalWorker } from '../support/temporal';
import { waitUntil } from '../support/wait';

/**
 * A scan run end to end on the real Temporal dev server: `runScan` fans the pin x keyword queries out to the
 * simulated market, stores every result once, computes the snapshots with metrics.ts and delivers scan-completed
 * to a real webhook receiver; a refused provider ends in scan-failed.
 */
jest.setTimeout(90_000);

describe('scan runs on Temporal', () => {
  const t = useApp();
  useTemporalWorker();
  const market = new SimulatedMarket();
  const target = market.nearestPlace('plumber', 51.5074, -0.1278);

  it('completes: one result per pin and keyword, snapshot numbers from metrics.ts, scan-completed delivered', async () => {
    const w = await makeWorld();
    await configureGridProviders({ tenantId: w.tenant.id, mode: 'simulator' });
    const receiver = await startReceiver(() => ({ status: 204 }));
    try {
      expect((await t.as(w.tokens.owner).post('/api/v1/webhooks').send({ url: receiver.url })).status).toBe(201);
      const res = await t
        .as(await agencyTokenFor(w.owner))
        .post('/api/agency/v1/scans')
        .send({ location: 'Pipe Co', keywords: ['plumber', 'emergency plumber'], grid_size: 5, distance: 3, distance_unit: 'km', lat: target.lat, lng: target.lng, target_place_id: target.placeId });
      expect(res.status).toBe(202);
      const uuid = res.body.data.uuid as string;
      await waitUntil(async () => (await Scan.findOne({ where: { uuid } }))?.isRunning === false);
      const scan = (await Scan.findOne({ where: { uuid } }))!;
      expect(scan.lastRunFailed).toBe(false);
      const pins = await ScanPin.findAll({ where: { scanId: scan.id } });
      for (const snap of await ScanSnapshot.findAll({ where: { scanId: scan.id } })) {
        const results = await ScanResult.findAll({ where: { snapshotId: snap.id } });
        expect(results).toHaveLength(25);
        const outcomes = results.map((r) => {
          const pin = pins.find((p) => p.id === r.pinId)!;
          expect(r.topResults.map((x) => x.place_id)).toEqual(market.rank(snap.keyword, pin.lat, pin.lng).map((x) => x.placeId));
          return { row: pin.row, col: pin.col, targetRank: r.targetRank, results: [] };
        });
        const s = metrics.summarise(outcomes);
        expect(snap).toMatchObject({ status: 'completed', avgRank: s.avgRank, top3Count: s.top3, top10Count: s.top10, notRankingCount: s.notRanking, totalPins: 25, visibilityScore: s.visibilityScore });
      }
      await receiver.waitFor(1);
      const delivered = JSON.parse(receiver.received[0].body);
      expect(delivered).toMatchObject({ webhook_event: 'scan-completed', uuid, status: 'completed', grid_size: 5, report_url: `/reports/scans/${uuid}` });
      const runId = (await ScanSnapshot.findOne({ where: { scanId: scan.id } }))!.runId;
      await recordHistory(scanRunWorkflowId(uuid, runId), 'scan-run-completed');
    } finally {
      await receiver.close();
    }
  });

  it('fails on a provider refusal: scan-failed, the scan idle with last_run_failed', async () => {
    const w = await makeWorld();
    await configureGridProviders({
      tenantId: w.tenant.id,
      mode: 'live',
      dataforseoLogin: 'nobody',
      dataforseoPassword: 'wrong',
      googleMapsKey: 'k',
      dataforseoBaseUrl: 'http://127.0.0.1:9/',
    });
    const { GridProviderSetting } = await import('../../src/models');
    // A refusal, deterministically: DataForSEO's wire answer to bad credentials (HTTP 401, status_code 40100).
    const receiver = await startReceiver(() => ({ status: 401, headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ status_code: 40100, status_message: 'You are not authorized.' }) }));
    try {
      await GridProviderSetting.update({ dataforseoBaseUrl: receiver.url.replace(/\/hooks$/, '') }, { where: { tenantId: w.tenant.id } });
      const res = await t
        .as(await agencyTokenFor(w.owner))
        .post('/api/agency/v1/scans')
        .send({ location: 'Pipe Co', keywords: ['plumber'], grid_size: 3, distance: 1, distance_unit: 'km', lat: 51.5, lng: -0.12 });
      const uuid = res.body.data.uuid as string;
      await waitUntil(async () => (await Scan.findOne({ where: { uuid } }))?.isRunning === false);
      const scan = (await Scan.findOne({ where: { uuid } }))!;
      expect(scan.lastRunFailed).toBe(true);
      expect(scan.lastError).toContain('not authorized');
      const runId = (await ScanSnapshot.findOne({ where: { scanId: scan.id } }))!.runId;
      await recordHistory(scanRunWorkflowId(uuid, runId), 'scan-run-rejected');
    } finally {
      await receiver.close();
    }
  });
});
