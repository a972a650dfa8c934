/**
 * Calendar arithmetic of the business-profile endpoints, on whole UTC days (a metric day has no time of day).
 * A day is its number since 1970-01-01, so lengths and shifts are plain integer arithmetic and month ends and
 * leap years come out of `Date.UTC` rather than out of hand-written rules.
 */

import { dayAt, isoOf } from '../domain/days';

export { MAX_RANGE_DAYS, dayAt, dayOf, isoOf } from '../domain/days';

export interface DateWindow {
  from: string;
  to: string;
  /** Number of days, both ends included. */
  days: number;
}

/** Days from `from` to `to`, both included (the same day is 1). */
export const inclusiveDays = (fromDay: number, toDay: number): number => toDay - fromDay + 1;

/** The equal-length window that ends the day before `from`. */
export function previousWindow(fromDay: number, toDay: number): DateWindow {
  const days = inclusiveDays(fromDay, toDay);
  return { from: isoOf(fromDay - days), to: isoOf(fromDay - 1), days };
}

/** Every day of a window, in order. */
export function daysOf(fromDay: number, toDay: number): string[] {
  const out: string[] = [];
  for (let d = fromDay; d <= toDay; d++) out.push(isoOf(d));
  return out;
}

/** Default window of the metrics endpoint: from 30 days ago to yesterday (UTC), i.e. the last 30 full days. */
export function defaultWindow(now: Date): { fromDay: number; toDay: number } {
  const today = dayAt(now);
  return { fromDay: today - 30, toDay: today - 1 };
}

/** A calendar month. */
export interface YearMonth {
  year: number;
  month: number;
}

/** Months counted from year 0, so month arithmetic is integer arithmetic too. */
export const monthIndex = (ym: YearMonth): number => ym.year * 12 + (ym.month - 1);
export const monthOf = (index: number): YearMonth => ({ year: Math.floor(index / 12), month: (index % 12) + 1 });
export const monthAt = (at: Date): YearMonth => ({ year: at.getUTCFullYear(), month: at.getUTCMonth() + 1 });

const MONTH_NAMES = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** Short month and year label of a search-term row: `Mar 2026`. */
export const monthLabel = (year: number, month: number): string => `${MONTH_NAMES[month - 1]} ${year}`;
