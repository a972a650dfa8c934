import type { Migration } from '../umzug';

/** Per-receiver event filters (issue 15): the events a receiver subscribes to, as a JSON array; NULL = every event. */
export const up: Migration = async ({ context: sql }) => {
  await sql('ALTER TABLE webhook_endpoints ADD COLUMN events TEXT NULL');
};

export const down: Migration = async ({ context: sql }) => {
  await sql('ALTER TABLE webhook_endpoints DROP COLUMN events');
};
