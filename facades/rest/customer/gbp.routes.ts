import { z } from 'zod';
import { bool, integer, parseInput, presentOnly, text } from '../../shared/input';
import { route } from '../route';

/** Business-profile performance: `GET /api/v1/gbp/metrics` and `GET /api/v1/gbp/search-terms`. */

const TOTAL_FIELDS = 'impressionsTotal impressionsSearch impressionsMaps impressionsDesktop impressionsMobile callClicks websiteClicks directionRequests';

interface TotalsData {
  impressionsTotal: number;
  impressionsSearch: number;
  impressionsMaps: number;
  impressionsDesktop: number;
  impressionsMobile: number;
  callClicks: number;
  websiteClicks: number;
  directionRequests: number;
}

interface MetricsData {
  locationId: number;
  organizationId: number;
  period: { from: string; to: string };
  totals: TotalsData;
  previousPeriod: { from: string; to: string; totals: TotalsData };
  daily: Array<TotalsData & { date: string }> | null;
}

interface SearchTermData {
  keyword: string;
  year: number;
  month: number;
  monthLabel: string;
  impressions: number;
  belowThreshold: boolean;
  locationId: number;
  organizationId: number;
}

interface SearchTermPageData {
  items: SearchTermData[];
  total: number;
  page: number;
  perPage: number;
  locationId: number;
  organizationId: number;
  year: number;
  month: number | null;
}

const totals = (t: TotalsData) => ({
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
function metrics(m: MetricsData) {
  return {
    location_id: m.locationId,
    organization_id: m.organizationId,
    period: { from: m.period.from, to: m.period.to },
    totals: totals(m.totals),
    previous_period: { from: m.previousPeriod.from, to: m.previousPeriod.to, totals: totals(m.previousPeriod.totals) },
    ...(m.daily ? { daily: m.daily.map((d) => ({ date: d.date, ...totals(d) })) } : {}),
  };
}

const searchTerm = (r: SearchTermData) => ({
  keyword: r.keyword,
  year: r.year,
  month: r.month,
  month_label: r.monthLabel,
  impressions: r.impressions,
  below_threshold: r.belowThreshold,
  location_id: r.locationId,
  organization_id: r.organizationId,
});

export const gbpRoutes = [
  route<{ gbpMetrics: MetricsData }>({
    method: 'get',
    path: '/gbp/metrics',
    document: `query ($locationId: Int!, $from: String, $to: String, $includeDaily: Boolean!) {
      gbpMetrics(locationId: $locationId, from: $from, to: $to, includeDaily: $includeDaily) {
        locationId organizationId
        period { from to }
        totals { ${TOTAL_FIELDS} }
        previousPeriod { from to totals { ${TOTAL_FIELDS} } }
        daily { date ${TOTAL_FIELDS} }
      }
    }`,
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
    respond: (d) => ({ body: { data: metrics(d.gbpMetrics) } }),
  }),
  route<{ gbpSearchTerms: SearchTermPageData }>({
    method: 'get',
    path: '/gbp/search-terms',
    document: `query ($locationId: Int!, $year: Int, $month: Int, $page: Int!, $perPage: Int!) {
      gbpSearchTerms(locationId: $locationId, year: $year, month: $month, page: $page, perPage: $perPage) {
        total page perPage locationId organizationId year month
        items { keyword year month monthLabel impressions belowThreshold locationId organizationId }
      }
    }`,
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
          data: p.items.map(searchTerm),
          meta: {
            current_page: p.page,
            per_page: p.perPage,
            total: p.total,
            location_id: p.locationId,
            organization_id: p.organizationId,
            year: p.year,
            month: p.month,
          },
        },
      };
    },
  }),
];
