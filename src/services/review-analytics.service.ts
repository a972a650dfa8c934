import type { Sequelize } from 'sequelize-typescript';
import { dayAt, isoOf, previousPeriod, resolvePeriod, timeBuckets, type Period, type TimeUnit } from '../analytics/periods';
import { ASPECTS, SENTIMENTS, type Aspect, type Sentiment } from '../analytics/sentiment';
import { ASPECT_COLUMNS } from '../models/review.model';
import { readRows } from '../db/read';
import { Forbidden, Validation } from '../domain/errors';
import { canSeeLocation, canSeeOrganization } from '../domain/permissions';
import type { Principal } from '../domain/principal';
import { Location, Organization, Review } from '../models';
import { clockOf, scopeSql, type ServiceOptions } from './common';

/**
 * Review metrics (the capability behind the MCP tool `get_metrics`): totals of the caller's visible reviews in a
 * period, a breakdown by time or by a dimension, and the totals of a comparison period. Everything is
 * aggregated in SQL; no review row is loaded. Formulas and bucket labels: docs/decisions/analytics.md "Review analytics".
 */

export const GROUP_BY = ['day', 'week', 'month', 'location', 'organization', 'source', 'rating', 'sentiment'] as const;
export type GroupBy = (typeof GROUP_BY)[number];

/** Default period when no date is given: the last 30 days, today included. */
export const DEFAULT_METRICS_DAYS = 30;

export interface MetricsInput {
  organizationId?: number | null;
  locationId?: number | null;
  sourceName?: string | null;
  dateFrom?: string | null;
  dateTo?: string | null;
  groupBy?: string | null;
  compareToDateFrom?: string | null;
  compareToDateTo?: string | null;
}

export interface StarCount {
  rating: number;
  count: number;
}

export interface SentimentDistribution {
  positive: number;
  neutral: number;
  negative: number;
}

export interface MetricsTotals {
  totalReviews: number;
  /** Mean star rating, 2 decimals; null without reviews. */
  avgRating: number | null;
  responded: number;
  /** responded / total_reviews x 100, 1 decimal; null without reviews. */
  responseRate: number | null;
  /** Always five entries, 5 stars first. */
  starDistribution: StarCount[];
  sentimentDistribution: SentimentDistribution;
  /** Each of the six aspects, in ASPECTS order: how many reviews talk about it in each tone. */
  aspects: AspectDistribution[];
}

export interface AspectDistribution extends SentimentDistribution {
  aspect: Aspect;
}

export interface MetricsBucket {
  bucket: string;
  /** Location or organisation id for those groupings, else null. */
  id: number | null;
  /** Days of a time bucket inside the period, else null. */
  from: string | null;
  to: string | null;
  totalReviews: number;
  avgRating: number | null;
  responded: number;
  responseRate: number | null;
}

export interface PeriodRange {
  from: string;
  to: string;
}

export interface ReviewMetrics {
  period: PeriodRange;
  filters: { organizationId: number | null; locationId: number | null; sourceName: string | null };
  groupBy: GroupBy | null;
  totals: MetricsTotals;
  breakdown: MetricsBucket[];
  comparison: { period: PeriodRange; totals: MetricsTotals };
}

/** Resolved filters: what the SQL of every statement filters on. */
export interface MetricsScope {
  organizationId: number | null;
  locationId: number | null;
  sourceName: string | null;
}

const round = (n: number, places: number): number => {
  const f = 10 ** places;
  return Math.round(n * f) / f;
};
export const num = (v: unknown): number => Number(v ?? 0);
/** Midnight UTC of a day as DATETIME text (no driver time-zone conversion can shift it). */
const sqlDay = (day: number): string => `${isoOf(day)} 00:00:00.000`;

export function rates(total: number, ratingSum: number, responded: number): { avgRating: number | null; responseRate: number | null } {
  if (total === 0) return { avgRating: null, responseRate: null };
  return { avgRating: round(ratingSum / total, 2), responseRate: round((responded / total) * 100, 1) };
}

function select<T extends object>(sql: string, values: unknown[], opts: ServiceOptions): Promise<T[]> {
  return readRows<T>(Review.sequelize as Sequelize, sql, values, opts.transaction);
}

