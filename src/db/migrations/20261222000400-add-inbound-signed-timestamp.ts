import { hasColumn } from '../schema-probe';
import type { Migration } from '../umzug';

/**
 * `inbound_submissions.signed_timestamp`: the `X-Webhook-Timestamp` (Unix seconds) of a submission whose signature
 * covered it (a connection with a signing secret; NULL otherwise). The timestamp is accepted up to 5 minutes either
 * side of the server clock, so one signed request stays valid for up to 10 minutes, while identical bodies are only
 * a double fire for 5 minutes: a captured request replayed later in its window was processed again. The same
 * timestamp and body arriving again while the timestamp is valid is now a `duplicate` (docs/decisions/review-requests.md,
 * "Inbound contact webhook"). The double-fire index `(connection_id, payload_hash, received_at)` serves that look-up
 * too, so no index is added.
 *
 * Re-runnable both ways: each direction changes the table only when information_schema says it is still to do.
 */

export const up: Migration = async ({ context: sql }) => {
  if (!(await hasColumn(sql, 'inbound_submissions', 'signed_timestamp'))) await sql('ALTER TABLE inbound_submissions ADD COLUMN signed_timestamp INT UNSIGNED NULL AFTER payload_hash');
};

export const down: Migration = async ({ context: sql }) => {
  if (await hasColumn(sql, 'inbound_submissions', 'signed_timestamp')) await sql('ALTER TABLE inbound_submissions DROP COLUMN signed_timestamp');
};
