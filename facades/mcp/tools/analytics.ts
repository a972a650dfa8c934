import { arr, date, id, input, int, nullable, num, object, oneOf, str, type JsonSchema } from '../schema';
import { defineTool, READ_ONLY } from '../tool';
import { ASPECTS } from '../../../src/analytics/lexicon';
import { graphql } from '../../shared/graphql';
import type { McpGetMetricsQuery, MetricsTotalsFieldsFragment } from '../../shared/graphql/graphql';

/**
 * Review analytics: get_metrics (GraphQL `reviewMetrics`) and get_ai_insights (`aiInsights`). Formulas, defaults and
 * bucket labels are documented in docs/decisions/analytics.md ("Review analytics").
 */
const GROUP_BY = ['day', 'week', 'month', 'location', 'organization', 'source', 'rating', 'sentiment'] as const;

graphql(`fragment MetricsTotalsFields on MetricsTotals { totalReviews avgRating responded responseRate starDistribution { rating count } sentimentDistribution { positive neutral negative } aspects { aspect positive neutral negative } }`);

const count = () => int({ minimum: 0 });
const periodSchema = object({ from: str({ format: 'date' }), to: str({ format: 'date' }) }, { description: 'Inclusive UTC days (YYYY-MM-DD).' });
const totalsSchema = object({
  total_reviews: count(),
  avg_rating: nullable(num({ minimum: 1, maximum: 5, description: 'Mean star rating, 2 decimals; null without reviews.' })),
  responded: int({ minimum: 0, description: 'Reviews with a reply.' }),
  response_rate: nullable(num({ minimum: 0, maximum: 100, description: 'Percent of reviews with a reply, 1 decimal; null without reviews.' })),
  star_distribution: object({ 5: count(), 4: count(), 3: count(), 2: count(), 1: count() }, { description: 'Reviews per star rating, keyed "5" to "1".' }),
  sentiment_distribution: object({ positive: count(), neutral: count(), negative: count() }),
  aspect_distribution: object(
    Object.fromEntries(ASPECTS.map((a) => [a, object({ positive: count(), neutral: count(), negative: count() })])),
    { description: 'Reviews that talk about each aspect, by tone (staff, price, wait_time, cleanliness, quality, communication).' },
  ),
});

const totals = (t: MetricsTotalsFieldsFragment) => {
  const stars: Record<string, number> = { 5: 0, 4: 0, 3: 0, 2: 0, 1: 0 };
  for (const s of t.starDistribution) stars[String(s.rating)] = s.count;
  return {
    total_reviews: t.totalReviews,
    avg_rating: t.avgRating,
    responded: t.responded,
    response_rate: t.responseRate,
    star_distribution: stars,
    sentiment_distribution: { positive: t.sentimentDistribution.positive, neutral: t.sentimentDistribution.neutral, negative: t.sentimentDistribution.negative },
    aspect_distribution: Object.fromEntries(t.aspects.map((a) => [a.aspect, { positive: a.positive, neutral: a.neutral, negative: a.negative }])),
  };
};
const period = (p: McpGetMetricsQuery['reviewMetrics']['period']) => ({ from: p.from, to: p.to });

interface GetMetricsArgs {
  organization_id?: number;
  location_id?: number;
  source_name?: string;
  date_from?: string;
  date_to?: string;
  group_by?: (typeof GROUP_BY)[number];
  compare_to_date_from?: string;
  compare_to_date_to?: string;
}

const bucketSchema = object({
  bucket: str({ description: 'Day 2026-11-03, ISO week 2026-W45, month 2026-11, location/organisation/source name, rating "5".."1", or sentiment.' }),
  total_reviews: count(),
  avg_rating: nullable(num({ minimum: 1, maximum: 5 })),
  responded: count(),
  response_rate: nullable(num({ minimum: 0, maximum: 100 })),
});

