import { graphql } from './graphql';
import type { GbpMetricsQuery, GbpSearchTermsQuery, GbpTotalsFieldsFragment } from './graphql/graphql';
import { date, z } from './presenters/zod';

/**
 * Business-profile performance on the wire, for both facades that serve it: the customer REST API
 * (facades/rest/customer/gbp.routes.ts) and the MCP tools (facades/mcp/tools/gbp.ts). The GraphQL operations
 * (`gbpMetrics`, `gbpSearchTerms`) and the mappers to the spec's shapes ("Business-profile metrics",
 * "Business-profile search term row"). The totals are src/gbp/metrics.ts's (a pure module: no database).
 */

graphql(`fragment GbpTotalsFields on GbpMetricTotals { impressionsTotal impressionsSearch impressionsMaps impressionsDesktop impressionsMobile callClicks websiteClicks directionRequests }`);
// A day's row has the same counts on its own type (GraphQL has no spread across types).
graphql(`fragment GbpDailyFields on GbpDailyMetrics { date impressionsTotal impressionsSearch impressionsMaps impressionsDesktop impressionsMobile callClicks websiteClicks directionRequests }`);

type MetricsData = GbpMetricsQuery['gbpMetrics'];

export const GBP_METRICS_QUERY = graphql(`query GbpMetrics($locationId: Int!, $from: String, $to: String, $includeDaily: Boolean!) {
  gbpMetrics(locationId: $locationId, from: $from, to: $to, includeDaily: $includeDaily) {
    locationId organizationId
    period { from to }
    totals { ...GbpTotalsFields }
    previousPeriod { from to totals { ...GbpTotalsFields } }
    daily { ...GbpDailyFields }
  }
}`);

const count = () => z.number().int().min(0);
const Totals = z
  .object({
    impressions_total: count().openapi({ description: 'Search and Maps impressions on desktop and mobile.' }),
    impressions_search: count(),
    impressions_maps: count(),
    impressions_desktop: count(),
    impressions_mobile: count(),
    call_clicks: count(),
    website_clicks: count(),
    direction_requests: count(),
  })
  .openapi('MetricTotals');

const totals = (t: GbpTotalsFieldsFragment): z.infer<typeof Totals> => ({
  impressions_total: t.impressionsTotal,
  impressions_search: t.impressionsSearch,
  impressions_maps: t.impressionsMaps,
  impressions_desktop: t.impressionsDesktop,
  impressions_mobile: t.impressionsMobile,
  call_clicks: t.callClicks,
  website_clicks: t.websiteClicks,
  direction_requests: t.directionRequests,
});

export const Metrics = z
  .object({
    location_id: z.number().int(),
    organization_id: z.number().int(),
    period: z.object({ from: date(), to: date() }),
    totals: Totals,
    previous_period: z.object({ from: date(), to: date(), totals: Totals }),
    daily: z.array(Totals.extend({ date: date() })).optional().openapi({ description: 'With `include_daily=true` only: one row per day.' }),
  })
  .openapi('Metrics');

/** The Metrics resource; `daily` only with include_daily (one row per day of the period: `date` and the totals). */
export function metrics(m: MetricsData): z.infer<typeof Metrics> {
  return {
    location_id: m.locationId,
    organization_id: m.organizationId,
    period: { from: m.period.from, to: m.period.to },
    totals: totals(m.totals),
    previous_period: { from: m.previousPeriod.from, to: m.previousPeriod.to, totals: totals(m.previousPeriod.totals) },
    ...(m.daily ? { daily: m.daily.map((d) => ({ date: d.date, ...totals(d) })) } : {}),
  };
}

type SearchTermPageData = GbpSearchTermsQuery['gbpSearchTerms'];
type SearchTermData = SearchTermPageData['items'][number];

export const GBP_SEARCH_TERMS_QUERY = graphql(`query GbpSearchTerms($locationId: Int!, $year: Int, $month: Int, $page: Int!, $perPage: Int!) {
  gbpSearchTerms(locationId: $locationId, year: $year, month: $month, page: $page, perPage: $perPage) {
    total page perPage locationId organizationId year month
    items { keyword year month monthLabel impressions belowThreshold locationId organizationId }
  }
}`);

export const SearchTerm = z
  .object({
    keyword: z.string(),
    year: z.number().int(),
    month: z.number().int().min(1).max(12),
    month_label: z.string().openapi({ description: 'Short month and year, e.g. "Mar 2026".' }),
    impressions: count(),
    below_threshold: z.boolean().openapi({ description: 'Google masked a low count: impressions is the threshold it lies below; the row sorts last.' }),
    location_id: z.number().int(),
    organization_id: z.number().int(),
  })
  .openapi('SearchTermRow');

export const searchTerm = (r: SearchTermData): z.infer<typeof SearchTerm> => ({
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
export const SearchTermsMeta = z.object({
  current_page: z.number().int(),
  per_page: z.number().int(),
  total: z.number().int(),
  location_id: z.number().int(),
  organization_id: z.number().int(),
  year: z.number().int(),
  month: z.number().int().nullable(),
});

export const searchTermsMeta = (p: SearchTermPageData) => ({ location_id: p.locationId, organization_id: p.organizationId, year: p.year, month: p.month });