/** A reply counts when it has text (the webhook payload's `replied`). */
export const RESPONDED = `SUM(r.reply IS NOT NULL AND r.reply <> '')`;

/**
 * Replies made by `end` (an SQL expression of the period's end, exclusive): a report's response rate is what the
 * business had answered when its period closed, so a month's rate never changes afterwards and the month before is
 * compared like for like (counting replies made whenever gave last month a month longer to be answered). A reply
 * without a `reply_date` (rows written before it was recorded) counts as made in time: its time is unknown, and
 * counting it as late would rewrite the old months' reports to no replies at all. An edited reply is dated by its
 * last edit (the platforms' update time), so it counts from then. The review metrics (MCP `get_metrics`) keep
 * RESPONDED: their documented meaning is "reviews with a reply" (docs/decisions/analytics.md).
 */
export const respondedBy = (end: string): string => `SUM(r.reply IS NOT NULL AND r.reply <> '' AND (r.reply_date IS NULL OR r.reply_date < ${end}))`;

/** Which replies a total counts: every reply now (`any`, the metrics), or only those made by the period's end (reports). */
export type ReplyCount = 'any' | 'by_period_end';

/**
 * The WHERE of every statement: the caller's row scope first (tenant, account, a team member's locations), reviews not
 * removed on their platform, the filters, then the half-open UTC range of the period's days. All values are parameters.
 */
export function metricsWhere(p: Principal, scope: MetricsScope, period: Period, values: unknown[]): string {
  const bind = (value: unknown) => (values.push(value), '?');
  // Reviews removed on their platform count nowhere (analytics, monthly reports, AI insights).
  const clauses = [scopeSql(p, 'r', 'location_id', bind), 'r.removed_at IS NULL'];
  if (scope.organizationId !== null) clauses.push(`r.organization_id = ${bind(scope.organizationId)}`);
  if (scope.locationId !== null) clauses.push(`r.location_id = ${bind(scope.locationId)}`);
  if (scope.sourceName !== null) {
    clauses.push(`r.integration_id IN (SELECT i.id FROM integrations i WHERE i.tenant_id = ${bind(p.tenantId)} AND i.name = ${bind(scope.sourceName)})`);
  }
  clauses.push(`r.published_at >= ${bind(sqlDay(period.fromDay))} AND r.published_at < ${bind(sqlDay(period.toDay + 1))}`);
  return clauses.join(' AND ');
}

/** The per-aspect, per-tone sums of ASPECT_SUMS in a row. */
export type AspectTones = { [K in `${Aspect}_${Sentiment}`]?: string | number | null };

/** The sums a totals row shares with a report month's row: volume, ratings, replies, sentiment and the aspects. */
export interface SentimentSumsRow extends AspectTones {
  total: number | string;
  ratingSum: number | string | null;
  responded: number | string | null;
  positive: string | number | null;
  neutral: string | number | null;
  negative: string | number | null;
}

interface TotalsRow extends SentimentSumsRow {
  s5: string | number | null;
  s4: string | number | null;
  s3: string | number | null;
  s2: string | number | null;
  s1: string | number | null;
}

/** One SUM per aspect and tone: `staff_positive`, ... (read back with `aspectsOf`). */
export const ASPECT_SUMS = ASPECTS.flatMap((a) => SENTIMENTS.map((s) => `SUM(r.${ASPECT_COLUMNS[a]} = '${s}') AS ${a}_${s}`)).join(', ');

