import * as gbp from '../../shared/gbp';
import { arr, bool, date, fromZod, id, input, int, object, page, pageOf, paginationSchema, perPage } from '../schema';
import { defineTool, READ_ONLY } from '../tool';

/**
 * Google Business Profile performance (GraphQL `gbpMetrics`, `gbpSearchTerms`), in the customer REST API's shapes
 * (spec: "Business-profile metrics", "Business-profile search term row"; docs/decisions/review-platforms.md "Business-profile
 * performance"). A location the caller cannot see, or one that does not exist, is access denied. Operations and
 * mappers are the REST routes' (facades/shared/gbp.ts).
 */
export const listGbpMetrics = defineTool({
  name: 'list_gbp_metrics',
  title: 'Google Business Profile metrics',
  description:
    "A location's Google Business Profile performance for a period (default: the last 30 full days, from 30 days ago to " +
    'yesterday): impressions (total, Search, Maps, desktop, mobile), call clicks, website clicks and direction requests, ' +
    'with the same totals for the equal-length period just before (previous_period) for comparison. include_daily adds ' +
    'one row per day. Periods may span at most 540 days. Use list_locations for location ids.',
  inputSchema: input(
    {
      location_id: id('The location.'),
      from: date('First day, inclusive; default: 30 days ago'),
      to: date('Last day, inclusive; default: yesterday'),
      include_daily: bool({ default: false, description: 'Add one row per day of the period (daily).' }),
    },
    ['location_id'],
  ),
  outputSchema: fromZod(gbp.Metrics),
  annotations: READ_ONLY,
  permission: 'reviews.view',
  document: gbp.GBP_METRICS_QUERY,
  variables: (a: { location_id: number; from?: string; to?: string; include_daily: boolean }) => ({ locationId: a.location_id, from: a.from ?? null, to: a.to ?? null, includeDaily: a.include_daily }),
  result: ({ gbpMetrics: m }) => gbp.metrics(m),
});

export const listGbpSearchTerms = defineTool({
  name: 'list_gbp_search_terms',
  title: 'Google search terms of a location',
  description:
    'Lists the search keywords people used to find a location on Google (Business Profile), per month: impressions, ' +
    'highest first. Low-volume counts are masked by Google: such rows have below_threshold true and impressions is the ' +
    'threshold the real count lies below. One year at a time (default: the current year); month narrows it to one month.',
  inputSchema: input(
    {
      location_id: id('The location.'),
      year: int({ minimum: 1, maximum: 9999, description: 'Year; default: the current year.' }),
      month: int({ minimum: 1, maximum: 12, description: 'One month (1-12); omitted: every month of the year.' }),
      per_page: perPage(200, 50),
      page: page(),
    },
    ['location_id'],
  ),
  outputSchema: object({
    data: arr(fromZod(gbp.SearchTerm)),
    pagination: paginationSchema,
    meta: fromZod(gbp.SearchTermsMeta.pick({ location_id: true, organization_id: true, year: true, month: true })),
  }),
  annotations: READ_ONLY,
  permission: 'reviews.view',
  document: gbp.GBP_SEARCH_TERMS_QUERY,
  variables: (a: { location_id: number; year?: number; month?: number; per_page: number; page: number }) => ({ locationId: a.location_id, year: a.year ?? null, month: a.month ?? null, perPage: a.per_page, page: a.page }),
  result: ({ gbpSearchTerms: d }) => ({ ...pageOf(d, gbp.searchTerm), meta: gbp.searchTermsMeta(d) }),
});

export const gbpTools = [listGbpMetrics, listGbpSearchTerms];
