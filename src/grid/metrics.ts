/**
 * Local Search Grid formulas. Every number the scan API reports is computed here, from the per-pin results of
 * one snapshot and one keyword; docs/decisions/local-search-grid.md states each formula and the tests check them on grids worked
 * out by hand.
 */

/** A business not in the top 20 at a pin counts as rank 21 in every average (ATRP). */
export const ABSENT_RANK = 21;
export const MAX_RANK = 20;

export interface RankedPlace {
  placeId: string;
  name: string;
  rank: number;
}

export interface PinOutcome {
  row: number;
  col: number;
  /** The target's rank at this pin; null when it is not in the top 20. */
  targetRank: number | null;
  results: readonly RankedPlace[];
}

export interface Summary {
  /** Average rank over all pins, absent = 21 (ATRP). */
  avgRank: number;
  /** Average rank over the pins where the target is found (ARP); null when it is found nowhere. */
  avgRankWhereFound: number | null;
  top3: number;
  top4to10: number;
  top10: number;
  belowTop10: number;
  notRanking: number;
  totalPins: number;
  visibilityScore: number;
  /** Share of local voice: percentage of pins ranked 1-3. */
  solv: number;
}

const round = (x: number, digits: number) => {
  const f = 10 ** digits;
  return Math.round(x * f) / f;
};

/** Weight of a rank for visibility: 1 at rank 1 falling linearly to 0.05 at rank 20; absent = 0. */
export const rankWeight = (rank: number | null): number => (rank == null || rank > MAX_RANK ? 0 : (ABSENT_RANK - rank) / MAX_RANK);

/** Visibility score 0-100: the mean rank weight over all pins, as a percentage (1 decimal). */
export function visibilityOf(ranks: readonly (number | null)[]): number {
  if (ranks.length === 0) return 0;
  return round((100 * ranks.reduce<number>((s, r) => s + rankWeight(r), 0)) / ranks.length, 1);
}

export function averageRank(ranks: readonly (number | null)[]): number {
  if (ranks.length === 0) return ABSENT_RANK;
  return round(ranks.reduce<number>((s, r) => s + (r ?? ABSENT_RANK), 0) / ranks.length, 2);
}

export function summarise(pins: readonly PinOutcome[]): Summary {
  const ranks = pins.map((p) => p.targetRank);
  const found = ranks.filter((r): r is number => r != null);
  const top3 = found.filter((r) => r <= 3).length;
  const top10 = found.filter((r) => r <= 10).length;
  return {
    avgRank: averageRank(ranks),
    avgRankWhereFound: found.length ? round(found.reduce((s, r) => s + r, 0) / found.length, 2) : null,
    top3,
    top4to10: top10 - top3,
    top10,
    belowTop10: found.length - top10,
    notRanking: ranks.length - found.length,
    totalPins: ranks.length,
    visibilityScore: visibilityOf(ranks),
    solv: ranks.length ? round((100 * top3) / ranks.length, 1) : 0,
  };
}

/**
 * The summary of a scan's pins for the business it tracks (`target_place_id`), or null when it tracks none. Without a
 * place id no pin has a target rank to find (live providers never guess one), so every pin reads "not in the top 20":
 * the rank is unknown, not 21, and "average rank 21, visibility 0 %" would tell the agency's customer the business is
 * absent everywhere. `summarise` itself stays the formula over the stored ranks (the run engine stores its figures).
 */
export function targetSummary(pins: readonly PinOutcome[], targetPlaceId: string | null): Summary | null {
  return targetPlaceId ? summarise(pins) : null;
}

export interface Competitor {
  placeId: string;
  name: string;
  avgRank: number;
  visibility: number;
  /** 0-100: how much of the grid this business holds above the target, weighted by how high it ranks there. */
  threatScore: number;
  pinsAhead: number;
}

