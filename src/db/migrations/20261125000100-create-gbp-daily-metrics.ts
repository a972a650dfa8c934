import type { Migration } from '../umzug';

/**
 * Business-profile performance: one row per location, day and Google daily metric (BUSINESS_IMPRESSIONS_*,
 * CALL_CLICKS, WEBSITE_CLICKS, BUSINESS_DIRECTION_REQUESTS), upserted by the periodic sync. The owner columns are
 * denormalised like on reviews; rows go with their location (and account) by FK cascade.
 */
export const up: Migration = async ({ context: sql }) => {
  await sql(`CREATE TABLE gbp_daily_metrics (
    id BIGINT UNSIGNED NOT NULL AUTO_INCREMENT PRIMARY KEY,
    tenant_id INT UNSIGNED NOT NULL,
    customer_id INT UNSIGNED NOT NULL,
    organization_id INT UNSIGNED NOT NULL,
    location_id INT UNSIGNED NOT NULL,
    date DATE NOT NULL,
    metric VARCHAR(64) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
    value BIGINT UNSIGNED NOT NULL DEFAULT 0,
    created_at DATETIME(3) NOT NULL,
    updated_at DATETIME(3) NOT NULL,
    UNIQUE KEY gbp_daily_metrics_location_date_metric (location_id, date, metric),
    KEY gbp_daily_metrics_customer (customer_id),
    CONSTRAINT gbp_daily_metrics_location_fk FOREIGN KEY (location_id) REFERENCES locations (id) ON DELETE CASCADE,
    CONSTRAINT gbp_daily_metrics_customer_fk FOREIGN KEY (customer_id) REFERENCES customers (id) ON DELETE CASCADE
  )`);
};

export const down: Migration = async ({ context: sql }) => {
  await sql('DROP TABLE gbp_daily_metrics');
};