const metricsOutput: JsonSchema = object(
  {
    period: periodSchema,
    filters: object({ organization_id: nullable(int()), location_id: nullable(int()), source_name: nullable(str()) }),
    totals: totalsSchema,
    breakdown: arr(bucketSchema, { description: 'Empty without group_by.' }),
    comparison: object({ period: periodSchema, totals: totalsSchema }, { description: 'Only when compare_to_date_from and compare_to_date_to are given.' }),
  },
  { required: ['period', 'filters', 'totals', 'breakdown'] },
);

export const getMetrics = defineTool({
  name: 'get_metrics',
  title: 'Review metrics',
  description:
    'Aggregated review metrics for a period (default: the last 30 days, today included): total_reviews, avg_rating, ' +
    'responded, response_rate (percent), star_distribution (keys "5".."1") and sentiment_distribution (positive, neutral, ' +
    'negative). Filter by organization_id, location_id and source_name (e.g. "Google"); group_by adds a breakdown by day, ' +
    'week, month, location, organization, source, rating or sentiment. Give compare_to_date_from and compare_to_date_to ' +
    '(both) to get a comparison period with its own totals. Periods may span at most 540 days. Use this rather than ' +
    'paging through list_reviews to answer "how are we doing" questions.',
  inputSchema: input(
    {
      organization_id: id('Only reviews of this organisation.'),
      location_id: id('Only reviews of this location.'),
      source_name: str({ minLength: 1, maxLength: 255, description: 'Only reviews of this source (exact name, e.g. "Google").' }),
      date_from: date('First day of the period, inclusive; default: 29 days before date_to'),
      date_to: date('Last day of the period, inclusive; default: today'),
      group_by: oneOf(GROUP_BY, { description: 'Breakdown dimension; omitted: no breakdown.' }),
      compare_to_date_from: date('First day of a comparison period (with compare_to_date_to)'),
      compare_to_date_to: date('Last day of a comparison period (with compare_to_date_from)'),
    },
    [],
    { dependencies: { compare_to_date_from: ['compare_to_date_to'], compare_to_date_to: ['compare_to_date_from'] } },
  ),
  outputSchema: metricsOutput,
  annotations: READ_ONLY,
  permission: 'reviews.view',
  // reviewMetrics refuses an organisation or location outside the scope itself (FORBIDDEN *_access_denied).
  document: graphql(`query McpGetMetrics($compare: Boolean!, $organizationId: Int, $locationId: Int, $sourceName: String, $dateFrom: String, $dateTo: String,
      $groupBy: String, $compareToDateFrom: String, $compareToDateTo: String) {
    reviewMetrics(organizationId: $organizationId, locationId: $locationId, sourceName: $sourceName, dateFrom: $dateFrom, dateTo: $dateTo,
        groupBy: $groupBy, compareToDateFrom: $compareToDateFrom, compareToDateTo: $compareToDateTo) {
      period { from to }
      filters { organizationId locationId sourceName }
      totals { ...MetricsTotalsFields }
      breakdown { bucket totalReviews avgRating responded responseRate }
      comparison @include(if: $compare) { period { from to } totals { ...MetricsTotalsFields } }
    }
  }`),
  variables: (a: GetMetricsArgs) => ({
    compare: a.compare_to_date_from !== undefined,
    organizationId: a.organization_id ?? null,
    locationId: a.location_id ?? null,
    sourceName: a.source_name ?? null,
    dateFrom: a.date_from ?? null,
    dateTo: a.date_to ?? null,
    groupBy: a.group_by ?? null,
    compareToDateFrom: a.compare_to_date_from ?? null,
    compareToDateTo: a.compare_to_date_to ?? null,
  }),
  result: ({ reviewMetrics: m }) => ({
    period: period(m.period),
    filters: { organization_id: m.filters.organizationId, location_id: m.filters.locationId, source_name: m.filters.sourceName },
    totals: totals(m.totals),
    breakdown: m.breakdown.map((b) => ({
      bucket: b.bucket,
      total_reviews: b.totalReviews,
      avg_rating: b.avgRating,
      responded: b.responded,
      response_rate: b.responseRate,
    })),
    ...(m.comparison ? { comparison: { period: period(m.comparison.period), totals: totals(m.comparison.totals) } } : {}),
  }),
});

