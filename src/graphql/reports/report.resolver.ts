import { Arg, Authorized, Ctx, FieldResolver, Int, Query, Resolver, Root } from 'type-graphql';
import type { Context } from '../../context';
import { reportContent } from '../../reports/monthly';
import { reportHtml } from '../../reports/monthly.views';
import * as reports from '../../services/monthly-report.service';
import type { MonthlyReport } from '../../reports/types';
import { OrganizationReportType } from './report.type';

/** Monthly reports (issue 19, item 5): the figures, and the page rendered from them. */
@Authorized()
@Resolver(() => OrganizationReportType)
export class ReportResolver {
  @Authorized('reviews:read')
  @Query(() => OrganizationReportType, {
    description: "The monthly review report of an organisation (month `YYYY-MM`, not in the future); one the caller cannot see is not found.",
  })
  organizationReport(@Arg('organizationId', () => Int) organizationId: number, @Arg('month') month: string, @Ctx() ctx: Context) {
    return reports.organizationReport(ctx.principal!, organizationId, month, { clock: ctx.clock });
  }

  @FieldResolver(() => String, { description: "The report's title in its language (\"Main Street Dental: review report, October 2026\")." })
  title(@Root() report: MonthlyReport): string {
    return reportContent(report).title;
  }

  @FieldResolver(() => [String], { description: 'What changed since the month before, a sentence each, in the report\'s language; every sentence quotes the figures it rests on.' })
  changes(@Root() report: MonthlyReport): string[] {
    return reportContent(report).changes;
  }

  @FieldResolver(() => String, { description: 'The report as a white-label HTML page with SVG charts (what REST serves).' })
  html(@Root() report: MonthlyReport, @Ctx() ctx: Context): Promise<string> {
    return reportHtml(report, { assetOrigin: ctx.baseUrl });
  }
}
