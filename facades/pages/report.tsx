import express, { type ErrorRequestHandler, type Request, type Response, type Router } from 'express';
import type { GraphQLSchema } from 'graphql';
import type { Logger } from 'pino';
import type { VNode } from 'preact';
import type { Clock } from '../../src/domain/clock';
import { scanReportPdf } from '../../src/reports/scan';
import { logoImage } from '../../src/reports/logo';
import type { ReportBrand, ReportProblem, ScanReport, SnapshotRow } from '../../src/reports/types';
import { translator } from '../../src/i18n';
import { edgeContext } from '../shared/auth';
import { execute, failureOf } from '../shared/execute';
import { distanceUnit, pinChange } from '../shared/scans';
import { graphql } from '../shared/graphql';
import type { ScanReportFieldsFragment, ScanReportProblem, ScanSnapshotFieldsFragment } from '../shared/graphql/graphql';
import { latestReportHref, ReportMessagePage, ReportPage } from './report.views';
import { sendPage } from './respond';

/**
 * The white-label scan report, `GET /reports/scans/{uuid}` (`report_url` of a scan): public, the unguessable scan
 * UUID is the share key (docs/decisions/local-search-grid.md). `?keyword=` picks one of the scan's keywords (default: the first),
 * `?snapshot_at=` one of that keyword's completed snapshots (default: the latest). Archived scans still render.
 */
export interface ReportPageDeps {
  schema: GraphQLSchema;
  logger: Logger;
  clock?: Clock;
  /** PDFs drawn at once and waiting (default PDF_RENDERS and PDF_QUEUE). */
  pdfLimits?: { renders: number; queue: number };
}

// ScanSnapshotFields: the snapshot row of every scan facade (facades/shared/scans.ts).
graphql(`fragment ScanReportBrandFields on ScanReportBrand { name logoUrl color language }`);
graphql(`fragment ScanReportFields on ScanReport {
  brand { ...ScanReportBrandFields }
  scan { uuid location address type keywords gridSize distance distanceUnit lat lng }
  keyword
  snapshots { ...ScanSnapshotFields }
  snapshot { ...ScanSnapshotFields }
  pins { lat lng rank status top { placeId name rank } }
  summary { averageRank top3 top4to10 top11to20 notRanking totalPins visibilityScore changeFromPrevious previousSnapshotAt }
  competitors { name avgRank appearances coverage threatScore }
  history {
    size
    heatmaps { snapshot { ...ScanSnapshotFields } size cells { x y rank status } }
    trend { ...ScanSnapshotFields }
    competitors { placeId name points { avgRank visibility } }
    changes { previousSnapshotAt gained lost same cells { x y rank status previousRank change } }
    overtakers { name pins }
  }
}`);
const REPORT = graphql(`query ScanReportPage($uuid: String!, $keyword: String, $snapshotAt: String) {
  page: scanReportPage(uuid: $uuid, keyword: $keyword, snapshotAt: $snapshotAt) { report { ...ScanReportFields } problem brand { ...ScanReportBrandFields } }
}`);

const row = (s: ScanSnapshotFieldsFragment): SnapshotRow => ({ ...s, snapshotAt: new Date(s.snapshotAt) });

/** The operation's report with its times as dates: what the page and src/reports draw (ScanReport). */
function reportOf(r: ScanReportFieldsFragment): ScanReport {
  const h = r.history;
  return {
    ...r,
    scan: { ...r.scan, distanceUnit: distanceUnit(r.scan.distanceUnit) },
    snapshots: r.snapshots.map(row),
    snapshot: r.snapshot ? row(r.snapshot) : null,
    summary: r.summary ? { ...r.summary, previousSnapshotAt: r.summary.previousSnapshotAt ? new Date(r.summary.previousSnapshotAt) : null } : null,
    history: h
      ? {
          ...h,
          heatmaps: h.heatmaps.map((m) => ({ ...m, snapshot: row(m.snapshot) })),
          trend: h.trend.map(row),
          changes: h.changes
            ? { ...h.changes, previousSnapshotAt: new Date(h.changes.previousSnapshotAt), cells: h.changes.cells.map((c) => ({ ...c, change: pinChange(c.change) })) }
            : null,
        }
      : null,
  };
}

const PROBLEMS: Record<ScanReportProblem, ReportProblem> = { SCAN: 'scan', KEYWORD: 'keyword', SNAPSHOT: 'snapshot', SNAPSHOT_AT: 'snapshot_at' };

/** Why a report cannot be shown: the problem, and the scan's brand when the scan exists. */
class ReportUnavailable extends Error {
  constructor(
    readonly problem: ReportProblem,
    readonly brand: ReportBrand | null,
  ) {
    super(`Report unavailable: ${problem}`);
  }
}

/** Each problem's status; its title and message are `scanReport.problems.<problem>` in the catalogues. */
const STATUS: Record<ReportProblem, number> = { scan: 404, keyword: 404, snapshot: 404, snapshot_at: 400 };

