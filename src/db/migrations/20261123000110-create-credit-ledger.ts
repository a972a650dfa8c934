import type { Migration } from '../umzug';

/**
 * Email and SMS credits of a customer account, as a ledger. A grant (`add-credits`) is a row of
 * `credit_grants` that keeps how much of it is left; a consumption (`consumeCredits`) is a row of
 * `credit_consumptions` and draws from the grants that expire first. The balance is what is left of the
 * grants that have not expired, so credits that expire take only their unused part with them.
 */
export const up: Migration = async ({ context: sql }) => {
  await sql(`CREATE TABLE credit_grants (
    id BIGINT UNSIGNED NOT NULL AUTO_INCREMENT PRIMARY KEY,
    tenant_id INT UNSIGNED NOT NULL,
    customer_id INT UNSIGNED NOT NULL,
    type ENUM('email', 'sms') NOT NULL,
    credits INT UNSIGNED NOT NULL,
    remaining INT UNSIGNED NOT NULL,
    expires_at DATETIME(3) NULL,
    notes TEXT NULL,
    created_at DATETIME(3) NOT NULL,
    updated_at DATETIME(3) NOT NULL,
    KEY credit_grants_customer_type (customer_id, type, expires_at),
    CONSTRAINT credit_grants_customer_fk FOREIGN KEY (customer_id) REFERENCES customers (id) ON DELETE CASCADE
  )`);
  await sql(`CREATE TABLE credit_consumptions (
    id BIGINT UNSIGNED NOT NULL AUTO_INCREMENT PRIMARY KEY,
    tenant_id INT UNSIGNED NOT NULL,
    customer_id INT UNSIGNED NOT NULL,
    type ENUM('email', 'sms') NOT NULL,
    credits INT UNSIGNED NOT NULL,
    reference VARCHAR(255) NULL,
    created_at DATETIME(3) NOT NULL,
    KEY credit_consumptions_customer_type (customer_id, type, created_at),
    CONSTRAINT credit_consumptions_customer_fk FOREIGN KEY (customer_id) REFERENCES customers (id) ON DELETE CASCADE
  )`);
};

export const down: Migration = async ({ context: sql }) => {
  await sql('DROP TABLE credit_consumptions');
  await sql('DROP TABLE credit_grants');
};
