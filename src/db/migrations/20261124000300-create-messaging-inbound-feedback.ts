import type { Migration } from '../umzug';

/**
 * - `messaging_settings`: the account's own sending accounts, one row per channel (SMTP for email, a
 *   Twilio-style SMS account, a messaging-app sender); `config` is non-secret JSON, `secret_encrypted` the
 *   password / auth token under APP_KEY.
 * - `inbound_connections`: the inbound contact webhook of a campaign: endpoint token (regenerable; the old one
 *   stops at once), optional signing secret, payload-path mapping and timing options (JSON).
 * - `inbound_submissions`: every POST received, its payload hash (double-fire window), outcome and, when
 *   accepted, the invite it scheduled.
 * - `private_feedback`: what a low-rating customer sends through the feedback form; `meta` mirrors the raw form.
 */
export const up: Migration = async ({ context: sql }) => {
  await sql(`CREATE TABLE messaging_settings (
    id INT UNSIGNED NOT NULL AUTO_INCREMENT PRIMARY KEY,
    tenant_id INT UNSIGNED NOT NULL,
    customer_id INT UNSIGNED NOT NULL,
    channel ENUM('email', 'sms', 'messaging') NOT NULL,
    config TEXT NOT NULL,
    secret_encrypted TEXT NULL,
    created_at DATETIME(3) NOT NULL,
    updated_at DATETIME(3) NOT NULL,
    UNIQUE KEY messaging_settings_channel (customer_id, channel),
    CONSTRAINT messaging_settings_customer_fk FOREIGN KEY (customer_id) REFERENCES customers (id) ON DELETE CASCADE
  )`);
  await sql(`CREATE TABLE inbound_connections (
    id INT UNSIGNED NOT NULL AUTO_INCREMENT PRIMARY KEY,
    uuid CHAR(36) NOT NULL,
    tenant_id INT UNSIGNED NOT NULL,
    customer_id INT UNSIGNED NOT NULL,
    campaign_id INT UNSIGNED NOT NULL,
    name VARCHAR(255) NOT NULL,
    endpoint_token CHAR(64) NOT NULL,
    signing_secret_encrypted TEXT NULL,
    mapping TEXT NOT NULL,
    timing TEXT NOT NULL,
    created_at DATETIME(3) NOT NULL,
    updated_at DATETIME(3) NOT NULL,
    UNIQUE KEY inbound_connections_uuid (uuid),
    UNIQUE KEY inbound_connections_token (endpoint_token),
    CONSTRAINT inbound_connections_customer_fk FOREIGN KEY (customer_id) REFERENCES customers (id) ON DELETE CASCADE,
    CONSTRAINT inbound_connections_campaign_fk FOREIGN KEY (campaign_id) REFERENCES campaigns (id) ON DELETE CASCADE
  )`);
  await sql(`CREATE TABLE inbound_submissions (
    id BIGINT UNSIGNED NOT NULL AUTO_INCREMENT PRIMARY KEY,
    connection_id INT UNSIGNED NOT NULL,
    customer_id INT UNSIGNED NOT NULL,
    payload_hash CHAR(64) NOT NULL,
    outcome ENUM('accepted', 'duplicate', 'skipped', 'ignored') NOT NULL,
    reason VARCHAR(255) NULL,
    contact_id INT UNSIGNED NULL,
    invite_id BIGINT UNSIGNED NULL,
    send_at DATETIME(3) NULL,
    received_at DATETIME(3) NOT NULL,
    KEY inbound_submissions_hash (connection_id, payload_hash, received_at),
    CONSTRAINT inbound_submissions_connection_fk FOREIGN KEY (connection_id) REFERENCES inbound_connections (id) ON DELETE CASCADE,
    CONSTRAINT inbound_submissions_customer_fk FOREIGN KEY (customer_id) REFERENCES customers (id) ON DELETE CASCADE
  )`);
  await sql(`CREATE TABLE private_feedback (
    id INT UNSIGNED NOT NULL AUTO_INCREMENT PRIMARY KEY,
    tenant_id INT UNSIGNED NOT NULL,
    customer_id INT UNSIGNED NOT NULL,
    organization_id INT UNSIGNED NOT NULL,
    location_id INT UNSIGNED NOT NULL,
    campaign_id INT UNSIGNED NULL,
    contact_id INT UNSIGNED NULL,
    invite_id BIGINT UNSIGNED NULL,
    rating TINYINT UNSIGNED NOT NULL,
    author VARCHAR(255) NOT NULL DEFAULT '',
    email VARCHAR(255) NOT NULL DEFAULT '',
    phone VARCHAR(32) NOT NULL DEFAULT '',
    message TEXT NOT NULL,
    reply TEXT NULL,
    reply_date DATETIME(3) NULL,
    source VARCHAR(32) NOT NULL,
    source_name VARCHAR(255) NOT NULL,
    meta TEXT NOT NULL,
    created_at DATETIME(3) NOT NULL,
    updated_at DATETIME(3) NOT NULL,
    KEY private_feedback_location (location_id, created_at, id),
    KEY private_feedback_customer (customer_id, created_at, id),
    CONSTRAINT private_feedback_customer_fk FOREIGN KEY (customer_id) REFERENCES customers (id) ON DELETE CASCADE,
    CONSTRAINT private_feedback_org_fk FOREIGN KEY (organization_id) REFERENCES organizations (id) ON DELETE CASCADE,
    CONSTRAINT private_feedback_location_fk FOREIGN KEY (location_id) REFERENCES locations (id) ON DELETE CASCADE,
    CONSTRAINT private_feedback_campaign_fk FOREIGN KEY (campaign_id) REFERENCES campaigns (id) ON DELETE SET NULL,
    CONSTRAINT private_feedback_contact_fk FOREIGN KEY (contact_id) REFERENCES contacts (id) ON DELETE SET NULL
  )`);
};

export const down: Migration = async ({ context: sql }) => {
  await sql('DROP TABLE private_feedback');
  await sql('DROP TABLE inbound_submissions');
  await sql('DROP TABLE inbound_connections');
  await sql('DROP TABLE messaging_settings');
};
