import type { Migration } from '../umzug';

/** When a synced integration last fetched its reviews, and why the last attempt failed (null after a success). */
export const up: Migration = async ({ context: sql }) => {
  await sql(`ALTER TABLE integrations
    ADD COLUMN last_synced_at DATETIME(3) NULL,
    ADD COLUMN last_sync_error VARCHAR(1000) NULL`);
};

export const down: Migration = async ({ context: sql }) => {
  await sql('ALTER TABLE integrations DROP COLUMN last_sync_error, DROP COLUMN last_synced_at');
};
