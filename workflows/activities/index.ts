import type { Config } from '../../src/config';
import { claimDeliveriesForRetries, claimForDelivery, loadDeliveriesForAttempt, loadDeliveryForAttempt, markDeliveriesGaveUp, markDeliveryFailed, markEventsDispatched, recordAttempt, recordAttempts, resumeUnstartedRedeliveries } from '../../src/jobs/webhook-delivery';
import { signatureHeaders, WEBHOOK_USER_AGENT } from '../../src/webhooks/signing';
import { guardedFetch, refusedCause, UnresolvableHost } from '../../src/net/guarded-fetch';
import { assertDeliverableUrl } from '../../src/webhooks/url';
import { deliveryRunState, signalFirstAttemptsEnded, signalRoundAttemptsEnded, startDeliveryWorkflow, startRetryGroup, temporal } from '../client';
import { Context } from '@temporalio/activity';
import { WorkflowExecutionAlreadyStartedError } from '@temporalio/client';
import { createOutboxActivities } from './outbox';
import { ROUND_GATHER_MS } from '../webhooks/receiver-retries.workflow';
import { createDeliveryAttempt, createWebhookActivities, type WebhookActivityDeps } from './webhooks';
import { receiverGate } from './receiver-gate';
import { tenantShare } from './tenant-share';
import { platformClient } from '../../src/providers';
import { accessTokenFor } from '../../src/services/provider-connections.service';
import { loadSyncTarget, recordSyncResult, removeUnlistedReviews, upsertProviderReviews } from '../../src/jobs/review-sync';
import { removeReviewSync } from '../client';
import { createReviewSyncActivities } from './reviews';
import { loadConfig } from '../../src/config';
import { claimRunTurn, completeRun, runPlan, searchFor, startDueScheduledScans, storePinResult, wakeLongestWaitingRun } from '../../src/jobs/scan-runs';
import { failRun } from '../../src/services/scans.service';
import { createScanActivities } from './scans';
import { createInviteActivities, inviteActivityDeps } from './invites';
import { failAutoResponse, prepareAutoResponse, publishAutoResponse } from '../../src/jobs/auto-respond-runs';
import { resumePendingAutoResponses } from '../../src/services/auto-respond.service';
import { createAutoRespondActivities } from './auto-respond';
import { gbpPerformanceClient } from '../../src/providers/google/performance.client';
import { gbpSyncIntegrationIds, loadGbpSyncTarget, planGbpSync, storeDailyMetrics, storeKeywordMonth } from '../../src/jobs/gbp-sync';
import { createGbpActivities } from './gbp';
import { purgeExpired, retentionDays } from '../../src/jobs/retention';
import { createRetentionActivities } from './retention';
import { createProbeActivities } from './probe';
import { rescoreStaleReviews } from '../../src/jobs/sentiment-rescore';
import { labelUnaskedReviews } from '../../src/jobs/sentiment-labels';
import { createSentimentActivities } from './sentiment';
import { pendingReportRecipients, sendReportMail } from '../../src/jobs/report-mail';
import { pendingScanReportRecipients, sendScanReportMail } from '../../src/jobs/scan-report-mail';
import { createReportActivities, createScanReportActivities } from './reports';
import { attemptBucket, scanPins, scanRuns, webhookDeliveries } from '../../src/observability/metrics';

export { WEBHOOK_USER_AGENT };

/**
 * How the dispatcher makes first attempts (`WEBHOOK_BULK_*`) and the longest `Retry-After` honoured; defaults where a
 * caller (a test) gives none.
 */
type BulkConfig = Partial<
  Pick<
    Config,
    | 'WEBHOOK_BULK_CONCURRENCY' | 'WEBHOOK_BULK_PER_RECEIVER' | 'WEBHOOK_HANDOFF_MS' | 'WEBHOOK_SLOW_RECEIVER_MS'
    | 'WEBHOOK_RECEIVER_MAX_IN_FLIGHT' | 'WEBHOOK_RECEIVER_STALE_MS' | 'INVITE_SEND_CONCURRENCY' | 'WEBHOOK_RETRY_MAX_INTERVAL_MS'
    | 'WEBHOOK_RETRY_HANDOFF_MS' | 'WEBHOOK_RETRY_TENANT_SLOTS'
  >
>;