export const getAiInsights = defineTool({
  name: 'get_ai_insights',
  title: 'AI insights on reviews',
  description:
    'Analyses the review texts of an organisation (optionally one location) over a period (default: the last 90 days) ' +
    'against the equal-length period before: themes customers mention (with positive/neutral/negative counts, a quoted ' +
    'example and the previous mentions), changes (reviews, rating, response rate, negative share, rising and new themes), ' +
    'strengths, complaints, suggested actions and a short narrative. Use get_metrics for plain numbers.',
  inputSchema: input(
    {
      organization_id: id('The organisation to analyse.'),
      location_id: id('Only this location of the organisation.'),
      period_start: date('First day, inclusive; default: 89 days before period_end'),
      period_end: date('Last day, inclusive; default: today'),
    },
    ['organization_id'],
  ),
  outputSchema: object({
    organization_id: int(),
    location_id: nullable(int()),
    period: periodSchema,
    previous_period: periodSchema,
    totals: totalsSchema,
    previous_totals: totalsSchema,
    analysed_reviews: count(),
    themes: arr(
      object({
        theme: str(),
        mentions: count(),
        positive: count(),
        neutral: count(),
        negative: count(),
        score: num({ minimum: -1, maximum: 1 }),
        sentiment: str(),
        example: str(),
        previous_mentions: count(),
      }),
    ),
    changes: arr(object({ subject: str(), previous: nullable(num()), current: nullable(num()), direction: str(), text: str() })),
    strengths: arr(str()),
    complaints: arr(str()),
    suggested_actions: arr(str()),
    narrative: str(),
    narrative_source: oneOf(['ai', 'deterministic']),
  }),
  annotations: READ_ONLY,
  permission: 'reviews.view',
  // aiInsights refuses an organisation or location outside the scope itself, as reviewMetrics does.
  document: graphql(`query McpGetAiInsights($organizationId: Int!, $locationId: Int, $periodStart: String, $periodEnd: String) {
    aiInsights(organizationId: $organizationId, locationId: $locationId, periodStart: $periodStart, periodEnd: $periodEnd) {
      organizationId locationId period { from to } previousPeriod { from to }
      totals { ...MetricsTotalsFields } previousTotals { ...MetricsTotalsFields } analysedReviews
      themes { theme mentions positive neutral negative score sentiment example previousMentions }
      changes { subject previous current direction text }
      strengths complaints suggestedActions narrative narrativeSource
    }
  }`),
  variables: (a: { organization_id: number; location_id?: number; period_start?: string; period_end?: string }) => ({ organizationId: a.organization_id, locationId: a.location_id ?? null, periodStart: a.period_start ?? null, periodEnd: a.period_end ?? null }),
  result: ({ aiInsights: d }) => ({
    organization_id: d.organizationId,
    location_id: d.locationId,
    period: period(d.period),
    previous_period: period(d.previousPeriod),
    totals: totals(d.totals),
    previous_totals: totals(d.previousTotals),
    analysed_reviews: d.analysedReviews,
    themes: d.themes.map((t) => ({
      theme: t.theme,
      mentions: t.mentions,
      positive: t.positive,
      neutral: t.neutral,
      negative: t.negative,
      score: t.score,
      sentiment: t.sentiment,
      example: t.example,
      previous_mentions: t.previousMentions,
    })),
    changes: d.changes.map((c) => ({ subject: c.subject, previous: c.previous, current: c.current, direction: c.direction, text: c.text })),
    strengths: d.strengths,
    complaints: d.complaints,
    suggested_actions: d.suggestedActions,
    narrative: d.narrative,
    narrative_source: d.narrativeSource,
  }),
});

const MONTH = '^[0-9]{4}-(0[1-9]|1[0-2])$';

