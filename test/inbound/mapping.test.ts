import type { FieldErrors } from '../../src/domain/errors';
import {
  anchorZoneOf,
  cleanMapping,
  cleanTiming,
  earliestSendTime,
  parseAnchorDate,
  parseFormBody,
  scalarAt,
  splitFullName,
  valueAt,
} from '../../src/services/inbound-mapping';

/** The pure rules of the inbound contact webhook (docs/decisions/review-requests.md, "Inbound contact webhook"). */
describe('inbound mapping', () => {
  describe('dot paths', () => {
    const payload = {
      data: { customer: { email: 'ada@example.test', phone: 14155552671 } },
      items: [{ name: 'first' }, { name: 'second' }],
      'flat.key': 'literal',
      blank: '   ',
      flag: true,
    };

    it('reaches nested objects, array items by index, and keys that contain dots', () => {
      expect(valueAt(payload, 'data.customer.email')).toBe('ada@example.test');
      expect(valueAt(payload, 'items.1.name')).toBe('second');
      expect(valueAt(payload, 'flat.key')).toBe('literal');
      expect(valueAt(payload, 'data.nobody')).toBeUndefined();
    });

    it('reads numbers as digits and treats blanks, booleans and objects as missing', () => {
      expect(scalarAt(payload, 'data.customer.phone')).toBe(14155552671);
      expect(scalarAt(payload, 'blank')).toBeUndefined();
      expect(scalarAt(payload, 'flag')).toBeUndefined();
      expect(scalarAt(payload, 'data.customer')).toBeUndefined();
    });

    it('makes bracket and dot form names reachable by dot paths, without touching prototypes', () => {
      const form = parseFormBody('contact%5Bemail%5D=a%40b.test&contact.phone=%2B1+415+555+2671&contact[name][first]=Ada&tags[]=x&tags[]=y&__proto__[polluted]=1');
      expect(valueAt(form, 'contact.email')).toBe('a@b.test');
      expect(valueAt(form, 'contact.phone')).toBe('+1 415 555 2671');
      expect(valueAt(form, 'contact.name.first')).toBe('Ada');
      expect(scalarAt(form, 'tags')).toBe('x');
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    });
  });

  describe('full name', () => {
    it('splits into the first word and the rest', () => {
      expect(splitFullName('  Ada   King Lovelace ')).toEqual({ firstName: 'Ada', lastName: 'King Lovelace' });
      expect(splitFullName('Cher')).toEqual({ firstName: 'Cher', lastName: null });
      expect(splitFullName('   ')).toEqual({ firstName: null, lastName: null });
    });
  });

  describe('anchor date', () => {
    const at = (v: string | number, zone = 'UTC') => parseAnchorDate(v, zone)?.toISOString() ?? null;

    it('reads ISO 8601 with and without offset (naive text in the given zone)', () => {
      expect(at('2026-11-24T14:30:00Z')).toBe('2026-11-24T14:30:00.000Z');
      expect(at('2026-11-24T14:30:00+02:00')).toBe('2026-11-24T12:30:00.000Z');
      expect(at('2026-11-24T14:30', 'America/New_York')).toBe('2026-11-24T19:30:00.000Z');
      expect(at('2026-11-24')).toBe('2026-11-24T00:00:00.000Z');
      expect(at('2026-11-24 14:30:15')).toBe('2026-11-24T14:30:15.000Z');
    });

    it('reads the common formats: US slashes month first, dots and dashes day first, month names, RFC 2822, Unix time', () => {
      expect(at('11/24/2026 2:30 PM')).toBe('2026-11-24T14:30:00.000Z');
      expect(at('03/04/2026')).toBe('2026-03-04T00:00:00.000Z');
      expect(at('04.03.2026 09:15')).toBe('2026-03-04T09:15:00.000Z');
      expect(at('24-11-2026')).toBe('2026-11-24T00:00:00.000Z');
      expect(at('Nov 24, 2026')).toBe('2026-11-24T00:00:00.000Z');
      expect(at('24 November 2026 14:30')).toBe('2026-11-24T14:30:00.000Z');
      expect(at('Tue, 24 Nov 2026 14:30:00 +0000')).toBe('2026-11-24T14:30:00.000Z');
      expect(at(1795530600)).toBe('2026-11-24T14:30:00.000Z');
      expect(at('1795530600000')).toBe('2026-11-24T14:30:00.000Z');
    });

    it('gives null for text that is not a date', () => {
      expect(at('next tuesday')).toBeNull();
      expect(at('2026-02-30')).toBeNull();
    });
  });

  describe('timing', () => {
    const arrival = new Date('2026-11-24T10:00:00Z');

    it('immediate sends at arrival whatever the anchor', () => {
      expect(earliestSendTime({ mode: 'immediate' }, new Date('2026-12-24T00:00:00Z'), arrival)).toEqual(arrival);
    });

    it('delay counts from the anchor, else from arrival', () => {
      expect(earliestSendTime({ mode: 'delay', delayMinutes: 90 }, new Date('2026-11-30T09:00:00Z'), arrival).toISOString()).toBe('2026-11-30T10:30:00.000Z');
      expect(earliestSendTime({ mode: 'delay', delayMinutes: 15 }, null, arrival).toISOString()).toBe('2026-11-24T10:15:00.000Z');
    });

    it('next morning is the given local time on the day after the anchor, keeping the wall clock across a DST change', () => {
      // Each submission arrives at its anchor (the webhook fires at the visit), so the morning after is still ahead.
      const ny = { mode: 'next_morning' as const, time: '09:00', timezone: 'America/New_York' };
      // US clocks spring forward on Sunday 2026-03-08: 09:00 is EST (UTC-5) on the 7th and EDT (UTC-4) on the 8th.
      expect(earliestSendTime(ny, new Date('2026-03-06T23:00:00Z'), new Date('2026-03-06T23:00:00Z')).toISOString()).toBe('2026-03-07T14:00:00.000Z');
      expect(earliestSendTime(ny, new Date('2026-03-07T23:00:00Z'), new Date('2026-03-07T23:00:00Z')).toISOString()).toBe('2026-03-08T13:00:00.000Z');
      // Europe falls back on 2026-10-25: 08:30 is CEST (UTC+2) on the 24th and CET (UTC+1) on the 25th.
      const berlin = { mode: 'next_morning' as const, time: '08:30', timezone: 'Europe/Berlin' };
      expect(earliestSendTime(berlin, new Date('2026-10-24T18:00:00Z'), new Date('2026-10-24T18:00:00Z')).toISOString()).toBe('2026-10-25T07:30:00.000Z');
      // A late-evening anchor is still "that day": 23:30 local on the 6th sends on the 7th, not the 8th.
      expect(earliestSendTime(ny, new Date('2026-03-07T04:30:00Z'), new Date('2026-03-07T04:30:00Z')).toISOString()).toBe('2026-03-07T14:00:00.000Z');
    });

    it('next morning inside a spring-forward gap moves forward by the gap', () => {
      const gap = { mode: 'next_morning' as const, time: '02:30', timezone: 'America/New_York' };
      expect(earliestSendTime(gap, new Date('2026-03-07T20:00:00Z'), new Date('2026-03-07T20:00:00Z')).toISOString()).toBe('2026-03-08T07:30:00.000Z');
    });

    it('next morning after an anchor whose next morning has passed is the next such morning after arrival, in the zone', () => {
      const ny = { mode: 'next_morning' as const, time: '09:00', timezone: 'America/New_York' };
      const anchor = parseAnchorDate('2026-03-05 14:00', anchorZoneOf(ny));
      // Arrival Saturday 03:00 EST: Friday 09:00 has passed; Saturday 09:00 EST is still ahead.
      expect(earliestSendTime(ny, anchor, new Date('2026-03-07T08:00:00Z')).toISOString()).toBe('2026-03-07T14:00:00.000Z');
      // Arrival Saturday 10:00 EST: Sunday 09:00, EDT after the spring-forward.
      expect(earliestSendTime(ny, anchor, new Date('2026-03-07T15:00:00Z')).toISOString()).toBe('2026-03-08T13:00:00.000Z');
      // Arrival exactly at Saturday 09:00: that morning.
      expect(earliestSendTime(ny, anchor, new Date('2026-03-07T14:00:00Z')).toISOString()).toBe('2026-03-07T14:00:00.000Z');
      // The morning after the anchor still ahead: that one, as before.
      expect(earliestSendTime(ny, anchor, new Date('2026-03-05T20:00:00Z')).toISOString()).toBe('2026-03-06T14:00:00.000Z');
    });

    it("delay reads anchors without an offset in the connection's zone (UTC when it has none); offsets and Z as given", () => {
      const ny = { mode: 'delay' as const, delayMinutes: 60, timezone: 'America/New_York' };
      const arrival2 = new Date('2026-03-05T19:30:00Z');
      const at = (v: string, timing: Parameters<typeof anchorZoneOf>[0]) => earliestSendTime(timing, parseAnchorDate(v, anchorZoneOf(timing)), arrival2).toISOString();
      expect(at('2026-03-05 14:00', ny)).toBe('2026-03-05T20:00:00.000Z');
      expect(at('2026-03-05T19:15:00Z', ny)).toBe('2026-03-05T20:15:00.000Z');
      expect(at('2026-03-05T14:15:00-05:00', ny)).toBe('2026-03-05T20:15:00.000Z');
      expect(at('2026-03-05 14:00', { mode: 'delay', delayMinutes: 60 })).toBe('2026-03-05T15:00:00.000Z');
      expect(anchorZoneOf({ mode: 'immediate' })).toBe('UTC');
    });

    it('next morning without an anchor counts from arrival', () => {
      const utc = { mode: 'next_morning' as const, time: '07:00', timezone: 'UTC' };
      expect(earliestSendTime(utc, null, arrival).toISOString()).toBe('2026-11-25T07:00:00.000Z');
    });
  });

  describe('settings validation', () => {
    const timing = (input: Parameters<typeof cleanTiming>[0]) => {
      const errors: FieldErrors = {};
      return { value: cleanTiming(input, errors), errors };
    };

    it('accepts a delay of 15 minutes to 7 days and refuses 14 minutes and 7 days + 1 minute', () => {
      expect(timing({ mode: 'delay', delayMinutes: 15 })).toEqual({ value: { mode: 'delay', delayMinutes: 15 }, errors: {} });
      expect(timing({ mode: 'delay', delayMinutes: 10080 }).errors).toEqual({});
      expect(Object.keys(timing({ mode: 'delay', delayMinutes: 14 }).errors)).toEqual(['timing.delay_minutes']);
      expect(Object.keys(timing({ mode: 'delay', delayMinutes: 10081 }).errors)).toEqual(['timing.delay_minutes']);
      expect(Object.keys(timing({ mode: 'delay' }).errors)).toEqual(['timing.delay_minutes']);
    });

    it("keeps a delay's optional time zone (the zone of anchors without an offset) and checks it", () => {
      expect(timing({ mode: 'delay', delayMinutes: 60, timezone: ' America/Chicago ' })).toEqual({
        value: { mode: 'delay', delayMinutes: 60, timezone: 'America/Chicago' },
        errors: {},
      });
      expect(timing({ mode: 'delay', delayMinutes: 60, timezone: '' }).value).toEqual({ mode: 'delay', delayMinutes: 60 });
      expect(timing({ mode: 'delay', delayMinutes: 60, timezone: null }).value).toEqual({ mode: 'delay', delayMinutes: 60 });
      expect(Object.keys(timing({ mode: 'delay', delayMinutes: 60, timezone: 'Mars/Olympus' }).errors)).toEqual(['timing.timezone']);
    });

    it('checks the next-morning time and zone, and the mode', () => {
      expect(timing({ mode: 'next_morning', time: '09:00', timezone: 'Europe/London', delayMinutes: 30 }).value).toEqual({
        mode: 'next_morning',
        time: '09:00',
        timezone: 'Europe/London',
      });
      expect(Object.keys(timing({ mode: 'next_morning', time: '9am', timezone: 'Mars/Olympus' }).errors).sort()).toEqual(['timing.time', 'timing.timezone']);
      expect(Object.keys(timing({ mode: 'tomorrow' }).errors)).toEqual(['timing.mode']);
    });

    it('normalises paths and needs the email or the phone mapped', () => {
      const errors: FieldErrors = {};
      expect(cleanMapping({ email: ' contact[email] ', fullName: '', anchorDate: null }, errors)).toEqual({ email: 'contact.email' });
      expect(errors).toEqual({});
      const none: FieldErrors = {};
      cleanMapping({ firstName: 'first' }, none);
      expect(none).toEqual({ mapping: ['Map at least the email or the phone field.'] });
      const bad: FieldErrors = {};
      cleanMapping({ email: 'contact..email' }, bad);
      expect(Object.keys(bad)).toEqual(['mapping.email']);
    });
  });
});
