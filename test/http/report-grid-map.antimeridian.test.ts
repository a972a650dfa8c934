import { renderToString } from 'preact-render-to-string';
import { GridMap, projectPin } from '../../facades/pages/report.views';
import { generatePins } from '../../src/grid/pins';
import { translator } from '../../src/i18n';
import type { ScanReport } from '../../src/reports/types';

/** The report page's grid (GridMap in facades/pages/report.views.tsx) of a scan that straddles the antimeridian. */
describe('report grid map across the antimeridian', () => {
  const centre = { lat: -16.8, lng: 179.98 };
  const grid = generatePins({ ...centre, gridSize: 3, distance: 5, unit: 'km' });

  function report(): ScanReport {
    return {
      brand: { name: 'Agency' },
      scan: { uuid: '6f1c1f7e-3c1a-4d7e-9a43-5d2b8f0e6a11', location: 'Taveuni', address: null, type: 'business', keywords: ['dive shop'], gridSize: 3, distance: 5, distanceUnit: 'km', ...centre },
      keyword: 'dive shop',
      snapshots: [],
      snapshot: null,
      pins: grid.map((p) => ({ lat: p.lat, lng: p.lng, rank: 1 + p.row * 3 + p.col, status: 'complete', top: [] })),
      summary: null,
      competitors: [],
      history: null,
    } as unknown as ScanReport;
  }

  /** The drawn pins' positions (translate of each `g.pin`), with the rank each one shows. */
  function drawn(svg: string): Array<{ rank: number; x: number; y: number }> {
    const out: Array<{ rank: number; x: number; y: number }> = [];
    for (const m of svg.matchAll(/<g class="pin"[^>]*data-rank="(\d+)"[^>]*transform="translate\(([-\d.]+) ([-\d.]+)\)"/g)) {
      out.push({ rank: Number(m[1]), x: Number(m[2]), y: Number(m[3]) });
    }
    return out;
  }

  it('draws three distinct, evenly spaced columns per row, the middle pin on the centre', () => {
    const svg = renderToString(GridMap({ report: report(), tr: translator('en') }));
    const pins = drawn(svg);
    expect(pins).toHaveLength(9);
    const target = /<g class="target" transform="translate\(([-\d.]+) ([-\d.]+)\)"/.exec(svg)!;
    const cx = Number(target[1]);
    for (let row = 0; row < 3; row++) {
      const xs = [0, 1, 2].map((col) => pins.find((p) => p.rank === 1 + row * 3 + col)!.x);
      expect(new Set(xs).size).toBe(3);
      expect(xs[0]).toBeLessThan(xs[1]);
      expect(xs[1]).toBeLessThan(xs[2]);
      // Positions are written with one decimal.
      expect(Math.abs(xs[1] - xs[0] - (xs[2] - xs[1]))).toBeLessThanOrEqual(0.2);
      expect(Math.abs(xs[1] - cx)).toBeLessThanOrEqual(0.1);
      // Inside the 640 px canvas.
      expect(Math.min(...xs)).toBeGreaterThan(0);
      expect(Math.max(...xs)).toBeLessThan(640);
    }
  });

  it('projects each pin by its wrapped longitude difference', () => {
    const east = grid.find((p) => p.row === 1 && p.col === 2)!;
    const west = grid.find((p) => p.row === 1 && p.col === 0)!;
    expect(east.lng).toBeLessThan(-179);
    const e = projectPin(centre, east);
    const w = projectPin(centre, west);
    expect(e.x).toBeGreaterThan(0);
    expect(e.x).toBeCloseTo(-w.x, 6);
    // 5 km east: about 5 / 111.32 degrees of the equator's scale.
    expect(e.x).toBeCloseTo(5 / 111.32, 3);
    expect(projectPin(centre, { lat: -16.8, lng: 179.98 })).toEqual({ x: 0, y: 0 });
  });
});
