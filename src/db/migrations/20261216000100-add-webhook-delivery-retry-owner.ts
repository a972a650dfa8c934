import type { Migration } from '../umzug';

/**
 * The run that retries a delivery (`retry_owner`: its workflow id). A receiver's retry run claims each delivery at its
 * first round (only when no other run holds it), and a redelivery takes it over for its `webhook:<id>` run, so a
 * delivery handed to two runs (a dispatcher batch whose hand-over failed after the signal went through, claimed again
 * in a later window) is POSTed on one schedule, not two. Rows from before have none (NULL): the first run to try them
 * claims them.
 */
export const up: Migration = async ({ context: sql }) => {
  await sql('ALTER TABLE webhook_deliveries ADD COLUMN retry_owner VARCHAR(128) NULL AFTER attempts');
};

export const down: Migration = async ({ context: sql }) => {
  await sql('ALTER TABLE webhook_deliveries DROP COLUMN retry_owner');
};
