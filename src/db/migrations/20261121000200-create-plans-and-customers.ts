import type { Migration } from '../umzug';

export const up: Migration = async ({ context: sql }) => {
  await sql(`CREATE TABLE plans (
    id INT UNSIGNED NOT NULL AUTO_INCREMENT PRIMARY KEY,
    tenant_id INT UNSIGNED NOT NULL,
    name VARCHAR(255) NOT NULL,
    billing_monthly_id VARCHAR(255) NOT NULL DEFAULT '',
    billing_yearly_id VARCHAR(255) NOT NULL DEFAULT '',
    is_default TINYINT(1) NOT NULL DEFAULT 0,
    is_hidden TINYINT(1) NOT NULL DEFAULT 0,
    is_free TINYINT(1) NOT NULL DEFAULT 0,
    location_limit INT UNSIGNED NOT NULL DEFAULT 0,
    member_limit INT UNSIGNED NOT NULL DEFAULT 0,
    features TEXT NULL,
    created_at DATETIME(3) NOT NULL,
    updated_at DATETIME(3) NOT NULL,
    KEY plans_tenant (tenant_id),
    CONSTRAINT plans_tenant_fk FOREIGN KEY (tenant_id) REFERENCES tenants (id) ON DELETE CASCADE
  )`);
  await sql(`CREATE TABLE customers (
    id INT UNSIGNED NOT NULL AUTO_INCREMENT PRIMARY KEY,
    tenant_id INT UNSIGNED NOT NULL,
    name VARCHAR(255) NOT NULL,
    email VARCHAR(255) NOT NULL,
    phone VARCHAR(32) NULL,
    language VARCHAR(16) NOT NULL DEFAULT 'en',
    plan_id INT UNSIGNED NULL,
    location_limit INT UNSIGNED NULL,
    member_limit INT UNSIGNED NULL,
    subscription_status ENUM('active', 'paused', 'canceled') NOT NULL DEFAULT 'active',
    trial_ends_at DATETIME(3) NULL,
    country CHAR(2) NULL,
    postal_code VARCHAR(32) NULL,
    created_at DATETIME(3) NOT NULL,
    updated_at DATETIME(3) NOT NULL,
    KEY customers_tenant (tenant_id),
    CONSTRAINT customers_tenant_fk FOREIGN KEY (tenant_id) REFERENCES tenants (id) ON DELETE CASCADE,
    CONSTRAINT customers_plan_fk FOREIGN KEY (plan_id) REFERENCES plans (id) ON DELETE SET NULL
  )`);
};

export const down: Migration = async ({ context: sql }) => {
  await sql('DROP TABLE customers');
  await sql('DROP TABLE plans');
};
