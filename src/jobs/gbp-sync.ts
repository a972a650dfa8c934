import { tradeOfName } from '../domain/trades';
import { Op, QueryTypes, type Transaction } from 'sequelize';
import { systemClock, type Clock } from '../domain/clock';
import {
  dayAt,
  dayOf,
  daysOf,
  isoOf,
  MAX_RANGE_DAYS,
  monthAt,
  monthIndex,
  monthOf,
  type YearMonth,
} from '../gbp/dates';
import { DAILY_METRICS, isDailyMetric } from '../gbp/metrics';
import type { DailyMetricSeries, KeywordCount } from '../providers/google/performance.client';
import { performanceLocationName } from '../providers/google/performance.client';
import { simulatedDailyValue, simulatedMonthKeywords } from '../providers/google/performance.sim-data';
import { GbpSearchKeyword, Integration, Location, Organization, ReviewSource } from '../models';
import { escape, inTransaction, type ServiceOptions } from '../services/common';
import { loadSyncTarget, type SyncSkip } from './review-sync';
import { db } from '../services/gbp-performance.service';

/**
 * Business-profile performance, worker side: the database halves of the periodic sync's activities
 * (workflows/activities/gbp.ts: which integrations to sync, what to fetch, storing daily metrics and keyword months)
 * and the demo's seeded history. What a principal reads is src/services/gbp-performance.service.ts.
 */

// ---- the periodic sync (database halves of workflows/activities/gbp.ts) -------------------------------

/** Days fetched again on every run (Google revises recent days), and how far the first run reaches back. */
export const METRICS_REFRESH_DAYS = 7;
export const METRICS_BACKFILL_DAYS = MAX_RANGE_DAYS;
/** Keyword months: the first run fetches the last 18 complete months (Google keeps 18), later runs the last two. */
export const KEYWORD_BACKFILL_MONTHS = 18;

export interface GbpSyncTarget {
  integrationId: number;
  locationId: number;
  /** The Performance API's name of the business, `locations/{id}`. */
  location: string;
}

export type GbpSyncSkip = SyncSkip | 'not_google';

export interface GbpSyncPlan {
  skip: GbpSyncSkip | null;
  /** Inclusive `Y-m-d` window of daily metrics to fetch. */
  metrics: { from: string; to: string } | null;
  /** Keyword months to fetch, oldest first. */
  months: YearMonth[];
}

/** What a run syncs: a connected Google integration of an active account, or why it does nothing. */
export async function loadGbpSyncTarget(integrationId: number): Promise<{ target: GbpSyncTarget | null; skip: GbpSyncSkip | null }> {
  const { target, skip } = await loadSyncTarget(integrationId);
  if (!target) return { target: null, skip };
  if (target.provider !== 'google') return { target: null, skip: 'not_google' };
  const integration = await Integration.findByPk(integrationId, { attributes: ['id', 'locationId'] });
  if (!integration) return { target: null, skip: 'gone' };
  return { target: { integrationId, locationId: integration.locationId, location: performanceLocationName(target.externalId) }, skip: null };
}

/**
 * The windows of one run: the first run backfills 540 days of metrics and 18 months of keywords; later runs fetch
 * from a week before the newest stored day and the two months up to the newest stored month, up to yesterday and
 * the last complete month (the current month is not complete, so Google has no keywords for it yet).
 */
export async function planGbpSync(integrationId: number, clock: Clock = systemClock): Promise<GbpSyncPlan> {
  const { target, skip } = await loadGbpSyncTarget(integrationId);
  if (!target) return { skip, metrics: null, months: [] };
  const now = clock.now();
  const [{ latest }] = await db().query<{ latest: string | null }>(
    `SELECT DATE_FORMAT(MAX(date), '%Y-%m-%d') AS latest FROM gbp_daily_metrics WHERE location_id = ?`,
    { type: QueryTypes.SELECT, replacements: [target.locationId] },
  );
  const [{ latestMonth }] = await db().query<{ latestMonth: number | string | null }>(
    `SELECT MAX(year * 12 + month - 1) AS latestMonth FROM gbp_search_keywords WHERE location_id = ?`,
    { type: QueryTypes.SELECT, replacements: [target.locationId] },
  );
  const yesterday = dayAt(now) - 1;
  const earliest = yesterday - (METRICS_BACKFILL_DAYS - 1);
  const latestDay = latest === null ? null : dayOf(latest);
  const fromDay = latestDay === null ? earliest : Math.max(earliest, Math.min(latestDay - METRICS_REFRESH_DAYS, yesterday));

  const lastComplete = monthIndex(monthAt(now)) - 1;
  const earliestMonth = lastComplete - (KEYWORD_BACKFILL_MONTHS - 1);
  const stored = latestMonth === null ? null : Number(latestMonth);
  const firstMonth = stored === null ? earliestMonth : Math.max(earliestMonth, Math.min(stored - 1, lastComplete));
  const months: YearMonth[] = [];
  for (let i = firstMonth; i <= lastComplete; i++) months.push(monthOf(i));
  return { skip: null, metrics: { from: isoOf(fromDay), to: isoOf(yesterday) }, months };
}

