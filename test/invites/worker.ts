import { randomUUID } from 'node:crypto';
import type { StepInput } from '../../src/messaging/delivery';
import { configureInviteDelivery, resetInviteDelivery, type InviteDeliverySettings } from '../../src/messaging/settings';
import { buildActivities } from '../../workflows/activities';
import { createInviteActivities, inviteActivityDeps } from '../../workflows/activities/invites';
import { connectTemporal, disconnectTemporal, ensureInviteDispatcher, inviteDispatcherWorkflowId, temporal, type TemporalSettings } from '../../workflows/client';
import { runWorker, type RunningWorker } from '../../workflows/worker';
import { testWorkflows } from '../support/workflow-bundle';
import { quietRuntime } from '../support/temporal';

/**
 * A real worker on the run's Temporal dev server (its own task queue) with the real activities and its invite
 * dispatcher running, and invite delivery shortened by configuration: a campaign "hour" is `hourMs`. `hooks.afterProviderAccepted` lets a test
 * make an attempt die right after the provider took a message (the crash window of at-most-once delivery).
 */
export interface InviteWorkerHooks {
  afterProviderAccepted?: (input: StepInput) => void | Promise<void>;
}

export function useInviteWorker(settings: Partial<InviteDeliverySettings> = {}) {
  const hooks: InviteWorkerHooks = {};
  const state: { worker: RunningWorker | null; settings: TemporalSettings | null } = { worker: null, settings: null };

  beforeAll(async () => {
    quietRuntime();
    process.env.WEBHOOK_ALLOW_PRIVATE_URLS = 'true'; // SMTP and SMS test servers live on loopback
    const address = process.env.REVIEWGRID_TEST_TEMPORAL;
    if (!address) throw new Error('no Temporal dev server: global setup sets REVIEWGRID_TEST_TEMPORAL');
    const taskQueue = `test-invites-${process.env.JEST_WORKER_ID ?? '1'}-${randomUUID().slice(0, 8)}`;
    configureInviteDelivery({ hourMs: 1_000, inFlightGraceMs: 500, ...settings });
    state.settings = {
      address,
      namespace: 'default',
      taskQueue,
      webhookRetry: { maximumAttempts: 3, initialIntervalMs: 20, maximumIntervalMs: 100, timeoutMs: 2_000 },
      dispatcher: { pollMs: 200, batchSize: 100 },
      inviteDispatcher: { pollMs: 200, batchSize: 100 },
    };
    await connectTemporal(state.settings);
    state.worker = await launch();
    await ensureInviteDispatcher();
  }, 60_000);

  function launch(): Promise<RunningWorker> {
    return runWorker({
      address: state.settings!.address,
      namespace: 'default',
      taskQueue: state.settings!.taskQueue,
      workflows: testWorkflows(),
      activities: {
        ...buildActivities({ WEBHOOK_TIMEOUT_MS: 2_000, WEBHOOK_ALLOW_PRIVATE_URLS: 'true' }),
        ...createInviteActivities(
          inviteActivityDeps({ afterProviderAccepted: (input) => hooks.afterProviderAccepted?.(input) }, { lingerMs: 300, pollMs: 50, budgetMs: 10_000 }),
        ),
      },
    });
  }

  afterAll(async () => {
    await temporal()
      .client.workflow.getHandle(inviteDispatcherWorkflowId(state.settings!.taskQueue))
      .terminate('test finished')
      .catch(() => undefined);
    await state.worker?.stop();
    await disconnectTemporal();
    resetInviteDelivery();
  }, 60_000);

  return {
    hooks,
    settings: () => state.settings!,
    /** Stops the worker (graceful): what happens meanwhile waits in Temporal for the next start. */
    async stop(): Promise<void> {
      await state.worker?.stop();
      state.worker = null;
    },
    async start(): Promise<void> {
      state.worker = await launch();
    },
    running: (): boolean => state.worker !== null,
  };
}
