import type { Migration } from '../umzug';

/**
 * The provider's answer at one pin for one snapshot (its keyword). UNIQUE (snapshot, pin): a resumed or retried
 * run upserts, never duplicates. `top_results` holds the top 20 as `[{place_id, name, rank}]`.
 */
export const up: Migration = async ({ context: sql }) => {
  await sql(`CREATE TABLE scan_results (
    id BIGINT UNSIGNED NOT NULL AUTO_INCREMENT PRIMARY KEY,
    snapshot_id INT UNSIGNED NOT NULL,
    pin_id INT UNSIGNED NOT NULL,
    lat DOUBLE NOT NULL,
    lng DOUBLE NOT NULL,
    target_rank TINYINT UNSIGNED NULL,
    top_results MEDIUMTEXT NOT NULL,
    status VARCHAR(16) NOT NULL DEFAULT 'complete',
    created_at DATETIME(3) NOT NULL,
    updated_at DATETIME(3) NOT NULL,
    UNIQUE KEY scan_results_snapshot_pin (snapshot_id, pin_id),
    CONSTRAINT scan_results_snapshot_fk FOREIGN KEY (snapshot_id) REFERENCES scan_snapshots (id) ON DELETE CASCADE,
    CONSTRAINT scan_results_pin_fk FOREIGN KEY (pin_id) REFERENCES scan_pins (id) ON DELETE CASCADE
  )`);
};

export const down: Migration = async ({ context: sql }) => {
  await sql('DROP TABLE scan_results');
};
