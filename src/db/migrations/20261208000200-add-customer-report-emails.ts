import type { Migration } from '../umzug';

/**
 * Whether an account's owners get the monthly report by mail: on by default (existing active accounts included), as
 * an agency's white-label report is a service its customers expect; each account owner turns it off through GraphQL.
 */
export const up: Migration = async ({ context: sql }) => {
  await sql(`ALTER TABLE customers ADD COLUMN report_emails TINYINT(1) NOT NULL DEFAULT 1 AFTER language`);
};

export const down: Migration = async ({ context: sql }) => {
  await sql('ALTER TABLE customers DROP COLUMN report_emails');
};
