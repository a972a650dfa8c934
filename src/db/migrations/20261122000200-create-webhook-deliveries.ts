import type { Migration } from '../umzug';

/**
 * One delivery per outbox event and receiver. The id is the Standard Webhooks `webhook-id` and the delivery
 * workflow's business key; the unique key makes a dispatcher retry find the delivery it made before.
 * No foreign key to outbox_events: dispatched events may be pruned while their deliveries stay as history.
 */
export const up: Migration = async ({ context: sql }) => {
  await sql(`CREATE TABLE webhook_deliveries (
    id CHAR(36) NOT NULL PRIMARY KEY,
    tenant_id INT UNSIGNED NOT NULL,
    customer_id INT UNSIGNED NOT NULL,
    endpoint_id INT UNSIGNED NOT NULL,
    outbox_event_id BIGINT UNSIGNED NOT NULL,
    event VARCHAR(64) NOT NULL,
    payload LONGTEXT NOT NULL,
    status ENUM('pending', 'succeeded', 'failed') NOT NULL DEFAULT 'pending',
    attempts INT UNSIGNED NOT NULL DEFAULT 0,
    last_status_code SMALLINT NULL,
    last_error VARCHAR(500) NULL,
    delivered_at DATETIME(3) NULL,
    created_at DATETIME(3) NOT NULL,
    updated_at DATETIME(3) NOT NULL,
    UNIQUE KEY webhook_deliveries_event_endpoint (outbox_event_id, endpoint_id),
    KEY webhook_deliveries_endpoint_created (endpoint_id, created_at),
    KEY webhook_deliveries_customer_created (customer_id, created_at),
    CONSTRAINT webhook_deliveries_endpoint_fk FOREIGN KEY (endpoint_id) REFERENCES webhook_endpoints (id) ON DELETE CASCADE
  )`);
};

export const down: Migration = async ({ context: sql }) => {
  await sql('DROP TABLE webhook_deliveries');
};
