import type { Migration } from '../umzug';

/**
 * Local Search Grid scans (spec: Scan). A scan is the agency's: tenant-scoped, optionally tied to a customer
 * account and a location. `owner_customer_id` is the tenant owner's own account, whose webhook receivers get
 * scan-completed / scan-failed. `pin_version` counts geometry changes: pins of older versions stay, so earlier
 * snapshots remain queryable. `current_run_id` names the run in flight (`scan-run:<uuid>:<run id>`).
 */
export const up: Migration = async ({ context: sql }) => {
  await sql(`CREATE TABLE scans (
    id INT UNSIGNED NOT NULL AUTO_INCREMENT PRIMARY KEY,
    uuid CHAR(36) NOT NULL,
    tenant_id INT UNSIGNED NOT NULL,
    owner_customer_id INT UNSIGNED NULL,
    customer_id INT UNSIGNED NULL,
    location_id INT UNSIGNED NULL,
    location VARCHAR(255) NOT NULL,
    address VARCHAR(500) NULL,
    keywords TEXT NOT NULL,
    grid_size TINYINT UNSIGNED NOT NULL,
    distance DOUBLE NOT NULL,
    distance_unit ENUM('km', 'miles') NOT NULL,
    type ENUM('business', 'sab') NOT NULL DEFAULT 'business',
    target_place_id VARCHAR(255) NULL,
    lat DOUBLE NOT NULL,
    lng DOUBLE NOT NULL,
    pin_version INT UNSIGNED NOT NULL DEFAULT 1,
    is_running TINYINT(1) NOT NULL DEFAULT 0,
    current_run_id CHAR(36) NULL,
    last_run_at DATETIME(3) NULL,
    last_run_failed TINYINT(1) NOT NULL DEFAULT 0,
    last_error VARCHAR(500) NULL,
    next_run_at DATETIME(3) NULL,
    archived_at DATETIME(3) NULL,
    is_scheduled TINYINT(1) NOT NULL DEFAULT 0,
    frequency ENUM('weekly', 'bi-weekly', 'monthly') NULL,
    scheduled_from CHAR(5) NULL,
    scheduled_to CHAR(5) NULL,
    scheduled_days VARCHAR(64) NULL,
    timezone VARCHAR(64) NULL,
    created_at DATETIME(3) NOT NULL,
    updated_at DATETIME(3) NOT NULL,
    UNIQUE KEY scans_uuid (uuid),
    KEY scans_tenant_created (tenant_id, created_at, id),
    KEY scans_due (is_scheduled, next_run_at),
    CONSTRAINT scans_tenant_fk FOREIGN KEY (tenant_id) REFERENCES tenants (id) ON DELETE CASCADE,
    CONSTRAINT scans_location_fk FOREIGN KEY (location_id) REFERENCES locations (id) ON DELETE SET NULL
  )`);
};

export const down: Migration = async ({ context: sql }) => {
  await sql('DROP TABLE scans');
};