/** The page of a problem, in the scan's brand and language when the scan exists (English otherwise). */
function problemPage(problem: ReportProblem, brand: ReportBrand | null, uuid: string | null): VNode {
  const tr = translator(brand?.language);
  const back = uuid && brand ? { href: latestReportHref(uuid), label: tr.t('scanReport.showLatest') } : undefined;
  return <ReportMessagePage brand={brand} title={tr.t(`scanReport.problems.${problem}.title`)} message={tr.t(`scanReport.problems.${problem}.message`)} link={back} />;
}

/** A query value given once as text; repeated or nested values are not ours. */
function single(value: unknown, name: string): string | null {
  if (value === undefined) return null;
  if (typeof value === 'string') return value;
  throw new ReportUnavailable(name === 'keyword' ? 'keyword' : 'snapshot_at', null);
}

/**
 * At most PDF_RENDERS PDFs drawn at once per process (a PDF is charts and pdfkit: CPU-bound); PDF_QUEUE more wait;
 * beyond that the public route answers 503 rather than piling work up.
 */
export const PDF_RENDERS = 2;
export const PDF_QUEUE = 8;

export function renderGate(limit: number, queue: number) {
  let running = 0;
  const waiting: Array<() => void> = [];
  return {
    async run<T>(work: () => Promise<T>): Promise<T | null> {
      if (running >= limit) {
        if (waiting.length >= queue) return null;
        // The finishing render hands its slot over: `running` stays as it is.
        await new Promise<void>((resolve) => waiting.push(resolve));
      } else running += 1;
      try {
        return await work();
      } finally {
        const next = waiting.shift();
        if (next) next();
        else running -= 1;
      }
    },
  };
}

export function reportPages(deps: ReportPageDeps): Router {
  const pdfGate = renderGate(deps.pdfLimits?.renders ?? PDF_RENDERS, deps.pdfLimits?.queue ?? PDF_QUEUE);
  const router = express.Router();

  router.use((_req, res, next) => {
    // The UUID in the URL is the share key: keep it out of Referer and search engines; nothing runs, nothing frames.
    res.set({
      'Cache-Control': 'no-cache',
      'Referrer-Policy': 'no-referrer',
      'X-Robots-Tag': 'noindex, nofollow',
    });
    next();
  });

  // The same report as an A4 PDF (`/reports/scans/{uuid}.pdf`, the page's query), drawn by pdfkit: no browser.
  router.get('/scans/:uuid.pdf', (req, res) => show(req, res, async (report) => {
    const body = await pdfGate.run(async () => scanReportPdf(report, { logo: await logoImage(report.brand.logoUrl) }));
    if (!body) {
      const tr = translator(report.brand.language);
      return sendPage(res, 503, <ReportMessagePage brand={report.brand} title={tr.t('scanReport.busyTitle')} message={tr.t('scanReport.busyText')} />);
    }
    res.status(200).type('application/pdf').set('Content-Disposition', `inline; filename="scan-report-${report.scan.uuid}.pdf"`).send(body);
  }));
  router.get('/scans/:uuid', (req, res) => show(req, res, async (report) => sendPage(res, 200, <ReportPage report={report} />)));

  async function show(req: Request, res: Response, send: (report: ScanReport) => Promise<void>) {
    const uuid = String(req.params.uuid);
    try {
      const variables = { uuid, keyword: single(req.query.keyword, 'keyword'), snapshotAt: single(req.query.snapshot_at, 'snapshot_at') };
      const { page } = await execute(deps.schema, REPORT, variables, edgeContext(req, deps.clock));
      if (!page.report) throw new ReportUnavailable(PROBLEMS[page.problem ?? 'SCAN'], page.brand ?? null);
      await send(reportOf(page.report));
    } catch (err) {
      if (err instanceof ReportUnavailable) {
        const scanFound = err.problem !== 'scan';
        return sendPage(res, STATUS[err.problem], problemPage(err.problem, scanFound ? err.brand : null, scanFound ? uuid : null));
      }
      failed(req, res, err);
    }
  }

  function failed(req: Request, res: Response, err: unknown) {
    (req.log ?? deps.logger).error({ err: failureOf(err) }, 'report page failed');
    const en = translator('en');
    sendPage(res, 500, <ReportMessagePage brand={null} title={en.t('common.somethingWrong')} message={en.t('scanReport.errorText')} />);
  }

  router.use((_req, res) => sendPage(res, 404, problemPage('scan', null, null)));
  // A path Express cannot decode (malformed percent-encoding: 400) or another client error before the handlers: the
  // not-found page with that status, as the other pages answer theirs, never JSON to a person.
  router.use(((err, req, res, next) => {
    if (res.headersSent) return next(err);
    const status = (err as { status?: unknown }).status;
    if (typeof status === 'number' && status >= 400 && status < 500) return sendPage(res, status, problemPage('scan', null, null));
    failed(req, res, err);
  }) as ErrorRequestHandler);
  return router;
}
