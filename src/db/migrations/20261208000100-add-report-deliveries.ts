import type { Migration } from '../umzug';

/**
 * Monthly report mail: one row per organisation, month and owner, claimed (`sending`) before the send under the
 * unique key and marked `sent` after it, so a retried, concurrent or re-run month mails nobody twice; a claim left
 * `sending` by a crash is taken over after a while and the mail sent again under the same Message-ID.
 */
export const up: Migration = async ({ context: sql }) => {
  await sql(`CREATE TABLE report_deliveries (
    id BIGINT UNSIGNED NOT NULL AUTO_INCREMENT PRIMARY KEY,
    tenant_id INT UNSIGNED NOT NULL,
    organization_id INT UNSIGNED NOT NULL,
    user_id INT UNSIGNED NOT NULL,
    month CHAR(7) NOT NULL,
    message_id VARCHAR(255) NOT NULL,
    status ENUM('sending', 'sent') NOT NULL DEFAULT 'sending',
    created_at DATETIME(3) NOT NULL,
    updated_at DATETIME(3) NOT NULL,
    UNIQUE KEY report_deliveries_once (organization_id, month, user_id),
    KEY report_deliveries_tenant (tenant_id),
    CONSTRAINT report_deliveries_organization FOREIGN KEY (organization_id) REFERENCES organizations (id) ON DELETE CASCADE,
    CONSTRAINT report_deliveries_user FOREIGN KEY (user_id) REFERENCES users (id) ON DELETE CASCADE
  ) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci`);
};

export const down: Migration = async ({ context: sql }) => {
  await sql('DROP TABLE report_deliveries');
};