export async function totalsFor(p: Principal, scope: MetricsScope, period: Period, opts: ServiceOptions = {}, replies: ReplyCount = 'any'): Promise<MetricsTotals> {
  // The SELECT's placeholder comes before the WHERE's, so its value goes first.
  const values: unknown[] = replies === 'by_period_end' ? [sqlDay(period.toDay + 1)] : [];
  const repliedSql = replies === 'by_period_end' ? respondedBy('?') : RESPONDED;
  const where = metricsWhere(p, scope, period, values);
  const [row] = await select<TotalsRow>(
    `SELECT COUNT(*) AS total, SUM(r.rating) AS ratingSum, ${repliedSql} AS responded,
      SUM(r.rating = 5) AS s5, SUM(r.rating = 4) AS s4, SUM(r.rating = 3) AS s3, SUM(r.rating = 2) AS s2, SUM(r.rating = 1) AS s1,
      SUM(r.sentiment = 'positive') AS positive, SUM(r.sentiment = 'neutral') AS neutral, SUM(r.sentiment = 'negative') AS negative,
      ${ASPECT_SUMS}
     FROM reviews r WHERE ${where}`,
    values,
    opts,
  );
  const total = num(row?.total);
  const responded = num(row?.responded);
  return {
    totalReviews: total,
    ...rates(total, num(row?.ratingSum), responded),
    responded,
    starDistribution: [5, 4, 3, 2, 1].map((rating) => ({ rating, count: num(row?.[`s${rating}` as 's5']) })),
    sentimentDistribution: { positive: num(row?.positive), neutral: num(row?.neutral), negative: num(row?.negative) },
    aspects: aspectsOf(row),
  };
}

/** The six aspects, in ASPECTS order, from a row that selected ASPECT_SUMS (no row: all zero). */
export function aspectsOf(row: AspectTones | undefined): AspectDistribution[] {
  return ASPECTS.map((aspect) => ({
    aspect,
    positive: num(row?.[`${aspect}_positive`]),
    neutral: num(row?.[`${aspect}_neutral`]),
    negative: num(row?.[`${aspect}_negative`]),
  }));
}

interface GroupRow {
  k: string | number | null;
  label: string | null;
  total: number | string;
  ratingSum: number | string | null;
  responded: number | string | null;
}

/** The grouping key (and for entities, its display label) of each `group_by`. */
const GROUPING: Record<GroupBy, { key: string; label: string; join: string }> = {
  day: { key: `DATE_FORMAT(r.published_at, '%Y-%m-%d')`, label: 'NULL', join: '' },
  // %x-W%v: ISO 8601 week-numbering year and week (Monday first), as isoWeekLabel.
  week: { key: `DATE_FORMAT(r.published_at, '%x-W%v')`, label: 'NULL', join: '' },
  month: { key: `DATE_FORMAT(r.published_at, '%Y-%m')`, label: 'NULL', join: '' },
  location: { key: 'r.location_id', label: 'MAX(l.name)', join: 'INNER JOIN locations l ON l.id = r.location_id' },
  organization: { key: 'r.organization_id', label: 'MAX(o.name)', join: 'INNER JOIN organizations o ON o.id = r.organization_id' },
  source: { key: 'i.name', label: 'NULL', join: 'INNER JOIN integrations i ON i.id = r.integration_id' },
  rating: { key: 'r.rating', label: 'NULL', join: '' },
  sentiment: { key: 'r.sentiment', label: 'NULL', join: '' },
};

async function breakdownFor(p: Principal, scope: MetricsScope, period: Period, groupBy: GroupBy, opts: ServiceOptions): Promise<MetricsBucket[]> {
  const g = GROUPING[groupBy];
  const values: unknown[] = [];
  const where = metricsWhere(p, scope, period, values);
  const rows = await select<GroupRow>(
    `SELECT ${g.key} AS k, ${g.label} AS label, COUNT(*) AS total, SUM(r.rating) AS ratingSum, ${RESPONDED} AS responded
     FROM reviews r ${g.join} WHERE ${where} GROUP BY ${g.key}`,
    values,
    opts,
  );
  const bucketOf = (bucket: string, id: number | null, row: GroupRow | undefined, range?: { from: string; to: string }): MetricsBucket => {
    const total = num(row?.total);
    const responded = num(row?.responded);
    return { bucket, id, from: range?.from ?? null, to: range?.to ?? null, totalReviews: total, ...rates(total, num(row?.ratingSum), responded), responded };
  };
  const byKey = new Map(rows.map((r) => [String(r.k), r]));
  switch (groupBy) {
    case 'day':
    case 'week':
    case 'month':
      // Every bucket of the period, empty ones too, so a chart has no gaps.
      return timeBuckets(period, groupBy as TimeUnit).map((b) => bucketOf(b.label, null, byKey.get(b.label), b));
    case 'rating':
      return ['5', '4', '3', '2', '1'].map((k) => bucketOf(k, null, byKey.get(k)));
    case 'sentiment':
      return SENTIMENTS.map((k: Sentiment) => bucketOf(k, null, byKey.get(k)));
    case 'location':
    case 'organization':
    case 'source': {
      // Only entities with reviews in the period, most reviewed first.
      const entity = groupBy !== 'source';
      return rows
        .map((r) => bucketOf(entity ? String(r.label ?? '') : String(r.k ?? ''), entity ? num(r.k) : null, r))
        .sort((a, b) => b.totalReviews - a.totalReviews || a.bucket.localeCompare(b.bucket) || (a.id ?? 0) - (b.id ?? 0));
    }
  }
}

