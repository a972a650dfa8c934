import { GbpDailyMetric, GbpSearchKeyword, type Location } from '../../src/models';

/** Test data of the business-profile tables, written straight to the database (what a sync would have stored). */

export type MetricRow = [date: string, metric: string, value: number];

export async function putMetrics(location: Location, rows: MetricRow[]): Promise<void> {
  await GbpDailyMetric.bulkCreate(
    rows.map(([date, metric, value]) => ({
      tenantId: location.tenantId,
      customerId: location.customerId,
      organizationId: location.organizationId,
      locationId: location.id,
      date,
      metric,
      value,
    })),
  );
}

export interface KeywordRow {
  keyword: string;
  year: number;
  month: number;
  impressions?: number;
  threshold?: number;
}

export async function putKeywords(location: Location, rows: KeywordRow[]): Promise<void> {
  await GbpSearchKeyword.bulkCreate(
    rows.map((r) => ({
      tenantId: location.tenantId,
      customerId: location.customerId,
      organizationId: location.organizationId,
      locationId: location.id,
      year: r.year,
      month: r.month,
      keyword: r.keyword,
      impressions: r.threshold === undefined ? (r.impressions ?? 0) : null,
      threshold: r.threshold ?? null,
      belowThreshold: r.threshold !== undefined,
    })),
  );
}
