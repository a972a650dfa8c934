import { Field, Int, ObjectType } from 'type-graphql';
import { Paginated } from '../common';

/** The totals of a period (Google's impressions split four ways, calls, website clicks, direction requests). */
@ObjectType('GbpMetricTotals')
export class GbpMetricTotalsType {
  @Field(() => Int, { description: 'Search and Maps impressions on desktop and mobile.' })
  impressionsTotal!: number;

  @Field(() => Int)
  impressionsSearch!: number;

  @Field(() => Int)
  impressionsMaps!: number;

  @Field(() => Int)
  impressionsDesktop!: number;

  @Field(() => Int)
  impressionsMobile!: number;

  @Field(() => Int)
  callClicks!: number;

  @Field(() => Int)
  websiteClicks!: number;

  @Field(() => Int)
  directionRequests!: number;
}

@ObjectType('GbpPeriod')
export class GbpPeriodType {
  @Field({ description: 'Y-m-d, inclusive.' })
  from!: string;

  @Field({ description: 'Y-m-d, inclusive.' })
  to!: string;
}

@ObjectType('GbpPreviousPeriod', { description: 'The equal-length window immediately before the requested one.' })
export class GbpPreviousPeriodType extends GbpPeriodType {
  @Field(() => GbpMetricTotalsType)
  totals!: GbpMetricTotalsType;
}

@ObjectType('GbpDailyMetrics', { description: 'One day of the period: the same totals, for that day.' })
export class GbpDailyMetricsType extends GbpMetricTotalsType {
  @Field({ description: 'Y-m-d.' })
  date!: string;
}

@ObjectType('GbpMetrics', { description: 'Business-profile performance of a location. Profile and photo views are not offered.' })
export class GbpMetricsType {
  @Field(() => Int)
  locationId!: number;

  @Field(() => Int)
  organizationId!: number;

  @Field(() => GbpPeriodType)
  period!: GbpPeriodType;

  @Field(() => GbpMetricTotalsType)
  totals!: GbpMetricTotalsType;

  @Field(() => GbpPreviousPeriodType)
  previousPeriod!: GbpPreviousPeriodType;

  @Field(() => [GbpDailyMetricsType], { nullable: true, description: 'Every day of the period in order, with includeDaily; else null.' })
  daily!: GbpDailyMetricsType[] | null;
}

@ObjectType('GbpSearchTerm')
export class GbpSearchTermType {
  @Field()
  keyword!: string;

  @Field(() => Int)
  year!: number;

  @Field(() => Int)
  month!: number;

  @Field({ description: 'Short month and year, e.g. "Mar 2026".' })
  monthLabel!: string;

  @Field(() => Int, { description: 'The impressions; for a masked row, the threshold Google says the count lies below.' })
  impressions!: number;

  @Field({ description: 'Google masked a low-volume count.' })
  belowThreshold!: boolean;

  @Field(() => Int)
  locationId!: number;

  @Field(() => Int)
  organizationId!: number;
}

@ObjectType('GbpSearchTermPage')
export class GbpSearchTermPageType extends Paginated(GbpSearchTermType, 'GbpSearchTermBase') {
  @Field(() => Int)
  locationId!: number;

  @Field(() => Int)
  organizationId!: number;

  @Field(() => Int)
  year!: number;

  @Field(() => Int, { nullable: true, description: 'Null: every month of the year.' })
  month!: number | null;
}
