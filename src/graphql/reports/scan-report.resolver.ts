import { Arg, Authorized, Ctx, FieldResolver, Query, Resolver, Root } from 'type-graphql';
import type { Context } from '../../context';
import { shownLogoUrl } from '../../reports/logo';
import { reportLinks, reportOf, ReportUnavailable, scanReport, type ScanReport } from '../../services/scan-report.service';
import { tenantLinkBase } from '../../services/link-domain.service';
import { CUSTOMER_TOKENS, LINK } from '../auth-checker';
import { ScanReportBrandType, ScanReportPageType, ScanReportProblem, ScanReportType } from './scan-report.type';

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

/** The agency's link base of a report the service built (it carries the scan's tenant). */
const linkBaseOf = async (report: ScanReport): Promise<string | undefined> =>
  report.scan.tenantId === undefined ? undefined : tenantLinkBase(report.scan.tenantId);

/**
 * The same report on demand (issue 19, item 5) for the agency: the scan queries' rules (the service lets only tenant
 * owners in, FORBIDDEN otherwise; another tenant's scan is not found), plus the links of its public page and PDF.
 * The links need a caller like the query: the report page's own operation never asks for them.
 */
@Authorized(CUSTOMER_TOKENS, 'organizations:read')
@Resolver(() => ScanReportType)
export class ScanReportResolver {
  @Query(() => ScanReportType, {
    description:
      "A scan's report, as its public page shows it, for one keyword (default: the first; one the scan does not have matches no snapshot) and snapshot time (default: the keyword's latest); archived scans included.",
  })
  scanReport(
    @Arg('uuid') uuid: string,
    @Arg('keyword', () => String, { nullable: true }) keyword: string | null,
    @Arg('snapshotAt', () => String, { nullable: true }) snapshotAt: string | null,
    @Ctx() ctx: Context,
  ): Promise<ScanReport> {
    return scanReport(ctx.principal!, uuid, { keyword, snapshotAt }, { clock: ctx.clock });
  }

  @FieldResolver(() => String, {
    nullable: true,
    description: 'The public, white-label page of this report (its keyword and shown snapshot); null when the keyword is not one of the scan\'s.',
  })
  async htmlUrl(@Root() report: ScanReport): Promise<string | null> {
    return reportLinks(report, await linkBaseOf(report))?.html ?? null;
  }

  @FieldResolver(() => String, { nullable: true, description: 'The same report as a PDF; null when the keyword is not one of the scan\'s.' })
  async pdfUrl(@Root() report: ScanReport): Promise<string | null> {
    return reportLinks(report, await linkBaseOf(report))?.pdf ?? null;
  }
}

/**
 * The logo of a scan report's brand, the report page's (and its problem pages') as the agency's `scanReport`: what the
 * page shows, so never an `<img>` that `/brand/logo/<key>` would answer 404 (PageBrandResolver does the same for the
 * other pages). The PDF draws the same cached fetch (`logoImage`).
 */
@Resolver(() => ScanReportBrandType)
export class ScanReportBrandResolver {
  @FieldResolver(() => String, { nullable: true })
  logoUrl(@Root() brand: ScanReportBrandType): Promise<string | null> {
    return shownLogoUrl(brand.logoUrl);
  }
}
