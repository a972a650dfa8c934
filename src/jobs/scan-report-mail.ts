import { QueryTypes } from 'sequelize';
import { translator } from '../i18n';
import { Scan, User } from '../models';
import { logoImage } from '../reports/logo';
import { reportMail } from '../reports/mail';
import { monthName } from '../reports/monthly';
import type { Kpi } from '../reports/pdf';
import { scanReportPdf, snapshotTime, untracked } from '../reports/scan';
import type { ScanReport } from '../reports/types';
import type { ServiceOptions } from '../services/common';
import { monthEnd, monthStart } from '../analytics/periods';
import { reportOf } from '../services/scan-report.service';
import { reportUrlOf } from '../services/scans.service';
import { tenantLinkBase } from '../services/link-domain.service';
import { mailOnce, pendingPairs, type ReportMailOutcome } from './report-deliveries';

/**
 * The scan report by mail (issue 19, item 5): on the first of each month the `sendMonthlyScanReports` workflow mails
 * the report of each scan that completed a snapshot within the month (UTC), as of its latest snapshot of the month, as
 * a PDF with the summary figures and the link to the public page in the body, to the owners of the scan's agency
 * (scans are the agency's: tenant owners only, as the spec's Local Search Grid), in the agency's language and brand.
 * A scan without a snapshot in the month (it stopped running, or runs less often than monthly) gets no mail for it:
 * it has nothing new to say, and its last snapshot went out in its own month's mail. Once per scan, month and owner:
 * the organisation mail's rule and code (src/jobs/report-deliveries.ts).
 */

export interface ScanReportRecipient {
  scanId: number;
  userId: number;
}

/**
 * Owners still to mail `month`'s scan reports to, after `after` in (scan, user) order: the tenant owners of the
 * scan's agency, unless their own account has report mail off (`customers.report_emails`, the switch of the
 * organisation mail), for every scan not archived with a snapshot completed within the month, not yet mailed.
 */
export async function pendingScanReportRecipients(month: string, after: ScanReportRecipient | null, limit: number, opts: ServiceOptions = {}): Promise<ScanReportRecipient[]> {
  const rows = await pendingPairs(
    'scan_id',
    `FROM scans x
       JOIN users u ON u.tenant_id = x.tenant_id AND u.role = 'tenant_owner'
       LEFT JOIN customers c ON c.id = u.customer_id
      WHERE x.archived_at IS NULL
        AND (c.id IS NULL OR c.report_emails = 1)
        AND EXISTS (SELECT 1 FROM scan_snapshots ss WHERE ss.scan_id = x.id AND ss.status = 'completed' AND ss.snapshot_at >= :start AND ss.snapshot_at < :end)`,
    month,
    after && { reportId: after.scanId, userId: after.userId },
    limit,
    opts,
  );
  return rows.map((r) => ({ scanId: r.reportId, userId: r.userId }));
}

/**
 * The keyword and snapshot `month`'s mail shows: the scan's first keyword (in its order) with a snapshot completed
 * within the month (UTC), at its latest such snapshot. Null when no keyword of the scan has one (the scan did not run
 * in the month, or its keywords were replaced since). The report compares it with the keyword's snapshot before,
 * whenever that was taken (`reportOf`'s history), so the first run of a month is compared with the last of an
 * earlier one.
 */
export async function snapshotForMonth(scan: Scan, month: string, opts: ServiceOptions = {}): Promise<{ keyword: string; snapshotAt: Date } | null> {
  const rows = await Scan.sequelize!.query<{ keyword: string; at: Date }>(
    `SELECT keyword, MAX(snapshot_at) AS at FROM scan_snapshots
      WHERE scan_id = :scanId AND status = 'completed' AND snapshot_at >= :start AND snapshot_at < :end
      GROUP BY keyword`,
    { type: QueryTypes.SELECT, replacements: { scanId: scan.id, start: monthStart(month), end: monthEnd(month) }, transaction: opts.transaction },
  );
  const latest = new Map(rows.map((r) => [r.keyword.toLowerCase(), new Date(r.at)]));
  const keyword = scan.keywords.find((k) => latest.has(k.toLowerCase()));
  return keyword === undefined ? null : { keyword, snapshotAt: latest.get(keyword.toLowerCase())! };
}

/** The link of the mail: the report page at the mailed keyword and snapshot, so the page shows the mail's figures. */
export const scanReportLink = (report: ScanReport, base?: string): string =>
  reportUrlOf(report.scan.uuid, { keyword: report.keyword, snapshotAt: report.snapshot?.snapshotAt }, 'html', base);

/**
 * The mail's body: the shown snapshot's summary (average rank, visibility, top 3 pins, each against the snapshot
 * before; pins gained and lost since it), the link to the report page and the scan's other keywords, in the agency's
 * language; the PDF goes with it. `report` has a snapshot (the mail is only sent for one).
 */
