import { randomUUID } from 'node:crypto';
import { generatePins, type DistanceUnit } from '../../src/grid/pins';
import type { MapResult } from '../../src/providers/ranking/types';
import { Scan, ScanPin, ScanSnapshot } from '../../src/models';
import { completeRun, storePinResult } from '../../src/jobs/scan-runs';

/**
 * Scans with hand-made results for the report page tests: every snapshot is stored pin by pin and completed through
 * the scan service (storePinResult + completeRun), so summaries and `change_from_previous` are the service's own.
 */

export interface PinPos {
  row: number;
  col: number;
}

export interface Rival {
  placeId: string;
  name: string;
  /** Pins where the rival is in the results (default: every pin). */
  where?: (pin: PinPos) => boolean;
}

export interface SeedSnapshot {
  at: Date;
  /** The target's rank at a pin for a keyword; null = not in the top 20. The rivals fill the other places. */
  rank?: (pin: PinPos, keyword: string) => number | null;
  /** Or the whole answer of the provider at a pin (e.g. the simulated market's). */
  results?: (pin: PinPos & { lat: number; lng: number }, keyword: string) => MapResult[];
}

export const TARGET_PLACE_ID = 'place-target';

/** The target at its rank, the rivals in their order on the other places. */
function rivalResults(targetName: string, rivals: Rival[], targetRank: number | null, pos: PinPos): MapResult[] {
  const results: MapResult[] = [];
  if (targetRank != null) results.push({ placeId: TARGET_PLACE_ID, name: targetName, rank: targetRank });
  let next = 1;
  for (const r of rivals) {
    if (r.where && !r.where(pos)) continue;
    if (next === targetRank) next++;
    if (next > 20) break;
    results.push({ placeId: r.placeId, name: r.name, rank: next++ });
  }
  return results;
}

export async function seedReportScan(input: {
  tenantId: number;
  location?: string;
  address?: string;
  keywords?: string[];
  gridSize?: number;
  distance?: number;
  unit?: DistanceUnit;
  lat?: number;
  lng?: number;
  rivals?: Rival[];
  snapshots: SeedSnapshot[];
  archived?: boolean;
  /** The business tracked (default TARGET_PLACE_ID); null: none (a live scan with no business to track). */
  targetPlaceId?: string | null;
}): Promise<Scan> {
  const gridSize = input.gridSize ?? 5;
  const keywords = input.keywords ?? ['dentist', 'teeth whitening'];
  const centre = { lat: input.lat ?? 51.5072, lng: input.lng ?? -0.1276 };
  const distance = input.distance ?? 2;
  const unit = input.unit ?? 'km';
  const rivals = input.rivals ?? [];
  const scan = await Scan.create({
    uuid: randomUUID(),
    tenantId: input.tenantId,
    ownerCustomerId: null,
    location: input.location ?? 'Main Street Dental',
    address: input.address ?? '12 Main Street, London',
    keywords,
    gridSize,
    distance,
    distanceUnit: unit,
    type: 'business',
    targetPlaceId: input.targetPlaceId === undefined ? TARGET_PLACE_ID : input.targetPlaceId,
    lat: centre.lat,
    lng: centre.lng,
    pinVersion: 1,
  });
  const pins = await ScanPin.bulkCreate(generatePins({ ...centre, gridSize, distance, unit }).map((p) => ({ tenantId: scan.tenantId, scanId: scan.id, version: 1, ...p })));
  for (const snap of input.snapshots) {
    const runId = randomUUID();
    const snapshots = await ScanSnapshot.bulkCreate(keywords.map((keyword) => ({ tenantId: scan.tenantId, scanId: scan.id, runId, keyword, pinVersion: 1, snapshotAt: snap.at, status: 'running' })));
    await scan.update({ isRunning: true, currentRunId: runId, lastRunAt: snap.at });
    for (const s of snapshots) {
      for (const pin of pins) {
        const pos = { row: pin.row, col: pin.col };
        const results = snap.results ? snap.results({ ...pos, lat: pin.lat, lng: pin.lng }, s.keyword) : rivalResults(scan.location, rivals, snap.rank?.(pos, s.keyword) ?? null, pos);
        await storePinResult({ tenantId: input.tenantId, snapshotId: s.id, pinId: pin.id, keyword: s.keyword, lat: pin.lat, lng: pin.lng, targetPlaceId: scan.targetPlaceId }, results);
      }
    }
    await completeRun(runId);
  }
  if (input.archived) await scan.update({ archivedAt: new Date(), isScheduled: false, nextRunAt: null });
  return scan.reload();
}

/** A scan with no completed snapshot yet (its first run still going). */
export async function seedPendingScan(tenantId: number, location = 'Fresh Smiles'): Promise<Scan> {
  const scan = await seedReportScan({ tenantId, location, snapshots: [] });
  const runId = randomUUID();
  await ScanSnapshot.bulkCreate(scan.keywords.map((keyword) => ({ tenantId: scan.tenantId, scanId: scan.id, runId, keyword, pinVersion: 1, snapshotAt: new Date(), status: 'running' })));
  await scan.update({ isRunning: true, currentRunId: runId });
  return scan;
}
