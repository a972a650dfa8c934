/**
 * Calendar arithmetic of the business-profile endpoints, on whole UTC days (a metric day has no time of day).
 * A day is its number since 1970-01-01, so lengths and shifts are plain integer arithmetic and month ends and
 * leap years come out of `Date.UTC` rather than out of hand-written rules.
 */

const DAY_MS = 86_400_000;

/** The longest metrics window, counted in days with both ends included (spec: "Maximum range 540 days"). */
export const MAX_RANGE_DAYS = 540;

/** `Y-m-d` to its day number, or null when it is not a real calendar date (2026-02-30, 2026-2-1). */
export function dayOf(value: string): number | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!m) return null;
  const ms = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
  const day = Math.floor(ms / DAY_MS);
  return isoOf(day) === value ? day : null;
}

/** Day number to `Y-m-d`. */
export function isoOf(day: number): string {
  return new Date(day * DAY_MS).toISOString().slice(0, 10);
}

/** The UTC day a moment falls on. */
export const dayAt = (at: Date): number => Math.floor(at.getTime() / DAY_MS);

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
