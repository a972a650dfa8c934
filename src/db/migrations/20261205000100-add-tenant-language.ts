import type { Migration } from '../umzug';

/**
 * The agency's language (ISO 639-1, one of the six the pages and mail speak): new customer accounts take it unless
 * they are given one, and pages that know only the agency speak it.
 */
export const up: Migration = async ({ context: sql }) => {
  await sql(`ALTER TABLE tenants ADD COLUMN language VARCHAR(8) NOT NULL DEFAULT 'en' AFTER logo_url`);
};

export const down: Migration = async ({ context: sql }) => {
  await sql('ALTER TABLE tenants DROP COLUMN language');
};
