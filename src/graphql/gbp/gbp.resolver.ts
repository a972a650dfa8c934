import { Args, Authorized, Ctx, Query, Resolver } from 'type-graphql';
import type { Context } from '../../context';
import * as gbp from '../../services/gbp-performance.service';
import { GbpMetricsArgs, GbpSearchTermsArgs } from './gbp.input';
import { GbpMetricsType, GbpSearchTermPageType } from './gbp.type';

/** Business-profile performance (the MCP tools list_gbp_metrics and list_gbp_search_terms, one query each). */
@Authorized()
@Resolver()
export class GbpResolver {
  @Authorized('reviews:read')
  @Query(() => GbpMetricsType, { description: "A location's business-profile totals for a period and the period before it." })
  gbpMetrics(@Args() args: GbpMetricsArgs, @Ctx() ctx: Context) {
    return gbp.getMetrics(ctx.principal!, args, { clock: ctx.clock });
  }

  @Authorized('reviews:read')
  @Query(() => GbpSearchTermPageType, { description: "A location's search keywords: impressions descending, masked counts last." })
  gbpSearchTerms(@Args() args: GbpSearchTermsArgs, @Ctx() ctx: Context) {
    return gbp.listSearchTerms(ctx.principal!, args, { clock: ctx.clock });
  }
}
