import { Field, Float, Int, ObjectType } from 'type-graphql';

@ObjectType('MetricsPeriod')
export class MetricsPeriodType {
  @Field({ description: 'Y-m-d, inclusive.' })
  from!: string;

  @Field({ description: 'Y-m-d, inclusive.' })
  to!: string;
}

@ObjectType('MetricsFilters')
export class MetricsFiltersType {
  @Field(() => Int, { nullable: true })
  organizationId!: number | null;

  @Field(() => Int, { nullable: true })
  locationId!: number | null;

  @Field(() => String, { nullable: true })
  sourceName!: string | null;
}

@ObjectType('StarCount')
export class StarCountType {
  @Field(() => Int)
  rating!: number;

  @Field(() => Int)
  count!: number;
}

@ObjectType('SentimentDistribution')
export class SentimentDistributionType {
  @Field(() => Int)
  positive!: number;

  @Field(() => Int)
  neutral!: number;

  @Field(() => Int)
  negative!: number;
}

@ObjectType('AspectDistribution')
export class AspectDistributionType extends SentimentDistributionType {
  @Field({ description: '`staff`, `price`, `wait_time`, `cleanliness`, `quality` or `communication`.' })
  aspect!: string;
}

@ObjectType('MetricsTotals')
export class MetricsTotalsType {
  @Field(() => Int)
  totalReviews!: number;

  @Field(() => Float, { nullable: true, description: 'Mean star rating, 2 decimals; null without reviews.' })
  avgRating!: number | null;

  @Field(() => Int, { description: 'Reviews with a reply.' })
  responded!: number;

  @Field(() => Float, { nullable: true, description: 'responded / total_reviews x 100, 1 decimal; null without reviews.' })
  responseRate!: number | null;

  @Field(() => [StarCountType], { description: 'Five entries, 5 stars first (the MCP result keys them "5" to "1").' })
  starDistribution!: StarCountType[];

  @Field(() => SentimentDistributionType)
  sentimentDistribution!: SentimentDistributionType;

  @Field(() => [AspectDistributionType], { description: 'Each of the six aspects: reviews that talk about it, by tone.' })
  aspects!: AspectDistributionType[];
}

@ObjectType('MetricsBucket')
export class MetricsBucketType {
  @Field({ description: 'Day `2026-11-03`, ISO week `2026-W45`, month `2026-11`, location/organisation/source name, rating `5`..`1`, sentiment.' })
  bucket!: string;

  @Field(() => Int, { nullable: true, description: 'Location or organisation id of those groupings.' })
  id!: number | null;

  @Field(() => String, { nullable: true, description: 'First day of a time bucket inside the period.' })
  from!: string | null;

  @Field(() => String, { nullable: true, description: 'Last day of a time bucket inside the period.' })
  to!: string | null;

  @Field(() => Int)
  totalReviews!: number;

  @Field(() => Float, { nullable: true })
  avgRating!: number | null;

  @Field(() => Int)
  responded!: number;

  @Field(() => Float, { nullable: true })
  responseRate!: number | null;
}

@ObjectType('MetricsComparison')
export class MetricsComparisonType {
  @Field(() => MetricsPeriodType)
  period!: MetricsPeriodType;

  @Field(() => MetricsTotalsType)
  totals!: MetricsTotalsType;
}

@ObjectType('ReviewMetrics', { description: 'The result of the MCP tool `get_metrics`, plus the comparison period.' })
export class ReviewMetricsType {
  @Field(() => MetricsPeriodType)
  period!: MetricsPeriodType;

  @Field(() => MetricsFiltersType)
  filters!: MetricsFiltersType;

  @Field(() => String, { nullable: true })
  groupBy!: string | null;

  @Field(() => MetricsTotalsType)
  totals!: MetricsTotalsType;

  @Field(() => [MetricsBucketType])
  breakdown!: MetricsBucketType[];

  @Field(() => MetricsComparisonType, { description: 'compare_to_date_from..to, else the equal-length period just before.' })
  comparison!: MetricsComparisonType;
}

@ObjectType('InsightTheme')
export class InsightThemeType extends SentimentDistributionType {
  @Field({ description: 'A noun or two-noun phrase customers use ("front desk").' })
  theme!: string;

  @Field(() => Int, { description: 'Reviews of the period mentioning it.' })
  mentions!: number;

  @Field(() => Float, { description: 'Mean tone of the mentions, -1..1.' })
  score!: number;

  @Field()
  sentiment!: string;

  @Field({ description: 'A clause of a recent review mentioning it.' })
  example!: string;

  @Field(() => Int, { description: 'Reviews of the previous period mentioning it.' })
  previousMentions!: number;
}

@ObjectType('InsightChange')
export class InsightChangeType {
  @Field({ description: 'A metric (`Reviews`, `Average rating`, `Response rate`, `Negative reviews`) or a theme.' })
  subject!: string;

  @Field(() => Float, { nullable: true })
  previous!: number | null;

  @Field(() => Float, { nullable: true })
  current!: number | null;

  @Field({ description: '`up`, `down`, `unchanged`, `new` (theme) or `gone` (theme).' })
  direction!: string;

  @Field()
  text!: string;
}

@ObjectType('AiInsights', { description: 'The result of the MCP tool `get_ai_insights`.' })
export class AiInsightsType {
  @Field(() => Int)
  organizationId!: number;

  @Field(() => Int, { nullable: true })
  locationId!: number | null;

  @Field(() => MetricsPeriodType)
  period!: MetricsPeriodType;

  @Field(() => MetricsPeriodType, { description: 'The equal-length period just before.' })
  previousPeriod!: MetricsPeriodType;

  @Field(() => MetricsTotalsType)
  totals!: MetricsTotalsType;

  @Field(() => MetricsTotalsType)
  previousTotals!: MetricsTotalsType;

  @Field(() => Int, { description: 'Reviews whose text was analysed (the newest 1,000 of the period at most).' })
  analysedReviews!: number;

  @Field(() => [InsightThemeType], { description: 'Most mentioned first; at most 10, each in 2 reviews or more.' })
  themes!: InsightThemeType[];

  @Field(() => [InsightChangeType])
  changes!: InsightChangeType[];

  @Field(() => [String])
  strengths!: string[];

  @Field(() => [String])
  complaints!: string[];

  @Field(() => [String])
  suggestedActions!: string[];

  @Field()
  narrative!: string;

  @Field({ description: '`ai` when the chat API wrote the narrative, else `deterministic`.' })
  narrativeSource!: string;
}
