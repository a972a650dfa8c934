import {
  Client,
  Connection,
  ScheduleAlreadyRunning,
  ScheduleNotFoundError,
  WorkflowExecutionAlreadyStartedError,
  WorkflowNotFoundError,
  type ScheduleDescriptionAction,
  type ScheduleOptions,
  type ScheduleOptionsStartWorkflowAction,
  type ScheduleSpecDescription,
} from '@temporalio/client';
import type { Workflow } from '@temporalio/common';
import { msOptionalToNumber } from '@temporalio/common/lib/time';
import { isDeepStrictEqual } from 'node:util';
import type { NativeConnection } from '@temporalio/worker';
import type { DispatchOutboxInput } from './outbox/dispatch.workflow';
import type { RescoreSentimentInput } from './reviews/rescore.workflow';
import type { syncReviews } from './reviews/sync.workflow';
import type { DispatchInvitesInput } from './invites/dispatch.workflow';
import type { DeliveryRetry, DeliverWebhookInput } from './webhooks/deliver.workflow';
import type { ReceiverRetriesInput, RetryCohort } from './webhooks/receiver-retries.workflow';
import type { RoundAttemptEnded } from './activities/webhooks';
import { ownedBy, startMetadata, urlForSummary, type Owner } from '../src/temporal/search-attributes';

/**
 * The API's handle on Temporal: starts and signals workflows by business id. Set once at boot
 * (`connectTemporal`); services call the helpers below.
 */
export interface TemporalSettings {
  address: string;
  namespace: string;
  taskQueue: string;
  webhookRetry: DeliveryRetry;
  /** One retry run per receiver and this long a window of hand-overs (`retryReceiverDeliveries`); default 10 s. */
  webhookRetryWindowMs?: number;
  dispatcher: DispatchOutboxInput;
  /** The invite dispatcher's poll and batch; absent: every second, 100 per kind. */
  inviteDispatcher?: DispatchInvitesInput;
  /** Periodic review sync; absent = every 60 minutes. */
  reviewSync?: ReviewSyncSettings;
}

export interface ReviewSyncSettings {
  intervalMs: number;
  /**
   * Appended to schedule and workflow ids (`review-sync:<id>:<scope>`): tests sharing one dev server scope them
   * by task queue, since every test database numbers its integrations from 1. Unset in production.
   */
  idScope?: string;
}

let current: { client: Client; connection: Connection; settings: TemporalSettings } | null = null;

export async function connectTemporal(settings: TemporalSettings, opts: { waitMs?: number } = {}): Promise<Client> {
  // A cluster that is still starting (containers come up together) gets `waitMs` to answer.
  const deadline = Date.now() + (opts.waitMs ?? 0);
  let connection: Connection;
  for (;;) {
    try {
      connection = await Connection.connect({ address: settings.address });
      break;
    } catch (e) {
      if (Date.now() >= deadline) throw e;
      await new Promise((r) => setTimeout(r, 2_000));
    }
  }
  const client = new Client({ connection, namespace: settings.namespace });
  current = { client, connection, settings };
  return client;
}

export async function disconnectTemporal(): Promise<void> {
  const c = current;
  current = null;
  eager = null;
  await c?.connection.close();
}

/** A client on this process's worker connection, when it runs a worker (`useWorkerConnection`). */
let eager: Client | null = null;

/**
 * Eager start (issue 17 item 3): a process that runs a worker lends its connection to a second client, so a workflow
 * a request starts comes back in the start's own answer as its first workflow task, run by this process's worker at
 * once instead of waiting in the task queue for a poll. API-only processes (no worker here) start the usual way, as
 * does any start the server declines to hand over (the task then goes through the queue). null: no worker any more.
 */
export function useWorkerConnection(connection: NativeConnection | null): void {
  eager = connection && current ? new Client({ connection, namespace: current.settings.namespace }) : null;
}

/**
 * How to start a workflow a request asks for (a scan run, a redelivery, an auto-response): the client, and
 * `requestEagerStart` when a local worker shares its connection. Not for delayed starts (eager start is for now).
 */
export function requestedStart(): { client: Client; options: { requestEagerStart?: true } } {
  const { client } = temporal();
  return eager ? { client: eager, options: { requestEagerStart: true } } : { client, options: {} };
}

