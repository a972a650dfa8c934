import type { Migration } from '../umzug';

/**
 * Whether the agency calculates sales tax for its customers: when on, creating a customer needs `country`
 * (and `postal_code` for US/CA). Off by default (spec: POST /customers, conditional fields).
 */
export const up: Migration = async ({ context: sql }) => {
  await sql('ALTER TABLE tenants ADD COLUMN tax_calculation_enabled TINYINT(1) NOT NULL DEFAULT 0');
};

export const down: Migration = async ({ context: sql }) => {
  await sql('ALTER TABLE tenants DROP COLUMN tax_calculation_enabled');
};