export function scanReportMailBody(report: ScanReport, who: { name: string; month: string; linkBase?: string }): { subject: string; text: string; html: string } {
  const tr = translator(report.brand.language);
  const shown = report.snapshot!;
  const index = report.snapshots.findIndex((s) => s.snapshotAt.getTime() === shown.snapshotAt.getTime());
  const before = index >= 0 ? (report.snapshots[index + 1] ?? null) : null;
  const vars = { location: report.scan.location, keyword: report.keyword, month: monthName(tr, who.month), brand: report.brand.name, date: snapshotTime(tr, shown.snapshotAt) };
  const percent = (v: number) => tr.number(v / 100, { style: 'percent', maximumFractionDigits: 1 });
  const rank = (v: number) => tr.number(v, { maximumFractionDigits: 2 });
  // A previous snapshot without figures of the business (taken while the scan tracked none) has no value to compare.
  const earlier = (value: (s: NonNullable<typeof before>) => string) =>
    before ? tr.t('report.previous', { month: tr.date(before.snapshotAt), value: before.ranked ? value(before) : tr.t('report.na') }) : tr.t('scanReport.firstSnapshot');
  const others = report.scan.keywords.filter((k) => k !== report.keyword);
  const common = {
    language: tr.language,
    subject: tr.t('scanReportMail.subject', vars),
    brand: { name: report.brand.name, color: report.brand.color },
    link: { label: tr.t('scanReportMail.open'), url: scanReportLink(report, who.linkBase) },
    notes: others.length ? [tr.t('scanReportMail.otherKeywords', { keywords: others.join(', ') })] : [],
    why: tr.t('scanReportMail.why', vars),
  };
  // No business to track: no rank figures to give (they would all read "not in the top 20"), the businesses that rank.
  if (untracked(report)) {
    return reportMail({
      ...common,
      paragraphs: [tr.t('reportMail.greeting', { name: who.name }), tr.t('scanReportMail.intro', vars), tr.t('scanReport.untrackedText', { location: report.scan.location })],
      figures: { title: tr.t('scanReportMail.figures'), kpis: [] },
      lists: [
        {
          title: tr.t('scanReport.rankingBusinesses', { keyword: report.keyword }),
          items: report.competitors.map((c) => `${c.name}: ${tr.t('scanReport.averageRank')} ${rank(c.avgRank)}`),
          empty: tr.t('scanReport.noCompetitors'),
        },
      ],
    });
  }
  const summary = report.summary!;
  const changes = report.history?.changes ?? null;
  const pins = (count: (c: NonNullable<typeof changes>) => number): Pick<Kpi, 'value' | 'previous'> => ({
    value: changes ? tr.number(count(changes)) : tr.t('report.na'),
    previous: changes ? tr.t('scanReportMail.since', { date: tr.date(changes.previousSnapshotAt) }) : before ? tr.t('scanReportMail.since', { date: tr.date(before.snapshotAt) }) : tr.t('scanReport.firstSnapshot'),
  });
  const kpis: Kpi[] = [
    { label: tr.t('scanReport.averageRank'), value: rank(summary.averageRank), previous: earlier((s) => rank(s.avgRank)) },
    { label: tr.t('scanReport.visibility'), value: percent(summary.visibilityScore), previous: earlier((s) => percent(s.visibilityScore)) },
    { label: tr.t('scanReport.top3'), value: `${tr.number(summary.top3)} ${tr.t('scanReport.ofPins', { count: summary.totalPins })}`, previous: earlier((s) => tr.number(s.top3Count)) },
    { label: tr.t('scanReportMail.pinsGained'), ...pins((c) => c.gained) },
    { label: tr.t('scanReportMail.pinsLost'), ...pins((c) => c.lost) },
  ];
  return reportMail({
    ...common,
    paragraphs: [tr.t('reportMail.greeting', { name: who.name }), tr.t('scanReportMail.intro', vars)],
    figures: { title: tr.t('scanReportMail.figures'), kpis },
  });
}

/**
 * Mails `month`'s report of one scan to one owner of its agency, unless it went already (`already_sent`) or the
 * owner, the scan (archived meanwhile) or its report for the month (no snapshot in the month) is gone (`gone`). The report is the public page's
 * (`reportOf`) at the keyword and snapshot `snapshotForMonth` picks. Exactly once by `mailOnce`, as the
 * organisation mail, under the Message-ID `<scan-report.{uuid}.{month}.{user}@host>`.
 */
export async function sendScanReportMail(recipient: ScanReportRecipient, month: string, opts: ServiceOptions = {}): Promise<ReportMailOutcome> {
  const { scanId, userId } = recipient;
  return mailOnce({ subject: { scanId }, userId, month }, async () => {
    const [user, scan] = await Promise.all([User.findByPk(userId, { transaction: opts.transaction }), Scan.findByPk(scanId, { transaction: opts.transaction })]);
    if (!user || !scan || scan.archivedAt || user.tenantId !== scan.tenantId || user.role !== 'tenant_owner') return null;
    const shown = await snapshotForMonth(scan, month, opts);
    if (!shown) return null;
    const report = await reportOf(scan.uuid, { keyword: shown.keyword, snapshotAt: shown.snapshotAt.toISOString() }, opts);
    return {
      tenantId: scan.tenantId,
      to: user.email,
      body: scanReportMailBody(report, { name: user.name, month, linkBase: await tenantLinkBase(scan.tenantId, opts) }),
      fromName: report.brand.name,
      kind: 'scan-report',
      messageKey: `scan-report.${scan.uuid}.${month}.${userId}`,
      pdf: { filename: `scan-report-${scan.uuid}-${month}.pdf`, content: await scanReportPdf(report, { logo: await logoImage(report.brand.logoUrl) }) },
    };
  }, opts);
}
