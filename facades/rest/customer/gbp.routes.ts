import { bool, integer, text } from '../../shared/input';
import * as gbp from '../../shared/gbp';
import { dataOf } from '../../shared/presenters/common';
import { z } from '../../shared/presenters/zod';
import { route } from '../route';

/** Business-profile performance: `GET /api/v1/gbp/metrics` and `GET /api/v1/gbp/search-terms`. */
const TAG = 'Business profile';

export const gbpRoutes = [
  route({
    method: 'get',
    path: '/gbp/metrics',
    operationId: 'getBusinessProfileMetrics',
    summary: 'Business-profile metrics of a location',
    description:
      'Totals for the period and the period before it. Maximum range 540 days (422 `invalid_date_range`); a location outside the caller\'s ' +
      'scope is 403 `location_access_denied`.',
    tag: TAG,
    permissions: ['reviews:read'],
    query: z.object({
      location_id: integer('location_id'),
      from: text('from').optional().openapi({ format: 'date', description: 'Inclusive; default 30 days ago.' }),
      to: text('to').optional().openapi({ format: 'date', description: 'Inclusive; default yesterday.' }),
      include_daily: bool('include_daily').optional(),
    }),
    blankIsAbsent: true,
    responses: { 200: { description: 'The metrics.', schema: dataOf(gbp.Metrics) } },
    document: gbp.GBP_METRICS_QUERY,
    variables: ({ query: q }) => ({ locationId: q.location_id, from: q.from ?? null, to: q.to ?? null, includeDaily: q.include_daily ?? false }),
    respond: (d) => ({ body: { data: gbp.metrics(d.gbpMetrics) } }),
  }),
  route({
    method: 'get',
    path: '/gbp/search-terms',
    operationId: 'listBusinessProfileSearchTerms',
    summary: 'Search terms that showed a location',
    description: 'Ordered by impressions, descending; rows below Google\'s threshold sort last.',
    tag: TAG,
    permissions: ['reviews:read'],
    query: z.object({
      location_id: integer('location_id'),
      year: integer('year').optional().openapi({ description: 'Default: the current year.' }),
      month: integer('month').optional().openapi({ description: '1-12; omitted = every month of the year.' }),
      page: integer('page').optional(),
      per_page: integer('per_page').optional().openapi({ description: 'Default 50, max 200.' }),
    }),
    blankIsAbsent: true,
    responses: { 200: { description: 'A page of search terms.', schema: z.object({ data: z.array(gbp.SearchTerm), meta: gbp.SearchTermsMeta }) } },
    document: gbp.GBP_SEARCH_TERMS_QUERY,
    variables: ({ query: q }) => ({ locationId: q.location_id, year: q.year ?? null, month: q.month ?? null, page: q.page ?? 1, perPage: q.per_page ?? 50 }),
    respond: (d) => {
      const p = d.gbpSearchTerms;
      return {
        body: {
          data: p.items.map(gbp.searchTerm),
          meta: { current_page: p.page, per_page: p.perPage, total: p.total, ...gbp.searchTermsMeta(p) },
        },
      };
    },
  }),
];
