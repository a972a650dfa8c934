import type { Migration } from '../umzug';

/**
 * An invite step's claim carries a token of its own (a random UUID), as the monthly report mail's does (migration
 * 20261211000100): set by the claim (the `sending` row) and replaced by a take-over of a stale claim. The attempt that
 * holds it undoes (deletes) the row or records a refusal only while the row is still `sending` under its token, so an
 * attempt that stalled past the in-flight grace and then fails no longer removes the take-over's claim (nor puts a
 * first step back to `scheduled` for a third attempt to send). Rows from before have none (NULL).
 */
export const up: Migration = async ({ context: sql }) => {
  await sql('ALTER TABLE invite_messages ADD COLUMN claim_token CHAR(36) NULL AFTER status');
};

export const down: Migration = async ({ context: sql }) => {
  await sql('ALTER TABLE invite_messages DROP COLUMN claim_token');
};
