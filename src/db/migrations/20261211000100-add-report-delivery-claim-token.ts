import type { Migration } from '../umzug';

/**
 * A monthly report mail's claim carries a token of its own (a random UUID, set by the claim and again by a take-over
 * in the statement that finds the claim stale), and the attempt that holds it releases (deletes) or marks (`sent`) the
 * row only while the token is still its own: an attempt whose claim was taken over no longer deletes the take-over's
 * claim when its send fails. Rows from before have none (NULL), as do rows a late mark inserts.
 */
export const up: Migration = async ({ context: sql }) => {
  await sql('ALTER TABLE report_deliveries ADD COLUMN claim_token CHAR(36) NULL AFTER status');
};

export const down: Migration = async ({ context: sql }) => {
  await sql('ALTER TABLE report_deliveries DROP COLUMN claim_token');
};