/**
 * Checks the organisation and location filters against the caller's scope. Whatever the caller cannot see (another
 * tenant's, another account's, a team member's unassigned location, or an id that does not exist) is the same
 * FORBIDDEN, so the answer says nothing about records outside the scope.
 */
export async function resolveScope(
  p: Principal,
  input: { organizationId?: number | null; locationId?: number | null; sourceName?: string | null },
  opts: ServiceOptions = {},
): Promise<MetricsScope> {
  const organizationId = input.organizationId ?? null;
  const locationId = input.locationId ?? null;
  if (organizationId !== null) {
    const org = await Organization.findByPk(organizationId, { transaction: opts.transaction });
    if (!org || !canSeeOrganization(p, org)) {
      throw new Forbidden('You do not have access to this organization.', 'organization_access_denied');
    }
  }
  if (locationId !== null) {
    const location = await Location.findByPk(locationId, { transaction: opts.transaction });
    if (!location || !canSeeLocation(p, location)) throw new Forbidden('You do not have access to this location.', 'location_access_denied');
    if (organizationId !== null && location.organizationId !== organizationId) {
      throw new Validation({ location_id: ['The location does not belong to the organization.'] });
    }
  }
  const sourceName = input.sourceName?.trim() ? input.sourceName.trim() : null;
  return { organizationId, locationId, sourceName };
}

export async function metrics(p: Principal, input: MetricsInput, opts: ServiceOptions = {}): Promise<ReviewMetrics> {
  const groupBy = input.groupBy ?? null;
  if (groupBy !== null && !GROUP_BY.includes(groupBy as GroupBy)) {
    throw new Validation({ group_by: [`The selected group by is invalid: use one of ${GROUP_BY.join(', ')}.`] });
  }
  const today = dayAt(clockOf(opts).now());
  const period = resolvePeriod(
    { from: input.dateFrom, to: input.dateTo },
    { today, defaultDays: DEFAULT_METRICS_DAYS, fields: { from: 'date_from', to: 'date_to' } },
  );
  const hasCompareFrom = Boolean(input.compareToDateFrom);
  const hasCompareTo = Boolean(input.compareToDateTo);
  if (hasCompareFrom !== hasCompareTo) {
    const missing = hasCompareFrom ? 'compare_to_date_to' : 'compare_to_date_from';
    const present = hasCompareFrom ? 'compare to date from' : 'compare to date to';
    throw new Validation({ [missing]: [`The ${missing.replace(/_/g, ' ')} field is required when ${present} is present.`] });
  }
  const comparePeriod = hasCompareFrom
    ? resolvePeriod(
        { from: input.compareToDateFrom, to: input.compareToDateTo },
        { today, defaultDays: DEFAULT_METRICS_DAYS, fields: { from: 'compare_to_date_from', to: 'compare_to_date_to' } },
      )
    : previousPeriod(period);
  const scope = await resolveScope(p, input, opts);
  const [totals, breakdown, compareTotals] = await Promise.all([
    totalsFor(p, scope, period, opts),
    groupBy ? breakdownFor(p, scope, period, groupBy as GroupBy, opts) : Promise.resolve([]),
    totalsFor(p, scope, comparePeriod, opts),
  ]);
  return {
    period: { from: period.from, to: period.to },
    filters: scope,
    groupBy: groupBy as GroupBy | null,
    totals,
    breakdown,
    comparison: { period: { from: comparePeriod.from, to: comparePeriod.to }, totals: compareTotals },
  };
}
