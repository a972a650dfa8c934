import { QueryTypes } from 'sequelize';
import type { Sequelize } from 'sequelize-typescript';
import { Forbidden, Validation, type FieldErrors } from '../domain/errors';
import { canSeeLocation } from '../domain/permissions';
import type { Principal } from '../domain/principal';
import {
  dayOf,
  daysOf,
  defaultWindow,
  inclusiveDays,
  isoOf,
  MAX_RANGE_DAYS,
  monthLabel,
  previousWindow,
} from '../gbp/dates';
import { DAILY_METRICS, isDailyMetric, totalsOf, type DailyMetric, type MetricTotals } from '../gbp/metrics';
import { GbpDailyMetric, Location } from '../models';
import { checkPageDepth, clockOf, type ServiceOptions } from './common';

/**
 * Business-profile performance of a location: daily Google metrics and monthly search keywords, stored by the
 * periodic sync (workflows/gbp) and read by `GET /api/v1/gbp/metrics` and `/gbp/search-terms` (through GraphQL
 * `gbpMetrics` / `gbpSearchTerms`). Profile and photo views are never read: every query names the metrics it sums.
 */

export function db(): Sequelize {
  const s = GbpDailyMetric.sequelize;
  if (!s) throw new Error('Database not initialised');
  return s as Sequelize;
}

/**
 * The location the caller asks about. The spec answers every location outside the caller's scope with 403
 * `location_access_denied`; an id that does not exist gets the same answer, so the status never tells whether
 * another account's location exists.
 */
async function visibleLocation(p: Principal, locationId: number, opts: ServiceOptions): Promise<Location> {
  const location = await Location.findByPk(locationId, { transaction: opts.transaction });
  if (!location || !canSeeLocation(p, location)) throw new Forbidden('You do not have access to this location.', 'location_access_denied');
  return location;
}

// ---- metrics --------------------------------------------------------------------------------------------

export interface MetricsInput {
  locationId: number;
  /** `Y-m-d`, inclusive; default 30 days ago. */
  from?: string | null;
  /** `Y-m-d`, inclusive; default yesterday. */
  to?: string | null;
  includeDaily?: boolean | null;
}

export interface DailyMetricsRow extends MetricTotals {
  date: string;
}

export interface MetricsResult {
  locationId: number;
  organizationId: number;
  period: { from: string; to: string };
  totals: MetricTotals;
  previousPeriod: { from: string; to: string; totals: MetricTotals };
  /** One row per day of the period (zeros where nothing was recorded); null unless asked for. */
  daily: DailyMetricsRow[] | null;
}

/** The requested window with the documented defaults, or a 422: format per field, then the range rules. */
function requestedWindow(input: MetricsInput, now: Date): { fromDay: number; toDay: number } {
  const fields: FieldErrors = {};
  const parse = (field: 'from' | 'to', value: string | null | undefined): number | null => {
    if (value === undefined || value === null) return null;
    const day = dayOf(value);
    if (day === null) fields[field] = [`The ${field} does not match the format Y-m-d.`];
    return day;
  };
  const from = parse('from', input.from);
  const to = parse('to', input.to);
  if (Object.keys(fields).length) throw new Validation(fields);
  const defaults = defaultWindow(now);
  return { fromDay: from ?? defaults.fromDay, toDay: to ?? defaults.toDay };
}

function assertRange(fromDay: number, toDay: number): void {
  if (fromDay > toDay) {
    throw new Validation(
      { from: [`The from date (${isoOf(fromDay)}) must not be after the to date (${isoOf(toDay)}).`] },
      'invalid_date_range',
      `The from date (${isoOf(fromDay)}) must not be after the to date (${isoOf(toDay)}).`,
    );
  }
  const days = inclusiveDays(fromDay, toDay);
  if (days > MAX_RANGE_DAYS) {
    const message = `The date range may span at most ${MAX_RANGE_DAYS} days, from and to included; ${isoOf(fromDay)} to ${isoOf(toDay)} spans ${days}.`;
    throw new Validation({ to: [message] }, 'invalid_date_range', message);
  }
}

/**
 * Totals of a location's metrics over `from`..`to` (inclusive) and over the equal-length window just before it,
 * with the per-day rows when asked for. Checks: date formats (422), then the location (403), then the range (422
 * `invalid_date_range`: from after to, or more than 540 days).
 */