export function temporal(): { client: Client; settings: TemporalSettings } {
  if (!current) throw new Error('Temporal is not connected (connectTemporal was not called)');
  return current;
}

export const deliveryWorkflowId = (deliveryId: string): string => `webhook:${deliveryId}`;
/**
 * The task queue of webhook retries' POSTs, next to the main one: its own worker and activity slots, so receivers
 * that hang (30 s per attempt) never hold the slots the dispatcher and every other workflow need.
 */
export const webhookRetryQueue = (taskQueue: string): string => `${taskQueue}:webhook-retries`;
/** One dispatcher per task queue (the tests run several queues side by side on one dev server). */
export const dispatcherWorkflowId = (taskQueue: string): string => `outbox-dispatcher:${taskQueue}`;

/** What the Temporal UI shows of a delivery: who it belongs to, its event and receiver. */
export interface DeliveryLabel {
  owner: Owner;
  event: string;
  url: string;
}

/**
 * Starts the delivery workflow of one webhook delivery (a redelivery: `again`, a new run of the same id once the
 * earlier one has finished). Without `again` a second start of the id is a no-op, even after the first run finished.
 * `label` tags the run for operators (search attributes and summary); without it only kind and id are set.
 */
export async function startDeliveryWorkflow(deliveryId: string, opts: { again?: boolean; label?: DeliveryLabel | null } = {}): Promise<void> {
  const { settings } = temporal();
  const { client, options } = requestedStart();
  const label = opts.label;
  const input: DeliverWebhookInput = { deliveryId, retry: settings.webhookRetry, activityQueue: webhookRetryQueue(settings.taskQueue) };
  try {
    await client.workflow.start('deliverWebhook', {
      workflowId: deliveryWorkflowId(deliveryId),
      taskQueue: settings.taskQueue,
      args: [input],
      workflowIdReusePolicy: opts.again ? 'ALLOW_DUPLICATE' : 'REJECT_DUPLICATE',
      ...options,
      ...startMetadata(
        ownedBy(label?.owner, 'webhook-delivery', deliveryId),
        label ? `Webhook ${label.event} to ${urlForSummary(label.url)} (delivery ${deliveryId})` : `Webhook delivery ${deliveryId}`,
      ),
    });
  } catch (e) {
    // A second start from the dispatcher is the no-op we want; a redelivery while a run still goes is not.
    if (!(e instanceof WorkflowExecutionAlreadyStartedError) || opts.again) throw e;
  }
}

/** Where a delivery's own run is (`resumeUnstartedRedeliveries`): its latest run's status, or missing. */
export async function deliveryRunState(deliveryId: string): Promise<{ kind: 'missing' } | { kind: 'running' } | { kind: 'closed'; startedAt: Date }> {
  try {
    const run = await temporal().client.workflow.getHandle(deliveryWorkflowId(deliveryId)).describe();
    if (run.status.name === 'RUNNING') return { kind: 'running' };
    return { kind: 'closed', startedAt: run.startTime };
  } catch (e) {
    if (e instanceof WorkflowNotFoundError) return { kind: 'missing' };
    throw e;
  }
}

/** The retry run of one receiver's deliveries handed over in the window that starts at `windowStart` (epoch ms). */
export const receiverRetriesWorkflowId = (taskQueue: string, endpointId: number, windowStart: number): string =>
  `webhook-retries:${taskQueue}:${endpointId}:${windowStart}`;

/** A group of one receiver's deliveries to retry, as a dispatcher batch hands it over. */
export type RetryGroup = RetryCohort & { endpointId: number };

/**
 * Hands a group of one receiver's deliveries to the retry run of that receiver and the current window
 * (`retryReceiverDeliveries`), by signal-with-start: the window's first group starts the run, the others join it, a
 * group handed over twice (a dispatcher batch retried after a crash) counts once. Answers the run's workflow id, where
 * `signalFirstAttemptsEnded` goes.
 */