/**
 * Every other business seen in the results. threat = 100 x mean over all pins of
 * [competitor ranks ahead of the target there (or the target is absent)] x rankWeight(competitor's rank).
 * Without a target (`targetPlaceId` null) no place can be told apart as the business: every business in the results
 * is listed, the business itself among them if it ranks, and the threat score is then the place's visibility (it is
 * "ahead" wherever it ranks). Reports say so rather than drop the list (docs/decisions/local-search-grid.md).
 */
export function competitors(pins: readonly PinOutcome[], targetPlaceId: string | null, limit = 10): Competitor[] {
  const byPlace = new Map<string, { name: string; ranks: (number | null)[]; threat: number; ahead: number }>();
  pins.forEach((pin, i) => {
    for (const r of pin.results) {
      if (r.rank > MAX_RANK || r.placeId === targetPlaceId) continue;
      let c = byPlace.get(r.placeId);
      if (!c) byPlace.set(r.placeId, (c = { name: r.name, ranks: new Array<number | null>(pins.length).fill(null), threat: 0, ahead: 0 }));
      if (c.ranks[i] != null && c.ranks[i]! <= r.rank) continue;
      c.ranks[i] = r.rank;
    }
  });
  const out: Competitor[] = [];
  for (const [placeId, c] of byPlace) {
    let threat = 0;
    let ahead = 0;
    pins.forEach((pin, i) => {
      const rank = c.ranks[i];
      if (rank == null) return;
      if (pin.targetRank == null || rank < pin.targetRank) {
        ahead++;
        threat += rankWeight(rank);
      }
    });
    out.push({
      placeId,
      name: c.name,
      avgRank: averageRank(c.ranks),
      visibility: visibilityOf(c.ranks),
      threatScore: pins.length ? round((100 * threat) / pins.length, 1) : 0,
      pinsAhead: ahead,
    });
  }
  out.sort((a, b) => b.threatScore - a.threatScore || a.avgRank - b.avgRank || a.name.localeCompare(b.name));
  return out.slice(0, limit);
}

export const REGIONS = ['Centre', 'North', 'East', 'South', 'West'] as const;
export type Region = (typeof REGIONS)[number];

/**
 * Centre: pins within half the grid's half-width (Chebyshev distance in pin steps); the rest by compass sector of
 * their offset from the centre pin, a diagonal going to North or South.
 */
export function regionOf(row: number, col: number, gridSize: number): Region {
  const mid = (gridSize - 1) / 2;
  const dy = mid - row;
  const dx = col - mid;
  if (Math.max(Math.abs(dx), Math.abs(dy)) <= mid / 2) return 'Centre';
  if (Math.abs(dy) >= Math.abs(dx)) return dy > 0 ? 'North' : 'South';
  return dx > 0 ? 'East' : 'West';
}

export interface RegionStrength {
  label: Region;
  pins: number;
  avgRank: number;
  visibility: number;
  /** Percentage of the region's pins where the target is in the top 20 at all. */
  coverage: number;
}

export function geographicStrength(pins: readonly PinOutcome[], gridSize: number): RegionStrength[] {
  return REGIONS.map((label) => {
    const ranks = pins.filter((p) => regionOf(p.row, p.col, gridSize) === label).map((p) => p.targetRank);
    return {
      label,
      pins: ranks.length,
      avgRank: averageRank(ranks),
      visibility: visibilityOf(ranks),
      coverage: ranks.length ? round((100 * ranks.filter((r) => r != null).length) / ranks.length, 1) : 0,
    };
  }).filter((r) => r.pins > 0);
}

export interface TrendVsFirst {
  firstSnapshotAt: Date;
  startAvg: number;
  currentAvg: number;
  change: number;
  improved: boolean;
  percentChange: number;
}

/** change = current - first (negative = better); percent_change = change / first x 100. */
export function trendVsFirst(first: { at: Date; summary: Summary }, current: Summary): TrendVsFirst {
  const change = round(current.avgRank - first.summary.avgRank, 2);
  return {
    firstSnapshotAt: first.at,
    startAvg: first.summary.avgRank,
    currentAvg: current.avgRank,
    change,
    improved: change < 0,
    percentChange: round((100 * change) / first.summary.avgRank, 1),
  };
}

