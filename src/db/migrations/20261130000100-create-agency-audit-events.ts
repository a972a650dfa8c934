import type { Migration } from '../umzug';

/**
 * The agency side's audit trail (issue 14; docs/security.md "Audit trail"): who changed what in a tenant's
 * accounts and access (tokens, credits, pause/resume, plans and limits, connect links, accounts), when, under
 * which request id, with the values before and after. Rows are never updated; the tenant owner reads them.
 */
export const up: Migration = async ({ context: sql }) => {
  await sql(`CREATE TABLE agency_audit_events (
    id BIGINT UNSIGNED NOT NULL AUTO_INCREMENT,
    tenant_id INT UNSIGNED NOT NULL,
    action VARCHAR(64) NOT NULL,
    subject_type VARCHAR(32) NOT NULL,
    subject_id VARCHAR(64) NOT NULL,
    customer_id INT UNSIGNED NULL,
    actor_type VARCHAR(16) NOT NULL,
    actor_user_id INT UNSIGNED NULL,
    actor_token_id INT UNSIGNED NULL,
    actor_label VARCHAR(255) NOT NULL,
    request_id VARCHAR(64) NULL,
    before_state TEXT NULL,
    after_state TEXT NULL,
    created_at DATETIME(3) NOT NULL,
    PRIMARY KEY (id),
    KEY agency_audit_events_tenant (tenant_id, id),
    KEY agency_audit_events_subject (tenant_id, subject_type, subject_id),
    KEY agency_audit_events_created (created_at),
    CONSTRAINT agency_audit_events_tenant_fk FOREIGN KEY (tenant_id) REFERENCES tenants (id) ON DELETE CASCADE
  )`);
};

export const down: Migration = async ({ context: sql }) => {
  await sql('DROP TABLE agency_audit_events');
};
