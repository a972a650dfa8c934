import type { MetricsTotals } from '../services/review-analytics.service';

/** The figures of an organisation's monthly report (src/services/monthly-report.service.ts computes them). */
export interface ReportMonth {
  /** `YYYY-MM`. */
  month: string;
  totalReviews: number;
  avgRating: number | null;
  responseRate: number | null;
  positive: number;
  neutral: number;
  negative: number;
}

export interface MonthlyReport {
  organizationId: number;
  organizationName: string;
  brandName: string;
  brandLogoUrl: string | null;
  /** The agency's brand colour (`#rrggbb`); null: the default. */
  brandColor: string | null;
  /** The account's language (else the agency's): the report speaks it. */
  language: string;
  month: string;
  period: { from: string; to: string };
  previousMonth: string;
  totals: ReportTotals;
  previousTotals: ReportTotals;
  /** TREND_MONTHS months ending with the report's, oldest first, empty months included. */
  months: ReportMonth[];
  generatedAt: Date;
}


/** The totals a report shows (the review metrics' totals, as GraphQL answers them too). */
export type ReportTotals = Pick<MetricsTotals, 'totalReviews' | 'avgRating' | 'responded' | 'responseRate' | 'sentimentDistribution' | 'aspects'>;