export async function startRetryGroup(group: RetryGroup, opts: { label: DeliveryLabel }): Promise<string> {
  const { client, settings } = temporal();
  const windowMs = settings.webhookRetryWindowMs ?? 10_000;
  const windowStart = Math.floor(Date.now() / windowMs) * windowMs;
  const workflowId = receiverRetriesWorkflowId(settings.taskQueue, group.endpointId, windowStart);
  const input: ReceiverRetriesInput = {
    endpointId: group.endpointId,
    retry: settings.webhookRetry,
    activityQueue: webhookRetryQueue(settings.taskQueue),
    acceptUntil: windowStart + windowMs,
  };
  const { endpointId: _receiver, ...cohort } = group;
  // A deadline of its own: the SDK's call has none, and a hand-over that hung would hold every later one of this
  // receiver in the dispatcher's pump (workflows/activities/handovers.ts), and so its batches.
  await client.connection.withDeadline(Date.now() + HANDOVER_DEADLINE_MS, () => client.workflow.signalWithStart('retryReceiverDeliveries', {
    workflowId,
    taskQueue: settings.taskQueue,
    args: [input],
    signal: 'add-retries',
    signalArgs: [cohort satisfies RetryCohort],
    ...startMetadata(
      ownedBy(opts.label.owner, 'webhook-delivery', `receiver-${group.endpointId}`),
      `Webhook retries to ${urlForSummary(opts.label.url)} (receiver ${group.endpointId}, handed over from ${new Date(windowStart).toISOString()})`,
    ),
  }));
  return workflowId;
}

/** How long a hand-over to a retry run (and the first-attempts signal) may take before it fails. */
export const HANDOVER_DEADLINE_MS = 30_000;


/** Tells a receiver's retry run that the dispatcher's first attempts of `deliveryIds` have ended. */
export async function signalFirstAttemptsEnded(workflowId: string, deliveryIds: string[]): Promise<void> {
  const { client } = temporal();
  await client.connection.withDeadline(Date.now() + HANDOVER_DEADLINE_MS, () => client.workflow.getHandle(workflowId).signal('first-attempts-ended', deliveryIds));
}

/** Tells a receiver's retry run how attempts its round handed off ended (`round-attempts-ended`). */
export async function signalRoundAttemptsEnded(workflowId: string, ended: RoundAttemptEnded[]): Promise<void> {
  const { client } = temporal();
  await client.connection.withDeadline(Date.now() + HANDOVER_DEADLINE_MS, () => client.workflow.getHandle(workflowId).signal('round-attempts-ended', ended));
}

/**
 * Waits (at most `timeoutMs`) for a delivery's workflow to close. A delivery is stored as succeeded or failed by its
 * last activity, a moment before its workflow closes: a redelivery in that moment waits for the close.
 */
export async function awaitDeliveryClosed(deliveryId: string, timeoutMs = 10_000): Promise<void> {
  const { client } = temporal();
  const closed = client.workflow.getHandle(deliveryWorkflowId(deliveryId)).result().then(
    () => undefined,
    () => undefined,
  );
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([closed, new Promise<void>((resolve) => (timer = setTimeout(resolve, timeoutMs)))]);
  clearTimeout(timer);
}

/** How long a nudge signal may take before it is given up (best effort: the dispatcher polls anyway). */
const NUDGE_DEADLINE_MS = 10_000;

/** Dispatchers whose last nudge holds its place (see `nudge`), and whether another was asked for meanwhile. */
const nudges = new Map<string, { again: boolean }>();

/**
 * Wakes a dispatcher after a commit, so its work leaves at once rather than at its next poll. A nudge goes at once
 * unless the last one to the same dispatcher went less than `spacingMs` ago; then one more goes when the spacing is up,
 * however many were asked for meanwhile (the caller does not wait for it). Best effort: the dispatcher polls anyway.
 */
async function nudge(workflowId: string, spacingMs: number): Promise<void> {
  if (!current) return;
  const held = nudges.get(workflowId);
  if (held) {
    held.again = true;
    return;
  }
  const { client } = current;
  const state = { again: false };
  nudges.set(workflowId, state);
  // A deadline of its own (the SDK's call has none): a nudge that hung would hold this dispatcher's place in `nudges`
  // and so stop its nudges, leaving its work to the poll.
  const signal = () =>
    client.connection
      .withDeadline(Date.now() + NUDGE_DEADLINE_MS, () => client.workflow.getHandle(workflowId).signal('nudge'))
      // It may be starting or continuing as new; its poll finds the work.
      .catch(() => undefined);
  const spaced = () => new Promise((resolve) => setTimeout(resolve, spacingMs).unref());
  await signal();
  void (async () => {
    try {
      for (;;) {
        await spaced();
        if (!state.again) return;
        state.again = false;
        await signal();
      }
    } finally {
      nudges.delete(workflowId);
    }
  })();
}

