import { hasIndex } from '../schema-probe';
import type { Migration } from '../umzug';

/**
 * `outbox_events (dispatched_at, tenant_id, id)`: the dispatcher shares each claimed batch between the tenants with
 * events waiting (src/jobs/webhook-delivery.ts, `pendingEvents`), so one tenant's burst no longer holds every other
 * tenant's first attempts behind it. It finds the tenants waiting (one index dive each: the next tenant id after the
 * last) and reads each one's oldest events through this index. `(dispatched_at, id)` still serves the oldest-first
 * claim.
 *
 * Re-runnable both ways: each direction changes the table only when information_schema says it is still to do.
 */

export const up: Migration = async ({ context: sql }) => {
  if (!(await hasIndex(sql, 'outbox_events', 'outbox_events_tenant_pending'))) await sql('ALTER TABLE outbox_events ADD KEY outbox_events_tenant_pending (dispatched_at, tenant_id, id)');
};

export const down: Migration = async ({ context: sql }) => {
  if (await hasIndex(sql, 'outbox_events', 'outbox_events_tenant_pending')) await sql('ALTER TABLE outbox_events DROP KEY outbox_events_tenant_pending');
};
