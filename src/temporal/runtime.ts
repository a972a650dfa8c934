import path from 'node:path';
import type { Logger } from 'pino';
import type { Config } from '../config';
import { connectTemporal, disconnectTemporal, ensureDispatcher, ensureInviteDispatcher, ensureSentimentRescore, temporalSettings, useWorkerConnection } from '../../workflows/client';
import { buildActivities } from '../../workflows/activities';
import { runWorker, type RunningWorker, type WorkerSettings as RunningWorkerSettings } from '../../workflows/worker';
import { findTemporalCli, startDevServer, type DevServer } from './dev-server';
import { ensureSearchAttributes } from './search-attributes';
import { reconcileReviewSyncSchedules } from '../jobs/review-sync';
import { resumePendingAutoResponses } from '../services/auto-respond.service';
import { ensureAutoRespondSweep } from '../../workflows/auto-respond/client';
import { configureScanEngine, ensureScanScheduleTick } from '../../workflows/scans/client';
import { removeInviteRedispatchSchedule } from '../../workflows/invites/schedule';
import { closeSmtpPools } from '../providers/smtp/account-sender';
import { configureGbpSync, ensureGbpSyncSchedule } from '../../workflows/gbp/client';
import { configureRetention, ensureRetentionSchedule } from '../../workflows/retention/client';
import { SENTIMENT_VERSION } from '../analytics/sentiment';
import { ensureAiLabelSchedule } from '../../workflows/reviews/ai-label-schedule';
import { configureMonthlyReports, ensureMonthlyReportSchedule, ensureMonthlyScanReportSchedule } from '../../workflows/reports/schedule';

export interface TemporalRuntime {
  address: string;
  uiUrl: string | null;
  /** The in-process worker (readiness reads its state); null where the process runs none. */
  worker: { getState(): string } | null;
  stop(): Promise<void>;
}

/** Where `npm run build` leaves the workflow bundle. */
export const WORKFLOW_BUNDLE = path.resolve(__dirname, '..', '..', ...(__dirname.includes(`${path.sep}dist${path.sep}`) ? [] : ['dist']), 'workflow-bundle.js');

/**
 * Temporal for the process: the cluster at TEMPORAL_ADDRESS, or (embedded default) a dev server we start with
 * a persistent SQLite file under DATA_DIR and the UI on. Connects the client, runs the worker in-process when
 * configured, and makes sure the outbox dispatcher runs. `stop` undoes all of it in reverse.
 */
