import { dayOf, isoWeekLabel, MAX_PERIOD_DAYS, monthPeriod, previousPeriod, resolvePeriod, timeBuckets } from '../../src/analytics/periods';
import { parseDate } from '../../src/services/common';
import { Validation } from '../../src/domain/errors';

const day = (iso: string): number => dayOf(iso)!;
const fields = { from: 'date_from', to: 'date_to' };
const resolve = (from: string | null, to: string | null, today = '2026-11-25') =>
  resolvePeriod({ from, to }, { today: day(today), defaultDays: 30, fields });

describe('analytics periods', () => {
  it('labels ISO 8601 weeks (Monday first; week 1 holds the first Thursday)', () => {
    expect(isoWeekLabel(day('2026-01-01'))).toBe('2026-W01'); // a Thursday
    expect(isoWeekLabel(day('2025-12-29'))).toBe('2026-W01'); // Monday of that week, previous calendar year
    expect(isoWeekLabel(day('2021-01-03'))).toBe('2020-W53'); // Sunday closing 2020's 53rd week
    expect(isoWeekLabel(day('2021-01-04'))).toBe('2021-W01');
    expect(isoWeekLabel(day('2024-12-30'))).toBe('2025-W01');
    expect(isoWeekLabel(day('2026-03-01'))).toBe('2026-W09'); // Sunday
    expect(isoWeekLabel(day('2026-03-02'))).toBe('2026-W10'); // Monday
  });

  it('takes no date before the year 1000 (the database cannot hold it; Date.UTC reads 0050 as 1950)', () => {
    expect(dayOf('0999-12-31')).toBeNull();
    expect(dayOf('0100-01-01')).toBeNull();
    expect(parseDate('0100-01-01')).toBeNull();
    expect(dayOf('1000-01-01')).not.toBeNull();
    expect(parseDate('1000-01-01')!.toISOString()).toBe('1000-01-01T00:00:00.000Z');
    expect(() => monthPeriod('0050-01')).toThrow(Validation);
    expect(monthPeriod('1969-12')).toMatchObject({ from: '1969-12-01', to: '1969-12-31', days: 31 });
  });

  it('splits a period into day, week and month buckets clipped to it', () => {
    const p = resolve('2026-02-27', '2026-03-03');
    expect(timeBuckets(p, 'day').map((b) => b.label)).toEqual(['2026-02-27', '2026-02-28', '2026-03-01', '2026-03-02', '2026-03-03']);
    expect(timeBuckets(p, 'week')).toEqual([
      { label: '2026-W09', from: '2026-02-27', to: '2026-03-01' },
      { label: '2026-W10', from: '2026-03-02', to: '2026-03-03' },
    ]);
    expect(timeBuckets(p, 'month')).toEqual([
      { label: '2026-02', from: '2026-02-27', to: '2026-02-28' },
      { label: '2026-03', from: '2026-03-01', to: '2026-03-03' },
    ]);
    expect(timeBuckets(resolve('2024-01-15', '2024-03-10'), 'month')).toEqual([
      { label: '2024-01', from: '2024-01-15', to: '2024-01-31' },
      { label: '2024-02', from: '2024-02-01', to: '2024-02-29' },
      { label: '2024-03', from: '2024-03-01', to: '2024-03-10' },
    ]);
  });

  it('takes the equal-length period just before as the previous one, across month ends and leap years', () => {
    const march2024 = resolve('2024-03-01', '2024-03-31');
    expect(previousPeriod(march2024)).toMatchObject({ from: '2024-01-30', to: '2024-02-29', days: 31 });
    expect(previousPeriod(resolve('2026-03-01', '2026-03-31'))).toMatchObject({ from: '2026-01-29', to: '2026-02-28', days: 31 });
    expect(previousPeriod(resolve('2024-02-29', '2024-02-29'))).toMatchObject({ from: '2024-02-28', to: '2024-02-28', days: 1 });
    // 365 days before 2025 do not reach back to 2024-01-01: 2024 has 366.
    expect(previousPeriod(resolve('2025-01-01', '2025-12-31'))).toMatchObject({ from: '2024-01-02', to: '2024-12-31', days: 365 });
  });

  it('defaults to the last 30 days ending today, and a lone bound to today or 29 days before it', () => {
    expect(resolve(null, null)).toMatchObject({ from: '2026-10-27', to: '2026-11-25', days: 30 });
    expect(resolve('2026-11-01', null)).toMatchObject({ from: '2026-11-01', to: '2026-11-25' });
    expect(resolve(null, '2026-03-31')).toMatchObject({ from: '2026-03-02', to: '2026-03-31' });
  });

  it(`accepts ${MAX_PERIOD_DAYS} days and refuses ${MAX_PERIOD_DAYS + 1} with invalid_date_range`, () => {
    expect(resolve('2025-01-01', '2026-06-24').days).toBe(540);
    let error: unknown;
    try {
      resolve('2025-01-01', '2026-06-25');
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(Validation);
    expect(error).toMatchObject({ reason: 'invalid_date_range', fields: { date_to: [expect.stringContaining('540 days')] } });
  });

  it('refuses impossible dates and a start after the end as field errors', () => {
    expect(() => resolve('2026-02-30', null)).toThrow(expect.objectContaining({ fields: { date_from: ['The date from does not match the format Y-m-d.'] } }));
    expect(() => resolve('2026-03-02', '2026-03-01')).toThrow(
      expect.objectContaining({ fields: { date_to: ['The date to must be a date after or equal to date from.'] } }),
    );
  });
});
