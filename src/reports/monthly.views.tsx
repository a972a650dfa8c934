import type { ComponentChildren, VNode } from 'preact';
import { Chart, Layout, renderPage } from '../../facades/pages/layout';
import type { Translator } from '../i18n';
import { brandColors } from './brand';
import { shownLogoUrl } from './logo';
import { reportContent, type ReportContent } from './monthly';
import type { ReportFigures } from './types';

/**
 * The monthly report as a page: Preact components in the pages' Layout, white-label (the agency's name, logo and
 * colour band), the SVG charts of src/reports inline, no script. The renderer escapes every value; the one markup
 * taken as it is, is the charts' SVG (`Chart`). It lives with the report's other renderers, beside the PDF: the REST
 * facade serves it and GraphQL answers it (`OrganizationReport.html`).
 */

const STYLE = `
body{font-family:system-ui,-apple-system,sans-serif;background:#f5f6f8;margin:0;color:#1f2328;line-height:1.5}
header img{background:#fff;border-radius:4px;padding:2px}
header img{max-height:40px;max-width:160px}header .brand{font-weight:600;font-size:1.1rem}
main{max-width:52rem;margin:1.5rem auto;background:#fff;border-radius:10px;padding:2rem;box-shadow:0 1px 4px #0001}
h1{font-size:1.5rem;margin:0 0 .2rem}h2{font-size:1.15rem;margin:2rem 0 .6rem}.prepared{color:#5b6470;margin:0}
.kpis{display:grid;grid-template-columns:repeat(auto-fit,minmax(10rem,1fr));gap:.8rem;margin-top:1.2rem}
.kpi{border:1px solid #e3e5e8;border-radius:8px;padding:.8rem}.kpi .label{color:#5b6470;font-size:.9rem}
.partial{margin:.6rem 0 0;padding:.5rem .8rem;border-left:3px solid #f29900;background:#fff8e6}
.kpi .value{font-size:1.6rem;font-weight:600}.kpi .previous{color:#5b6470;font-size:.85rem}
figure{margin:0}figure svg{max-width:100%;height:auto}figcaption{color:#5b6470;font-size:.85rem}
table{border-collapse:collapse;width:100%}th,td{text-align:left;padding:.35rem .5rem;border-bottom:1px solid #e3e5e8}
td{font-variant-numeric:tabular-nums}.empty{color:#5b6470;font-style:italic}
`;

/** The header band in the agency's colour, its text white or dark by contrast (src/reports/brand.ts). */
function bandStyle(color: string | null): string {
  const band = brandColors(color);
  return `header{background:${band.band};color:${band.onBand};padding:1rem 1.5rem;display:flex;align-items:center;gap:.8rem}`;
}

function NoData({ tr }: { tr: Translator }): VNode {
  return <p class="empty">{tr.t('report.noData')}</p>;
}

/** A section of the report, labelled by its heading. */
function Section({ id, title, children }: { id: string; title: string; children: ComponentChildren }): VNode {
  return (
    <section aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      {children}
    </section>
  );
}

/** A chart with its caption, or "no data" when there is nothing to draw. */
function Figure({ svg, caption, tr }: { svg: string | null; caption: string; tr: Translator }): VNode {
  return svg ? <Chart svg={svg} caption={caption} /> : <NoData tr={tr} />;
}

/** A section that is one chart, captioned with its title. */
function ChartSection({ id, title, svg, tr }: { id: string; title: string; svg: string | null; tr: Translator }): VNode {
  return (
    <Section id={id} title={title}>
      <Figure svg={svg} caption={title} tr={tr} />
    </Section>
  );
}

/** The month's aspects by tone: the chart and its figures as a table (the aspects no review named left out). */
function Aspects({ content }: { content: ReportContent }): VNode {
  const { tr } = content;
  if (!content.charts.aspects) return <NoData tr={tr} />;
  return (
    <>
      <Figure svg={content.charts.aspects} caption={tr.t('report.aspectsTitle')} tr={tr} />
      <table>
        <thead>
          <tr>
            <td></td>
            <th scope="col">{tr.t('report.positive')}</th>
            <th scope="col">{tr.t('report.neutral')}</th>
            <th scope="col">{tr.t('report.negative')}</th>
          </tr>
        </thead>
        <tbody>
          {content.aspects
            .filter((a) => a.positive + a.neutral + a.negative > 0)
            .map((a) => (
              <tr>
                <th scope="row">{a.name}</th>
                <td>{a.positive}</td>
                <td>{a.neutral}</td>
                <td>{a.negative}</td>
              </tr>
            ))}
        </tbody>
      </table>
    </>
  );
}

export function MonthlyReportPage({ report, content, assetOrigin }: { report: ReportFigures; content: ReportContent; assetOrigin?: string }): VNode {
  const { tr } = content;
  const brand = { name: report.brandName, logoUrl: report.brandLogoUrl, language: tr.language, assetOrigin };
  return (
    <Layout brand={brand} title={content.title} base={STYLE} style={bandStyle(report.brandColor)}>
      <h1>{content.title}</h1>
      <p class="prepared">{content.prepared}</p>
      {content.partial ? <p class="partial">{content.partial}</p> : null}
      <Section id="summary" title={tr.t('report.summary')}>
        <div class="kpis">
          {content.kpis.map((k) => (
            <div class="kpi">
              <div class="label">{k.label}</div>
              <div class="value">{k.value}</div>
              <div class="previous">{k.previous}</div>
            </div>
          ))}
        </div>
        {content.hasData ? null : <NoData tr={tr} />}
      </Section>
      <Section id="changes" title={tr.t('report.changesTitle', { month: content.previousMonthName })}>
        {content.changes.length ? (
          <ul>
            {content.changes.map((c) => (
              <li>{c}</li>
            ))}
          </ul>
        ) : (
          <NoData tr={tr} />
        )}
      </Section>
      <ChartSection id="trend" title={tr.t('report.trendTitle')} svg={content.charts.trend} tr={tr} />
      <ChartSection id="response" title={tr.t('report.responseTrendTitle')} svg={content.charts.response} tr={tr} />
      <ChartSection id="sentiment" title={tr.t('report.sentimentTitle')} svg={content.charts.sentiment} tr={tr} />
      <Section id="aspects" title={tr.t('report.aspectsTitle')}>
        <p>{tr.t('report.aspectsIntro', { month: content.monthName })}</p>
        <Aspects content={content} />
      </Section>
      <Section id="aspect-trend" title={tr.t('report.aspectTrendTitle')}>
        <Figure svg={content.charts.aspectTrend} caption={tr.t('report.aspectTrendIntro')} tr={tr} />
      </Section>
    </Layout>
  );
}

/** The page as HTML; `nonce`: the response's CSP nonce, on every inline style (the charts' too). */
/**
 * The report as an HTML document. `assetOrigin`: the platform's origin its logo is shown from, for the document API
 * clients get (REST, GraphQL `html`) and may keep or show elsewhere; the logo never points at the agency's own host.
 */
export async function reportHtml(report: ReportFigures, opts: { content?: ReportContent; nonce?: string; assetOrigin?: string } = {}): Promise<string> {
  // The logo only when the platform can serve it from `/brand/logo/<key>` (`shownLogoUrl`): otherwise the agency's
  // name alone, not an image that answers 404 with its alt text beside the name.
  const shown = { ...report, brandLogoUrl: await shownLogoUrl(report.brandLogoUrl) };
  return renderPage(<MonthlyReportPage report={shown} content={opts.content ?? reportContent(report)} assetOrigin={opts.assetOrigin} />, opts.nonce);
}
