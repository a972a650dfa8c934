import { DateTime, IANAZone } from 'luxon';
import type { FieldErrors } from '../domain/errors';
import type { InboundMapping, InboundTiming } from '../models/inbound-connection.model';

/**
 * The pure part of the inbound contact webhook (spec: Inbound contact webhook): reading mapped values out of a
 * payload by dot path, splitting a full name, parsing the anchor date, computing the earliest send time from
 * the connection's timing, and validating mappings and timings. No I/O here, so each rule is tested directly.
 */

export const MAPPING_FIELDS = ['firstName', 'lastName', 'fullName', 'email', 'phone', 'anchorDate'] as const;
export type MappingField = (typeof MAPPING_FIELDS)[number];

/** Delay bounds of the `delay` timing (spec: Limits > Inbound delay, 15 minutes to 7 days). */
export const MIN_DELAY_MINUTES = 15;
export const MAX_DELAY_MINUTES = 7 * 24 * 60;
export const MAX_PATH_CHARS = 255;

const HHMM = /^([01]\d|2[0-3]):([0-5]\d)$/;
const snake = (name: string): string => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
const own = (o: object, k: string): boolean => Object.prototype.hasOwnProperty.call(o, k);

// ---- payloads -------------------------------------------------------------------------------------------

/** `contact[name][first]` and `items[0].email` become `contact.name.first` and `items.0.email`; `tags[]` is `tags`. */
export function normalisePath(path: string): string {
  return path
    .trim()
    .replace(/\[\]/g, '')
    .replace(/\[([^\]]*)\]/g, '.$1')
    .replace(/^\./, '');
}

/**
 * A form-encoded body as a flat object keyed by normalised path (`contact[email]` -> `contact.email`); a key sent
 * more than once gives an array. Prototype-free, so no key can reach `Object.prototype`.
 */
export function parseFormBody(text: string): Record<string, unknown> {
  const out: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  for (const [rawKey, value] of new URLSearchParams(text)) {
    const key = normalisePath(rawKey);
    if (!key) continue;
    const existing = out[key];
    if (existing === undefined) out[key] = value;
    else if (Array.isArray(existing)) existing.push(value);
    else out[key] = [existing, value];
  }
  return out;
}

/**
 * The value at a dot path. At each level a key that literally contains dots wins (flat form bodies, JSON keys
 * such as `"contact.email"`), then the path descends one segment at a time; array items are reached by index
 * (`items.0.email`).
 */
export function valueAt(root: unknown, path: string): unknown {
  if (root === null || typeof root !== 'object') return undefined;
  const obj = root as Record<string, unknown>;
  if (own(obj, path)) return obj[path];
  for (let i = path.indexOf('.'); i !== -1; i = path.indexOf('.', i + 1)) {
    const head = path.slice(0, i);
    if (own(obj, head)) {
      const found = valueAt(obj[head], path.slice(i + 1));
      if (found !== undefined) return found;
    }
  }
  return undefined;
}

/** A mapped value as text: strings trimmed, finite numbers as digits, an array's first scalar; else undefined. */
export function scalarAt(root: unknown, path: string | null | undefined): string | number | undefined {
  if (!path) return undefined;
  let value = valueAt(root, path);
  if (Array.isArray(value)) value = value.find((v) => typeof v === 'string' || typeof v === 'number');
  if (typeof value === 'string') {
    const t = value.trim();
    return t === '' ? undefined : t;
  }
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  return undefined;
}

/** How deep the skipped-submission hint looks into a payload: a mapping path is never this deep. */
export const LEAF_PATH_DEPTH = 16;

/**
 * Every leaf path of a payload (at most `limit`), for the "what did we get" hint of a skipped submission. It descends
 * at most LEAF_PATH_DEPTH levels (a deeper value is named by its path at that depth), so a body of thousands of
 * nested arrays, well under the size limit, cannot overflow the stack.
 */
export function leafPaths(root: unknown, limit = 20): string[] {
  const out: string[] = [];
  const walk = (v: unknown, prefix: string, depth: number) => {
    if (out.length >= limit) return;
    if (v !== null && typeof v === 'object' && depth < LEAF_PATH_DEPTH) {
      for (const k of Object.keys(v)) walk((v as Record<string, unknown>)[k], prefix ? `${prefix}.${k}` : k, depth + 1);
    } else if (prefix) out.push(prefix);
  };
  walk(root, '', 0);
  return out;
}

