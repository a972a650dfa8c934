import { randomUUID } from 'node:crypto';
import { QueryTypes } from 'sequelize';
import type { Sequelize } from 'sequelize-typescript';
import { McpAuditEntry, OutboxEvent } from '../../src/models';
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

  return { stamp, outboxEvent, auditEntry };
}