/** Wakes the outbox dispatcher (events committed). */
export async function nudgeDispatcher(): Promise<void> {
  if (current) await nudge(dispatcherWorkflowId(current.settings.taskQueue), NUDGE_SPACING_MS);
}

/** Wakes the invite dispatcher (invites committed or moved). */
export async function nudgeInviteDispatcher(): Promise<void> {
  if (current) await nudge(inviteDispatcherWorkflowId(current.settings.taskQueue), NUDGE_SPACING_MS);
}

/**
 * A nudge asked for while one is on its way goes a second after it (what the dispatcher activity's linger is:
 * `runBatches` keeps polling every 25 ms while there is work and for a second after, so it is not needed sooner); a
 * nudge after a quiet spell goes at once. Nudges coalesced per round trip only (a signal, a workflow task and four
 * history events each, up to one per commit: 50 a second in bench:webhooks) made the outbox dispatcher continue as new
 * every 20 s under a steady stream, and one continue-as-new took 3.2 s between rounds, every event of those seconds
 * late. Invites had 250 ms before.
 */
const NUDGE_SPACING_MS = 1_000;

/** One invite dispatcher per task queue, like the outbox's. */
export const inviteDispatcherWorkflowId = (taskQueue: string): string => `invite-dispatcher:${taskQueue}`;

/**
 * Starts a dispatcher (one per task queue) unless it runs already, and hands it this process's settings: every API
 * and worker process calls this at boot. A signal-with-start: a running dispatcher gets its `configure` signal (its
 * settings from its next wait on, and into its continue-as-new: a changed `OUTBOX_POLL_MS` / `INVITE_POLL_MS` takes
 * effect; a start with them only, as before, was a no-op for a running one and its first input stayed for good);
 * none running, it starts with them.
 */
async function ensureDispatcherRunning(
  workflowType: 'dispatchOutbox' | 'dispatchInvites',
  workflowId: string,
  input: DispatchOutboxInput | DispatchInvitesInput,
  kind: 'outbox-dispatch' | 'invite-dispatch',
  summary: string,
): Promise<void> {
  const { client, settings } = temporal();
  try {
    await client.workflow.signalWithStart(workflowType, {
      workflowId,
      taskQueue: settings.taskQueue,
      args: [input],
      // configureDispatcherSignal (workflows/outbox/dispatch.workflow.ts), named here: the client does not load workflow code.
      signal: 'configure',
      signalArgs: [input],
      ...startMetadata({ tenant: null, kind, businessId: settings.taskQueue }, summary),
    });
  } catch (e) {
    if (!(e instanceof WorkflowExecutionAlreadyStartedError)) throw e;
  }
}

/** Starts the outbox dispatcher unless it runs already. */
export async function ensureDispatcher(): Promise<void> {
  const { settings } = temporal();
  await ensureDispatcherRunning('dispatchOutbox', dispatcherWorkflowId(settings.taskQueue), settings.dispatcher, 'outbox-dispatch', `Outbox dispatcher of task queue ${settings.taskQueue}`);
}

/** Starts the invite dispatcher unless it runs already. */
export async function ensureInviteDispatcher(): Promise<void> {
  const { settings } = temporal();
  await ensureDispatcherRunning(
    'dispatchInvites',
    inviteDispatcherWorkflowId(settings.taskQueue),
    settings.inviteDispatcher ?? { pollMs: 1_000, batchSize: 100 },
    'invite-dispatch',
    `Invite dispatcher of task queue ${settings.taskQueue}`,
  );
}

/** The re-scoring of one analyser version, per task queue like the dispatchers: an upgrade starts its own. */
export const sentimentRescoreWorkflowId = (taskQueue: string, version: number): string => `sentiment-rescore:${taskQueue}:v${version}`;

/**
 * Starts the re-scoring of reviews scored by an older sentiment analyser unless it runs already (every process
 * calls this at boot; a run with nothing to do ends after one query).
 */