const CHUNK = 1000;

/** The owner columns of a location's rows. */
async function ownerOf(locationId: number, transaction?: Transaction) {
  const location = await Location.findByPk(locationId, { transaction });
  return location && { tenantId: location.tenantId, customerId: location.customerId, organizationId: location.organizationId, locationId: location.id };
}

type Owner = NonNullable<Awaited<ReturnType<typeof ownerOf>>>;
const ownerSql = (o: Owner) => [o.tenantId, o.customerId, o.organizationId, o.locationId].map((n) => String(Math.trunc(n))).join(', ');

/**
 * Upserts the daily values of one fetch by (location, day, metric): only the metrics we serve (profile and photo
 * views are dropped) and only days inside the requested window. Running it twice stores nothing new; `updated_at`
 * moves only when a value changed. One multi-row statement per 1,000 values (a backfill is 3,780).
 */
export async function storeDailyMetrics(
  locationId: number,
  series: DailyMetricSeries[],
  range: { from: string; to: string },
  opts: ServiceOptions = {},
): Promise<{ values: number }> {
  const owner = await ownerOf(locationId, opts.transaction);
  if (!owner) return { values: 0 };
  const rows = new Map<string, { date: string; metric: string; value: number }>();
  for (const s of series) {
    if (!isDailyMetric(s.metric)) continue;
    for (const v of s.values) {
      if (dayOf(v.date) === null || v.date < range.from || v.date > range.to || !Number.isSafeInteger(v.value) || v.value < 0) continue;
      rows.set(`${v.date}|${s.metric}`, { date: v.date, metric: s.metric, value: v.value });
    }
  }
  // Sorted, so concurrent writers of one location take the unique-key locks in the same order.
  const all = [...rows.values()].sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : a.metric < b.metric ? -1 : 1));
  const prefix = ownerSql(owner);
  await inTransaction(opts, async (transaction) => {
    for (let i = 0; i < all.length; i += CHUNK) {
      // Every value is a checked date, a metric name from our list or an integer: safe to write inline.
      const values = all
        .slice(i, i + CHUNK)
        .map((r) => `(${prefix}, '${r.date}', '${r.metric}', ${r.value}, UTC_TIMESTAMP(3), UTC_TIMESTAMP(3))`)
        .join(',\n');
      await db().query(
        `INSERT INTO gbp_daily_metrics (tenant_id, customer_id, organization_id, location_id, date, metric, value, created_at, updated_at)
         VALUES ${values}
         ON DUPLICATE KEY UPDATE updated_at = IF(value = VALUES(value), updated_at, VALUES(updated_at)), value = VALUES(value)`,
        { transaction },
      );
    }
  });
  return { values: all.length };
}

/**
 * Replaces one month's keywords of a location with what Google reported: upserts each by (location, month,
 * keyword) and deletes the month's keywords Google no longer lists. Keywords are cut to 255 characters.
 */