export async function startTemporal(
  config: Config,
  logger: Logger,
  opts: { worker: boolean; onWorkerEnd?: RunningWorkerSettings['onUnexpectedEnd'] },
): Promise<TemporalRuntime> {
  let devServer: DevServer | null = null;
  let address = config.TEMPORAL_ADDRESS;
  if (!address) {
    devServer = await startDevServer({
      cli: findTemporalCli(config.TEMPORAL_CLI),
      port: config.TEMPORAL_DEV_PORT,
      uiPort: config.TEMPORAL_UI_PORT,
      namespace: config.TEMPORAL_NAMESPACE,
      dbFile: path.join(config.DATA_DIR, 'temporal.sqlite'),
    });
    address = devServer.address;
    logger.info({ address, ui: devServer.uiUrl }, 'temporal dev server started');
  }
  const settings = temporalSettings(config, address);
  let worker: RunningWorker | null = null;
  try {
    const client = await connectTemporal(settings, { waitMs: devServer ? 0 : 120_000 });
    // Every workflow start carries our search attributes; a cluster the migrate job did not set up gets them here.
    if (!devServer) await ensureSearchAttributes(client, settings.namespace);
    if (opts.worker) {
      worker = await runWorker({
        address,
        namespace: settings.namespace,
        taskQueue: settings.taskQueue,
        workflows: { bundlePath: WORKFLOW_BUNDLE },
        activities: buildActivities(config),
        slots: {
          activities: config.TEMPORAL_WORKER_ACTIVITY_SLOTS,
          workflowTasks: config.TEMPORAL_WORKER_WORKFLOW_TASK_SLOTS,
          cachedWorkflows: config.TEMPORAL_WORKER_CACHED_WORKFLOWS,
        },
        onUnexpectedEnd: opts.onWorkerEnd,
      });
      worker.done.catch((err) => logger.error({ err }, 'temporal worker stopped with an error'));
      // Starts a request asks for go eagerly to this process's worker.
      useWorkerConnection(worker.connection);
    }
    await ensureDispatcher();
    // Local Search Grid: runs fan out SCAN_CONCURRENCY queries, SCAN_MAX_RUNNING_PER_TENANT runs of a tenant at once;
    // the 15-minute tick starts scheduled runs.
    configureScanEngine({ concurrency: config.SCAN_CONCURRENCY, maxRunningPerTenant: config.SCAN_MAX_RUNNING_PER_TENANT });
    await ensureScanScheduleTick();
    // Auto-respond: runs whose workflow did not start after their review's commit are started by a 5-minute sweep.
    await ensureAutoRespondSweep();
    // Review requests: the invite dispatcher sends from the invites table; the re-dispatch schedule of the
    // workflow-per-invite design before it has nothing left to do (an upgraded installation drops it).
    await ensureInviteDispatcher();
    await removeInviteRedispatchSchedule();
    // Reviews scored by an older sentiment analyser are re-scored in the background after an upgrade.
    await ensureSentimentRescore(SENTIMENT_VERSION);
    // With a chat model configured, a schedule asks it for the labels of reviews still labelled locally; without one,
    // nothing runs (a schedule an earlier configuration left is removed).
    await ensureAiLabelSchedule(Boolean(config.AI_API_URL));
    // Business-profile performance: one schedule sweeps every connected Google location every GBP_SYNC_INTERVAL_MINUTES.
    configureGbpSync({ intervalMs: config.GBP_SYNC_INTERVAL_MINUTES * 60_000 });
    await ensureGbpSyncSchedule();
    // Data retention: one daily schedule purges old log rows; its interval follows RETENTION_INTERVAL_MINUTES.
    configureRetention({ everyMs: config.RETENTION_INTERVAL_MINUTES * 60_000 });
    await ensureRetentionSchedule();
    // Monthly reports: on the 1st at MONTHLY_REPORT_HOUR_UTC, last month's report goes to every organisation's owners,
    // and each scan's to its agency's owners.
    configureMonthlyReports({ hourUtc: config.MONTHLY_REPORT_HOUR_UTC });
    await ensureMonthlyReportSchedule();
    await ensureMonthlyScanReportSchedule();
    if (opts.worker) {
      // Every connected integration keeps its review sync schedule (say, after Temporal's state was lost).
      reconcileReviewSyncSchedules()
        .then((created) => created && logger.info({ created }, 'review sync schedules recreated'))
        .catch((err) => logger.warn({ err }, 'review sync schedules could not be reconciled'));
      // Auto-respond runs whose workflow never started (Temporal down at the review's commit) start now.
      resumePendingAutoResponses()
        .then((resumed) => resumed && logger.info({ resumed }, 'pending auto-respond runs resumed'))
        .catch((err) => logger.warn({ err }, 'pending auto-respond runs could not be resumed'));
    }
  } catch (err) {
    // Nothing half-started stays behind (a dev server holding the port would block the next start).
    await worker?.stop().catch(() => undefined);
    await disconnectTemporal().catch(() => undefined);
    await devServer?.stop();
    throw err;
  }
  return {
    address,
    uiUrl: devServer?.uiUrl ?? null,
    worker: worker?.worker ?? null,
    async stop() {
      // Each step is bounded: a stop that hangs must not keep the process (and the dev server) alive.
      const step = async (name: string, work: () => Promise<unknown>, ms: number) => {
        let timer: NodeJS.Timeout | undefined;
        const timeout = new Promise<void>((resolve) => {
          timer = setTimeout(() => {
            logger.warn({ step: name, ms }, 'temporal shutdown step timed out');
            resolve();
          }, ms);
        });
        await Promise.race([work().catch((err) => logger.warn({ err, step: name }, 'temporal shutdown step failed')), timeout]);
        clearTimeout(timer);
        logger.info({ step: name }, 'temporal shutdown step done');
      };
      useWorkerConnection(null);
      if (worker) await step('worker', () => worker!.stop(), 45_000);
      // The activities' pooled SMTP connections (open between messages) are closed with the worker.
      closeSmtpPools();
      await step('client', () => disconnectTemporal(), 5_000);
      if (devServer) await step('dev server', () => devServer!.stop(), 15_000);
    },
  };
}
