import type { Migration } from '../umzug';

/** The pins of each geometry version of a scan (row 0 = north edge, col 0 = west edge). */
export const up: Migration = async ({ context: sql }) => {
  await sql(`CREATE TABLE scan_pins (
    id INT UNSIGNED NOT NULL AUTO_INCREMENT PRIMARY KEY,
    scan_id INT UNSIGNED NOT NULL,
    version INT UNSIGNED NOT NULL,
    \`row\` TINYINT UNSIGNED NOT NULL,
    col TINYINT UNSIGNED NOT NULL,
    lat DOUBLE NOT NULL,
    lng DOUBLE NOT NULL,
    UNIQUE KEY scan_pins_position (scan_id, version, \`row\`, col),
    CONSTRAINT scan_pins_scan_fk FOREIGN KEY (scan_id) REFERENCES scans (id) ON DELETE CASCADE
  )`);
};

export const down: Migration = async ({ context: sql }) => {
  await sql('DROP TABLE scan_pins');
};
