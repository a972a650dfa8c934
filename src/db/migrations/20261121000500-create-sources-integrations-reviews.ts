import type { Migration } from '../umzug';

export const up: Migration = async ({ context: sql }) => {
  await sql(`CREATE TABLE review_sources (
    id INT UNSIGNED NOT NULL AUTO_INCREMENT PRIMARY KEY,
    slug VARCHAR(64) NOT NULL,
    name VARCHAR(255) NOT NULL,
    url VARCHAR(2048) NOT NULL,
    kind ENUM('synced', 'testimonials', 'custom') NOT NULL,
    available TINYINT(1) NOT NULL DEFAULT 1,
    can_collect_reviews TINYINT(1) NOT NULL DEFAULT 0,
    deep_linking_supported TINYINT(1) NOT NULL DEFAULT 0,
    created_at DATETIME(3) NOT NULL,
    updated_at DATETIME(3) NOT NULL,
    UNIQUE KEY review_sources_slug_unique (slug)
  )`);
  await sql(`CREATE TABLE integrations (
    id INT UNSIGNED NOT NULL AUTO_INCREMENT PRIMARY KEY,
    tenant_id INT UNSIGNED NOT NULL,
    customer_id INT UNSIGNED NOT NULL,
    organization_id INT UNSIGNED NOT NULL,
    location_id INT UNSIGNED NOT NULL,
    source_id INT UNSIGNED NOT NULL,
    type ENUM('synced', 'testimonials', 'custom') NOT NULL,
    name VARCHAR(255) NOT NULL,
    external_id VARCHAR(255) NULL,
    created_at DATETIME(3) NOT NULL,
    updated_at DATETIME(3) NOT NULL,
    KEY integrations_location (location_id),
    KEY integrations_organization (organization_id),
    KEY integrations_tenant (tenant_id),
    CONSTRAINT integrations_location_fk FOREIGN KEY (location_id) REFERENCES locations (id) ON DELETE CASCADE,
    CONSTRAINT integrations_source_fk FOREIGN KEY (source_id) REFERENCES review_sources (id)
  )`);
  await sql(`CREATE TABLE reviews (
    id INT UNSIGNED NOT NULL AUTO_INCREMENT PRIMARY KEY,
    tenant_id INT UNSIGNED NOT NULL,
    customer_id INT UNSIGNED NOT NULL,
    organization_id INT UNSIGNED NOT NULL,
    location_id INT UNSIGNED NOT NULL,
    integration_id INT UNSIGNED NOT NULL,
    author VARCHAR(255) NOT NULL,
    rating TINYINT UNSIGNED NOT NULL,
    original_rating TINYINT UNSIGNED NOT NULL,
    title VARCHAR(255) NULL,
    message MEDIUMTEXT NOT NULL,
    published_at DATETIME(3) NOT NULL,
    avatar_file_id CHAR(36) NULL,
    avatar_url VARCHAR(2048) NULL,
    reply MEDIUMTEXT NULL,
    reply_date DATETIME(3) NULL,
    hidden TINYINT(1) NOT NULL DEFAULT 0,
    verified TINYINT(1) NOT NULL DEFAULT 0,
    identifier VARCHAR(255) NULL,
    url VARCHAR(2048) NULL,
    meta TEXT NULL,
    created_at DATETIME(3) NOT NULL,
    updated_at DATETIME(3) NOT NULL,
    KEY reviews_tenant_published (tenant_id, published_at, id),
    KEY reviews_customer_published (customer_id, published_at, id),
    KEY reviews_organization_published (organization_id, published_at, id),
    KEY reviews_location_published (location_id, published_at, id),
    KEY reviews_integration (integration_id),
    CONSTRAINT reviews_integration_fk FOREIGN KEY (integration_id) REFERENCES integrations (id) ON DELETE CASCADE
  )`);
};

export const down: Migration = async ({ context: sql }) => {
  await sql('DROP TABLE reviews');
  await sql('DROP TABLE integrations');
  await sql('DROP TABLE review_sources');
};
