import { competitors, geographicStrength, recommendations, regionOf, summarise, targetSummary, trendVsFirst, trendVsPrevious, type PinOutcome } from '../../src/grid/metrics';

/**
 * A 3 x 3 grid worked out by hand. Target ranks, north row first:
 *    1   2   -
 *    3   1   5
 *   12   -  20
 * Competitor A: rank 2 at (0,0) (behind the target), 1 at (0,2) (target absent), 3 at (2,2) (ahead of 20).
 */
const targetRanks = [1, 2, null, 3, 1, 5, 12, null, 20];
const aRanks: Record<number, number> = { 0: 2, 2: 1, 8: 3 };
const grid: PinOutcome[] = targetRanks.map((rank, i) => ({
  row: Math.floor(i / 3),
  col: i % 3,
  targetRank: rank,
  results: [
    ...(rank != null ? [{ placeId: 'me', name: 'Me', rank }] : []),
    ...(aRanks[i] != null ? [{ placeId: 'a', name: 'Rival A', rank: aRanks[i] }] : []),
  ],
}));

describe('scan formulas on a hand-computed grid', () => {
  it('summary: ATRP with absent = 21, ARP, buckets, visibility and SoLV', () => {
    expect(summarise(grid)).toEqual({
      avgRank: 9.56, // (1+2+21+3+1+5+12+21+20) / 9 = 86 / 9
      avgRankWhereFound: 6.29, // 44 / 7
      top3: 4,
      top4to10: 1,
      top10: 5,
      belowTop10: 2,
      notRanking: 2,
      totalPins: 9,
      visibilityScore: 57.2, // 100 x (1 + .95 + .9 + 1 + .8 + .45 + .05) / 9
      solv: 44.4, // 100 x 4 / 9
    });
  });

  it('summary of a scan without a business to track: none (its rank is unknown, not 21 everywhere)', () => {
    expect(targetSummary(grid, 'me')).toEqual(summarise(grid));
    const untracked = grid.map((p) => ({ ...p, targetRank: null }));
    expect(targetSummary(untracked, null)).toBeNull();
    // Every business in the results is listed, the business itself among them; the threat is then the visibility.
    expect(competitors(untracked, null).map((c) => [c.name, c.threatScore === c.visibility])).toEqual([
      ['Me', true],
      ['Rival A', true],
    ]);
  });

  it('competitors: average rank, visibility and threat (weighted pins ahead of the target)', () => {
    expect(competitors(grid, 'me')).toEqual([
      { placeId: 'a', name: 'Rival A', avgRank: 14.67, visibility: 31.7, threatScore: 21.1, pinsAhead: 2 },
    ]);
  });

  it('regions: the centre pin, then compass sectors with diagonals going north/south', () => {
    expect(regionOf(1, 1, 3)).toBe('Centre');
    expect(regionOf(0, 0, 3)).toBe('North');
    expect(regionOf(1, 0, 3)).toBe('West');
    expect(regionOf(2, 2, 3)).toBe('South');
    expect(regionOf(3, 3, 7)).toBe('Centre');
    expect(regionOf(2, 4, 7)).toBe('Centre');
    expect(regionOf(3, 6, 7)).toBe('East');
    expect(geographicStrength(grid, 3)).toEqual([
      { label: 'Centre', pins: 1, avgRank: 1, visibility: 100, coverage: 100 },
      { label: 'North', pins: 3, avgRank: 8, visibility: 65, coverage: 66.7 },
      { label: 'East', pins: 1, avgRank: 5, visibility: 80, coverage: 100 },
      { label: 'South', pins: 3, avgRank: 17.67, visibility: 16.7, coverage: 66.7 },
      { label: 'West', pins: 1, avgRank: 3, visibility: 90, coverage: 100 },
    ]);
  });

  it('trends: change is current minus earlier, negative means improved', () => {
    const current = summarise(grid);
    const first = { at: new Date('2026-10-01T00:00:00Z'), summary: { ...current, avgRank: 12, visibilityScore: 40, top3: 2, top10: 3 } };
    expect(trendVsFirst(first, current)).toEqual({
      firstSnapshotAt: first.at,
      startAvg: 12,
      currentAvg: 9.56,
      change: -2.44,
      improved: true,
      percentChange: -20.3,
    });
    expect(trendVsPrevious(first, current)).toEqual({
      previousSnapshotAt: first.at,
      avgRankChange: -2.44,
      visibilityChange: 17.2,
      top3Change: 2,
      top10Change: 2,
    });
  });

  it('recommendations fire on their thresholds', () => {
    const summary = summarise(grid);
    const regions = geographicStrength(grid, 3);
    const types = (r: ReturnType<typeof recommendations>) => r.map((x) => x.type);
    // South averages 17.67 >= 10.5: weak area; 2/9 absent < 25%; threat 21.1 < 25.
    expect(types(recommendations({ keyword: 'dentist', summary, regions, competitors: competitors(grid, 'me'), previous: null }))).toEqual(['weak_area']);
    const worse = { previousSnapshotAt: new Date(), avgRankChange: 1.5, visibilityChange: -5, top3Change: -1, top10Change: -1 };
    const strong = [{ placeId: 'b', name: 'B', avgRank: 2, visibility: 90, threatScore: 60, pinsAhead: 8 }];
    expect(types(recommendations({ keyword: 'dentist', summary, regions, competitors: strong, previous: worse }))).toEqual(['weak_area', 'competitor_threat', 'declining']);
    const allTop = summarise(grid.map((p) => ({ ...p, targetRank: 1 })));
    expect(types(recommendations({ keyword: 'dentist', summary: allTop, regions: [], competitors: [], previous: null }))).toEqual(['expand_radius']);
    const middling = summarise(grid.map((p) => ({ ...p, targetRank: 5 })));
    expect(types(recommendations({ keyword: 'dentist', summary: middling, regions: [], competitors: [], previous: null }))).toEqual(['maintain_lead']);
    const absent = summarise(grid.map((p, i) => ({ ...p, targetRank: i < 3 ? null : 4 })));
    expect(types(recommendations({ keyword: 'dentist', summary: absent, regions: [], competitors: [], previous: null }))).toEqual(['not_ranking']);
  });
});
