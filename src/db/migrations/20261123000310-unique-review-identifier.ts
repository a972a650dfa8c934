import type { Migration } from '../umzug';

/**
 * A synced review is found again by its id at the platform: one row per (integration, identifier). Written
 * reviews have no identifier (NULL), and NULLs never collide in a unique key.
 */
export const up: Migration = async ({ context: sql }) => {
  await sql('ALTER TABLE reviews ADD UNIQUE KEY reviews_integration_identifier (integration_id, identifier)');
};

export const down: Migration = async ({ context: sql }) => {
  await sql('ALTER TABLE reviews DROP KEY reviews_integration_identifier');
};
