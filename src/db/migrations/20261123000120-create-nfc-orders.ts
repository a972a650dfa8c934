import type { Migration } from '../umzug';

/**
 * NFC product orders of the agency's storefront (spec: NFC order). Money in minor units; the currency in
 * lower case. `customer_id` links an order to a customer account when the storefront knows it; deleting the
 * account keeps the agency's order (the link is cleared).
 */
export const up: Migration = async ({ context: sql }) => {
  await sql(`CREATE TABLE nfc_orders (
    id CHAR(36) NOT NULL PRIMARY KEY,
    tenant_id INT UNSIGNED NOT NULL,
    customer_id INT UNSIGNED NULL,
    order_number VARCHAR(64) NOT NULL,
    email VARCHAR(255) NOT NULL,
    total_minor BIGINT NOT NULL,
    currency CHAR(3) NOT NULL,
    status ENUM('pending', 'shipped', 'completed', 'canceled') NOT NULL DEFAULT 'pending',
    shipping_name VARCHAR(255) NOT NULL,
    shipping_address VARCHAR(255) NOT NULL,
    shipping_city VARCHAR(255) NOT NULL,
    shipping_country CHAR(2) NOT NULL,
    tracking_url VARCHAR(2048) NULL,
    shipped_at DATETIME(3) NULL,
    completed_at DATETIME(3) NULL,
    canceled_at DATETIME(3) NULL,
    created_at DATETIME(3) NOT NULL,
    updated_at DATETIME(3) NOT NULL,
    UNIQUE KEY nfc_orders_tenant_number (tenant_id, order_number),
    KEY nfc_orders_tenant_created (tenant_id, created_at),
    CONSTRAINT nfc_orders_tenant_fk FOREIGN KEY (tenant_id) REFERENCES tenants (id) ON DELETE CASCADE,
    CONSTRAINT nfc_orders_customer_fk FOREIGN KEY (customer_id) REFERENCES customers (id) ON DELETE SET NULL
  )`);
  await sql(`CREATE TABLE nfc_order_items (
    id INT UNSIGNED NOT NULL AUTO_INCREMENT PRIMARY KEY,
    order_id CHAR(36) NOT NULL,
    position SMALLINT UNSIGNED NOT NULL,
    product_name VARCHAR(255) NOT NULL,
    quantity INT UNSIGNED NOT NULL,
    unit_price_minor BIGINT NOT NULL,
    nfc_urls TEXT NOT NULL,
    KEY nfc_order_items_order (order_id, position),
    CONSTRAINT nfc_order_items_order_fk FOREIGN KEY (order_id) REFERENCES nfc_orders (id) ON DELETE CASCADE
  )`);
};

export const down: Migration = async ({ context: sql }) => {
  await sql('DROP TABLE nfc_order_items');
  await sql('DROP TABLE nfc_orders');
};
