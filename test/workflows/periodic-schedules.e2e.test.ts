import { randomUUID } from 'node:crypto';
import { ensureSearchAttributes } from '../../src/temporal/search-attributes';
import { connectTemporal, deleteSchedule, disconnectTemporal, ensureReviewSync, reviewSyncScheduleId, temporal } from '../../workflows/client';
import { configureGbpSync, ensureGbpSyncSchedule, gbpSyncScheduleId } from '../../workflows/gbp/client';
import { configureScanEngine, ensureScanScheduleTick, scanTickScheduleId } from '../../workflows/scans/client';
import { testServerSettings } from '../support/temporal-server';

/**
 * The periodic schedules every boot ensures (the scan tick, the business-profile sweep, each integration's review
 * sync) follow the configuration on the real Temporal dev server: a process that boots with another interval or a
 * renamed TEMPORAL_TASK_QUEUE brings the schedule that exists in line, one that boots with the same settings leaves it
 * alone. No worker polls either queue: the tests read what Temporal holds.
 */
jest.setTimeout(60_000);

const MINUTE = 60_000;

describe('periodic schedules brought in line with the configuration', () => {
  const scope = `periodic-${randomUUID().slice(0, 8)}`;
  const oldQueue = `${scope}-old`;
  const renamedQueue = `${scope}-renamed`;
  const scheduleIds: string[] = [];

  /** Connects as a process booting with TEMPORAL_TASK_QUEUE `taskQueue` and REVIEW_SYNC_INTERVAL_MINUTES `reviewSyncMinutes`. */
  async function boot(taskQueue: string, reviewSyncMinutes = 60): Promise<void> {
    await disconnectTemporal();
    await connectTemporal(testServerSettings(taskQueue, { reviewSync: { intervalMs: reviewSyncMinutes * MINUTE, idScope: scope } }));
  }

  const describeSchedule = (scheduleId: string) => temporal().client.schedule.getHandle(scheduleId).describe();

  beforeAll(async () => {
    await boot(oldQueue);
    // The schedules' actions carry the platform's search attributes: the shared dev server must know them.
    await ensureSearchAttributes(temporal().client, 'default');
  });
  afterAll(async () => {
    // Runs started on a queue no worker polls would wait there until their run timeout.
    for (const scheduleId of scheduleIds) {
      const d = await describeSchedule(scheduleId).catch(() => null);
      for (const run of d?.info.runningActions ?? []) {
        await temporal().client.workflow.getHandle(run.workflow.workflowId, run.workflow.firstExecutionRunId).terminate('test finished').catch(() => undefined);
      }
      await deleteSchedule(scheduleId);
    }
    await disconnectTemporal();
  });

  it('moves the scan tick to the renamed task queue and its new interval, with a run timeout, and reports unchanged after', async () => {
    configureScanEngine({ idScope: scope, tickEveryMs: 15 * MINUTE });
    scheduleIds.push(scanTickScheduleId());
    expect(await ensureScanScheduleTick()).toBe('created');

    await boot(renamedQueue);
    configureScanEngine({ tickEveryMs: 10 * MINUTE });
    expect(await ensureScanScheduleTick()).toBe('updated');
    const d = await describeSchedule(scanTickScheduleId());
    expect(d.spec.intervals).toEqual([expect.objectContaining({ every: 10 * MINUTE })]);
    expect(d.action).toMatchObject({ type: 'startWorkflow', workflowType: 'scanScheduleTick', taskQueue: renamedQueue, workflowRunTimeout: 30 * MINUTE });
    expect(d.policies.overlap).toBe('SKIP');

    expect(await ensureScanScheduleTick()).toBe('unchanged');
  });

  it('gives a scan tick an earlier release created (no run timeout) its run timeout', async () => {
    configureScanEngine({ idScope: `${scope}-earlier`, tickEveryMs: 15 * MINUTE });
    const scheduleId = scanTickScheduleId();
    scheduleIds.push(scheduleId);
    await temporal().client.schedule.create({
      scheduleId,
      spec: { intervals: [{ every: 15 * MINUTE }] },
      action: { type: 'startWorkflow', workflowType: 'scanScheduleTick', workflowId: scheduleId, taskQueue: temporal().settings.taskQueue, args: [] },
      policies: { overlap: 'SKIP', catchupWindow: '1 minute' },
    });

    expect(await ensureScanScheduleTick()).toBe('updated');
    expect((await describeSchedule(scheduleId)).action).toMatchObject({ taskQueue: temporal().settings.taskQueue, workflowRunTimeout: 30 * MINUTE });
    expect(await ensureScanScheduleTick()).toBe('unchanged');
  });

  it('moves gbp-performance-sync to the renamed task queue and the new GBP_SYNC_INTERVAL_MINUTES, and leaves it alone after', async () => {
    await boot(oldQueue);
    configureGbpSync({ idScope: scope, intervalMs: 360 * MINUTE });
    scheduleIds.push(gbpSyncScheduleId());
    expect(await ensureGbpSyncSchedule()).toBe(true);

    await boot(renamedQueue);
    configureGbpSync({ intervalMs: 120 * MINUTE });
    expect(await ensureGbpSyncSchedule()).toBe(false);
    const d = await describeSchedule(gbpSyncScheduleId());
    expect(d.spec.intervals).toEqual([expect.objectContaining({ every: 120 * MINUTE })]);
    expect(d.action).toMatchObject({
      type: 'startWorkflow',
      workflowType: 'syncGbpPerformanceSweep',
      taskQueue: renamedQueue,
      args: [{ idScope: scope }],
      workflowRunTimeout: 24 * 60 * MINUTE,
    });
    const updatedAt = d.info.lastUpdatedAt;
    expect(updatedAt).toBeInstanceOf(Date);

    expect(await ensureGbpSyncSchedule()).toBe(false);
    expect((await describeSchedule(gbpSyncScheduleId())).info.lastUpdatedAt).toEqual(updatedAt);
  });

  it("brings an integration's review-sync schedule to the renamed task queue and the new REVIEW_SYNC_INTERVAL_MINUTES when the worker start ensures it", async () => {
    await boot(oldQueue, 60);
    const integrationId = 7;
    scheduleIds.push(reviewSyncScheduleId(integrationId));
    expect(await ensureReviewSync(integrationId, { triggerExisting: false })).toBe(true);

    await boot(renamedQueue, 30);
    expect(await ensureReviewSync(integrationId, { triggerExisting: false })).toBe(false);
    const d = await describeSchedule(reviewSyncScheduleId(integrationId));
    expect(d.spec.intervals).toEqual([expect.objectContaining({ every: 30 * MINUTE })]);
    expect(d.action).toMatchObject({
      type: 'startWorkflow',
      workflowType: 'syncReviews',
      taskQueue: renamedQueue,
      args: [{ integrationId }],
      workflowRunTimeout: 6 * 60 * MINUTE,
    });
    const updatedAt = d.info.lastUpdatedAt;
    expect(updatedAt).toBeInstanceOf(Date);

    expect(await ensureReviewSync(integrationId, { triggerExisting: false })).toBe(false);
    expect((await describeSchedule(reviewSyncScheduleId(integrationId))).info.lastUpdatedAt).toEqual(updatedAt);
  });
});
