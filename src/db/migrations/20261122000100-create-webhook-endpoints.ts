import type { Migration } from '../umzug';

/** Receivers of outbound webhooks, per customer account ("API and webhooks" settings). */
export const up: Migration = async ({ context: sql }) => {
  await sql(`CREATE TABLE webhook_endpoints (
    id INT UNSIGNED NOT NULL AUTO_INCREMENT PRIMARY KEY,
    tenant_id INT UNSIGNED NOT NULL,
    customer_id INT UNSIGNED NOT NULL,
    url VARCHAR(2048) NOT NULL,
    description VARCHAR(255) NULL,
    secret VARCHAR(128) NOT NULL,
    previous_secret VARCHAR(128) NULL,
    previous_secret_expires_at DATETIME(3) NULL,
    enabled TINYINT(1) NOT NULL DEFAULT 1,
    created_at DATETIME(3) NOT NULL,
    updated_at DATETIME(3) NOT NULL,
    KEY webhook_endpoints_customer (customer_id, enabled),
    KEY webhook_endpoints_tenant (tenant_id),
    CONSTRAINT webhook_endpoints_customer_fk FOREIGN KEY (customer_id) REFERENCES customers (id) ON DELETE CASCADE
  )`);
};

export const down: Migration = async ({ context: sql }) => {
  await sql('DROP TABLE webhook_endpoints');
};
