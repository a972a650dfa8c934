import type { Migration } from '../umzug';

/**
 * An invite is one request to review for a (campaign, contact): `scheduled` until its send time (one waiting
 * invite per pair at most: a resubmission moves `send_at`), then `sent` or `failed`; `ignored` rows record
 * duplicates and unsubscribed contacts; `canceled` when the contact unsubscribes while it waits. The durable
 * workflow id is the business key `invite:<campaign uuid>:<contact uuid>`. `invite_messages` holds one row per
 * campaign step that went out (unique per invite and step: a retried activity never sends twice).
 * `contact_activities` is the contact's timeline (scheduled, rescheduled, sent, failed, ignored, unsubscribed,
 * skipped, clicked, feedback).
 */
export const up: Migration = async ({ context: sql }) => {
  await sql(`CREATE TABLE invites (
    id BIGINT UNSIGNED NOT NULL AUTO_INCREMENT PRIMARY KEY,
    uuid CHAR(36) NOT NULL,
    tenant_id INT UNSIGNED NOT NULL,
    customer_id INT UNSIGNED NOT NULL,
    campaign_id INT UNSIGNED NOT NULL,
    contact_id INT UNSIGNED NOT NULL,
    status ENUM('scheduled', 'sent', 'failed', 'ignored', 'canceled') NOT NULL,
    source ENUM('api', 'inbound', 'dashboard') NOT NULL DEFAULT 'api',
    requested_at DATETIME(3) NOT NULL,
    send_at DATETIME(3) NULL,
    sent_at DATETIME(3) NULL,
    failed_at DATETIME(3) NULL,
    reason VARCHAR(500) NULL,
    inbound_submission_id BIGINT UNSIGNED NULL,
    clicked_at DATETIME(3) NULL,
    created_at DATETIME(3) NOT NULL,
    updated_at DATETIME(3) NOT NULL,
    UNIQUE KEY invites_uuid (uuid),
    KEY invites_pair (campaign_id, contact_id, status),
    KEY invites_contact_sent (contact_id, status, sent_at),
    KEY invites_due (status, send_at),
    CONSTRAINT invites_customer_fk FOREIGN KEY (customer_id) REFERENCES customers (id) ON DELETE CASCADE,
    CONSTRAINT invites_campaign_fk FOREIGN KEY (campaign_id) REFERENCES campaigns (id) ON DELETE CASCADE,
    CONSTRAINT invites_contact_fk FOREIGN KEY (contact_id) REFERENCES contacts (id) ON DELETE CASCADE
  )`);
  await sql(`CREATE TABLE invite_messages (
    id BIGINT UNSIGNED NOT NULL AUTO_INCREMENT PRIMARY KEY,
    invite_id BIGINT UNSIGNED NOT NULL,
    step_index TINYINT UNSIGNED NOT NULL,
    channel ENUM('email', 'sms', 'messaging') NOT NULL,
    status ENUM('sent', 'failed') NOT NULL,
    recipient VARCHAR(255) NULL,
    provider_message_id VARCHAR(255) NULL,
    error VARCHAR(500) NULL,
    sent_at DATETIME(3) NOT NULL,
    created_at DATETIME(3) NOT NULL,
    updated_at DATETIME(3) NOT NULL,
    UNIQUE KEY invite_messages_step (invite_id, step_index),
    CONSTRAINT invite_messages_invite_fk FOREIGN KEY (invite_id) REFERENCES invites (id) ON DELETE CASCADE
  )`);
  await sql(`CREATE TABLE contact_activities (
    id BIGINT UNSIGNED NOT NULL AUTO_INCREMENT PRIMARY KEY,
    tenant_id INT UNSIGNED NOT NULL,
    customer_id INT UNSIGNED NOT NULL,
    contact_id INT UNSIGNED NULL,
    campaign_id INT UNSIGNED NULL,
    invite_id BIGINT UNSIGNED NULL,
    inbound_connection_id INT UNSIGNED NULL,
    type ENUM('scheduled', 'rescheduled', 'sent', 'failed', 'ignored', 'unsubscribed', 'skipped', 'clicked', 'feedback') NOT NULL,
    channel ENUM('email', 'sms', 'messaging') NULL,
    detail VARCHAR(500) NULL,
    occurred_at DATETIME(3) NOT NULL,
    KEY contact_activities_contact (contact_id, occurred_at, id),
    KEY contact_activities_customer (customer_id, occurred_at, id),
    CONSTRAINT contact_activities_customer_fk FOREIGN KEY (customer_id) REFERENCES customers (id) ON DELETE CASCADE,
    CONSTRAINT contact_activities_contact_fk FOREIGN KEY (contact_id) REFERENCES contacts (id) ON DELETE CASCADE,
    CONSTRAINT contact_activities_campaign_fk FOREIGN KEY (campaign_id) REFERENCES campaigns (id) ON DELETE SET NULL
  )`);
};

export const down: Migration = async ({ context: sql }) => {
  await sql('DROP TABLE contact_activities');
  await sql('DROP TABLE invite_messages');
  await sql('DROP TABLE invites');
};
