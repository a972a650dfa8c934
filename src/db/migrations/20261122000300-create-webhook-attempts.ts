import type { Migration } from '../umzug';

/** Every POST made for a delivery, with what the receiver answered (shown in the delivery log). */
export const up: Migration = async ({ context: sql }) => {
  await sql(`CREATE TABLE webhook_attempts (
    id BIGINT UNSIGNED NOT NULL AUTO_INCREMENT PRIMARY KEY,
    delivery_id CHAR(36) NOT NULL,
    attempt INT UNSIGNED NOT NULL,
    status_code SMALLINT NULL,
    latency_ms INT UNSIGNED NOT NULL,
    error VARCHAR(500) NULL,
    response_excerpt VARCHAR(500) NULL,
    created_at DATETIME(3) NOT NULL,
    KEY webhook_attempts_delivery (delivery_id, attempt),
    CONSTRAINT webhook_attempts_delivery_fk FOREIGN KEY (delivery_id) REFERENCES webhook_deliveries (id) ON DELETE CASCADE
  )`);
};

export const down: Migration = async ({ context: sql }) => {
  await sql('DROP TABLE webhook_attempts');
};
