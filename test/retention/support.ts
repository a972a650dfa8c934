import { randomUUID } from 'node:crypto';
import { QueryTypes } from 'sequelize';
import type { Sequelize } from 'sequelize-typescript';
import { McpAuditEntry, OutboxEvent, WebhookAttempt, WebhookDelivery, type WebhookEndpoint } from '../../src/models';
import type { makeWorld } from '../support/factories';

type World = Awaited<ReturnType<typeof makeWorld>>;

/** The log rows the retention tests age, in the world's tenant, with the timestamps a test gives them. */
export function retentionRows(world: () => World, db: () => Sequelize) {
  /** Sets a row's timestamp columns directly (Sequelize would stamp its own createdAt/updatedAt). */
  async function stamp(table: string, id: number | string, columns: Record<string, Date | null>): Promise<void> {
    const set = Object.keys(columns).map((c) => `${c} = :${c}`).join(', ');
    await db().query(`UPDATE ${table} SET ${set} WHERE id = :id`, { replacements: { ...columns, id }, type: QueryTypes.UPDATE });
  }

  async function outboxEvent(dispatchedAt: Date | null, occurredAt: Date, payload: Record<string, unknown> = {}): Promise<number> {
    const e = await OutboxEvent.create({
      tenantId: world().tenant.id,
      customerId: world().org.customerId,
      event: 'location-updated',
      aggregateType: 'location',
      aggregateId: String(world().home.id),
      payload,
      occurredAt,
      dispatchedAt,
    });
    return Number(e.id);
  }

  async function auditEntry(createdAt: Date, call: { method: string; tool: string | null; durationMs: number }): Promise<number> {
    const e = await McpAuditEntry.create({
      tenantId: world().tenant.id,
      tokenId: 1,
      userId: world().owner.id,
      ...call,
      arguments: null,
      piiUnlocked: false,
      resultCode: 0,
      errorReason: null,
      correlationId: randomUUID(),
      requestId: null,
    });
    await stamp('mcp_audit_log', Number(e.id), { created_at: createdAt });
    return Number(e.id);
  }

  /** A delivery of event `eventId` to `to` with `attempts` attempts (default 1), created and last updated at the times given. */
  async function delivery(
    to: WebhookEndpoint,
    status: 'pending' | 'succeeded' | 'failed',
    at: { createdAt: Date; updatedAt: Date },
    opts: { eventId: number; attempts?: number },
  ): Promise<string> {
    const id = randomUUID();
    const attempts = opts.attempts ?? 1;
    await WebhookDelivery.create({
      id,
      tenantId: world().tenant.id,
      customerId: world().orgOwner.customerId!,
      endpointId: to.id,
      outboxEventId: opts.eventId,
      event: 'location-updated',
      payload: '{}',
      status,
      attempts,
    });
    for (let n = 1; n <= attempts; n++) {
      await WebhookAttempt.create({ tenantId: world().tenant.id, deliveryId: id, attempt: n, statusCode: status === 'succeeded' ? 200 : 500, latencyMs: 5, error: null, responseExcerpt: null });
    }
    await stamp('webhook_deliveries', id, { created_at: at.createdAt, updated_at: at.updatedAt });
    return id;
  }

  return { stamp, outboxEvent, auditEntry, delivery };
}
