import { IsInt, IsOptional, Max, Min } from 'class-validator';
import { ArgsType, Field, Int } from 'type-graphql';
import { msg } from '../validation';

/** Mirrors the MCP tool `list_gbp_metrics`: location_id*, from, to, include_daily. */
@ArgsType()
export class GbpMetricsArgs {
  @Field(() => Int)
  locationId!: number;

  @Field(() => String, { nullable: true, description: 'Y-m-d, inclusive; default 30 days ago.' })
  from?: string | null;

  @Field(() => String, { nullable: true, description: 'Y-m-d, inclusive; default yesterday. At most 540 days from `from`, both included.' })
  to?: string | null;

  @Field(() => Boolean, { defaultValue: false, description: 'Add one row per day of the period.' })
  includeDaily!: boolean;
}

/** Mirrors the MCP tool `list_gbp_search_terms`: location_id*, year, month, per_page (1-200, default 50), page. */
@ArgsType()
export class GbpSearchTermsArgs {
  @Field(() => Int)
  locationId!: number;

  @Field(() => Int, { nullable: true, description: 'Default: the current year.' })
  @IsOptional()
  @IsInt()
  @Min(1, msg.between('year', 1, 9999))
  @Max(9999, msg.between('year', 1, 9999))
  year?: number | null;

  @Field(() => Int, { nullable: true, description: '1-12; omitted: every month of the year.' })
  @IsOptional()
  @IsInt()
  @Min(1, msg.between('month', 1, 12))
  @Max(12, msg.between('month', 1, 12))
  month?: number | null;

  @Field(() => Int, { defaultValue: 50 })
  @IsInt()
  @Min(1, msg.between('per page', 1, 200))
  @Max(200, msg.between('per page', 1, 200))
  perPage!: number;

  @Field(() => Int, { defaultValue: 1 })
  @IsInt()
  @Min(1, msg.min('page', 1))
  page!: number;
}
