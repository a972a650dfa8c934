import type { Transaction } from 'sequelize';
import { nudgeDispatcher } from '../../workflows/client';
import { systemClock, type Clock } from '../domain/clock';
import type { WebhookEvent } from '../domain/events';
import { OutboxEvent } from '../models';

export interface OutboxEventInput {
  tenantId: number;
  /** The account owning the record: its receivers get the event. */
  customerId: number | null;
  event: WebhookEvent;
  aggregateType: string;
  aggregateId: string | number;
  /** The webhook body without `webhook_event`, which is added first. */
  payload: Record<string, unknown>;
}

/** Transactions that already wake the dispatcher once committed (one nudge per transaction is enough). */
const nudging = new WeakSet<Transaction>();

/**
 * Writes an event in the caller's transaction (the transactional outbox): it exists exactly when the change
 * does. Once the transaction commits, the dispatcher is nudged so the event leaves at once rather than at
 * its next poll; never before the commit (it would find nothing), never after a rollback, and a failed nudge
 * changes nothing (the dispatcher polls anyway).
 */
export async function writeEvent(
  transaction: Transaction,
  input: OutboxEventInput,
  opts: { clock?: Clock } = {},
): Promise<OutboxEvent> {
  const row = await OutboxEvent.create(
    {
      tenantId: input.tenantId,
      customerId: input.customerId,
      event: input.event,
      aggregateType: input.aggregateType,
      aggregateId: String(input.aggregateId),
      payload: { webhook_event: input.event, ...withoutEvent(input.payload) },
      occurredAt: (opts.clock ?? systemClock).now(),
      dispatchedAt: null,
    },
    { transaction },
  );
  if (!nudging.has(transaction)) {
    nudging.add(transaction);
    transaction.afterCommit(() => {
      nudgeDispatcher().catch(() => undefined);
    });
  }
  return row;
}

function withoutEvent(payload: Record<string, unknown>): Record<string, unknown> {
  const { webhook_event: _ignored, ...rest } = payload;
  return rest;
}