export async function ensureSentimentRescore(version: number, tuning: Omit<RescoreSentimentInput, 'version'> = {}): Promise<void> {
  const { client, settings } = temporal();
  try {
    await client.workflow.start('rescoreSentiment', {
      workflowId: sentimentRescoreWorkflowId(settings.taskQueue, version),
      taskQueue: settings.taskQueue,
      args: [{ ...tuning, version }],
      workflowIdConflictPolicy: 'USE_EXISTING',
      ...startMetadata({ tenant: null, kind: 'sentiment-rescore', businessId: `v${version}` }, `Re-score reviews with sentiment analyser v${version}`),
    });
  } catch (e) {
    if (!(e instanceof WorkflowExecutionAlreadyStartedError)) throw e;
  }
}

/** One schedule per synced integration; the workflows it starts are named after it (plus the start time). */
export function reviewSyncScheduleId(integrationId: number): string {
  const scope = current?.settings.reviewSync?.idScope;
  return `review-sync:${integrationId}${scope ? `:${scope}` : ''}`;
}

/** What the Temporal UI shows of a review sync: who the integration belongs to and its name. */
export interface IntegrationLabel {
  owner: Owner;
  name: string;
}

export const integrationLabel = (i: { tenantId: number; customerId: number; organizationId: number; name: string }): IntegrationLabel => ({
  owner: { tenantId: i.tenantId, customerId: i.customerId, organizationId: i.organizationId },
  name: i.name,
});

/**
 * A bound on one review sync run, so a run no worker takes (its task queue renamed since it started) cannot keep the
 * schedule, whose overlap policy skips while a run goes, from starting another. A run is at most 500 pages of two
 * platform calls of up to 30 s each: just over four hours; a usual run takes seconds.
 */
const REVIEW_SYNC_RUN_TIMEOUT_MS = 6 * 60 * 60_000;

/**
 * Makes sure the integration's review sync schedule exists as configured (every REVIEW_SYNC_INTERVAL_MINUTES on
 * TEMPORAL_TASK_QUEUE, overlapping runs skipped; one that exists with another interval or queue is brought in line,
 * see `ensureSchedule`) and runs it once now: a new schedule starts at once, an existing one is triggered (skipped
 * while a run is still going). `triggerExisting: false` runs nothing more: the worker-start reconciliation, which so
 * brings every connected integration's schedule in line with the configuration at each worker start. Returns true
 * when the schedule was created.
 */
export async function ensureReviewSync(integrationId: number, opts: { triggerExisting?: boolean; label?: IntegrationLabel | null } = {}): Promise<boolean> {
  const { client, settings } = temporal();
  const scheduleId = reviewSyncScheduleId(integrationId);
  const every = storedEvery(settings.reviewSync?.intervalMs ?? 60 * 60_000);
  const outcome = await ensureSchedule<typeof syncReviews>(
    {
      scheduleId,
      spec: { intervals: [{ every }] },
      action: {
        type: 'startWorkflow',
        workflowType: 'syncReviews',
        workflowId: scheduleId,
        taskQueue: settings.taskQueue,
        args: [{ integrationId }],
        workflowRunTimeout: REVIEW_SYNC_RUN_TIMEOUT_MS,
        ...startMetadata(
          ownedBy(opts.label?.owner, 'review-sync', integrationId),
          opts.label ? `Review sync of ${opts.label.name} (integration ${integrationId})` : `Review sync of integration ${integrationId}`,
        ),
      },
      policies: { overlap: 'SKIP', catchupWindow: '1 minute' },
      state: { triggerImmediately: true },
    },
    isEvery(every),
  );
  if (outcome === 'created') return true;
  if (opts.triggerExisting ?? true) await client.schedule.getHandle(scheduleId).trigger('SKIP');
  return false;
}

/** Removes the integration's schedule (it was deleted or lost its sign-in); gone already is fine. */
export async function removeReviewSync(integrationId: number): Promise<void> {
  await deleteSchedule(reviewSyncScheduleId(integrationId));
}

/** Deletes a schedule; false when there was none. */
export async function deleteSchedule(scheduleId: string): Promise<boolean> {
  const { client } = temporal();
  try {
    await client.schedule.getHandle(scheduleId).delete();
    return true;
  } catch (e) {
    if (!(e instanceof ScheduleNotFoundError)) throw e;
    return false;
  }
}

