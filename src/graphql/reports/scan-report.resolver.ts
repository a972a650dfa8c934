import { Arg, Authorized, Ctx, Query, Resolver } from 'type-graphql';
import type { Context } from '../../context';
import { reportOf, ReportUnavailable } from '../../services/scan-report.service';
import { LINK } from '../auth-checker';
import { ScanReportPageType, ScanReportProblem } from './scan-report.type';

/**
 * The public, white-label scan report (facades/pages/report): the unguessable scan UUID is the share key, so there is
 * no caller; like the other link pages it is the report page's own operation, refused on /graphql.
 */
@Authorized(LINK)
@Resolver()
export class ScanReportPageResolver {
  @Query(() => ScanReportPageType, {
    description: "A scan's report for one keyword (default: the first) and snapshot time (default: the keyword's latest); archived scans included.",
  })
  async scanReportPage(
    @Arg('uuid') uuid: string,
    @Arg('keyword', () => String, { nullable: true }) keyword: string | null,
    @Arg('snapshotAt', () => String, { nullable: true }) snapshotAt: string | null,
    @Ctx() ctx: Context,
  ): Promise<ScanReportPageType> {
    try {
      return { report: await reportOf(uuid, { keyword, snapshotAt }, { clock: ctx.clock }), problem: null, brand: null };
    } catch (e) {
      if (!(e instanceof ReportUnavailable)) throw e;
      return { report: null, problem: e.problem as ScanReportProblem, brand: e.brand };
    }
  }
}
