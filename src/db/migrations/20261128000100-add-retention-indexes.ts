import type { Migration } from '../umzug';

/**
 * Indexes the data retention purge selects by (src/jobs/retention.ts), so each batch reads only the
 * rows it deletes instead of scanning the table: finished deliveries by last change, audit entries by time,
 * inbound submissions by arrival. (`outbox_events (dispatched_at, id)` serves the outbox already.)
 */
export const up: Migration = async ({ context: sql }) => {
  await sql('ALTER TABLE webhook_deliveries ADD KEY webhook_deliveries_status_updated (status, updated_at)');
  await sql('ALTER TABLE mcp_audit_log ADD KEY mcp_audit_log_created (created_at)');
  await sql('ALTER TABLE inbound_submissions ADD KEY inbound_submissions_received (received_at)');
};

export const down: Migration = async ({ context: sql }) => {
  await sql('ALTER TABLE inbound_submissions DROP KEY inbound_submissions_received');
  await sql('ALTER TABLE mcp_audit_log DROP KEY mcp_audit_log_created');
  await sql('ALTER TABLE webhook_deliveries DROP KEY webhook_deliveries_status_updated');
};
