import { dayOf, defaultWindow, inclusiveDays, isoOf, MAX_RANGE_DAYS, monthLabel, previousWindow } from '../../src/gbp/dates';
import { totalsOf } from '../../src/gbp/metrics';

/** Calendar arithmetic of the metrics endpoint; every expected date below was counted by hand on a calendar. */
const window = (from: string, to: string) => previousWindow(dayOf(from)!, dayOf(to)!);

describe('business-profile date windows', () => {
  it('counts a window with both ends included', () => {
    expect(inclusiveDays(dayOf('2026-03-01')!, dayOf('2026-03-01')!)).toBe(1);
    expect(inclusiveDays(dayOf('2026-03-01')!, dayOf('2026-03-31')!)).toBe(31);
    // 2024 is a leap year: 366 days from 1 January to 31 December.
    expect(inclusiveDays(dayOf('2024-01-01')!, dayOf('2024-12-31')!)).toBe(366);
    // 540 days from 2024-01-01: 366 in 2024, then 31+28+31+30+31 = 151 to the end of May 2025, and 23 in June.
    expect(inclusiveDays(dayOf('2024-01-01')!, dayOf('2025-06-23')!)).toBe(MAX_RANGE_DAYS);
    expect(inclusiveDays(dayOf('2024-01-01')!, dayOf('2025-06-24')!)).toBe(MAX_RANGE_DAYS + 1);
  });

  it('puts the previous period right before the requested one, with the same length, across month ends and leap days', () => {
    // March 2024 (31 days) <- 30 and 31 January + the 29 days of February 2024.
    expect(window('2024-03-01', '2024-03-31')).toEqual({ from: '2024-01-30', to: '2024-02-29', days: 31 });
    // March 2023 (31 days) <- 29-31 January + the 28 days of February 2023.
    expect(window('2023-03-01', '2023-03-31')).toEqual({ from: '2023-01-29', to: '2023-02-28', days: 31 });
    // February 2024 (29 days) <- 3 to 31 January 2024.
    expect(window('2024-02-01', '2024-02-29')).toEqual({ from: '2024-01-03', to: '2024-01-31', days: 29 });
    // 31 January to 28 February 2026 (29 days) <- 2 to 30 January.
    expect(window('2026-01-31', '2026-02-28')).toEqual({ from: '2026-01-02', to: '2026-01-30', days: 29 });
    // A leap day alone <- the day before it.
    expect(window('2024-02-29', '2024-02-29')).toEqual({ from: '2024-02-28', to: '2024-02-28', days: 1 });
    // 1 March 2024 alone <- the leap day.
    expect(window('2024-03-01', '2024-03-01')).toEqual({ from: '2024-02-29', to: '2024-02-29', days: 1 });
    // January 2025 <- December 2024, across the year end.
    expect(window('2025-01-01', '2025-01-31')).toEqual({ from: '2024-12-01', to: '2024-12-31', days: 31 });
    // The longest window: 2022-07-10 to 2022-12-31 is 22 + 31 + 30 + 31 + 30 + 31 = 175 days, and 2023 has 365: 540.
    expect(window('2024-01-01', '2025-06-23')).toEqual({ from: '2022-07-10', to: '2023-12-31', days: 540 });
  });

  it('defaults to the last 30 full days (from 30 days ago to yesterday, UTC)', () => {
    const w = defaultWindow(new Date('2026-03-15T23:59:59Z'));
    expect([isoOf(w.fromDay), isoOf(w.toDay)]).toEqual(['2026-02-13', '2026-03-14']);
    expect(inclusiveDays(w.fromDay, w.toDay)).toBe(30);
    const leap = defaultWindow(new Date('2024-03-01T00:00:00Z'));
    expect([isoOf(leap.fromDay), isoOf(leap.toDay)]).toEqual(['2024-01-31', '2024-02-29']);
  });

  it('reads only real calendar dates in Y-m-d', () => {
    expect(dayOf('2024-02-29')).not.toBeNull();
    for (const bad of ['2023-02-29', '2026-02-30', '2026-13-01', '2026-1-05', '20260105', '2026-01-05T00:00:00Z', '']) expect(dayOf(bad)).toBeNull();
  });

  it('labels a month with its short name and year', () => {
    expect(monthLabel(2026, 3)).toBe('Mar 2026');
    expect(monthLabel(2025, 12)).toBe('Dec 2025');
  });

  it('folds the four impression metrics into the interface totals', () => {
    expect(
      totalsOf({
        BUSINESS_IMPRESSIONS_DESKTOP_MAPS: 1,
        BUSINESS_IMPRESSIONS_DESKTOP_SEARCH: 10,
        BUSINESS_IMPRESSIONS_MOBILE_MAPS: 100,
        BUSINESS_IMPRESSIONS_MOBILE_SEARCH: 1000,
        CALL_CLICKS: 2,
        WEBSITE_CLICKS: 3,
        BUSINESS_DIRECTION_REQUESTS: 4,
      }),
    ).toEqual({
      impressionsTotal: 1111,
      impressionsSearch: 1010,
      impressionsMaps: 101,
      impressionsDesktop: 11,
      impressionsMobile: 1100,
      callClicks: 2,
      websiteClicks: 3,
      directionRequests: 4,
    });
  });
});
