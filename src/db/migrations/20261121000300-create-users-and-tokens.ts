import type { Migration } from '../umzug';

export const up: Migration = async ({ context: sql }) => {
  await sql(`CREATE TABLE users (
    id INT UNSIGNED NOT NULL AUTO_INCREMENT PRIMARY KEY,
    tenant_id INT UNSIGNED NOT NULL,
    customer_id INT UNSIGNED NULL,
    email VARCHAR(255) NOT NULL,
    name VARCHAR(255) NOT NULL,
    password_hash VARCHAR(255) NULL,
    role ENUM('tenant_owner', 'organization_owner', 'team_member') NOT NULL,
    dashboard_location_id INT UNSIGNED NULL,
    created_at DATETIME(3) NOT NULL,
    updated_at DATETIME(3) NOT NULL,
    UNIQUE KEY users_tenant_email_unique (tenant_id, email),
    KEY users_customer (customer_id),
    KEY users_dashboard_location (dashboard_location_id),
    CONSTRAINT users_tenant_fk FOREIGN KEY (tenant_id) REFERENCES tenants (id) ON DELETE CASCADE,
    CONSTRAINT users_customer_fk FOREIGN KEY (customer_id) REFERENCES customers (id) ON DELETE CASCADE
  )`);
  await sql(`CREATE TABLE api_tokens (
    id INT UNSIGNED NOT NULL AUTO_INCREMENT PRIMARY KEY,
    tenant_id INT UNSIGNED NOT NULL,
    user_id INT UNSIGNED NOT NULL,
    name VARCHAR(255) NOT NULL,
    kind ENUM('customer', 'agency', 'ai') NOT NULL,
    token_hash CHAR(64) NOT NULL,
    token_prefix VARCHAR(16) NOT NULL,
    permissions TEXT NOT NULL,
    expires_at DATETIME(3) NULL,
    revoked_at DATETIME(3) NULL,
    last_used_at DATETIME(3) NULL,
    created_at DATETIME(3) NOT NULL,
    updated_at DATETIME(3) NOT NULL,
    UNIQUE KEY api_tokens_hash_unique (token_hash),
    KEY api_tokens_user (user_id),
    CONSTRAINT api_tokens_tenant_fk FOREIGN KEY (tenant_id) REFERENCES tenants (id) ON DELETE CASCADE,
    CONSTRAINT api_tokens_user_fk FOREIGN KEY (user_id) REFERENCES users (id) ON DELETE CASCADE
  )`);
};

export const down: Migration = async ({ context: sql }) => {
  await sql('DROP TABLE api_tokens');
  await sql('DROP TABLE users');
};
