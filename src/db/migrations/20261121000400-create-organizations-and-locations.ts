import type { Migration } from '../umzug';

export const up: Migration = async ({ context: sql }) => {
  await sql(`CREATE TABLE organizations (
    id INT UNSIGNED NOT NULL AUTO_INCREMENT PRIMARY KEY,
    tenant_id INT UNSIGNED NOT NULL,
    customer_id INT UNSIGNED NOT NULL,
    name VARCHAR(255) NOT NULL,
    logo_file_id CHAR(36) NULL,
    default_location_id INT UNSIGNED NULL,
    created_at DATETIME(3) NOT NULL,
    updated_at DATETIME(3) NOT NULL,
    UNIQUE KEY organizations_customer_name_unique (customer_id, name),
    KEY organizations_tenant (tenant_id),
    CONSTRAINT organizations_tenant_fk FOREIGN KEY (tenant_id) REFERENCES tenants (id) ON DELETE CASCADE,
    CONSTRAINT organizations_customer_fk FOREIGN KEY (customer_id) REFERENCES customers (id) ON DELETE CASCADE
  )`);
  await sql(`CREATE TABLE locations (
    id INT UNSIGNED NOT NULL AUTO_INCREMENT PRIMARY KEY,
    tenant_id INT UNSIGNED NOT NULL,
    customer_id INT UNSIGNED NOT NULL,
    organization_id INT UNSIGNED NOT NULL,
    name VARCHAR(255) NOT NULL,
    created_at DATETIME(3) NOT NULL,
    updated_at DATETIME(3) NOT NULL,
    KEY locations_tenant (tenant_id),
    KEY locations_customer (customer_id),
    KEY locations_organization (organization_id),
    CONSTRAINT locations_organization_fk FOREIGN KEY (organization_id) REFERENCES organizations (id) ON DELETE CASCADE
  )`);
  await sql(`CREATE TABLE organization_members (
    organization_id INT UNSIGNED NOT NULL,
    user_id INT UNSIGNED NOT NULL,
    permissions TEXT NOT NULL,
    created_at DATETIME(3) NOT NULL,
    PRIMARY KEY (organization_id, user_id),
    KEY organization_members_user (user_id),
    CONSTRAINT organization_members_org_fk FOREIGN KEY (organization_id) REFERENCES organizations (id) ON DELETE CASCADE,
    CONSTRAINT organization_members_user_fk FOREIGN KEY (user_id) REFERENCES users (id) ON DELETE CASCADE
  )`);
  await sql(`CREATE TABLE location_user (
    location_id INT UNSIGNED NOT NULL,
    user_id INT UNSIGNED NOT NULL,
    created_at DATETIME(3) NOT NULL,
    PRIMARY KEY (location_id, user_id),
    KEY location_user_user (user_id),
    CONSTRAINT location_user_location_fk FOREIGN KEY (location_id) REFERENCES locations (id) ON DELETE CASCADE,
    CONSTRAINT location_user_user_fk FOREIGN KEY (user_id) REFERENCES users (id) ON DELETE CASCADE
  )`);
};

export const down: Migration = async ({ context: sql }) => {
  await sql('DROP TABLE location_user');
  await sql('DROP TABLE organization_members');
  await sql('DROP TABLE locations');
  await sql('DROP TABLE organizations');
};
