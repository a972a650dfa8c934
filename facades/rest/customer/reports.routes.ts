import { randomBytes } from 'node:crypto';
import { baseUrlOf } from '../../shared/pagination';
import { pageCsp } from '../../../src/http/security-headers';
import { logoImage } from '../../../src/reports/logo';
import { reportContent, reportPdf } from '../../../src/reports/monthly';
import { reportHtml } from '../../../src/reports/monthly.views';
import { z } from '../../shared/presenters/zod';
import { pathId, pathString, route, type Answer } from '../route';
import { graphql } from '../../shared/graphql';

/**
 * Monthly reports (issue 19, item 5; additive to the spec): `GET /organizations/{id}/reports/{YYYY-MM}` answers the
 * white-label HTML page, the same path with `.pdf` the PDF. The figures are the GraphQL `organizationReport`'s;
 * the page and the PDF are rendered here from them (src/reports). An organisation outside the token's scope is 404.
 */
const TAG = 'Reports';

graphql(`fragment ReportTotalsFields on MetricsTotals { totalReviews avgRating responded responseRate sentimentDistribution { positive neutral negative }
  aspects { aspect positive neutral negative } }`);

/** `2026-10` or `2026-10.pdf`: the month, and whether the PDF is asked for. */
function monthOf(value: string): { month: string; pdf: boolean } {
  const pdf = value.toLowerCase().endsWith('.pdf');
  return { month: pdf ? value.slice(0, -4) : value, pdf };
}

export const reportRoutes = [
  route({
    method: 'get',
    path: '/organizations/:id/reports/:month',
    operationId: 'getOrganizationReport',
    summary: "An organisation's monthly review report (HTML, or PDF with .pdf)",
    description:
      "The month's reviews against the month before and the twelve months up to it (volume, average rating, response rate, sentiment, " +
      "aspects), with charts, in the account's language and the agency's brand. `{month}` is `YYYY-MM` for the HTML page, " +
      '`YYYY-MM.pdf` for the PDF; a month without reviews answers a report with empty sections; a month in the future or ' +
      'not of that form is 422; an organisation outside the token\'s scope is 404.',
    tag: TAG,
    permissions: ['reviews:read'],
    params: {
      id: pathId('Organization', 'The organisation id.'),
      month: pathString('Report', '`YYYY-MM` (HTML) or `YYYY-MM.pdf` (PDF).'),
    },
    responses: {
      200: {
        description: 'The report: `text/html` for `YYYY-MM`, `application/pdf` for `YYYY-MM.pdf`.',
        schema: z.string().openapi({ format: 'binary' }),
        mediaTypes: ['text/html', 'application/pdf'],
      },
    },
    errors: [422],
    document: graphql(`query GetOrganizationReport($id: Int!, $month: String!) {
      organizationReport(organizationId: $id, month: $month) {
        organizationId organizationName brandName brandLogoUrl brandColor language month previousMonth generatedAt
        period { from to }
        totals { ...ReportTotalsFields } previousTotals { ...ReportTotalsFields }
        months { month totalReviews avgRating responseRate positive neutral negative aspects { aspect mentions positive neutral negative netSentiment } }
      }
    }`),
    variables: ({ params }) => ({ id: params.id, month: monthOf(params.month).month }),
    // The data is the document's GetOrganizationReportQuery; the renderers take it as it is (ReportFigures in
    // src/reports/types.ts), so a field the document leaves out fails the type check here.
    respond: async ({ organizationReport: report }, req): Promise<Answer> => {
      const content = reportContent(report);
      if (monthOf(String(req.params.month)).pdf) {
        const filename = `report-${report.organizationId}-${report.month}.pdf`;
        return { type: 'application/pdf', body: await reportPdf(report, content, { logo: await logoImage(report.brandLogoUrl) }), headers: { 'Content-Disposition': `inline; filename="${filename}"` } };
      }
      // A page, not JSON: its own CSP (no script; the inline styles by nonce, as every page of the app).
      const nonce = randomBytes(16).toString('base64');
      return { type: 'html', body: await reportHtml(report, { content, nonce, assetOrigin: baseUrlOf(req) }), headers: { 'Content-Security-Policy': pageCsp(nonce) } };
    },
  }),
];
