import { randomUUID } from 'node:crypto';
import { Organization, ReportDelivery, Scan } from '../../src/models';
import type { ReportRecipient } from '../../src/jobs/report-mail';
import type { ScanReportRecipient } from '../../src/jobs/scan-report-mail';
import { ensureSearchAttributes } from '../../src/temporal/search-attributes';
import { temporal } from '../../workflows/client';
import type { MonthlyMailInput, MonthlyMailResult } from '../../workflows/reports/mail-run';
import { configureMonthlyReports } from '../../workflows/reports/schedule';
import { useApp } from './app';
import { useSmtpServer } from './providers/smtp';
import { recordHistory, useTemporalWorker } from './temporal';

type Pending<R> = (month: string, after: R | null, limit: number) => Promise<R[]>;

/**
 * Organisations and scans other test files of this Jest worker left in its database are pending recipients of a
 * monthly mail too: marks them mailed (`sent` rows), so a run mails only the calling file's owners and takes no longer
 * for the others.
 */
export async function settleOthers<R extends ReportRecipient | ScanReportRecipient>(month: string, pending: Pending<R>): Promise<void> {
  for (let page = await pending(month, null, 500); page.length; page = await pending(month, null, 500)) {
    const [orgs, scans] = await Promise.all([
      Organization.findAll({ where: { id: page.flatMap((r) => ('organizationId' in r ? [r.organizationId] : [])) } }),
      Scan.findAll({ where: { id: page.flatMap((r) => ('scanId' in r ? [r.scanId] : [])) } }),
    ]);
    const tenantOf = new Map<string, number>([...orgs.map((o) => [`o${o.id}`, o.tenantId] as const), ...scans.map((s) => [`s${s.id}`, s.tenantId] as const)]);
    await ReportDelivery.bulkCreate(
      page.map((r) => {
        const [subject, row] = 'scanId' in r ? [`s${r.scanId}`, { scanId: r.scanId }] : [`o${r.organizationId}`, { organizationId: r.organizationId }];
        return { ...row, userId: r.userId, tenantId: tenantOf.get(subject)!, month, messageId: `<settled.${subject}.${r.userId}@test>`, status: 'sent' as const };
      }),
      { ignoreDuplicates: true },
    );
  }
}

/**
 * The frame of a monthly mail's e2e test: the app, an SMTP sink, a worker on the run's Temporal server with the
 * schedules scoped to its task queue (`removeSchedule` after the file), `run` (the workflow for an input, its history
 * recorded under `history` with RECORD_HISTORIES=1), `mine` (the mails to an address) and `settle` (settleOthers).
 */
export function useMonthlyMail<R extends ReportRecipient | ScanReportRecipient>(workflowType: 'sendMonthlyReports' | 'sendMonthlyScanReports', pending: Pending<R>, removeSchedule: () => Promise<void>) {
  const t = useApp();
  const smtp = useSmtpServer();
  const worker = useTemporalWorker();

  beforeAll(async () => {
    await ensureSearchAttributes(temporal().client, worker.settings().namespace);
    configureMonthlyReports({ idScope: worker.settings().taskQueue });
  });
  afterAll(async () => {
    await removeSchedule().catch(() => undefined);
  });

  return {
    t,
    worker,
    async run(input: MonthlyMailInput<R>, history?: string): Promise<MonthlyMailResult> {
      const { client, settings } = temporal();
      const workflowId = `${workflowType}-test:${randomUUID()}`;
      const result = (await client.workflow.execute(workflowType, { workflowId, taskQueue: settings.taskQueue, args: [input] })) as MonthlyMailResult;
      if (history) await recordHistory(workflowId, history);
      return result;
    },
    mine: (email: string) => smtp().to(email),
    settle: (month: string) => settleOthers(month, pending),
  };
}
