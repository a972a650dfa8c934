import type { Migration } from '../umzug';

/**
 * Review-request campaigns (spec: Campaign, Endpoints > Campaigns and invites). A contact list belongs to an
 * account and may be shared by several campaigns; contacts are matched by email or phone within their list,
 * so campaigns sharing a list return the same contact id. A campaign's send window is `HH:MM` in UTC
 * (null = any time); `steps` is the JSON array of channel steps (email, sms, messaging) with their delays and
 * templates. Every row cascades with its account.
 */
export const up: Migration = async ({ context: sql }) => {
  await sql(`CREATE TABLE contact_lists (
    id INT UNSIGNED NOT NULL AUTO_INCREMENT PRIMARY KEY,
    uuid CHAR(36) NOT NULL,
    tenant_id INT UNSIGNED NOT NULL,
    customer_id INT UNSIGNED NOT NULL,
    organization_id INT UNSIGNED NULL,
    name VARCHAR(255) NOT NULL,
    created_at DATETIME(3) NOT NULL,
    updated_at DATETIME(3) NOT NULL,
    UNIQUE KEY contact_lists_uuid (uuid),
    KEY contact_lists_customer (customer_id, id),
    CONSTRAINT contact_lists_customer_fk FOREIGN KEY (customer_id) REFERENCES customers (id) ON DELETE CASCADE,
    CONSTRAINT contact_lists_org_fk FOREIGN KEY (organization_id) REFERENCES organizations (id) ON DELETE CASCADE
  )`);
  await sql(`CREATE TABLE campaigns (
    id INT UNSIGNED NOT NULL AUTO_INCREMENT PRIMARY KEY,
    uuid CHAR(36) NOT NULL,
    tenant_id INT UNSIGNED NOT NULL,
    customer_id INT UNSIGNED NOT NULL,
    organization_id INT UNSIGNED NOT NULL,
    location_id INT UNSIGNED NOT NULL,
    contact_list_id INT UNSIGNED NOT NULL,
    name VARCHAR(255) NOT NULL,
    send_window_start CHAR(5) NULL,
    send_window_end CHAR(5) NULL,
    send_after_hours INT UNSIGNED NOT NULL DEFAULT 0,
    duplicate_window_days INT UNSIGNED NOT NULL DEFAULT 14,
    steps TEXT NOT NULL,
    review_url VARCHAR(2048) NULL,
    feedback_threshold TINYINT UNSIGNED NOT NULL DEFAULT 3,
    paused_at DATETIME(3) NULL,
    created_at DATETIME(3) NOT NULL,
    updated_at DATETIME(3) NOT NULL,
    UNIQUE KEY campaigns_uuid (uuid),
    KEY campaigns_customer (customer_id, organization_id, id),
    CONSTRAINT campaigns_customer_fk FOREIGN KEY (customer_id) REFERENCES customers (id) ON DELETE CASCADE,
    CONSTRAINT campaigns_org_fk FOREIGN KEY (organization_id) REFERENCES organizations (id) ON DELETE CASCADE,
    CONSTRAINT campaigns_location_fk FOREIGN KEY (location_id) REFERENCES locations (id) ON DELETE CASCADE,
    CONSTRAINT campaigns_list_fk FOREIGN KEY (contact_list_id) REFERENCES contact_lists (id)
  )`);
  await sql(`CREATE TABLE contacts (
    id INT UNSIGNED NOT NULL AUTO_INCREMENT PRIMARY KEY,
    uuid CHAR(36) NOT NULL,
    tenant_id INT UNSIGNED NOT NULL,
    customer_id INT UNSIGNED NOT NULL,
    contact_list_id INT UNSIGNED NOT NULL,
    first_name VARCHAR(255) NULL,
    last_name VARCHAR(255) NULL,
    email VARCHAR(255) NULL,
    phone VARCHAR(32) NULL,
    unsubscribed_at DATETIME(3) NULL,
    created_at DATETIME(3) NOT NULL,
    updated_at DATETIME(3) NOT NULL,
    UNIQUE KEY contacts_uuid (uuid),
    UNIQUE KEY contacts_list_email (contact_list_id, email),
    UNIQUE KEY contacts_list_phone (contact_list_id, phone),
    KEY contacts_customer (customer_id, created_at, id),
    CONSTRAINT contacts_customer_fk FOREIGN KEY (customer_id) REFERENCES customers (id) ON DELETE CASCADE,
    CONSTRAINT contacts_list_fk FOREIGN KEY (contact_list_id) REFERENCES contact_lists (id) ON DELETE CASCADE
  )`);
};

export const down: Migration = async ({ context: sql }) => {
  await sql('DROP TABLE contacts');
  await sql('DROP TABLE campaigns');
  await sql('DROP TABLE contact_lists');
};