/** One month's aspects in get_report: keyed by aspect like the totals' aspect_distribution, with mentions and net sentiment. */
const monthAspectsSchema = object(
  Object.fromEntries(
    ASPECTS.map((a) => [
      a,
      object({
        mentions: count(),
        positive: count(),
        neutral: count(),
        negative: count(),
        net_sentiment: nullable(num({ minimum: -100, maximum: 100, description: '(positive - negative) / mentions x 100, 1 decimal; null in a month without a mention.' })),
      }),
    ]),
  ),
  { description: "The month's reviews naming each aspect, by tone (staff, price, wait_time, cleanliness, quality, communication)." },
);

/** The monthly report (GraphQL `organizationReport`, issue 19 item 5; additive to the spec's tools). */
export const getReport = defineTool({
  name: 'get_report',
  title: 'Monthly review report',
  description:
    "The monthly review report of an organisation, as its owners get it by mail: the month's totals (reviews, rating, " +
    'response rate, sentiment, aspects) against the month before, the twelve months up to it (each with its aspects ' +
    'and their net sentiment, null in a month without a mention), and what changed, a ' +
    "sentence each in the account's language. html_url and pdf_url are the REST paths of the branded page and PDF " +
    '(with charts) for the same month. A month without reviews has empty totals; a future month is invalid.',
  inputSchema: input(
    {
      organization_id: id('The organisation.'),
      month: str({ pattern: MONTH, description: 'The month, YYYY-MM (not in the future).' }),
    },
    ['organization_id', 'month'],
  ),
  outputSchema: object({
    organization_id: int(),
    organization_name: str(),
    language: str({ description: 'ISO 639-1: the language of title and changes.' }),
    month: str({ pattern: MONTH }),
    previous_month: str({ pattern: MONTH }),
    title: str(),
    period: periodSchema,
    totals: totalsSchema,
    previous_totals: totalsSchema,
    months: arr(
      object({
        month: str({ pattern: MONTH }),
        total_reviews: count(),
        avg_rating: nullable(num({ minimum: 1, maximum: 5 })),
        response_rate: nullable(num({ minimum: 0, maximum: 100 })),
        positive: count(),
        neutral: count(),
        negative: count(),
        aspect_distribution: monthAspectsSchema,
      }),
      { description: 'Twelve months ending with the report\'s, oldest first.' },
    ),
    changes: arr(str()),
    html_url: str({ description: 'Relative path of the HTML report (customer REST API, bearer token).' }),
    pdf_url: str({ description: 'Relative path of the PDF report.' }),
  }),
  annotations: READ_ONLY,
  permission: 'reviews.view',
  // organizationReport answers an organisation outside the scope as not found, like REST's 404.
  document: graphql(`query McpGetReport($organizationId: Int!, $month: String!) {
    organizationReport(organizationId: $organizationId, month: $month) {
      organizationId organizationName language month previousMonth title period { from to }
      totals { ...MetricsTotalsFields } previousTotals { ...MetricsTotalsFields }
      months { month totalReviews avgRating responseRate positive neutral negative aspects { aspect mentions positive neutral negative netSentiment } }
      changes
    }
  }`),
  variables: (a: { organization_id: number; month: string }) => ({ organizationId: a.organization_id, month: a.month }),
  result: ({ organizationReport: r }) => {
    const path = `/api/v1/organizations/${r.organizationId}/reports/${r.month}`;
    return {
      organization_id: r.organizationId,
      organization_name: r.organizationName,
      language: r.language,
      month: r.month,
      previous_month: r.previousMonth,
      title: r.title,
      period: period(r.period),
      totals: totals(r.totals),
      previous_totals: totals(r.previousTotals),
      months: r.months.map((m) => ({
        month: m.month,
        total_reviews: m.totalReviews,
        avg_rating: m.avgRating,
        response_rate: m.responseRate,
        positive: m.positive,
        neutral: m.neutral,
        negative: m.negative,
        aspect_distribution: Object.fromEntries(
          m.aspects.map((a) => [a.aspect, { mentions: a.mentions, positive: a.positive, neutral: a.neutral, negative: a.negative, net_sentiment: a.netSentiment }]),
        ),
      })),
      changes: r.changes,
      html_url: path,
      pdf_url: `${path}.pdf`,
    };
  },
});

export const analyticsTools = [getMetrics, getAiInsights, getReport];