export async function storeKeywordMonth(
  locationId: number,
  month: YearMonth,
  keywords: KeywordCount[],
  opts: ServiceOptions = {},
): Promise<{ keywords: number; removed: number }> {
  const owner = await ownerOf(locationId, opts.transaction);
  if (!owner) return { keywords: 0, removed: 0 };
  const byKeyword = new Map<string, KeywordCount>();
  for (const k of keywords) {
    const keyword = [...k.keyword.trim()].slice(0, 255).join('');
    if (keyword) byKeyword.set(keyword, { ...k, keyword });
  }
  const count = (n: number | null) => (n === null || !Number.isSafeInteger(n) || n < 0 ? 'NULL' : String(n));
  const prefix = ownerSql(owner);
  const ym = `${Math.trunc(month.year)}, ${Math.trunc(month.month)}`;
  return inTransaction(opts, async (transaction) => {
    const where = { locationId, year: month.year, month: month.month };
    const removed = await GbpSearchKeyword.destroy({
      where: byKeyword.size ? { ...where, keyword: { [Op.notIn]: [...byKeyword.keys()] } } : where,
      transaction,
    });
    const rows = [...byKeyword.values()].sort((a, b) => (a.keyword < b.keyword ? -1 : 1));
    for (let i = 0; i < rows.length; i += CHUNK) {
      const values = rows
        .slice(i, i + CHUNK)
        .map((k) => {
          const masked = k.value === null;
          return `(${prefix}, ${ym}, ${escape(k.keyword)}, ${count(k.value)}, ${masked ? count(k.threshold) : 'NULL'}, ${masked ? 1 : 0}, UTC_TIMESTAMP(3), UTC_TIMESTAMP(3))`;
        })
        .join(',\n');
      await db().query(
        `INSERT INTO gbp_search_keywords (tenant_id, customer_id, organization_id, location_id, year, month, keyword, impressions, threshold, below_threshold, created_at, updated_at)
         VALUES ${values}
         ON DUPLICATE KEY UPDATE
           updated_at = IF(impressions <=> VALUES(impressions) AND threshold <=> VALUES(threshold), updated_at, VALUES(updated_at)),
           impressions = VALUES(impressions), threshold = VALUES(threshold), below_threshold = VALUES(below_threshold)`,
        { transaction },
      );
    }
    return { keywords: rows.length, removed };
  });
}

/** Connected Google integrations of active accounts after `afterId`, in id order (the sweep's batches). */
export async function gbpSyncIntegrationIds(afterId: number, limit: number): Promise<number[]> {
  const rows = await db().query<{ id: number }>(
    `SELECT i.id FROM integrations i
       JOIN provider_connections pc ON pc.integration_id = i.id AND pc.provider = 'google'
       JOIN customers c ON c.id = i.customer_id
      WHERE i.type = 'synced' AND i.id > ? AND c.subscription_status <> 'paused'
      ORDER BY i.id LIMIT ?`,
    { type: QueryTypes.SELECT, replacements: [afterId, limit] },
  );
  return rows.map((r) => Number(r.id));
}

// ---- demo data --------------------------------------------------------------------------------------------

/**
 * The demo tenant's business-profile data: for every location with a Google source, the simulator's deterministic
 * counts for the 540 days up to yesterday and keywords for the 18 months before the current one (the demo's Google
 * sources have no sign-in, so the sync never runs for them).
 */
export async function seedDemoGbpPerformance(tenantId: number, clock: Clock = systemClock): Promise<void> {
  const google = await ReviewSource.findOne({ where: { slug: 'google' } });
  if (!google) return;
  const integrations = await Integration.findAll({ where: { tenantId, sourceId: google.id, type: 'synced' }, order: [['id', 'ASC']] });
  // Each business is searched for by its trade's keywords ("dentist near me" for the dental practice).
  const names = new Map((await Organization.findAll({ where: { tenantId }, attributes: ['id', 'name'] })).map((o) => [o.id, o.name]));
  const now = clock.now();
  const yesterday = dayAt(now) - 1;
  const from = yesterday - (METRICS_BACKFILL_DAYS - 1);
  const lastComplete = monthIndex(monthAt(now)) - 1;
  for (const integration of integrations) {
    if (!integration.externalId) continue;
    const key = performanceLocationName(integration.externalId);
    const range = { from: isoOf(from), to: isoOf(yesterday) };
    const series: DailyMetricSeries[] = DAILY_METRICS.map((metric) => ({
      metric,
      values: daysOf(from, yesterday).map((date) => ({ date, value: simulatedDailyValue(key, metric, date) })),
    }));
    await storeDailyMetrics(integration.locationId, series, range);
    for (let i = lastComplete - (KEYWORD_BACKFILL_MONTHS - 1); i <= lastComplete; i++) {
      const { year, month } = monthOf(i);
      await storeKeywordMonth(integration.locationId, { year, month }, simulatedMonthKeywords(key, year, month, tradeOfName(names.get(integration.organizationId) ?? '')));
    }
  }
}
