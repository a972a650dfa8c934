import type { Migration } from '../umzug';

/**
 * Installation-wide settings, one row per name. First use: `app_key_check`, a MAC of a fixed text under the
 * APP_KEY, so a process that starts with another key (a second API or worker without the shared key, a lost key
 * file) refuses to start instead of writing secrets no other process can read.
 */
export const up: Migration = async ({ context: sql }) => {
  await sql(`CREATE TABLE system_settings (
    name VARCHAR(64) NOT NULL PRIMARY KEY,
    value VARCHAR(255) NOT NULL,
    updated_at DATETIME(3) NOT NULL
  )`);
};

export const down: Migration = async ({ context: sql }) => {
  await sql('DROP TABLE system_settings');
};
