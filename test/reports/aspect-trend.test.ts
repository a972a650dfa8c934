import { aspectMoves, monthAspect, TREND_MIN_MOVE } from '../../src/reports/aspect-trend';
import type { ReportMonth } from '../../src/reports/types';

/** The "what changed" sentence about an aspect (docs/decisions/analytics.md, "Monthly reports and scan reports"). */
describe('aspect moves of the monthly report', () => {
  /** A month whose only aspect is `staff`, with these mentions (all positive or neutral). */
  const month = (m: number, mentions: number, positive: number): ReportMonth => ({
    month: `2026-${String(m).padStart(2, '0')}`,
    totalReviews: mentions,
    avgRating: null,
    responseRate: null,
    positive,
    neutral: mentions - positive,
    negative: 0,
    aspects: [monthAspect({ aspect: 'staff', positive, neutral: mentions - positive, negative: 0 })],
  });

  it(`counts a move a reader sees as ${TREND_MIN_MOVE} points as one (13.3 to 43.3, which is 29.99999... in binary)`, () => {
    // Before: 2 positive of 15 mentions (net 13.3); now: 13 of 30 (net 43.3).
    const months = [month(4, 5, 2), month(5, 5, 0), month(6, 5, 0), month(7, 10, 5), month(8, 10, 4), month(9, 10, 4)];
    const moves = aspectMoves(months);
    expect(moves.map((m) => [m.aspect, m.before.net, m.now.net])).toEqual([['staff', 13.3, 43.3]]);
  });

  it('leaves out a move below the threshold', () => {
    // Before: net 13.3; now: 12 of 30 (net 40): 26.7 points.
    const months = [month(4, 5, 2), month(5, 5, 0), month(6, 5, 0), month(7, 10, 4), month(8, 10, 4), month(9, 10, 4)];
    expect(aspectMoves(months)).toEqual([]);
  });
});
