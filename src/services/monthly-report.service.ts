import type { Sequelize } from 'sequelize-typescript';
import { monthPeriod, periodOf, dayAt } from '../analytics/periods';
import { readRows } from '../db/read';
import { NotFound, Validation } from '../domain/errors';
import { canSeeOrganization } from '../domain/permissions';
import type { Principal } from '../domain/principal';
import { Organization, Review, Tenant } from '../models';
import { clockOf, type ServiceOptions } from './common';
import { customerLanguage } from './page-language';
import { ASPECT_SUMS, aspectsOf, metricsWhere, num, rates, respondedBy, totalsFor, type MetricsScope, type SentimentSumsRow } from './review-analytics.service';
import { monthAspect } from '../reports/aspect-trend';
import { isPartialMonth } from '../reports/monthly';
import type { MonthlyReport, ReportMonth } from '../reports/types';

/**
 * The monthly report of an organisation (issue 19, item 5): the month's review totals against the month before
 * (volume, rating, response rate, sentiment, aspects) and the twelve months up to it (the same figures, each aspect
 * with its net sentiment), in the account's language and the agency's brand. Rendered by src/reports as an HTML page
 * with SVG charts and as a PDF. A month without reviews is a report with empty sections, never an error.
 */

/** Months of the trend charts, the report's month last. */
export const TREND_MONTHS = 12;

export type { MonthlyReport, ReportMonth };

/** `YYYY-MM` shifted by whole months. */
export function shiftMonth(month: string, by: number): string {
  const [y, m] = month.split('-').map(Number);
  const d = new Date(Date.UTC(y, m - 1 + by, 1));
  return `${d.getUTCFullYear()}-${String(d.getUTCMonth() + 1).padStart(2, '0')}`;
}

interface MonthRow extends SentimentSumsRow {
  m: string;
}

/**
 * The first midnight after a review's month (UTC), as SQL: each trend month counts the replies made by its own end
 * (respondedBy), as the report's totals do, so every point of the response-rate line is fixed once its month is over.
 */
const END_OF_REVIEW_MONTH = `(DATE_FORMAT(r.published_at, '%Y-%m-01') + INTERVAL 1 MONTH)`;

/** The trend months in one grouped statement: volume, rating, replies, sentiment and each aspect by tone, per month. */
async function monthlySeries(p: Principal, scope: MetricsScope, last: string, opts: ServiceOptions): Promise<ReportMonth[]> {
  const first = shiftMonth(last, -(TREND_MONTHS - 1));
  const period = periodOf(monthPeriod(first).fromDay, monthPeriod(last).toDay);
  const values: unknown[] = [];
  const where = metricsWhere(p, scope, period, values);
  const rows = await readRows<MonthRow>(
    Review.sequelize as Sequelize,
    `SELECT DATE_FORMAT(r.published_at, '%Y-%m') AS m, COUNT(*) AS total, SUM(r.rating) AS ratingSum,
        ${respondedBy(END_OF_REVIEW_MONTH)} AS responded,
        SUM(r.sentiment = 'positive') AS positive, SUM(r.sentiment = 'neutral') AS neutral, SUM(r.sentiment = 'negative') AS negative,
        ${ASPECT_SUMS}
      FROM reviews r WHERE ${where} GROUP BY m`,
    values,
    opts.transaction,
  );
  const byMonth = new Map(rows.map((r) => [r.m, r]));
  return Array.from({ length: TREND_MONTHS }, (_, i) => {
    const month = shiftMonth(first, i);
    const r = byMonth.get(month);
    const total = num(r?.total);
    return {
      month,
      totalReviews: total,
      ...rates(total, num(r?.ratingSum), num(r?.responded)),
      positive: num(r?.positive),
      neutral: num(r?.neutral),
      negative: num(r?.negative),
      aspects: aspectsOf(r).map(monthAspect),
    };
  });
}

/**
 * The report of `organizationId` for `month` (`YYYY-MM`, not after the current month). An organisation the caller
 * cannot see is "not found" (the same answer as one that does not exist). A month the report is generated before
 * the end of (`generatedAt < monthEnd(month)`, its last day included: isPartialMonth) is answered "to date": its
 * `period` ends today (UTC), and the renderers (reportContent) read the same rule from `generatedAt` and say so, so a
 * partial month is never passed off as a whole one beside the whole month before. Response rates count the replies
 * made by the end of each period (respondedBy); for a month to date, the replies made so far.
 */
export async function organizationReport(p: Principal, organizationId: number, month: string, opts: ServiceOptions = {}): Promise<MonthlyReport> {
  const now = clockOf(opts).now();
  const today = dayAt(now);
  const whole = monthPeriod(month);
  if (whole.fromDay > today) throw new Validation({ month: ['The month must not be in the future.'] });
  // Not over until its end (the next month's first midnight): on its last day the month is still to date.
  const period = isPartialMonth({ month, generatedAt: now }) ? periodOf(whole.fromDay, today) : whole;
  const org = await Organization.findByPk(organizationId, { transaction: opts.transaction });
  if (!org || !canSeeOrganization(p, org)) throw new NotFound('Organization');
  const tenant = await Tenant.findByPk(org.tenantId, { transaction: opts.transaction });
  const scope: MetricsScope = { organizationId, locationId: null, sourceName: null };
  const previousMonth = shiftMonth(month, -1);
  const [totals, previousTotals, months, language] = await Promise.all([
    totalsFor(p, scope, period, opts, 'by_period_end'),
    totalsFor(p, scope, monthPeriod(previousMonth), opts, 'by_period_end'),
    monthlySeries(p, scope, month, opts),
    customerLanguage(org.customerId, tenant, opts),
  ]);
  return {
    organizationId,
    organizationName: org.name,
    brandName: tenant?.brandName || tenant?.name || '',
    brandLogoUrl: tenant?.logoUrl ?? null,
    brandColor: tenant?.brandColor ?? null,
    language,
    month,
    period: { from: period.from, to: period.to },
    previousMonth,
    totals,
    previousTotals,
    months,
    generatedAt: now,
  };
}