export async function getMetrics(p: Principal, input: MetricsInput, opts: ServiceOptions = {}): Promise<MetricsResult> {
  const { fromDay, toDay } = requestedWindow(input, clockOf(opts).now());
  const location = await visibleLocation(p, input.locationId, opts);
  assertRange(fromDay, toDay);
  const previous = previousWindow(fromDay, toDay);
  const from = isoOf(fromDay);
  const to = isoOf(toDay);

  const sums = await db().query<{ metric: string; in_period: number | string; total: number | string }>(
    `SELECT metric, (date >= :from) AS in_period, SUM(value) AS total
       FROM gbp_daily_metrics
      WHERE location_id = :location AND date BETWEEN :start AND :to AND metric IN (:metrics)
      GROUP BY metric, in_period`,
    {
      type: QueryTypes.SELECT,
      replacements: { location: location.id, from, start: previous.from, to, metrics: [...DAILY_METRICS] },
      transaction: opts.transaction,
    },
  );
  const current: Partial<Record<DailyMetric, number>> = {};
  const before: Partial<Record<DailyMetric, number>> = {};
  for (const row of sums) {
    if (!isDailyMetric(row.metric)) continue;
    (Number(row.in_period) ? current : before)[row.metric] = Number(row.total);
  }

  let daily: DailyMetricsRow[] | null = null;
  if (input.includeDaily) {
    const rows = await db().query<{ day: string; metric: string; value: number | string }>(
      `SELECT DATE_FORMAT(date, '%Y-%m-%d') AS day, metric, value
         FROM gbp_daily_metrics
        WHERE location_id = :location AND date BETWEEN :from AND :to AND metric IN (:metrics)`,
      { type: QueryTypes.SELECT, replacements: { location: location.id, from, to, metrics: [...DAILY_METRICS] }, transaction: opts.transaction },
    );
    const byDay = new Map<string, Partial<Record<DailyMetric, number>>>();
    for (const r of rows) {
      if (!isDailyMetric(r.metric)) continue;
      const day = byDay.get(r.day) ?? {};
      day[r.metric] = Number(r.value);
      byDay.set(r.day, day);
    }
    daily = daysOf(fromDay, toDay).map((date) => ({ date, ...totalsOf(byDay.get(date) ?? {}) }));
  }

  return {
    locationId: location.id,
    organizationId: location.organizationId,
    period: { from, to },
    totals: totalsOf(current),
    previousPeriod: { from: previous.from, to: previous.to, totals: totalsOf(before) },
    daily,
  };
}

// ---- search terms ---------------------------------------------------------------------------------------

export interface SearchTermsInput {
  locationId: number;
  /** Default: the current year (UTC). */
  year?: number | null;
  /** 1-12; absent: every month of the year. */
  month?: number | null;
  page: number;
  perPage: number;
}

export interface SearchTermRow {
  keyword: string;
  year: number;
  month: number;
  monthLabel: string;
  /** The count, or for a masked row the threshold Google says it lies below. */
  impressions: number;
  belowThreshold: boolean;
  locationId: number;
  organizationId: number;
}

export interface SearchTermsPage {
  items: SearchTermRow[];
  total: number;
  page: number;
  perPage: number;
  locationId: number;
  organizationId: number;
  year: number;
  month: number | null;
}

/**
 * A location's search keywords of a year (or one month of it): impressions descending, masked rows
 * (`below_threshold`) after every counted one, then keyword and month, so pages are stable.
 */
export async function listSearchTerms(p: Principal, input: SearchTermsInput, opts: ServiceOptions = {}): Promise<SearchTermsPage> {
  const location = await visibleLocation(p, input.locationId, opts);
  const year = input.year ?? clockOf(opts).now().getUTCFullYear();
  const month = input.month ?? null;
  const where = `location_id = :location AND year = :year${month === null ? '' : ' AND month = :month'}`;
  checkPageDepth(input);
  const replacements = { location: location.id, year, month, limit: input.perPage, offset: (input.page - 1) * input.perPage };
  const [{ n }] = await db().query<{ n: number | string }>(`SELECT COUNT(*) AS n FROM gbp_search_keywords WHERE ${where}`, {
    type: QueryTypes.SELECT,
    replacements,
    transaction: opts.transaction,
  });
  const rows = await db().query<{ keyword: string; year: number; month: number; impressions: number | string | null; threshold: number | string | null; below_threshold: number }>(
    `SELECT keyword, year, month, impressions, threshold, below_threshold
       FROM gbp_search_keywords
      WHERE ${where}
      ORDER BY below_threshold ASC, COALESCE(impressions, threshold, 0) DESC,
               keyword COLLATE utf8mb4_unicode_ci ASC, keyword ASC, month ASC, id ASC
      LIMIT :limit OFFSET :offset`,
    { type: QueryTypes.SELECT, replacements, transaction: opts.transaction },
  );
  return {
    items: rows.map((r) => {
      const masked = Boolean(Number(r.below_threshold));
      return {
        keyword: r.keyword,
        year: Number(r.year),
        month: Number(r.month),
        monthLabel: monthLabel(Number(r.year), Number(r.month)),
        impressions: Number((masked ? r.threshold : r.impressions) ?? 0),
        belowThreshold: masked,
        locationId: location.id,
        organizationId: location.organizationId,
      };
    }),
    total: Number(n),
    page: input.page,
    perPage: input.perPage,
    locationId: location.id,
    organizationId: location.organizationId,
    year,
    month,
  };
}
