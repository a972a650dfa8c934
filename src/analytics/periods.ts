import { DAY_MS, MAX_RANGE_DAYS, dayAt, dayOf, isoOf, startOf } from '../domain/days';
import { Validation } from '../domain/errors';

/**
 * Calendar periods of the review analytics, on whole UTC days. A day is its number since 1970-01-01, so lengths
 * and shifts are integer arithmetic and month ends and leap years come out of `Date.UTC`.
 */

/** The longest analytics period, both ends included (the spec's "metrics range over 540 days" rule). */
export const MAX_PERIOD_DAYS = MAX_RANGE_DAYS;
export { dayAt, dayOf, isoOf, startOf };

export interface Period {
  /** `Y-m-d`, both ends included. */
  from: string;
  to: string;
  fromDay: number;
  toDay: number;
  days: number;
}

export function periodOf(fromDay: number, toDay: number): Period {
  return { from: isoOf(fromDay), to: isoOf(toDay), fromDay, toDay, days: toDay - fromDay + 1 };
}

/** The equal-length period that ends the day before `p` starts. */
export const previousPeriod = (p: Period): Period => periodOf(p.fromDay - p.days, p.fromDay - 1);

const label = (field: string): string => field.replace(/_/g, ' ');

/**
 * A period from optional `Y-m-d` bounds. Missing bounds: `to` is today (UTC), `from` is `to` minus
 * `defaultDays - 1` (so the default period has `defaultDays` days). Field errors use the caller's field names;
 * a period longer than 540 days is 422 `invalid_date_range`.
 */
export function resolvePeriod(
  input: { from?: string | null; to?: string | null },
  opts: { today: number; defaultDays: number; fields: { from: string; to: string } },
): Period {
  const errors: Record<string, string[]> = {};
  const parse = (value: string | null | undefined, field: string): number | null => {
    if (value == null || value === '') return null;
    const day = dayOf(value);
    if (day === null) errors[field] = [`The ${label(field)} does not match the format Y-m-d.`];
    return day;
  };
  const from = parse(input.from, opts.fields.from);
  const to = parse(input.to, opts.fields.to);
  if (Object.keys(errors).length) throw new Validation(errors);
  const toDay = to ?? (from !== null ? Math.max(from, opts.today) : opts.today);
  const fromDay = from ?? toDay - (opts.defaultDays - 1);
  if (fromDay > toDay) {
    throw new Validation({ [opts.fields.to]: [`The ${label(opts.fields.to)} must be a date after or equal to ${label(opts.fields.from)}.`] });
  }
  const period = periodOf(fromDay, toDay);
  if (period.days > MAX_PERIOD_DAYS) {
    throw new Validation(
      { [opts.fields.to]: [`The period from ${label(opts.fields.from)} to ${label(opts.fields.to)} may not be longer than ${MAX_PERIOD_DAYS} days.`] },
      'invalid_date_range',
    );
  }
  return period;
}

/** Monday = 0 ... Sunday = 6 (1970-01-01 was a Thursday). */
const weekdayOf = (day: number): number => (((day + 3) % 7) + 7) % 7;

/** ISO 8601 week of a day: `2026-W05` (weeks start on Monday; week 1 holds the year's first Thursday). */
export function isoWeekLabel(day: number): string {
  const thursday = day - weekdayOf(day) + 3;
  const year = new Date(thursday * DAY_MS).getUTCFullYear();
  const week = Math.floor((thursday - Math.floor(Date.UTC(year, 0, 1) / DAY_MS)) / 7) + 1;
  return `${year}-W${String(week).padStart(2, '0')}`;
}

export type TimeUnit = 'day' | 'week' | 'month';

export interface TimeBucket {
  /** `2026-11-03` (day), `2026-W45` (ISO week), `2026-11` (month). */
  label: string;
  /** The days of the bucket inside the period (the first and last bucket may be partial). */
  from: string;
  to: string;
}

/** Every bucket touching the period, in order, each clipped to the period. */
export function timeBuckets(p: Period, unit: TimeUnit): TimeBucket[] {
  const out: TimeBucket[] = [];
  let start = p.fromDay;
  while (start <= p.toDay) {
    let end: number;
    let name: string;
    if (unit === 'day') {
      end = start;
      name = isoOf(start);
    } else if (unit === 'week') {
      end = start - weekdayOf(start) + 6;
      name = isoWeekLabel(start);
    } else {
      const d = new Date(start * DAY_MS);
      end = Math.floor(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1) / DAY_MS) - 1;
      name = isoOf(start).slice(0, 7);
    }
    end = Math.min(end, p.toDay);
    out.push({ label: name, from: isoOf(start), to: isoOf(end) });
    start = end + 1;
  }
  return out;
}

export const MONTH = /^(\d{4})-(0[1-9]|1[0-2])$/;

/** The days of a `YYYY-MM` month. */
export function monthPeriod(month: string): Period {
  const m = MONTH.exec(month);
  if (!m) throw new Validation({ month: ['The month must be a month in the form YYYY-MM (for example 2026-10).'] });
  const year = Number(m[1]);
  const index = Number(m[2]) - 1;
  const from = dayOf(`${month}-01`);
  if (from === null) throw new Validation({ month: ['The month must be a month in the form YYYY-MM (for example 2026-10).'] });
  const to = Math.round(Date.UTC(year, index + 1, 1) / 86_400_000) - 1;
  return periodOf(from, to);
}

/** The instant a `YYYY-MM` month begins (its first midnight, UTC): with `monthEnd`, the month is [monthStart, monthEnd). */
export const monthStart = (month: string): Date => new Date(monthPeriod(month).fromDay * 86_400_000);

/** The instant a `YYYY-MM` month ends (the next month's first midnight, UTC). */
export const monthEnd = (month: string): Date => new Date((monthPeriod(month).toDay + 1) * 86_400_000);