/** Every activity of the worker, wired to the services (the workflows only ever see their types). */
export function buildActivities(config: Pick<Config, 'WEBHOOK_TIMEOUT_MS' | 'WEBHOOK_ALLOW_PRIVATE_URLS'> & BulkConfig) {
  const allowPrivate = config.WEBHOOK_ALLOW_PRIVATE_URLS === 'true';
  const webhookDeps: WebhookActivityDeps = {
    async load(deliveryId) {
      const d = await loadDeliveryForAttempt(deliveryId);
      return d && { id: d.id, status: d.status, body: d.body, url: d.url, secrets: d.secrets, tenantId: d.tenantId };
    },
    loadMany: (ids) => loadDeliveriesForAttempt(ids),
    claim: (ids, owner) => claimDeliveriesForRetries(ids, owner),
    gaveUp: (ids, owner) => markDeliveriesGaveUp(ids, { owner }),
    heartbeat: () => Context.current().heartbeat(),
    record: (deliveryId, attempt) => recordAttempt(deliveryId, attempt).then(() => void webhookDeliveries.inc({ outcome: attempt.succeeded ? 'succeeded' : 'failed', attempt: attemptBucket(attempt.attempt) })),
    recordMany: (records) =>
      recordAttempts(records).then(() => {
        for (const r of records) webhookDeliveries.inc({ outcome: r.attempt.succeeded ? 'succeeded' : 'failed', attempt: attemptBucket(r.attempt.attempt) });
      }),
    fail: (deliveryId, reason) => markDeliveryFailed(deliveryId, reason),
    sign: (input) => ({ ...signatureHeaders(input) }),
    async checkUrl(url) {
      await assertDeliverableUrl(url, { allowPrivate, resolve: false });
    },
    // Never follows a redirect: a 3xx is a failed attempt.
    post: (url, init) => guardedFetch(url, { method: 'POST', redirect: 'manual', ...init }, { allowPrivate }),
    refused(e) {
      const cause = refusedCause(e);
      return cause && { message: cause.message, transient: cause instanceof UnresolvableHost };
    },
    timeoutMs: config.WEBHOOK_TIMEOUT_MS,
    maxRetryAfterMs: config.WEBHOOK_RETRY_MAX_INTERVAL_MS,
    userAgent: WEBHOOK_USER_AGENT,
    now: () => new Date(),
    // One per worker process: both of its workers (the main queue's and the retries') share these activities.
    gate: receiverGate({ maxInFlight: config.WEBHOOK_RECEIVER_MAX_IN_FLIGHT ?? 16, staleMs: config.WEBHOOK_RECEIVER_STALE_MS ?? 5_000 }),
    // A retry round lets its slot of the retry worker go after 1 s, its attempts still out going on here (their end
    // signalled to the run); and one tenant's rounds hold at most a quarter of that worker's 200 slots at once.
    roundHandoffMs: config.WEBHOOK_RETRY_HANDOFF_MS ?? 0,
    roundAttemptsEnded: (workflowId, ended) => signalRoundAttemptsEnded(workflowId, ended),
    tenantShare: tenantShare({ slots: config.WEBHOOK_RETRY_TENANT_SLOTS ?? 50, deferMs: 1_000 }),
  };
  return {
    ...createWebhookActivities(webhookDeps),
    ...createOutboxActivities({
      claim: (limit, skip) => claimForDelivery(limit, { skip }),
      attempt: (delivery, attempt, record) => createDeliveryAttempt({ ...webhookDeps, record })(delivery, attempt),
      record: webhookDeps.record,
      recordMany: (records) => webhookDeps.recordMany!(records),
      // The run's tags give operators the receiver's owner and URL in the Temporal UI.
      startRetryGroup: (group, opts) => startRetryGroup(group, opts),
      firstAttemptsEnded: (workflowId, deliveryIds) => signalFirstAttemptsEnded(workflowId, deliveryIds),
      fail: (deliveryId, reason) => markDeliveryFailed(deliveryId, reason),
      markDispatched: (eventIds) => markEventsDispatched(eventIds),
      heartbeat: () => Context.current().heartbeat(),
      stopping: () => Context.current().cancellationSignal.aborted,
      retry: () => temporal().settings.webhookRetry,
      settings: {
        concurrency: config.WEBHOOK_BULK_CONCURRENCY ?? 64,
        perReceiver: config.WEBHOOK_BULK_PER_RECEIVER ?? 8,
        handoffMs: config.WEBHOOK_HANDOFF_MS ?? 250,
        slowForMs: config.WEBHOOK_SLOW_RECEIVER_MS ?? 60_000,
        // A receiver's retry run gets a hand-over at most once per its rounds' gathering time per schedule (250 ms), and
        // batches go on while up to ten batches' events are still being handed over.
        handoverSpacingMs: ROUND_GATHER_MS,
        maxEventsInHand: 1_000,
        // One activity runs batches for up to 30 s and stays 1 s after the outbox empties, looking every 25 ms.
        budgetMs: 30_000,
        lingerMs: 1_000,
        pollMs: 25,
      },
      now: () => Date.now(),
      resumeRedeliveries: () =>
        resumeUnstartedRedeliveries({ state: deliveryRunState, start: (id) => startDeliveryWorkflow(id, { again: true }).catch(alreadyGoing) }).then(
          ({ started, failed }) => {
            if (started.length || failed.length) Context.current().log.warn('redeliveries whose run never started', { started, failed });
          },
          (error: unknown) => Context.current().log.warn('redeliveries whose run never started: the sweep failed', { error }),
        ),
    }),
    ...createReviewSyncActivities({
      loadTarget: (integrationId) => loadSyncTarget(integrationId),
      accessToken: (integrationId) => accessTokenFor(integrationId),
      client: (provider) => platformClient(provider),
      upsert: (integrationId, provider, reviews, fetchedFrom, listedAt) =>
        upsertProviderReviews(integrationId, provider, reviews, { fetchedFrom, listedAt: listedAt ?? undefined }),
      removeUnlisted: (integrationId, listedAt, listed) => removeUnlistedReviews(integrationId, listedAt, listed),
      record: (integrationId, error) => recordSyncResult(integrationId, error),
      removeSchedule: (integrationId) => removeReviewSync(integrationId),
    }),
    ...createScanActivities({
      plan: (runId) => runPlan(runId),
      search: (tenantId, query) => searchFor(tenantId, query),
      store: (query, results) => storePinResult(query, results).then(() => void scanPins.inc()),
      complete: (runId) => completeRun(runId).then(() => void scanRuns.inc({ outcome: 'completed' })),
      fail: (runId, message) => failRun(runId, message).then(() => void scanRuns.inc({ outcome: 'failed' })),
      startDue: () => startDueScheduledScans({ warn: (message, attrs) => Context.current().log.warn(message, attrs) }),
      claimTurn: (runId, maxRunning) => claimRunTurn(runId, maxRunning),
      turnFreed: (runId) => wakeLongestWaitingRun(runId).then(() => undefined),
      ratePerSecond: loadConfig().SCAN_PROVIDER_RATE_PER_SECOND,
    }),
    // Review requests: the invite dispatcher's send queue (src/messaging/send-queue.ts), and the activities of the
    // per-invite workflows of the design before it (runs started before an upgrade finish on them).
    ...createInviteActivities(inviteActivityDeps({}, { concurrency: config.INVITE_SEND_CONCURRENCY ?? 32 })),
    ...createAutoRespondActivities({
      prepare: (reviewId) => prepareAutoResponse(reviewId),
      publish: (input) => publishAutoResponse(input),
      fail: (reviewId, reason) => failAutoResponse(reviewId, reason),
      resumePending: () => resumePendingAutoResponses({ olderThanMs: 60_000 }),
    }),
    ...createGbpActivities({
      plan: (integrationId) => planGbpSync(integrationId),
      loadTarget: (integrationId) => loadGbpSyncTarget(integrationId),
      accessToken: (integrationId) => accessTokenFor(integrationId),
      client: () => gbpPerformanceClient(),
      storeDaily: (locationId, series, range) => storeDailyMetrics(locationId, series, range),
      storeKeywords: (locationId, month, keywords) => storeKeywordMonth(locationId, month, keywords),
      integrationIds: (afterId, limit) => gbpSyncIntegrationIds(afterId, limit),
    }),
    // Data retention: ages read per run from this worker's settings (RETENTION_*), so a restart with new ones applies.
    ...createRetentionActivities({
      settings(kind) {
        const c = loadConfig();
        return { days: retentionDays(c)[kind], batchSize: c.RETENTION_BATCH_SIZE };
      },
      purge: (kind, opts) => purgeExpired(kind, opts),
    }),
    ...createProbeActivities(),
    ...createSentimentActivities({ rescore: (opts) => rescoreStaleReviews(opts), label: (opts) => labelUnaskedReviews(opts) }),
    ...createReportActivities({ pending: (month, after, limit) => pendingReportRecipients(month, after, limit), send: (recipient, month) => sendReportMail(recipient, month) }),
    ...createScanReportActivities({ pending: (month, after, limit) => pendingScanReportRecipients(month, after, limit), send: (recipient, month) => sendScanReportMail(recipient, month) }),
  };
}

/** A start that found the run already going: the redelivery is under way, which is what the sweep wanted. */
function alreadyGoing(e: unknown): void {
  if (!(e instanceof WorkflowExecutionAlreadyStartedError)) throw e;
}
