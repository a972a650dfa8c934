import type { Migration } from '../umzug';

/**
 * Invite delivery claims a campaign step before it talks to the provider: the `(invite_id, step_index)` row is
 * written first as `sending` (with the credit taken, in one transaction), then set to `sent` or `failed` once
 * the provider answered. A retried activity that finds a `sending` row does not send again (at most once per
 * step; see docs/decisions/review-requests.md, "Review requests: delivery").
 */
export const up: Migration = async ({ context: sql }) => {
  await sql("ALTER TABLE invite_messages MODIFY status ENUM('sending', 'sent', 'failed') NOT NULL");
};

export const down: Migration = async ({ context: sql }) => {
  await sql("DELETE FROM invite_messages WHERE status = 'sending'");
  await sql("ALTER TABLE invite_messages MODIFY status ENUM('sent', 'failed') NOT NULL");
};
