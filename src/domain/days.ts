/**
 * Whole UTC days as numbers since 1970-01-01, so lengths and shifts are integer arithmetic and month ends and leap
 * years come out of `Date.UTC`. Shared by the review analytics periods and the business-profile date windows.
 */
export const DAY_MS = 86_400_000;

/** The longest metrics range, both ends included (spec: "metrics range over 540 days" is refused). */
export const MAX_RANGE_DAYS = 540;

/** The first year a date may have: the database's DATETIME starts at 1000-01-01 (and `Date.UTC` reads 0-99 as 19xx). */
export const MIN_YEAR = 1000;

/** `Y-m-d` to its day number, or null when it is not a real calendar date (2026-02-30, 2026-2-1). */
export function dayOf(value: string): number | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!m || Number(m[1]) < MIN_YEAR) return null;
  const day = Math.floor(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])) / DAY_MS);
  return isoOf(day) === value ? day : null;
}

/** Day number to `Y-m-d`. */
export const isoOf = (day: number): string => new Date(day * DAY_MS).toISOString().slice(0, 10);

/** The UTC day a moment falls on. */
export const dayAt = (at: Date): number => Math.floor(at.getTime() / DAY_MS);

/** Midnight UTC starting the day. */
export const startOf = (day: number): Date => new Date(day * DAY_MS);
