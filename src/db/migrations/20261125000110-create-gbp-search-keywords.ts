import type { Migration } from '../umzug';

/**
 * Business-profile search keywords: per location and calendar month, the keyword's impressions (`impressions`)
 * or, when Google masked a low count, the threshold it lies below (`threshold`, `below_threshold` = 1).
 * Keywords compare byte-wise (utf8mb4_bin): "Dentist" and "dentist" are two keywords, as Google reports them.
 */
export const up: Migration = async ({ context: sql }) => {
  await sql(`CREATE TABLE gbp_search_keywords (
    id BIGINT UNSIGNED NOT NULL AUTO_INCREMENT PRIMARY KEY,
    tenant_id INT UNSIGNED NOT NULL,
    customer_id INT UNSIGNED NOT NULL,
    organization_id INT UNSIGNED NOT NULL,
    location_id INT UNSIGNED NOT NULL,
    year SMALLINT UNSIGNED NOT NULL,
    month TINYINT UNSIGNED NOT NULL,
    keyword VARCHAR(255) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL,
    impressions BIGINT UNSIGNED NULL,
    threshold BIGINT UNSIGNED NULL,
    below_threshold TINYINT(1) NOT NULL DEFAULT 0,
    created_at DATETIME(3) NOT NULL,
    updated_at DATETIME(3) NOT NULL,
    UNIQUE KEY gbp_search_keywords_location_month_keyword (location_id, year, month, keyword),
    KEY gbp_search_keywords_customer (customer_id),
    CONSTRAINT gbp_search_keywords_location_fk FOREIGN KEY (location_id) REFERENCES locations (id) ON DELETE CASCADE,
    CONSTRAINT gbp_search_keywords_customer_fk FOREIGN KEY (customer_id) REFERENCES customers (id) ON DELETE CASCADE
  )`);
};

export const down: Migration = async ({ context: sql }) => {
  await sql('DROP TABLE gbp_search_keywords');
};
