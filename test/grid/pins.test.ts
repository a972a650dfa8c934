import { Geodesic } from 'geographiclib-geodesic';
import { distanceKm, generatePins, pinSpacingKm } from '../../src/grid/pins';
import { reasonOf } from './support';

/** Initial bearing in degrees (0 = north, clockwise) from a to b. */
function bearingDeg(a: { lat: number; lng: number }, b: { lat: number; lng: number }): number {
  return (Geodesic.WGS84.Inverse(a.lat, a.lng, b.lat, b.lng).azi1! + 360) % 360;
}

describe('pin grid', () => {
  const centre = { lat: 51.5, lng: -0.1 };

  it('is N x N, north-west first, with the centre pin on the centre', () => {
    const pins = generatePins({ ...centre, gridSize: 3, distance: 1, unit: 'km' });
    expect(pins).toHaveLength(9);
    expect(pins[0]).toMatchObject({ row: 0, col: 0 });
    expect(pins[4]).toEqual({ row: 1, col: 1, lat: 51.5, lng: -0.1 });
    expect(pins[0].lat).toBeGreaterThan(centre.lat);
    expect(pins[0].lng).toBeLessThan(centre.lng);
  });

  it('puts the outer ring `distance` from the centre along the axes (the meridian north, the parallel east)', () => {
    const pins = generatePins({ ...centre, gridSize: 5, distance: 2, unit: 'km' });
    const east = pins.find((p) => p.row === 2 && p.col === 4)!;
    const north = pins.find((p) => p.row === 0 && p.col === 2)!;
    expect(distanceKm(centre, east)).toBeCloseTo(2, 3);
    expect(bearingDeg(centre, east)).toBeCloseTo(90, 1);
    expect(distanceKm(centre, north)).toBeCloseTo(2, 3);
    expect(bearingDeg(centre, north)).toBeCloseTo(0, 3);
    // Neighbours are 2R / (N - 1) = 1 km apart.
    const next = pins.find((p) => p.row === 2 && p.col === 3)!;
    expect(distanceKm(centre, next)).toBeCloseTo(1, 3);
    // A corner is about sqrt(2) x R away.
    expect(distanceKm(centre, pins[0])).toBeCloseTo(2 * Math.SQRT2, 2);
  });

  it('converts miles: a 15 x 15 grid over 7 miles spaces pins 1.609344 km apart', () => {
    expect(pinSpacingKm({ gridSize: 15, distance: 7, unit: 'miles' })).toBeCloseTo(1.609344, 6);
    const pins = generatePins({ ...centre, gridSize: 15, distance: 7, unit: 'miles' });
    expect(pins).toHaveLength(225);
    expect(distanceKm(pins[112], pins[113])).toBeCloseTo(1.609344, 3);
  });

  it('keeps every row on one parallel, its pins equally spaced along it (70 N, 15 x 15 over 50 miles)', () => {
    const spec = { lat: 70, lng: 25, gridSize: 15, distance: 50, unit: 'miles' as const };
    const spacing = pinSpacingKm(spec);
    expect(spacing).toBeCloseTo((2 * 50 * 1.609344) / 14, 9);
    const pins = generatePins(spec);
    expect(pins).toHaveLength(225);
    /** Metres between two latitudes along a meridian. */
    const metresNorth = (a: number, b: number) => distanceKm({ lat: a, lng: 0 }, { lat: b, lng: 0 }) * 1000;
    for (let row = 0; row < 15; row++) {
      const line = pins.filter((p) => p.row === row).sort((a, b) => a.col - b.col);
      expect(line).toHaveLength(15);
      for (const p of line) expect(metresNorth(p.lat, line[7].lat)).toBeLessThan(1);
      for (let col = 1; col < 15; col++) {
        expect(Math.abs(distanceKm(line[col - 1], line[col]) - spacing) * 1000).toBeLessThan(1);
      }
      // The row's centre pin is `row offset` north or south of the centre, on the centre's meridian.
      expect(line[7].lng).toBe(25);
      expect(Math.abs(distanceKm({ lat: 70, lng: 25 }, line[7]) - Math.abs(7 - row) * spacing) * 1000).toBeLessThan(1);
    }
    // The centre row stays on 70 N out to its edges (a geodesic heading east would end 1.36 km south).
    const eastEdge = pins.find((p) => p.row === 7 && p.col === 14)!;
    expect(eastEdge.lat).toBe(70);
    expect(eastEdge.lng).toBeGreaterThan(25);
  });

  it.each([
    ['an even size', { gridSize: 4, distance: 5 }],
    ['a size above 15', { gridSize: 17, distance: 5 }],
    ['distance 0', { gridSize: 5, distance: 0 }],
    ['distance over 50', { gridSize: 5, distance: 50.5 }],
    ['pins closer than 100 m (15 x 15 over 0.5 km)', { gridSize: 15, distance: 0.5 }],
  ])('rejects %s with invalid_grid_params', (_name, g) => {
    expect(reasonOf(() => generatePins({ ...centre, unit: 'km', ...g }))).toBe('invalid_grid_params');
  });

  it('accepts the bounds themselves: 50 km, and 3 x 3 over 0.1 km (pins exactly 100 m apart)', () => {
    expect(generatePins({ ...centre, gridSize: 3, distance: 50, unit: 'km' })).toHaveLength(9);
    expect(generatePins({ ...centre, gridSize: 3, distance: 0.1, unit: 'km' })).toHaveLength(9);
  });
});