/** "Ada King Lovelace" -> first "Ada", last "King Lovelace" (first token / the rest); one token has no last name. */
export function splitFullName(full: string): { firstName: string | null; lastName: string | null } {
  const parts = full.trim().split(/\s+/).filter(Boolean);
  if (parts.length === 0) return { firstName: null, lastName: null };
  return { firstName: parts[0], lastName: parts.length > 1 ? parts.slice(1).join(' ') : null };
}

// ---- anchor date ----------------------------------------------------------------------------------------

/** Day-first and month-first layouts we read; slashes are month-first (US), dots and dashes day-first. */
const DATE_LAYOUTS = ['M/d/yyyy', 'd.M.yyyy', 'd-M-yyyy', 'yyyy/M/d', 'MMMM d, yyyy', 'MMM d, yyyy', 'MMMM d yyyy', 'MMM d yyyy', 'd MMMM yyyy', 'd MMM yyyy'];
const TIME_LAYOUTS = ['', ' H:mm', ' H:mm:ss', ' h:mm a', ' h:mma', ' h a', ' ha', ' h:mm:ss a'];
const LAYOUTS = [
  'yyyy-MM-dd H:mm',
  'yyyy-MM-dd H:mm:ss',
  'yyyy-MM-dd H:mm:ss.SSS',
  ...DATE_LAYOUTS.flatMap((d) => TIME_LAYOUTS.flatMap((t) => [`${d}${t}`, `${d},${t}`])),
];

/**
 * The timing anchor (appointment or order date). Accepted: ISO 8601 (date, date-time, with or without offset),
 * `YYYY-MM-DD HH:MM[:SS]`, RFC 2822 and HTTP dates, Unix time in seconds (10 digits) or milliseconds (13 digits)
 * as number or text, `M/D/YYYY` (US, month first), `D.M.YYYY` and `D-M-YYYY` (day first), `YYYY/M/D`, and
 * month names (`Nov 24, 2026`, `24 November 2026`), each with an optional time (`14:30`, `2:30 PM`). Text
 * without an offset is read in `zone`. Anything else is null (the arrival time is used instead).
 */
export function parseAnchorDate(value: string | number | undefined, zone: string): Date | null {
  if (value === undefined) return null;
  if (typeof value === 'number' || /^\d{10}(\d{3})?$/.test(value)) {
    const epoch = Number(value);
    if (!Number.isFinite(epoch) || epoch <= 0) return null;
    const ms = epoch >= 1e12 ? epoch : epoch * 1000;
    const d = new Date(ms);
    return Number.isNaN(d.getTime()) || d.getUTCFullYear() > 9999 ? null : d;
  }
  const text = value.trim().replace(/\s+/g, ' ');
  const opts = { zone, setZone: false };
  const candidates = [
    () => DateTime.fromISO(text, opts),
    () => DateTime.fromRFC2822(text, opts),
    () => DateTime.fromHTTP(text, opts),
    ...LAYOUTS.map((layout) => () => DateTime.fromFormat(text, layout, { ...opts, locale: 'en-US' })),
  ];
  for (const parse of candidates) {
    const dt = parse();
    if (dt.isValid && dt.year >= 1970 && dt.year <= 9999) return dt.toJSDate();
  }
  return null;
}

/**
 * The zone anchor texts without an offset are read in: the connection's own zone (next morning's, or the delay's
 * optional one); UTC when it has none (accounts, organisations and locations carry no time zone). Anchors with an
 * offset or `Z`, and Unix times, are read as given.
 */
export const anchorZoneOf = (timing: InboundTiming): string => ('timezone' in timing && timing.timezone ? timing.timezone : 'UTC');

// ---- timing ---------------------------------------------------------------------------------------------

/**
 * The earliest send time of a submission, before the campaign's send window applies (requestInvite moves it into
 * the window and never before now):
 * - `immediate`: the arrival time (the anchor does not matter);
 * - `delay`: the anchor (else the arrival time) plus `delayMinutes`;
 * - `next_morning`: `time` on the calendar day after the anchor's (else the arrival's) local date in `timezone`;
 *   when that morning has already passed at arrival (an anchor days old), the next `time` after the arrival instead
 *   (today's if still ahead, else tomorrow's), never a time in the past that would send at once, at any hour.
 *   Across a DST change the wall-clock time is kept; a time that does not exist that day (a spring-forward gap)
 *   moves forward by the gap, as the zone's clocks do.
 */
