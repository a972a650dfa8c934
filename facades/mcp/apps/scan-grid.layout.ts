/**
 * The scan-grid View's geometry and colours, apart from the DOM so the server's tests can read them and the browser
 * bundle (scan-grid.view.mjs, bundled by esbuild) shares them: which colour a pin takes, where it lands on the canvas
 * (Web Mercator, so pins sit on map tiles when tiles are configured), and which tiles cover the canvas.
 */

/** A pin of get_scan's `results` (structuredContent), as far as the View reads it. */
export interface GridPin {
  lat: number;
  lng: number;
  rank: number | null;
  keyword: string;
  status: string;
  top_results?: Array<{ name: string; rank: number }>;
}

export type BucketKey = 'top3' | 'top10' | 'top20' | 'none' | 'unknown';

/** Rank bands, best first: green, amber, orange, red; a pin without a result (failed query) is grey. */
export const BUCKETS: ReadonlyArray<{ key: BucketKey; label: string; colour: string }> = [
  { key: 'top3', label: 'Rank 1-3', colour: '#1e8e3e' },
  { key: 'top10', label: 'Rank 4-10', colour: '#e8a200' },
  { key: 'top20', label: 'Rank 11-20', colour: '#e8710a' },
  { key: 'none', label: 'Not ranking (20+)', colour: '#d93025' },
  { key: 'unknown', label: 'No result', colour: '#8a929c' },
];

export function bucketOf(pin: Pick<GridPin, 'rank' | 'status'>): BucketKey {
  if (pin.status !== 'complete') return 'unknown';
  const r = pin.rank;
  if (r == null || r > 20) return 'none';
  if (r <= 3) return 'top3';
  if (r <= 10) return 'top10';
  return 'top20';
}

export const colourOf = (key: BucketKey): string => BUCKETS.find((b) => b.key === key)!.colour;

/** What a pin shows: its rank, `20+` when the business is not in the top 20, `-` when the pin has no result. */
export const pinLabel = (pin: Pick<GridPin, 'rank' | 'status'>): string => (pin.status !== 'complete' ? '-' : pin.rank == null ? '20+' : String(pin.rank));

/** Pins per rank band, every band present. */
export function bucketCounts(pins: ReadonlyArray<Pick<GridPin, 'rank' | 'status'>>): Record<BucketKey, number> {
  const out: Record<BucketKey, number> = { top3: 0, top10: 0, top20: 0, none: 0, unknown: 0 };
  for (const p of pins) out[bucketOf(p)]++;
  return out;
}

/** Web Mercator in world units: x and y in [0, 1], y growing southwards (the XYZ tiles' convention). */
export function mercator(lat: number, lng: number): { x: number; y: number } {
  const clamped = Math.max(-85.05112878, Math.min(85.05112878, lat));
  const s = Math.sin((clamped * Math.PI) / 180);
  return { x: (lng + 180) / 360, y: 0.5 - Math.log((1 + s) / (1 - s)) / (4 * Math.PI) };
}

export interface Placed<P> {
  pin: P;
  x: number;
  y: number;
}

export interface GridLayout<P> {
  width: number;
  height: number;
  /** Canvas pixels per world unit (256 * 2^zoom for a fractional zoom). */
  scale: number;
  /** The world point drawn at canvas (0, 0). */
  origin: { x: number; y: number };
  pins: Placed<P>[];
  /** The grid's centre: the business's position (a scan's grid is laid out around it). */
  centre: { x: number; y: number; lat: number; lng: number };
  /** Pin radius in canvas pixels. */
  radius: number;
  /** Kilometres between neighbouring pins (null for a single pin). */
  spacingKm: number | null;
}

/** A longitude (or a difference of two) wrapped into (-180, 180]. */
export function wrapLng(lng: number): number {
  const r = ((lng % 360) + 360) % 360;
  return r > 180 ? r - 360 : r;
}

/** `lng - from` the short way round, in (-180, 180]: east positive, across the antimeridian too. */
export const lngDelta = (lng: number, from: number): number => wrapLng(lng - from);

const EARTH_KM = 6371.0088;

export function distanceKm(a: { lat: number; lng: number }, b: { lat: number; lng: number }): number {
  const rad = Math.PI / 180;
  const dLat = (b.lat - a.lat) * rad;
  const dLng = (b.lng - a.lng) * rad;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a.lat * rad) * Math.cos(b.lat * rad) * Math.sin(dLng / 2) ** 2;
  return 2 * EARTH_KM * Math.asin(Math.min(1, Math.sqrt(h)));
}

