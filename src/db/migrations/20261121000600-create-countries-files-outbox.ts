import type { Migration } from '../umzug';

export const up: Migration = async ({ context: sql }) => {
  await sql(`CREATE TABLE countries (
    id CHAR(2) NOT NULL PRIMARY KEY,
    name VARCHAR(255) NOT NULL
  )`);
  await sql(`CREATE TABLE stored_files (
    id CHAR(36) NOT NULL PRIMARY KEY,
    tenant_id INT UNSIGNED NOT NULL,
    purpose VARCHAR(32) NOT NULL,
    filename VARCHAR(255) NOT NULL,
    content_type VARCHAR(64) NOT NULL,
    size INT UNSIGNED NOT NULL,
    sha256 CHAR(64) NOT NULL,
    content MEDIUMBLOB NOT NULL,
    created_at DATETIME(3) NOT NULL,
    KEY stored_files_tenant (tenant_id)
  )`);
  await sql(`CREATE TABLE outbox_events (
    id BIGINT UNSIGNED NOT NULL AUTO_INCREMENT PRIMARY KEY,
    tenant_id INT UNSIGNED NOT NULL,
    customer_id INT UNSIGNED NULL,
    event VARCHAR(64) NOT NULL,
    aggregate_type VARCHAR(32) NOT NULL,
    aggregate_id VARCHAR(64) NOT NULL,
    payload LONGTEXT NOT NULL,
    occurred_at DATETIME(3) NOT NULL,
    dispatched_at DATETIME(3) NULL,
    KEY outbox_events_pending (dispatched_at, id)
  )`);
};

export const down: Migration = async ({ context: sql }) => {
  await sql('DROP TABLE outbox_events');
  await sql('DROP TABLE stored_files');
  await sql('DROP TABLE countries');
};
