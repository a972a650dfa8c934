import { randomUUID } from 'node:crypto';
import { generatePins } from '../../src/grid/pins';
import { SimulatedMarket } from '../../src/providers/ranking/simulator';
import { GridProviderSetting, OutboxEvent, Scan, ScanPin, ScanResult, ScanSnapshot } from '../../src/models';
import { seedDemo } from '../../src/services/demo.service';
import { useApp } from '../support/app';

/**
 * The demo's Local Search Grid scan (`seedDemoScan`, called by the demo seed): it exists with one completed
 * snapshot on the simulated market, and every number of that snapshot matches what the formulas of
 * docs/decisions/local-search-grid.md give when recomputed here, by hand, from the stored per-pin results.
 */
jest.setTimeout(60_000);

const round = (x: number, digits: number) => Math.round(x * 10 ** digits) / 10 ** digits;

/** The decisions' formulas, written out independently of src/grid/metrics.ts. */
function recompute(ranks: Array<number | null>) {
  const n = ranks.length;
  const found = ranks.filter((r): r is number => r != null);
  const top3 = found.filter((r) => r <= 3).length;
  const top10 = found.filter((r) => r <= 10).length;
  return {
    avgRank: round(ranks.reduce<number>((s, r) => s + (r ?? 21), 0) / n, 2),
    top3,
    top4to10: top10 - top3,
    top10,
    belowTop10: found.length - top10,
    notRanking: n - found.length,
    totalPins: n,
    visibility: round((100 * found.reduce((s, r) => s + (21 - r) / 20, 0)) / n, 1),
  };
}

describe('seedDemoScan (through the demo seed)', () => {
  const t = useApp();
  const market = new SimulatedMarket();

  it('creates a 7 x 7 scan on the simulated market with one completed snapshot whose numbers match its stored results', async () => {
    const { tenant, tokens } = await seedDemo({ reviews: 0, domain: `demo-scan-${randomUUID().slice(0, 8)}.test` });
    expect((await GridProviderSetting.findByPk(tenant.id))?.mode).toBe('simulator');
    const scans = await Scan.findAll({ where: { tenantId: tenant.id } });
    expect(scans).toHaveLength(1);
    const scan = scans[0];
    expect(scan).toMatchObject({ gridSize: 7, distance: 3, distanceUnit: 'km', keywords: ['dentist', 'teeth whitening'], isRunning: false, lastRunFailed: false, archivedAt: null });
    const target = market.nearestPlace('dentist', 30.2672, -97.7431);
    expect([scan.targetPlaceId, scan.location, scan.lat, scan.lng]).toEqual([target.placeId, target.name, target.lat, target.lng]);

    // The pins are the scan's geometry; one snapshot time, one completed row per keyword.
    const pins = await ScanPin.findAll({ where: { scanId: scan.id }, order: [['id', 'ASC']] });
    const expectedPins = generatePins({ lat: scan.lat, lng: scan.lng, gridSize: 7, distance: 3, unit: 'km' });
    expect(pins.map((p) => [p.row, p.col, p.lat, p.lng])).toEqual(expectedPins.map((p) => [p.row, p.col, p.lat, p.lng]));
    const snaps = await ScanSnapshot.findAll({ where: { scanId: scan.id }, order: [['id', 'ASC']] });
    expect(snaps.map((s) => [s.keyword, s.status])).toEqual([
      ['dentist', 'completed'],
      ['teeth whitening', 'completed'],
    ]);
    expect(snaps[1].snapshotAt.getTime()).toBe(snaps[0].snapshotAt.getTime());

    const allRanks: Array<number | null> = [];
    for (const snap of snaps) {
      const results = await ScanResult.findAll({ where: { snapshotId: snap.id } });
      expect(results).toHaveLength(49);
      expect(new Set(results.map((r) => r.pinId)).size).toBe(49);
      // Each stored result is the market's answer at that pin, and the target rank is read from it.
      for (const r of results) {
        const pin = pins.find((p) => p.id === r.pinId)!;
        const answer = market.rank(snap.keyword, pin.lat, pin.lng);
        expect(r.topResults.map((x) => [x.place_id, x.rank])).toEqual(answer.map((x) => [x.placeId, x.rank]));
        expect(r.targetRank).toBe(answer.find((x) => x.placeId === target.placeId)?.rank ?? null);
      }
      const ranks = results.map((r) => r.targetRank);
      allRanks.push(...ranks);
      const m = recompute(ranks);
      expect(snap).toMatchObject({
        avgRank: m.avgRank,
        top3Count: m.top3,
        top10Count: m.top10,
        belowTop10Count: m.belowTop10,
        notRankingCount: m.notRanking,
        totalPins: 49,
        visibilityScore: m.visibility,
        changeFromPrevious: 0,
      });
    }
    // Not a degenerate demo: the target (the business nearest the centre) is in the top 20 at the centre pin.
    const centre = pins.find((p) => p.row === 3 && p.col === 3)!;
    expect((await ScanResult.findOne({ where: { snapshotId: snaps[0].id, pinId: centre.id } }))!.targetRank).toEqual(expect.any(Number));

    // The agency API reports the same numbers; the run wrote its scan-completed event.
    const agencyToken = tokens.find((x) => x.kind === 'agency')!.token;
    const detail = await t.as(agencyToken).get(`/api/agency/v1/scans/${scan.uuid}`);
    expect(detail.status).toBe(200);
    const all = recompute(allRanks);
    expect(detail.body.data).toMatchObject({
      is_running: false,
      available_snapshots: [snaps[0].snapshotAt.toISOString()],
      summary: { average_rank: all.avgRank, top_3_count: all.top3, top_4_to_10_count: all.top4to10, not_ranking_count: all.notRanking },
    });
    const history = await t.as(agencyToken).get(`/api/agency/v1/scans/${scan.uuid}/snapshots`);
    const first = recompute(allRanks.slice(0, 49));
    expect(history.body.data).toEqual([
      expect.objectContaining({ snapshot_at: snaps[0].snapshotAt.toISOString(), avg_rank: first.avgRank, visibility_score: first.visibility, total_pins: 49, change_from_previous: 0 }),
    ]);
    const events = await OutboxEvent.findAll({ where: { aggregateType: 'scan', aggregateId: scan.uuid } });
    expect(events.map((e) => e.event)).toEqual(['scan-completed']);
  });
});
