import type { Migration } from '../umzug';

/**
 * The agency's brand colour (`#rrggbb`, null: the platform's neutral palette): reports draw their header band and
 * charts' own series in it, beside the agency's name and logo.
 */
export const up: Migration = async ({ context: sql }) => {
  await sql(`ALTER TABLE tenants ADD COLUMN brand_color CHAR(7) NULL AFTER logo_url`);
};

export const down: Migration = async ({ context: sql }) => {
  await sql('ALTER TABLE tenants DROP COLUMN brand_color');
};
