/**
 * Which Google daily metrics we keep and how the interface's totals are made of them. Profile views and photo
 * views (the old Insights API's VIEWS_* and PHOTOS_VIEWS_* metrics) are not among them: the interface no longer
 * returns them, even where older data holds them, so every read and write goes through this list.
 */
export const DAILY_METRICS = [
  'BUSINESS_IMPRESSIONS_DESKTOP_MAPS',
  'BUSINESS_IMPRESSIONS_DESKTOP_SEARCH',
  'BUSINESS_IMPRESSIONS_MOBILE_MAPS',
  'BUSINESS_IMPRESSIONS_MOBILE_SEARCH',
  'CALL_CLICKS',
  'WEBSITE_CLICKS',
  'BUSINESS_DIRECTION_REQUESTS',
] as const;
export type DailyMetric = (typeof DAILY_METRICS)[number];

export const isDailyMetric = (name: string): name is DailyMetric => (DAILY_METRICS as readonly string[]).includes(name);

/** Legacy metric names of the retired v4 Insights API: profile views and photo views. Never served. */
export const LEGACY_VIEW_METRICS = ['VIEWS_MAPS', 'VIEWS_SEARCH', 'PHOTOS_VIEWS_MERCHANT', 'PHOTOS_VIEWS_CUSTOMERS'] as const;

/** The totals of the interface (`totals.*`, `previous_period.totals.*`, each per-day row). */
export interface MetricTotals {
  impressionsTotal: number;
  impressionsSearch: number;
  impressionsMaps: number;
  impressionsDesktop: number;
  impressionsMobile: number;
  callClicks: number;
  websiteClicks: number;
  directionRequests: number;
}

/** Sums of each Google metric (missing = 0) folded into the interface's totals. */
export function totalsOf(sums: Partial<Record<DailyMetric, number>>): MetricTotals {
  const v = (m: DailyMetric) => sums[m] ?? 0;
  const desktopMaps = v('BUSINESS_IMPRESSIONS_DESKTOP_MAPS');
  const desktopSearch = v('BUSINESS_IMPRESSIONS_DESKTOP_SEARCH');
  const mobileMaps = v('BUSINESS_IMPRESSIONS_MOBILE_MAPS');
  const mobileSearch = v('BUSINESS_IMPRESSIONS_MOBILE_SEARCH');
  return {
    impressionsTotal: desktopMaps + desktopSearch + mobileMaps + mobileSearch,
    impressionsSearch: desktopSearch + mobileSearch,
    impressionsMaps: desktopMaps + mobileMaps,
    impressionsDesktop: desktopMaps + desktopSearch,
    impressionsMobile: mobileMaps + mobileSearch,
    callClicks: v('CALL_CLICKS'),
    websiteClicks: v('WEBSITE_CLICKS'),
    directionRequests: v('BUSINESS_DIRECTION_REQUESTS'),
  };
}
