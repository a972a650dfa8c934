import type { Migration } from '../umzug';

/**
 * Monthly report mail (issue 19, item 5): one row per organisation, month and owner the report was mailed to, written
 * after the send and checked before it, so a retried or re-run month mails nobody twice (the same exactly-once-effect
 * rule as invites); and the account's choice to get the mail at all (on by default).
 */
export const up: Migration = async ({ context: sql }) => {
  await sql(`CREATE TABLE report_deliveries (
    id BIGINT UNSIGNED NOT NULL AUTO_INCREMENT PRIMARY KEY,
    tenant_id INT UNSIGNED NOT NULL,
    organization_id INT UNSIGNED NOT NULL,
    user_id INT UNSIGNED NOT NULL,
    month CHAR(7) NOT NULL,
    message_id VARCHAR(255) NOT NULL,
    created_at DATETIME(3) NOT NULL,
    UNIQUE KEY report_deliveries_once (organization_id, month, user_id),
    KEY report_deliveries_tenant (tenant_id),
    CONSTRAINT report_deliveries_organization FOREIGN KEY (organization_id) REFERENCES organizations (id) ON DELETE CASCADE,
    CONSTRAINT report_deliveries_user FOREIGN KEY (user_id) REFERENCES users (id) ON DELETE CASCADE
  ) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci`);
  await sql(`ALTER TABLE customers ADD COLUMN report_emails TINYINT(1) NOT NULL DEFAULT 1 AFTER language`);
};

export const down: Migration = async ({ context: sql }) => {
  await sql('ALTER TABLE customers DROP COLUMN report_emails');
  await sql('DROP TABLE report_deliveries');
};
