import { Geodesic } from 'geographiclib-geodesic';
import { ruleViolation } from '../domain/errors';

export const GRID_SIZES = [3, 5, 7, 9, 11, 13, 15] as const;
export const DISTANCE_UNITS = ['km', 'miles'] as const;
export type DistanceUnit = (typeof DISTANCE_UNITS)[number];

const KM_PER_MILE = 1.609344;
/** Neighbouring pins closer than this see the same map results: such a grid wastes provider calls. */
export const MIN_PIN_SPACING_KM = 0.1;
export const MAX_DISTANCE = 50;

export interface GridSpec {
  lat: number;
  lng: number;
  gridSize: number;
  distance: number;
  unit: DistanceUnit;
}

export interface Pin {
  /** Row from the north edge and column from the west edge, 0-based. */
  row: number;
  col: number;
  lat: number;
  lng: number;
}

export const toKm = (distance: number, unit: DistanceUnit): number => (unit === 'miles' ? distance * KM_PER_MILE : distance);

/** Centre-to-centre spacing of neighbouring pins: the outer ring is `distance` from the centre, so 2R / (N - 1). */
export const pinSpacingKm = (spec: Pick<GridSpec, 'gridSize' | 'distance' | 'unit'>): number =>
  (2 * toKm(spec.distance, spec.unit)) / (spec.gridSize - 1);

/**
 * Rejects combinations that make no sense (422 `invalid_grid_params`): a size outside 3..15 odd, a distance
 * outside (0, 50], a centre off the globe, or pins packed closer than 100 m.
 */
export function assertGridParams(spec: GridSpec): void {
  const bad = (message: string): never => {
    throw ruleViolation(message, 'invalid_grid_params');
  };
  if (!(GRID_SIZES as readonly number[]).includes(spec.gridSize)) bad(`grid_size must be one of ${GRID_SIZES.join(', ')}.`);
  if (!(spec.distance > 0 && spec.distance <= MAX_DISTANCE)) bad(`distance must be greater than 0 and at most ${MAX_DISTANCE}.`);
  if (!(spec.lat >= -85 && spec.lat <= 85) || !(spec.lng >= -180 && spec.lng <= 180)) bad('The grid centre must lie within latitude -85..85 and longitude -180..180.');
  const spacing = pinSpacingKm(spec);
  if (spacing < MIN_PIN_SPACING_KM) {
    bad(
      `A ${spec.gridSize}x${spec.gridSize} grid over ${spec.distance} ${spec.unit} puts pins ${Math.round(spacing * 1000)} m apart; ` +
        `pins must be at least ${MIN_PIN_SPACING_KM * 1000} m apart (use a smaller grid or a larger distance).`,
    );
  }
}

/** Walks `km` from a point along an azimuth on the WGS84 ellipsoid. */
function offset(lat: number, lng: number, azimuthDeg: number, km: number): { lat: number; lng: number } {
  const r = Geodesic.WGS84.Direct(lat, lng, azimuthDeg, km * 1000);
  return { lat: r.lat2!, lng: r.lon2! };
}

/** Radius in km of the WGS84 parallel at a (geodetic) latitude: N(lat) x cos(lat). */
function parallelRadiusKm(latDeg: number): number {
  const { a, f } = Geodesic.WGS84;
  const e2 = f * (2 - f);
  const phi = (latDeg * Math.PI) / 180;
  return (a / Math.sqrt(1 - e2 * Math.sin(phi) ** 2)) * Math.cos(phi) / 1000;
}

/** Walks `km` east (negative: west) along the parallel of `lat`: the latitude stays, the longitude wraps into [-180, 180). */
function alongParallel(lat: number, lng: number, km: number): { lat: number; lng: number } {
  const x = lng + ((km / parallelRadiusKm(lat)) * 180) / Math.PI;
  return { lat, lng: x - 360 * Math.floor((x + 180) / 360) };
}

/**
 * The N x N pins, north-west first, row by row. Each row is reached geodesically north or south from the centre
 * along its meridian by the row offset; its pins then lie on that row's parallel, east or west by the column offset
 * measured along the parallel (on the WGS84 ellipsoid). So a row keeps one latitude: a geodesic at heading 90/270
 * would be a great circle bending toward the equator (1.4 km at the edge of a 15 x 15 grid over 50 miles at 70 N).
 */
export function generatePins(spec: GridSpec): Pin[] {
  assertGridParams(spec);
  const spacing = pinSpacingKm(spec);
  const mid = (spec.gridSize - 1) / 2;
  const pins: Pin[] = [];
  for (let row = 0; row < spec.gridSize; row++) {
    const north = (mid - row) * spacing;
    const onRow = north === 0 ? { lat: spec.lat, lng: spec.lng } : offset(spec.lat, spec.lng, north > 0 ? 0 : 180, Math.abs(north));
    for (let col = 0; col < spec.gridSize; col++) {
      const east = (col - mid) * spacing;
      const p = east === 0 ? onRow : alongParallel(onRow.lat, onRow.lng, east);
      pins.push({ row, col, lat: round6(p.lat), lng: round6(p.lng) });
    }
  }
  return pins;
}

/** Geodesic distance in km between two points (for the simulator and tests). */
export function distanceKm(a: { lat: number; lng: number }, b: { lat: number; lng: number }): number {
  return Geodesic.WGS84.Inverse(a.lat, a.lng, b.lat, b.lng).s12! / 1000;
}

const round6 = (x: number) => Math.round(x * 1e6) / 1e6;
