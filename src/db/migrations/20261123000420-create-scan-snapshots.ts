import type { Migration } from '../umzug';

/**
 * One snapshot per run and keyword. `snapshot_at` is the run's start; the summary columns are filled when the
 * run completes (status `completed`); a failed run leaves its snapshots `failed` (never listed).
 */
export const up: Migration = async ({ context: sql }) => {
  await sql(`CREATE TABLE scan_snapshots (
    id INT UNSIGNED NOT NULL AUTO_INCREMENT PRIMARY KEY,
    scan_id INT UNSIGNED NOT NULL,
    run_id CHAR(36) NOT NULL,
    keyword VARCHAR(100) NOT NULL,
    pin_version INT UNSIGNED NOT NULL,
    snapshot_at DATETIME(3) NOT NULL,
    status ENUM('running', 'completed', 'failed') NOT NULL DEFAULT 'running',
    avg_rank DOUBLE NULL,
    top_3_count INT UNSIGNED NULL,
    top_10_count INT UNSIGNED NULL,
    below_top_10_count INT UNSIGNED NULL,
    not_ranking_count INT UNSIGNED NULL,
    total_pins INT UNSIGNED NULL,
    visibility_score DOUBLE NULL,
    change_from_previous DOUBLE NULL,
    completed_at DATETIME(3) NULL,
    created_at DATETIME(3) NOT NULL,
    updated_at DATETIME(3) NOT NULL,
    UNIQUE KEY scan_snapshots_run_keyword (scan_id, run_id, keyword),
    KEY scan_snapshots_scan_status_at (scan_id, status, snapshot_at),
    CONSTRAINT scan_snapshots_scan_fk FOREIGN KEY (scan_id) REFERENCES scans (id) ON DELETE CASCADE
  )`);
};

export const down: Migration = async ({ context: sql }) => {
  await sql('DROP TABLE scan_snapshots');
};
