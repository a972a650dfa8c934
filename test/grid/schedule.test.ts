import { nextRunAt, type ScheduleSpec } from '../../src/grid/schedule';
import { reasonOf } from './support';

const weekly: ScheduleSpec = { frequency: 'weekly', from: '09:00', to: '11:00', days: [1], timezone: 'Europe/London' };

describe('scan schedule: next_run_at', () => {
  it('is the window start on the next allowed weekday, in the schedule time zone', () => {
    // Sunday 22 Nov 2026, noon UTC -> Monday 23 Nov 09:00 London (GMT) = 09:00Z.
    expect(nextRunAt(weekly, new Date('2026-11-22T12:00:00Z')).toISOString()).toBe('2026-11-23T09:00:00.000Z');
    expect(nextRunAt({ ...weekly, timezone: 'America/New_York' }, new Date('2026-11-22T12:00:00Z')).toISOString()).toBe('2026-11-23T14:00:00.000Z');
  });

  it('follows daylight saving time (09:00 BST is 08:00Z)', () => {
    expect(nextRunAt(weekly, new Date('2026-06-01T00:00:00Z')).toISOString()).toBe('2026-06-01T08:00:00.000Z');
  });

  it('is strictly after the given moment: at the window start the next is a week later', () => {
    expect(nextRunAt(weekly, new Date('2026-11-23T09:00:00Z')).toISOString()).toBe('2026-11-30T09:00:00.000Z');
  });

  it('waits a whole period after the last run: bi-weekly and monthly', () => {
    const last = new Date('2026-11-23T09:00:00Z');
    expect(nextRunAt({ ...weekly, frequency: 'bi-weekly' }, new Date('2026-11-23T09:30:00Z'), last).toISOString()).toBe('2026-12-07T09:00:00.000Z');
    const monthly: ScheduleSpec = { frequency: 'monthly', from: '09:00', to: '10:00', days: [], timezone: 'Europe/London' };
    // 31 Jan + 1 month clamps to 28 Feb.
    expect(nextRunAt(monthly, new Date('2026-02-01T00:00:00Z'), new Date('2026-01-31T10:00:00Z')).toISOString()).toBe('2026-02-28T09:00:00.000Z');
  });

  it('no days means every day', () => {
    expect(nextRunAt({ ...weekly, days: [] }, new Date('2026-11-24T12:00:00Z')).toISOString()).toBe('2026-11-25T09:00:00.000Z');
  });

  it.each(['Mars/Olympus', 'EST', 'not a zone', ''])('rejects the time zone %p with invalid_timezone', (timezone) => {
    expect(reasonOf(() => nextRunAt({ ...weekly, timezone }, new Date()))).toBe('invalid_timezone');
  });

  it.each([
    ['10:00', '10:00'],
    ['11:00', '09:00'],
    ['24:00', '25:00'],
  ])('rejects the window %s-%s with invalid_schedule_window', (from, to) => {
    expect(reasonOf(() => nextRunAt({ ...weekly, from, to }, new Date()))).toBe('invalid_schedule_window');
  });
});