export interface TrendVsPrevious {
  previousSnapshotAt: Date;
  avgRankChange: number;
  visibilityChange: number;
  top3Change: number;
  top10Change: number;
}

export function trendVsPrevious(previous: { at: Date; summary: Summary }, current: Summary): TrendVsPrevious {
  return {
    previousSnapshotAt: previous.at,
    avgRankChange: round(current.avgRank - previous.summary.avgRank, 2),
    visibilityChange: round(current.visibilityScore - previous.summary.visibilityScore, 1),
    top3Change: current.top3 - previous.summary.top3,
    top10Change: current.top10 - previous.summary.top10,
  };
}

export const RECOMMENDATION_TYPES = ['not_ranking', 'weak_area', 'competitor_threat', 'declining', 'expand_radius', 'maintain_lead'] as const;
export type RecommendationType = (typeof RECOMMENDATION_TYPES)[number];

export interface Recommendation {
  type: RecommendationType;
  icon: string;
  title: string;
  description: string;
}

/** Rules, in priority order; each fires on a threshold stated in docs/decisions/local-search-grid.md. */
export function recommendations(input: {
  keyword: string;
  summary: Summary;
  regions: readonly RegionStrength[];
  competitors: readonly Competitor[];
  previous: TrendVsPrevious | null;
}): Recommendation[] {
  const { keyword, summary: s, regions, competitors: rivals, previous } = input;
  const out: Recommendation[] = [];
  const pct = (n: number) => Math.round((100 * n) / Math.max(1, s.totalPins));
  if (s.notRanking / Math.max(1, s.totalPins) >= 0.25) {
    out.push({
      type: 'not_ranking',
      icon: 'alert-triangle',
      title: `Not in the top 20 at ${pct(s.notRanking)}% of the grid`,
      description: `For "${keyword}" the business does not appear at ${s.notRanking} of ${s.totalPins} pins. Check that the primary category and services match "${keyword}" and that the profile is complete and verified.`,
    });
  }
  const weakest = [...regions].filter((r) => r.label !== 'Centre').sort((a, b) => b.avgRank - a.avgRank)[0];
  if (weakest && weakest.avgRank >= 10.5) {
    out.push({
      type: 'weak_area',
      icon: 'map-pin',
      title: `Weak in the ${weakest.label.toLowerCase()}`,
      description: `The ${weakest.label.toLowerCase()} of the grid averages rank ${weakest.avgRank}. Earn reviews from customers there, and mention the neighbourhoods there on the website and in posts.`,
    });
  }
  const rival = rivals[0];
  if (rival && rival.threatScore >= 25) {
    out.push({
      type: 'competitor_threat',
      icon: 'shield',
      title: `${rival.name} outranks you across much of the grid`,
      description: `${rival.name} ranks ahead at ${rival.pinsAhead} of ${s.totalPins} pins (threat score ${rival.threatScore}). Compare its categories, review count and review recency with yours.`,
    });
  }
  if (previous && previous.avgRankChange >= 1) {
    out.push({
      type: 'declining',
      icon: 'trending-down',
      title: 'Average rank fell since the previous scan',
      description: `The average rank worsened by ${previous.avgRankChange} and visibility changed by ${previous.visibilityChange} points. Look for profile edits, lost reviews or a new competitor nearby.`,
    });
  }
  if (s.totalPins > 0 && s.top3 / s.totalPins >= 0.9) {
    out.push({
      type: 'expand_radius',
      icon: 'maximize',
      title: 'Top 3 almost everywhere: widen the grid',
      description: `The business is in the top 3 at ${pct(s.top3)}% of pins. Scan a larger distance to find where the market is still open.`,
    });
  } else if (out.length === 0) {
    out.push({
      type: 'maintain_lead',
      icon: 'trophy',
      title: 'Keep the momentum',
      description: `Visibility is ${s.visibilityScore} with the top 3 at ${pct(s.top3)}% of pins. Keep reviews coming in steadily and answer each one.`,
    });
  }
  return out;
}
