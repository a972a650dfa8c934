import type { MetricTotals } from '../../src/gbp/metrics';

/**
 * Business-profile performance on the wire, for both facades that serve it: the customer REST API
 * (facades/rest/customer/gbp.routes.ts) and the MCP tools (facades/mcp/tools/gbp.ts). The GraphQL operations
 * (`gbpMetrics`, `gbpSearchTerms`) and the mappers to the spec's shapes ("Business-profile metrics",
 * "Business-profile search term row"). The totals are src/gbp/metrics.ts's (a pure module: no database).
 */

const TOTAL_FIELDS = 'impressionsTotal impressionsSearch impressionsMaps impressionsDesktop impressionsMobile callClicks websiteClicks directionRequests';

export interface MetricsData {
  locationId: number;
  organizationId: number;
  period: { from: string; to: string };
  totals: MetricTotals;
  previousPeriod: { from: string; to: string; totals: MetricTotals };
  daily: Array<MetricTotals & { date: string }> | null;
}

export const GBP_METRICS_QUERY = `query ($locationId: Int!, $from: String, $to: String, $includeDaily: Boolean!) {
  gbpMetrics(locationId: $locationId, from: $from, to: $to, includeDaily: $includeDaily) {
    locationId organizationId
    period { from to }
    totals { ${TOTAL_FIELDS} }
    previousPeriod { from to totals { ${TOTAL_FIELDS} } }
    daily { date ${TOTAL_FIELDS} }
  }
}`;

const totals = (t: MetricTotals) => ({
  impressions_total: t.impressionsTotal,
  impressions_search: t.impressionsSearch,
  impressions_maps: t.impressionsMaps,
  impressions_desktop: t.impressionsDesktop,
  impressions_mobile: t.impressionsMobile,
  call_clicks: t.callClicks,
  website_clicks: t.websiteClicks,
  direction_requests: t.directionRequests,
});

/** The Metrics resource; `daily` only with include_daily (one row per day of the period: `date` and the totals). */
export function metrics(m: MetricsData) {
  return {
    location_id: m.locationId,
    organization_id: m.organizationId,
    period: { from: m.period.from, to: m.period.to },
    totals: totals(m.totals),
    previous_period: { from: m.previousPeriod.from, to: m.previousPeriod.to, totals: totals(m.previousPeriod.totals) },
    ...(m.daily ? { daily: m.daily.map((d) => ({ date: d.date, ...totals(d) })) } : {}),
  };
}

export interface SearchTermData {
  keyword: string;
  year: number;
  month: number;
  monthLabel: string;
  impressions: number;
  belowThreshold: boolean;
  locationId: number;
  organizationId: number;
}

export interface SearchTermPageData {
  items: SearchTermData[];
  total: number;
  page: number;
  perPage: number;
  locationId: number;
  organizationId: number;
  year: number;
  month: number | null;
}

export const GBP_SEARCH_TERMS_QUERY = `query ($locationId: Int!, $year: Int, $month: Int, $page: Int!, $perPage: Int!) {
  gbpSearchTerms(locationId: $locationId, year: $year, month: $month, page: $page, perPage: $perPage) {
    total page perPage locationId organizationId year month
    items { keyword year month monthLabel impressions belowThreshold locationId organizationId }
  }
}`;

export const searchTerm = (r: SearchTermData) => ({
  keyword: r.keyword,
  year: r.year,
  month: r.month,
  month_label: r.monthLabel,
  impressions: r.impressions,
  below_threshold: r.belowThreshold,
  location_id: r.locationId,
  organization_id: r.organizationId,
});

/** What the page was read for: the location (and its organisation) and the year and month asked for. */
export const searchTermsMeta = (p: SearchTermPageData) => ({ location_id: p.locationId, organization_id: p.organizationId, year: p.year, month: p.month });
