import type { Migration } from '../umzug';

export const up: Migration = async ({ context: sql }) => {
  await sql(`CREATE TABLE tenants (
    id INT UNSIGNED NOT NULL AUTO_INCREMENT PRIMARY KEY,
    name VARCHAR(255) NOT NULL,
    brand_name VARCHAR(255) NOT NULL,
    logo_url VARCHAR(2048) NULL,
    created_at DATETIME(3) NOT NULL,
    updated_at DATETIME(3) NOT NULL
  )`);
  await sql(`CREATE TABLE tenant_domains (
    id INT UNSIGNED NOT NULL AUTO_INCREMENT PRIMARY KEY,
    tenant_id INT UNSIGNED NOT NULL,
    domain VARCHAR(255) NOT NULL,
    created_at DATETIME(3) NOT NULL,
    UNIQUE KEY tenant_domains_domain_unique (domain),
    CONSTRAINT tenant_domains_tenant_fk FOREIGN KEY (tenant_id) REFERENCES tenants (id) ON DELETE CASCADE
  )`);
};

export const down: Migration = async ({ context: sql }) => {
  await sql('DROP TABLE tenant_domains');
  await sql('DROP TABLE tenants');
};
