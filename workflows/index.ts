/** Every workflow, for the worker bundle. Deterministic code only: activities do the I/O. */
export { deliverWebhook } from './webhooks/deliver.workflow';
export { dispatchOutbox } from './outbox/dispatch.workflow';
export { syncReviews } from './reviews/sync.workflow';
export { runScan, scanScheduleTick } from './scans/run.workflow';
export { inviteDelivery } from './invites/delivery.workflow';
export { dispatchInvites } from './invites/dispatch.workflow';
export { syncGbpPerformance, syncGbpPerformanceSweep } from './gbp/sync.workflow';
export { autoRespond, autoRespondSweep } from './auto-respond/respond.workflow';
export { purgeExpiredData } from './retention/purge.workflow';
export { engineProbe } from './probe/engine-probe.workflow';
export { retryWebhookDeliveries } from './webhooks/retry-group.workflow';
export { retryReceiverDeliveries } from './webhooks/receiver-retries.workflow';
export { rescoreSentiment } from './reviews/rescore.workflow';
export { labelSentimentWithAi } from './reviews/ai-label.workflow';
export { sendMonthlyReports } from './reports/monthly.workflow';
export { sendMonthlyScanReports } from './reports/scan-reports.workflow';
