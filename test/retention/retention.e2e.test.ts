import { randomUUID } from 'node:crypto';
import { TypedSearchAttributes } from '@temporalio/common';
import { Op } from 'sequelize';
import { McpAuditEntry, OutboxEvent, WebhookAttempt, WebhookDelivery, WebhookEndpoint } from '../../src/models';
import { RG_KIND, ensureSearchAttributes } from '../../src/temporal/search-attributes';
import { temporal } from '../../workflows/client';
import { configureRetention, ensureRetentionSchedule, removeRetentionSchedule, retentionScheduleId } from '../../workflows/retention/client';
import type { RetentionResult } from '../../workflows/retention/purge.workflow';
import { useDatabase } from '../support/db';
import { useEnv } from '../support/env';
import { makeWorld } from '../support/factories';
import { recordHistory, useTemporalWorker } from '../support/temporal';
import { waitUntil } from '../support/wait';
import { retentionRows } from './support';

const DAY = 24 * 60 * 60 * 1000;

/**
 * Data retention on the real Temporal dev server: the `retention-purge` schedule is created idempotently (its interval
 * follows the configuration), and its `purgeExpiredData` runs delete old log rows from MariaDB through the worker's
 * activity, with ages measured from the workflow's time and the worker's RETENTION_* settings.
 */
jest.setTimeout(120_000);

