import { Field, Float, GraphQLISODateTime, Int, ObjectType } from 'type-graphql';
import { AspectDistributionType, MetricsPeriodType, MetricsTotalsType } from '../analytics/analytics.type';

@ObjectType('ReportMonthAspect', { description: "One aspect in one month of the report's trend: the month's reviews naming it, by tone." })
export class ReportMonthAspectType extends AspectDistributionType {
  @Field(() => Int, { description: 'Reviews naming the aspect (positive + neutral + negative).' }) mentions!: number;
  @Field(() => Float, { nullable: true, description: '(positive - negative) / mentions x 100, 1 decimal (-100 to 100); null in a month without a mention.' })
  netSentiment!: number | null;
}

@ObjectType('ReportMonth', { description: 'One month of the report\'s trend.' })
export class ReportMonthType {
  @Field({ description: '`YYYY-MM`.' }) month!: string;
  @Field(() => Int) totalReviews!: number;
  @Field(() => Float, { nullable: true }) avgRating!: number | null;
  @Field(() => Float, { nullable: true }) responseRate!: number | null;
  @Field(() => Int) positive!: number;
  @Field(() => Int) neutral!: number;
  @Field(() => Int) negative!: number;
  @Field(() => [ReportMonthAspectType], { description: 'Each of the six aspects (staff, price, wait_time, cleanliness, quality, communication), in that order.' })
  aspects!: ReportMonthAspectType[];
}

@ObjectType('OrganizationReport', {
  description: "An organisation's monthly review report: the month against the one before and the twelve months up to it, in the account's language.",
})
export class OrganizationReportType {
  @Field(() => Int) organizationId!: number;
  @Field() organizationName!: string;
  @Field({ description: "The agency's brand name." }) brandName!: string;
  @Field(() => String, { nullable: true }) brandLogoUrl!: string | null;
  @Field(() => String, { nullable: true, description: 'The agency brand colour (`#rrggbb`) the report is drawn in; null: the default.' }) brandColor!: string | null;
  @Field({ description: 'ISO 639-1: the language the report is written in.' }) language!: string;
  @Field({ description: '`YYYY-MM`.' }) month!: string;
  @Field({ description: '`YYYY-MM`.' }) previousMonth!: string;
  @Field(() => MetricsPeriodType, { description: 'The days of the month.' }) period!: MetricsPeriodType;
  @Field(() => MetricsTotalsType) totals!: MetricsTotalsType;
  @Field(() => MetricsTotalsType) previousTotals!: MetricsTotalsType;
  @Field(() => [ReportMonthType], { description: 'Twelve months ending with the report\'s, oldest first.' }) months!: ReportMonthType[];
  @Field(() => GraphQLISODateTime) generatedAt!: Date;
}