/**
 * Creates a platform schedule (`created`), or brings the one that exists in line with `options` when `sameSpec` says
 * its spec differs or its action does (`updated`): its runs go to another task queue (a renamed TEMPORAL_TASK_QUEUE
 * would leave them to no worker), or start another workflow, arguments or run timeout (a release changed them); else
 * `unchanged`. Every API and worker process calls this at boot for the platform's schedules; review syncs call it
 * per integration (`ensureReviewSync`).
 */
export async function ensureSchedule<W extends Workflow>(
  options: ScheduleOptions<ScheduleOptionsStartWorkflowAction<W>>,
  sameSpec: (spec: ScheduleSpecDescription) => boolean,
): Promise<'created' | 'updated' | 'unchanged'> {
  const { client } = temporal();
  try {
    await client.schedule.create(options);
    return 'created';
  } catch (e) {
    if (!(e instanceof ScheduleAlreadyRunning)) throw e;
  }
  const handle = client.schedule.getHandle(options.scheduleId);
  const current = await handle.describe();
  if (sameSpec(current.spec) && sameAction(current.action, options.action)) return 'unchanged';
  await handle.update((previous) => ({ ...previous, spec: options.spec, action: options.action }));
  return 'updated';
}

/** Whether a described schedule action starts what `wanted` would: workflow, task queue, arguments and run timeout. */
function sameAction<W extends Workflow>(described: ScheduleDescriptionAction, wanted: ScheduleOptionsStartWorkflowAction<W>): boolean {
  const workflowType = typeof wanted.workflowType === 'string' ? wanted.workflowType : wanted.workflowType.name;
  // Arguments as the payload converter stores them (JSON: undefined properties dropped).
  const stored = (args: unknown): unknown => JSON.parse(JSON.stringify(args ?? []));
  return (
    described.type === 'startWorkflow' &&
    described.workflowType === workflowType &&
    described.taskQueue === wanted.taskQueue &&
    isDeepStrictEqual(stored(described.args), stored(wanted.args)) &&
    described.workflowRunTimeout === msOptionalToNumber(wanted.workflowRunTimeout)
  );
}

/** Temporal keeps intervals in whole seconds: what it will store of `ms`. */
export const storedEvery = (ms: number): number => Math.max(1, Math.round(ms / 1000)) * 1000;

/** Whether a described spec is the one interval `every` (ms, as stored) and nothing else. */
export const isEvery =
  (every: number) =>
  (spec: ScheduleSpecDescription): boolean => {
    const intervals = spec.intervals ?? [];
    return intervals.length === 1 && intervals[0].every === every && !spec.calendars?.length;
  };

/** The Temporal settings of a loaded configuration. */
export function temporalSettings(config: {
  TEMPORAL_NAMESPACE: string;
  TEMPORAL_TASK_QUEUE: string;
  WEBHOOK_MAX_ATTEMPTS: number;
  WEBHOOK_RETRY_INITIAL_MS: number;
  WEBHOOK_RETRY_MAX_INTERVAL_MS: number;
  WEBHOOK_TIMEOUT_MS: number;
  WEBHOOK_RETRY_WINDOW_MS?: number;
  OUTBOX_POLL_MS: number;
  INVITE_POLL_MS?: number;
  REVIEW_SYNC_INTERVAL_MINUTES?: number;
}, address: string): TemporalSettings {
  return {
    address,
    namespace: config.TEMPORAL_NAMESPACE,
    taskQueue: config.TEMPORAL_TASK_QUEUE,
    webhookRetry: {
      maximumAttempts: config.WEBHOOK_MAX_ATTEMPTS,
      initialIntervalMs: config.WEBHOOK_RETRY_INITIAL_MS,
      maximumIntervalMs: config.WEBHOOK_RETRY_MAX_INTERVAL_MS,
      timeoutMs: config.WEBHOOK_TIMEOUT_MS,
    },
    webhookRetryWindowMs: config.WEBHOOK_RETRY_WINDOW_MS ?? 10_000,
    dispatcher: { pollMs: config.OUTBOX_POLL_MS, batchSize: 100 },
    inviteDispatcher: { pollMs: config.INVITE_POLL_MS ?? 1_000, batchSize: 100 },
    reviewSync: { intervalMs: (config.REVIEW_SYNC_INTERVAL_MINUTES ?? 60) * 60_000 },
  };
}
