import { layoutGrid, lngDelta } from '../../facades/mcp/apps/scan-grid.layout';
import { generatePins } from '../../src/grid/pins';

/** The get_scan heat map's layout (facades/mcp/apps/scan-grid.layout.ts) of a grid that straddles the antimeridian. */
describe('scan-grid layout across the antimeridian', () => {
  const spec = { lat: -16.8, lng: 179.98, gridSize: 3, distance: 5, unit: 'km' as const };
  const pins = generatePins(spec);

  it('the grid really crosses it (the east column is at negative longitudes)', () => {
    expect(pins.filter((p) => p.col === 2).every((p) => p.lng < -179)).toBe(true);
    expect(pins.filter((p) => p.col < 2).every((p) => p.lng > 179)).toBe(true);
  });

  it('draws three distinct, evenly spaced columns per row, the middle pin on the centre', () => {
    const layout = layoutGrid(pins, { width: 600, height: 600, padding: 40, gridSize: 3 });
    expect(layout.centre.lng).toBeCloseTo(179.98, 6);
    expect(layout.centre.x).toBeCloseTo(300, 3);
    expect(layout.centre.y).toBeCloseTo(300, 3);
    for (let row = 0; row < 3; row++) {
      const xs = layout.pins.filter((p) => p.pin.row === row).sort((a, b) => a.pin.col - b.pin.col).map((p) => p.x);
      expect(new Set(xs.map((x) => Math.round(x))).size).toBe(3);
      expect(xs[0]).toBeLessThan(xs[1]);
      expect(xs[1]).toBeLessThan(xs[2]);
      expect(xs[1] - xs[0]).toBeCloseTo(xs[2] - xs[1], 3);
      // The grid fills the canvas between the paddings (one scale for both axes: about 260 px between columns).
      expect(xs[2] - xs[0]).toBeGreaterThan(400);
      expect(xs[1]).toBeCloseTo(layout.centre.x, 3);
    }
    // Every pin on the canvas.
    for (const p of layout.pins) {
      expect(p.x).toBeGreaterThanOrEqual(0);
      expect(p.x).toBeLessThanOrEqual(600);
    }
    // The step on the ground, not half the globe.
    expect(layout.spacingKm).toBeCloseTo(5, 1);
  });

  it('wraps longitude differences into (-180, 180]', () => {
    expect(lngDelta(-179.973, 179.98)).toBeCloseTo(0.047, 9);
    expect(lngDelta(179.933, 179.98)).toBeCloseTo(-0.047, 9);
    expect(lngDelta(180, -180)).toBe(0);
    expect(lngDelta(0, 180)).toBe(180);
    expect(lngDelta(10, 5)).toBe(5);
  });
});