describe('data retention on Temporal', () => {
  afterAll(async () => {
    await WebhookEndpoint.destroy({ where: { url: { [Op.like]: 'https://retention-e2e.example/%' } } });
    await OutboxEvent.update({ dispatchedAt: new Date() }, { where: { dispatchedAt: null } });
  });
  const db = useDatabase();
  const worker = useTemporalWorker();
  const ENV = { RETENTION_OUTBOX_DAYS: '7', RETENTION_WEBHOOK_DELIVERIES_DAYS: '30', RETENTION_MCP_AUDIT_DAYS: '90', RETENTION_BATCH_SIZE: '1000' };
  useEnv(ENV);
  let world: Awaited<ReturnType<typeof makeWorld>>;

  beforeAll(async () => {
    // The schedule's action carries the platform's search attributes: the shared dev server must know them.
    await ensureSearchAttributes(temporal().client, worker.settings().namespace);
    configureRetention({ idScope: worker.settings().taskQueue, everyMs: 24 * 60 * 60_000, input: {} });
    world = await makeWorld();
  });
  afterAll(async () => {
    await removeRetentionSchedule().catch(() => undefined);
  });

  const ago = (days: number) => new Date(Date.now() - days * DAY);

  const rows = retentionRows(() => world, db);
  const outboxEvent = (dispatchedAt: Date | null) => rows.outboxEvent(dispatchedAt, dispatchedAt ?? ago(50));
  const auditEntry = (createdAt: Date) => rows.auditEntry(createdAt, { method: 'tools/list', tool: null, durationMs: 1 });

  const delivery = async (to: WebhookEndpoint, status: 'pending' | 'succeeded' | 'failed', updatedAt: Date) =>
    rows.delivery(to, status, { createdAt: updatedAt, updatedAt }, { eventId: await outboxEvent(ago(1)) });

  it('creates the schedule once (daily, overlap skip, tagged for the UI) and updates its interval when the configuration changes', async () => {
    const { client } = temporal();
    expect(await ensureRetentionSchedule()).toBe('created');
    expect(await ensureRetentionSchedule()).toBe('unchanged');
    const handle = client.schedule.getHandle(retentionScheduleId());
    let d = await handle.describe();
    expect(d.spec.intervals).toEqual([expect.objectContaining({ every: 24 * 60 * 60_000 })]);
    expect(d.policies.overlap).toBe('SKIP');
    expect(d.action).toMatchObject({ type: 'startWorkflow', workflowType: 'purgeExpiredData', taskQueue: worker.settings().taskQueue });
    if (d.action.type !== 'startWorkflow') throw new Error('not a workflow action');
    const attributes = d.action.typedSearchAttributes;
    const kind = attributes instanceof TypedSearchAttributes ? attributes.get(RG_KIND) : attributes?.find((p) => p.key.name === RG_KIND.name)?.value;
    expect(kind).toBe('retention');
    expect(d.action.staticSummary).toMatch(/^Data retention: purge/);

    configureRetention({ everyMs: 12 * 60 * 60_000 });
    expect(await ensureRetentionSchedule()).toBe('updated');
    d = await handle.describe();
    expect(d.spec.intervals).toEqual([expect.objectContaining({ every: 12 * 60 * 60_000 })]);
    expect(d.policies.overlap).toBe('SKIP');
    expect(await ensureRetentionSchedule()).toBe('unchanged');
  });

  it('a triggered run deletes the old log rows and keeps young, undispatched and in-flight ones', async () => {
    const to = await WebhookEndpoint.create({
      tenantId: world.tenant.id,
      customerId: world.org.customerId,
      url: `https://retention-e2e.example/${randomUUID()}`,
      secret: 'whsec_retention',
      enabled: true,
    });
    const oldEvent = await outboxEvent(ago(8));
    const youngEvent = await outboxEvent(ago(6));
    const undispatched = await outboxEvent(null);
    const oldDelivery = await delivery(to, 'succeeded', ago(31));
    const pendingDelivery = await delivery(to, 'pending', ago(31));
    const youngDelivery = await delivery(to, 'failed', ago(29));
    const oldAudit = await auditEntry(ago(91));
    const youngAudit = await auditEntry(ago(89));

    await ensureRetentionSchedule();
    const handle = temporal().client.schedule.getHandle(retentionScheduleId());
    await handle.trigger();

    await waitUntil(async () => (await OutboxEvent.findByPk(oldEvent)) === null && (await McpAuditEntry.findByPk(oldAudit)) === null);
    // The run that did it finished, and reports what it deleted.
    let runId: string | undefined;
    await waitUntil(async () => {
      const action = (await handle.describe()).info.recentActions[0]?.action;
      runId = action?.workflow.workflowId;
      return runId !== undefined;
    });
    const result = (await temporal().client.workflow.getHandle(runId!).result()) as RetentionResult;
    expect(result.outbox.deleted).toBeGreaterThanOrEqual(1);
    expect(result.webhookDeliveries.deleted).toBeGreaterThanOrEqual(1);
    expect(result.mcpAudit.deleted).toBeGreaterThanOrEqual(1);
    expect(new Date(result.mcpAudit.cutoff!).getTime()).toBeGreaterThan(ago(91).getTime());

    expect(await WebhookDelivery.findByPk(oldDelivery)).toBeNull();
    expect(await WebhookAttempt.count({ where: { deliveryId: oldDelivery } })).toBe(0);
    expect(await WebhookDelivery.count({ where: { id: { [Op.in]: [pendingDelivery, youngDelivery] } } })).toBe(2);
    expect(await OutboxEvent.count({ where: { id: { [Op.in]: [youngEvent, undispatched] } } })).toBe(2);
    expect(await McpAuditEntry.findByPk(youngAudit)).not.toBeNull();
    await OutboxEvent.update({ dispatchedAt: new Date() }, { where: { id: undispatched } });
  });

  it('works through a backlog in bounded activity calls (RETENTION_BATCH_SIZE rows per statement)', async () => {
    process.env.RETENTION_BATCH_SIZE = '4';
    try {
      const { client, settings } = temporal();
      // Nothing else old is left from earlier tests: the counts below are this test's rows.
      await client.workflow.execute('purgeExpiredData', { workflowId: `retention-drain:${randomUUID()}`, taskQueue: settings.taskQueue, args: [{}] });
      const ids: number[] = [];
      for (let i = 0; i < 10; i++) ids.push(await outboxEvent(ago(20)));

      const workflowId = `retention-backlog:${randomUUID()}`;
      const result = (await client.workflow.execute('purgeExpiredData', {
        workflowId,
        taskQueue: settings.taskQueue,
        args: [{ maxBatchesPerActivity: 1 }],
      })) as RetentionResult;

      expect(result.outbox).toMatchObject({ deleted: 10, batches: 3 });
      expect(await OutboxEvent.count({ where: { id: { [Op.in]: ids } } })).toBe(0);
      // One batch per activity call: three calls for the outbox (4 + 4 + 2), one for each other kind.
      const history = await client.workflow.getHandle(workflowId).fetchHistory();
      const scheduled = (history.events ?? []).filter((e) => e.activityTaskScheduledEventAttributes);
      expect(scheduled).toHaveLength(3 + 3);
      await recordHistory(workflowId, 'retention-purge-backlog');
    } finally {
      process.env.RETENTION_BATCH_SIZE = ENV.RETENTION_BATCH_SIZE;
    }
  });
});
