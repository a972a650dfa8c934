import { z } from 'zod';
import { bool, integer, parseInput, presentOnly, text } from '../../shared/input';
import * as gbp from '../../shared/gbp';
import { route } from '../route';

/** Business-profile performance: `GET /api/v1/gbp/metrics` and `GET /api/v1/gbp/search-terms`. */
export const gbpRoutes = [
  route<{ gbpMetrics: gbp.MetricsData }>({
    method: 'get',
    path: '/gbp/metrics',
    document: gbp.GBP_METRICS_QUERY,
    variables: (req) => {
      const q = parseInput(
        z.object({
          location_id: integer('location_id'),
          from: text('from').optional(),
          to: text('to').optional(),
          include_daily: bool('include_daily').optional(),
        }),
        presentOnly(req.query),
      );
      return { locationId: q.location_id, from: q.from ?? null, to: q.to ?? null, includeDaily: q.include_daily ?? false };
    },
    respond: (d) => ({ body: { data: gbp.metrics(d.gbpMetrics) } }),
  }),
  route<{ gbpSearchTerms: gbp.SearchTermPageData }>({
    method: 'get',
    path: '/gbp/search-terms',
    document: gbp.GBP_SEARCH_TERMS_QUERY,
    variables: (req) => {
      const q = parseInput(
        z.object({
          location_id: integer('location_id'),
          year: integer('year').optional(),
          month: integer('month').optional(),
          page: integer('page').optional(),
          per_page: integer('per_page').optional(),
        }),
        presentOnly(req.query),
      );
      return { locationId: q.location_id, year: q.year ?? null, month: q.month ?? null, page: q.page ?? 1, perPage: q.per_page ?? 50 };
    },
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
