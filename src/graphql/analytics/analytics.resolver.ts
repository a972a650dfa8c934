import { Args, Authorized, Ctx, Query, Resolver } from 'type-graphql';
import type { Context } from '../../context';
import * as insights from '../../services/ai-insights.service';
import * as analytics from '../../services/review-analytics.service';
import { AiInsightsArgs, ReviewMetricsArgs } from './analytics.input';
import { AiInsightsType, ReviewMetricsType } from './analytics.type';

const principal = (ctx: Context) => ctx.principal!; // @Authorized guarantees it

/** Review analytics: the MCP tools `get_metrics` and `get_ai_insights` (permission reviews.view = reviews:read). */
@Authorized()
@Resolver()
export class AnalyticsResolver {
  @Authorized('reviews:read')
  @Query(() => ReviewMetricsType, { description: 'Review totals, a breakdown and a comparison period (MCP get_metrics).' })
  reviewMetrics(@Args() args: ReviewMetricsArgs, @Ctx() ctx: Context) {
    return analytics.metrics(principal(ctx), args, { clock: ctx.clock });
  }

  @Authorized('reviews:read')
  @Query(() => AiInsightsType, { description: 'Themes, changes, strengths, complaints and suggested actions (MCP get_ai_insights).' })
  aiInsights(@Args() args: AiInsightsArgs, @Ctx() ctx: Context) {
    return insights.insights(principal(ctx), args, { clock: ctx.clock });
  }
}