export function earliestSendTime(timing: InboundTiming, anchor: Date | null, arrival: Date): Date {
  const base = anchor ?? arrival;
  switch (timing.mode) {
    case 'immediate':
      return new Date(arrival);
    case 'delay':
      return new Date(base.getTime() + timing.delayMinutes * 60_000);
    case 'next_morning': {
      const [hour, minute] = timing.time.split(':').map(Number);
      const morningAfter = (d: Date, days: number) =>
        DateTime.fromJSDate(d, { zone: timing.timezone }).startOf('day').plus({ days }).set({ hour, minute, second: 0, millisecond: 0 }).toJSDate();
      const planned = morningAfter(base, 1);
      if (planned.getTime() >= arrival.getTime()) return planned;
      const today = morningAfter(arrival, 0);
      return today.getTime() >= arrival.getTime() ? today : morningAfter(arrival, 1);
    }
  }
}

// ---- validation of a connection's settings --------------------------------------------------------------

/** A region/city IANA identifier (or `UTC`), as the scan schedules accept. */
export function isTimezone(zone: string): boolean {
  return zone === 'UTC' || (/^[A-Za-z_]+(\/[A-Za-z0-9_+-]+)+$/.test(zone) && IANAZone.isValidZone(zone));
}

export type MappingInput = Partial<Record<MappingField, string | null | undefined>>;

/**
 * Cleans a mapping: paths trimmed and normalised (`a[b]` -> `a.b`), empty = unmapped, at most 255 characters,
 * no empty segment. The email or the phone must be mapped (without either every submission would be skipped).
 */
export function cleanMapping(input: MappingInput, errors: FieldErrors): InboundMapping {
  const out: InboundMapping = {};
  for (const field of MAPPING_FIELDS) {
    const raw = input[field];
    if (raw === null || raw === undefined) continue;
    const path = normalisePath(raw);
    if (!path) continue;
    const key = `mapping.${snake(field)}`;
    if ([...path].length > MAX_PATH_CHARS) errors[key] = [`The path may not be greater than ${MAX_PATH_CHARS} characters.`];
    else if (path.split('.').some((s) => s.trim() === '')) errors[key] = ['The path must be dot-separated names, for example contact.email.'];
    else out[field] = path;
  }
  if (!out.email && !out.phone && !errors['mapping.email'] && !errors['mapping.phone']) {
    errors.mapping = ['Map at least the email or the phone field.'];
  }
  return out;
}

export interface TimingInput {
  mode: string;
  delayMinutes?: number | null;
  time?: string | null;
  timezone?: string | null;
}

/** A timing as stored: only the keys of its mode. */
export function cleanTiming(input: TimingInput, errors: FieldErrors): InboundTiming {
  switch (input.mode) {
    case 'immediate':
      return { mode: 'immediate' };
    case 'delay': {
      const m = input.delayMinutes;
      // Optional: the zone anchor dates without an offset are read in (UTC when none).
      const timezone = input.timezone?.trim() || null;
      if (timezone !== null && !isTimezone(timezone)) errors['timing.timezone'] = ['The timezone must be an IANA identifier such as Europe/London.'];
      if (typeof m !== 'number' || !Number.isInteger(m) || m < MIN_DELAY_MINUTES || m > MAX_DELAY_MINUTES) {
        errors['timing.delay_minutes'] = [`The delay must be a whole number of minutes between ${MIN_DELAY_MINUTES} and ${MAX_DELAY_MINUTES} (7 days).`];
        return { mode: 'immediate' };
      }
      return timezone ? { mode: 'delay', delayMinutes: m, timezone } : { mode: 'delay', delayMinutes: m };
    }
    case 'next_morning': {
      const time = input.time?.trim() ?? '';
      const timezone = input.timezone?.trim() ?? '';
      if (!HHMM.test(time)) errors['timing.time'] = ['The time must be HH:MM (24 hours), for example 09:00.'];
      if (!isTimezone(timezone)) errors['timing.timezone'] = ['The timezone must be an IANA identifier such as Europe/London.'];
      return { mode: 'next_morning', time, timezone };
    }
    default:
      errors['timing.mode'] = ['The mode must be one of: immediate, delay, next_morning.'];
      return { mode: 'immediate' };
  }
}
