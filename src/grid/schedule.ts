import { DateTime, IANAZone } from 'luxon';
import { ruleViolation } from '../domain/errors';

export const FREQUENCIES = ['weekly', 'bi-weekly', 'monthly'] as const;
export type Frequency = (typeof FREQUENCIES)[number];

export interface ScheduleSpec {
  frequency: Frequency;
  /** HH:MM, 24 hours, local to `timezone`. */
  from: string;
  to: string;
  /** 0 = Sunday .. 6 = Saturday; empty = every day. */
  days: readonly number[];
  timezone: string;
}

const HHMM = /^([01]\d|2[0-3]):([0-5]\d)$/;
const minutesOf = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));

/** A time-zone identifier in region/city form that the IANA database knows (`UTC` is accepted too). */
export function assertTimezone(zone: string): void {
  if (zone !== 'UTC' && (!/^[A-Za-z_]+(\/[A-Za-z0-9_+-]+)+$/.test(zone) || !IANAZone.isValidZone(zone))) {
    throw ruleViolation(`"${zone}" is not a recognised time zone identifier (for example Europe/London).`, 'invalid_timezone');
  }
}

export function assertWindow(from: string, to: string): void {
  if (!HHMM.test(from) || !HHMM.test(to) || minutesOf(from) >= minutesOf(to)) {
    throw ruleViolation('scheduled_from must be an earlier HH:MM time than scheduled_to on the same day.', 'invalid_schedule_window');
  }
}

const periodDays = (f: Frequency) => (f === 'weekly' ? 7 : f === 'bi-weekly' ? 14 : 0);

/**
 * The next run: the start of the window on the first allowed weekday strictly after `after` (local time); then,
 * when there was a previous run, no sooner than one period after it (7 or 14 days, or one calendar month).
 */
export function nextRunAt(spec: ScheduleSpec, after: Date, lastRunAt: Date | null = null): Date {
  assertTimezone(spec.timezone);
  assertWindow(spec.from, spec.to);
  let earliest = DateTime.fromJSDate(after, { zone: spec.timezone });
  if (lastRunAt) {
    const last = DateTime.fromJSDate(lastRunAt, { zone: spec.timezone });
    const due = spec.frequency === 'monthly' ? last.plus({ months: 1 }).startOf('day') : last.plus({ days: periodDays(spec.frequency) }).startOf('day');
    if (due > earliest) earliest = due.minus({ milliseconds: 1 });
  }
  const [h, m] = [Number(spec.from.slice(0, 2)), Number(spec.from.slice(3, 5))];
  const days = new Set(spec.days.length ? spec.days : [0, 1, 2, 3, 4, 5, 6]);
  for (let i = 0; i <= 14; i++) {
    const day = earliest.startOf('day').plus({ days: i });
    const candidate = day.set({ hour: h, minute: m, second: 0, millisecond: 0 });
    // luxon weekday: 1 = Monday .. 7 = Sunday.
    if (!days.has(candidate.weekday % 7)) continue;
    if (candidate > earliest) return candidate.toJSDate();
  }
  throw new Error('unreachable: a week always holds an allowed day');
}