/**
 * Fits the pins into a `width` x `height` canvas with `padding` pixels clear on every side, one scale for both axes,
 * the grid's centre in the middle. The centre is the middle of the pins' bounding box: every grid is laid out
 * symmetrically around the scan's position, so for an odd grid it is the middle pin.
 */
export function layoutGrid<P extends Pick<GridPin, 'lat' | 'lng'>>(pins: readonly P[], opts: { width: number; height: number; padding: number; gridSize?: number }): GridLayout<P> {
  const { width, height, padding } = opts;
  const lats = pins.map((p) => p.lat);
  const centreLat = pins.length ? (Math.min(...lats) + Math.max(...lats)) / 2 : 0;
  // Longitudes relative to the first pin, wrapped: a grid across the antimeridian (179.9 .. -179.9) spans 0.2 degrees,
  // not 359.8.
  const lng0 = pins.length ? pins[0].lng : 0;
  const rel = pins.map((p) => lngDelta(p.lng, lng0));
  const centreLng = pins.length ? wrapLng(lng0 + (Math.min(...rel) + Math.max(...rel)) / 2) : 0;
  const c = mercator(centreLat, centreLng);
  // Each pin's x is the centre's plus its wrapped longitude difference, so it may leave [0, 1] (tilesFor wraps tiles).
  const world = pins.map((pin) => ({ pin, x: c.x + lngDelta(pin.lng, centreLng) / 360, y: mercator(pin.lat, pin.lng).y }));
  const spanX = Math.max(1e-12, ...world.map((w) => Math.abs(w.x - c.x) * 2));
  const spanY = Math.max(1e-12, ...world.map((w) => Math.abs(w.y - c.y) * 2));
  const scale = Math.min((width - 2 * padding) / spanX, (height - 2 * padding) / spanY);
  const origin = { x: c.x - width / 2 / scale, y: c.y - height / 2 / scale };
  const n = Math.max(2, opts.gridSize ?? Math.round(Math.sqrt(pins.length)));
  const spacingPx = Math.min(width - 2 * padding, height - 2 * padding) / (n - 1);
  const radius = Math.max(9, Math.min(24, spacingPx * 0.38));
  let spacingKm: number | null = null;
  if (pins.length > 1) {
    // The nearest neighbour of the pin closest to the centre: the grid's step on the ground.
    const off = (p: P) => Math.abs(p.lat - centreLat) + Math.abs(lngDelta(p.lng, centreLng));
    const first = [...pins].sort((a, b) => off(a) - off(b))[0];
    const others = pins.filter((p) => p !== first).map((p) => distanceKm(first, p));
    spacingKm = Math.min(...others);
  }
  return {
    width,
    height,
    scale,
    origin,
    pins: world.map((w) => ({ pin: w.pin, x: (w.x - origin.x) * scale, y: (w.y - origin.y) * scale })),
    centre: { x: (c.x - origin.x) * scale, y: (c.y - origin.y) * scale, lat: centreLat, lng: centreLng },
    radius,
    spacingKm,
  };
}

export interface Tile {
  z: number;
  x: number;
  y: number;
  /** Where the tile's top-left corner lands on the canvas, and its drawn size (pixels). */
  left: number;
  top: number;
  size: number;
}

/** The XYZ tiles (256 px at their zoom) that cover the canvas of `layout`, at the zoom nearest its scale. */
export function tilesFor(layout: Pick<GridLayout<unknown>, 'width' | 'height' | 'scale' | 'origin'>, maxZoom = 19): Tile[] {
  const z = Math.max(0, Math.min(maxZoom, Math.round(Math.log2(layout.scale / 256))));
  const count = 2 ** z;
  const size = layout.scale / count;
  const x0 = Math.floor(layout.origin.x * count);
  const y0 = Math.max(0, Math.floor(layout.origin.y * count));
  const x1 = Math.floor((layout.origin.x + layout.width / layout.scale) * count);
  const y1 = Math.min(count - 1, Math.floor((layout.origin.y + layout.height / layout.scale) * count));
  const tiles: Tile[] = [];
  for (let ty = y0; ty <= y1; ty++) {
    for (let tx = x0; tx <= x1; tx++) {
      tiles.push({ z, x: ((tx % count) + count) % count, y: ty, left: (tx / count - layout.origin.x) * layout.scale, top: (ty / count - layout.origin.y) * layout.scale, size });
    }
  }
  return tiles;
}

/** A tile's address from an XYZ template (`{z}`, `{x}`, `{y}`). */
export const tileUrl = (template: string, t: Pick<Tile, 'z' | 'x' | 'y'>): string =>
  template.replace('{z}', String(t.z)).replace('{x}', String(t.x)).replace('{y}', String(t.y));
