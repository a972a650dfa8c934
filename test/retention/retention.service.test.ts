import { randomUUID } from 'node:crypto';
import { Op } from 'sequelize';
import { loadConfig } from '../../src/config';
import { fixedClock } from '../../src/domain/clock';
import { InboundConnection, InboundSubmission, McpAuditEntry, OutboxEvent, WebhookAttempt, WebhookDelivery, WebhookEndpoint } from '../../src/models';
import { purgeExpired, retentionCutoff, retentionDays } from '../../src/jobs/retention';
import type { RetentionKind } from '../../workflows/retention/kinds';
import { useDatabase } from '../support/db';
import { makeWorld } from '../support/factories';
import { makeCampaign, makeConnection } from '../inbound/support';
import { retentionRows } from './support';

const DAY = 24 * 60 * 60 * 1000;

/**
 * Data retention against the real MariaDB, time from a fixed clock: rows past their kind's age go in bounded batches,
 * younger ones stay, and what is still in use (undispatched events, deliveries whose workflow may run) is never touched.
 */
describe('data retention purge (service)', () => {
  // No undispatched event or receiver of this file is left for later files (their dispatcher would deliver them).
  afterAll(async () => {
    await WebhookEndpoint.destroy({ where: { url: { [Op.like]: 'https://retention.example/%' } } });
    await OutboxEvent.update({ dispatchedAt: new Date() }, { where: { dispatchedAt: null } });
  });
  const db = useDatabase();
  const clock = fixedClock(new Date('2031-03-15T12:00:00.000Z'));
  const ago = (days: number, extraMs = 0) => new Date(clock.now().getTime() - days * DAY - extraMs);

  const rows = retentionRows(() => world, db);
  const { stamp } = rows;

  /** Other files' rows stay in this worker's database: a test that counts exactly starts from a purged slate. */
  async function slate(kind: RetentionKind, days: number): Promise<void> {
    await purgeExpired(kind, { now: clock.now(), days });
  }

  let world: Awaited<ReturnType<typeof makeWorld>>;
  beforeAll(async () => {
    world = await makeWorld();
  });

  const outboxEvent = (dispatchedAt: Date | null, occurredAt: Date = dispatchedAt ?? ago(100)) => rows.outboxEvent(dispatchedAt, occurredAt, { retention: true });

  async function endpoint(): Promise<WebhookEndpoint> {
    return WebhookEndpoint.create({
      tenantId: world.tenant.id,
      customerId: world.org.customerId,
      url: `https://retention.example/${randomUUID()}`,
      secret: 'whsec_retention',
      enabled: true,
    });
  }

  async function delivery(
    to: WebhookEndpoint,
    status: 'pending' | 'succeeded' | 'failed',
    updatedAt: Date,
    opts: { eventId?: number; attempts?: number } = {},
  ): Promise<string> {
    const at = { createdAt: new Date(updatedAt.getTime() - 60_000), updatedAt };
    return rows.delivery(to, status, at, { eventId: opts.eventId ?? (await outboxEvent(ago(400))), attempts: opts.attempts });
  }

  const exists = async (model: { count(o: { where: Record<string, unknown> }): Promise<number> }, ids: Array<number | string>) =>
    (await model.count({ where: { id: { [Op.in]: ids } } })) === ids.length;

  describe('settings', () => {
    it('documents defaults of 7 / 30 / 365 / 30 days and 1,000 rows per batch', () => {
      const c = loadConfig({});
      expect(retentionDays(c)).toEqual({ outbox: 7, webhookDeliveries: 30, mcpAudit: 365, inboundSubmissions: 30 });
      expect(c.RETENTION_BATCH_SIZE).toBe(1000);
      expect(c.RETENTION_INTERVAL_MINUTES).toBe(1440);
    });

    it('refuses a negative age or a batch of 0 with a clear configuration error', () => {
      expect(() => loadConfig({ RETENTION_MCP_AUDIT_DAYS: '-1' })).toThrow(/RETENTION_MCP_AUDIT_DAYS/);
      expect(() => loadConfig({ RETENTION_BATCH_SIZE: '0' })).toThrow(/RETENTION_BATCH_SIZE/);
      expect(() => loadConfig({ RETENTION_OUTBOX_DAYS: 'week' })).toThrow(/RETENTION_OUTBOX_DAYS/);
    });

    it('measures the cutoff from the given time; 0 days has none (keep forever)', () => {
      expect(retentionCutoff(clock.now(), 7)).toEqual(new Date('2031-03-08T12:00:00.000Z'));
      expect(retentionCutoff(clock.now(), 0)).toBeNull();
    });
  });

  describe('outbox events', () => {
    it('deletes events dispatched before the cutoff, keeps younger ones and every undispatched one', async () => {
      const old = await outboxEvent(ago(8));
      const justInside = await outboxEvent(ago(7, -1_000)); // dispatched one second after the cutoff
      const young = await outboxEvent(ago(1));
      const undispatchedOld = await outboxEvent(null, ago(90));

      const r = await purgeExpired('outbox', { now: clock.now(), days: 7 });

      expect(r.cutoff).toBe('2031-03-08T12:00:00.000Z');
      expect(r.deleted).toBeGreaterThanOrEqual(1);
      expect(await OutboxEvent.findByPk(old)).toBeNull();
      expect(await exists(OutboxEvent, [justInside, young, undispatchedOld])).toBe(true);
      await OutboxEvent.update({ dispatchedAt: ago(0) }, { where: { id: undispatchedOld } });
    });

    it('deletes in batches of the given size and loops until nothing old is left', async () => {
      await slate('outbox', 7);
      const ids: number[] = [];
      for (let i = 0; i < 25; i++) ids.push(await outboxEvent(ago(10, i * 1000)));
      const keep = await outboxEvent(ago(2));
      const batches: number[] = [];

      const r = await purgeExpired('outbox', { now: clock.now(), days: 7, batchSize: 10, onBatch: (n) => batches.push(n) });

      expect(r).toMatchObject({ deleted: 25, batches: 3, more: false });
      expect(batches).toEqual([10, 20, 25]);
      expect(await OutboxEvent.count({ where: { id: { [Op.in]: ids } } })).toBe(0);
      expect(await OutboxEvent.findByPk(keep)).not.toBeNull();
    });

    it('stops at maxBatches with `more`, and the next call finishes the job', async () => {
      await slate('outbox', 7);
      for (let i = 0; i < 25; i++) await outboxEvent(ago(10));

      const first = await purgeExpired('outbox', { now: clock.now(), days: 7, batchSize: 10, maxBatches: 2 });
      expect(first).toMatchObject({ deleted: 20, batches: 2, more: true });
      const second = await purgeExpired('outbox', { now: clock.now(), days: 7, batchSize: 10, maxBatches: 2 });
      expect(second).toMatchObject({ deleted: 5, batches: 1, more: false });
    });

    it('keeps everything when the age is 0 (keep forever)', async () => {
      const ancient = await outboxEvent(ago(3000));
      const r = await purgeExpired('outbox', { now: clock.now(), days: 0 });
      expect(r).toEqual({ kind: 'outbox', cutoff: null, deleted: 0, batches: 0, more: false });
      expect(await OutboxEvent.findByPk(ancient)).not.toBeNull();
    });
  });

  describe('webhook deliveries', () => {
    it('deletes finished deliveries (succeeded, failed) last changed before the cutoff, with their attempts', async () => {
      const to = await endpoint();
      const succeeded = await delivery(to, 'succeeded', ago(31), { attempts: 2 });
      const failed = await delivery(to, 'failed', ago(45), { attempts: 11 });
      const young = await delivery(to, 'succeeded', ago(29));

      await purgeExpired('webhookDeliveries', { now: clock.now(), days: 30 });

      expect(await WebhookDelivery.count({ where: { id: { [Op.in]: [succeeded, failed] } } })).toBe(0);
      expect(await WebhookAttempt.count({ where: { deliveryId: { [Op.in]: [succeeded, failed] } } })).toBe(0);
      expect(await WebhookDelivery.findByPk(young)).not.toBeNull();
      expect(await WebhookAttempt.count({ where: { deliveryId: young } })).toBe(1);
    });

    it('keeps a pending delivery however old: its retry workflow may still run', async () => {
      const to = await endpoint();
      const pending = await delivery(to, 'pending', ago(400), { attempts: 3 });
      await purgeExpired('webhookDeliveries', { now: clock.now(), days: 30 });
      expect(await WebhookDelivery.findByPk(pending)).not.toBeNull();
      expect(await WebhookAttempt.count({ where: { deliveryId: pending } })).toBe(3);
    });

    it('measures age from the last change: an old delivery redelivered recently stays', async () => {
      const to = await endpoint();
      const redelivered = await delivery(to, 'succeeded', ago(2));
      await stamp('webhook_deliveries', redelivered, { created_at: ago(200) });
      await purgeExpired('webhookDeliveries', { now: clock.now(), days: 30 });
      expect(await WebhookDelivery.findByPk(redelivered)).not.toBeNull();
    });

    it('keeps a finished delivery whose outbox event is still undispatched (a re-claim would send it again)', async () => {
      const to = await endpoint();
      const event = await outboxEvent(null, ago(60));
      const d = await delivery(to, 'succeeded', ago(60), { eventId: event });
      await purgeExpired('webhookDeliveries', { now: clock.now(), days: 30 });
      expect(await WebhookDelivery.findByPk(d)).not.toBeNull();

      await OutboxEvent.update({ dispatchedAt: ago(59) }, { where: { id: event } });
      await purgeExpired('webhookDeliveries', { now: clock.now(), days: 30 });
      expect(await WebhookDelivery.findByPk(d)).toBeNull();
    });

    it('keeps the delivery log when its age is 0', async () => {
      const to = await endpoint();
      const d = await delivery(to, 'failed', ago(1000));
      await purgeExpired('webhookDeliveries', { now: clock.now(), days: 0 });
      expect(await WebhookDelivery.findByPk(d)).not.toBeNull();
    });
  });

  describe('MCP audit entries', () => {
    const entry = (createdAt: Date) => rows.auditEntry(createdAt, { method: 'tools/call', tool: 'list_reviews', durationMs: 3 });

    it('deletes entries older than the age, in batches, and keeps younger ones', async () => {
      await slate('mcpAudit', 365);
      const old = [await entry(ago(366)), await entry(ago(500)), await entry(ago(365, 1))];
      const young = [await entry(ago(364)), await entry(ago(0))];

      const r = await purgeExpired('mcpAudit', { now: clock.now(), days: 365, batchSize: 2 });

      expect(r).toMatchObject({ deleted: 3, batches: 2, more: false });
      expect(await McpAuditEntry.count({ where: { id: { [Op.in]: old } } })).toBe(0);
      expect(await exists(McpAuditEntry, young)).toBe(true);
    });
  });

  describe('inbound submissions', () => {
    it('deletes submissions received before the cutoff unless their send time is still ahead of it', async () => {
      const campaign = await makeCampaign(world.org, world.home);
      const { view } = await makeConnection(world.orgOwner, campaign);
      const conn = (await InboundConnection.findOne({ where: { uuid: view.id } }))!;
      const submission = async (receivedAt: Date, sendAt: Date | null) =>
        Number(
          (
            await InboundSubmission.create({
              tenantId: conn.tenantId,
              connectionId: conn.id,
              customerId: conn.customerId,
              payloadHash: randomUUID().replace(/-/g, '').padEnd(64, '0'),
              outcome: 'accepted',
              reason: null,
              contactId: null,
              inviteId: null,
              sendAt,
              receivedAt,
            })
          ).id,
        );
      const old = await submission(ago(31), null);
      const oldSent = await submission(ago(40), ago(35));
      const young = await submission(ago(5), null);
      const oldButSendsLater = await submission(ago(31), ago(-2)); // an appointment-anchored send still ahead

      await purgeExpired('inboundSubmissions', { now: clock.now(), days: 30 });

      expect(await InboundSubmission.count({ where: { id: { [Op.in]: [old, oldSent] } } })).toBe(0);
      expect(await exists(InboundSubmission, [young, oldButSendsLater])).toBe(true);
    });
  });
});
