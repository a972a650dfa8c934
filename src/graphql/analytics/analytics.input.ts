import { IsIn, IsOptional, Matches, MaxLength } from 'class-validator';
import { ArgsType, Field, Int } from 'type-graphql';
import { GROUP_BY } from '../../services/review-analytics.service';
import { msg } from '../validation';

const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** The parameters of the MCP tool `get_metrics`, one to one (camelCase). */
@ArgsType()
export class ReviewMetricsArgs {
  @Field(() => Int, { nullable: true })
  organizationId?: number | null;

  @Field(() => Int, { nullable: true })
  locationId?: number | null;

  @Field(() => String, { nullable: true, description: 'Name of a review source (integration), e.g. `Google`.' })
  @IsOptional()
  @MaxLength(255, msg.max('source name', 255))
  sourceName?: string | null;

  @Field(() => String, { nullable: true, description: 'Y-m-d, inclusive (UTC day). Default: 29 days before date_to.' })
  @IsOptional()
  @Matches(DATE, msg.date('date from'))
  dateFrom?: string | null;

  @Field(() => String, { nullable: true, description: 'Y-m-d, inclusive (UTC day). Default: today.' })
  @IsOptional()
  @Matches(DATE, msg.date('date to'))
  dateTo?: string | null;

  @Field(() => String, { nullable: true, description: `Breakdown: ${GROUP_BY.join(', ')}. Omitted: no breakdown.` })
  @IsOptional()
  @IsIn([...GROUP_BY], { message: `The selected group by is invalid: use one of ${GROUP_BY.join(', ')}.` })
  groupBy?: string | null;

  @Field(() => String, { nullable: true, description: 'Y-m-d; with compare_to_date_to. Default: the previous equal-length period.' })
  @IsOptional()
  @Matches(DATE, msg.date('compare to date from'))
  compareToDateFrom?: string | null;

  @Field(() => String, { nullable: true, description: 'Y-m-d; with compare_to_date_from.' })
  @IsOptional()
  @Matches(DATE, msg.date('compare to date to'))
  compareToDateTo?: string | null;
}

/** The parameters of the MCP tool `get_ai_insights`, one to one (camelCase). */
@ArgsType()
export class AiInsightsArgs {
  @Field(() => Int)
  organizationId!: number;

  @Field(() => Int, { nullable: true })
  locationId?: number | null;

  @Field(() => String, { nullable: true, description: 'Y-m-d, inclusive. Default: 89 days before period_end.' })
  @IsOptional()
  @Matches(DATE, msg.date('period start'))
  periodStart?: string | null;

  @Field(() => String, { nullable: true, description: 'Y-m-d, inclusive. Default: today.' })
  @IsOptional()
  @Matches(DATE, msg.date('period end'))
  periodEnd?: string | null;
}
