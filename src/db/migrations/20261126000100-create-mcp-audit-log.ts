import type { Migration } from '../umzug';

/**
 * One row per answered MCP call of an identified token (the MCP endpoint's audit log): who (token, user), what
 * (method, tool, arguments with personal data removed), whether personal data was unlocked, the outcome, how long
 * it took and the caller's correlation id. Rows go with their tenant; token and user ids are kept as plain numbers
 * so the record outlives a deleted token or user.
 */
export const up: Migration = async ({ context: sql }) => {
  await sql(`CREATE TABLE mcp_audit_log (
    id BIGINT UNSIGNED NOT NULL AUTO_INCREMENT PRIMARY KEY,
    tenant_id INT UNSIGNED NOT NULL,
    token_id INT UNSIGNED NOT NULL,
    user_id INT UNSIGNED NOT NULL,
    method VARCHAR(64) NOT NULL,
    tool VARCHAR(64) NULL,
    arguments TEXT NULL,
    pii_unlocked TINYINT(1) NOT NULL DEFAULT 0,
    result_code INT NOT NULL,
    error_reason VARCHAR(64) NULL,
    duration_ms INT UNSIGNED NOT NULL,
    correlation_id VARCHAR(64) NOT NULL,
    request_id VARCHAR(64) NULL,
    created_at DATETIME(3) NOT NULL,
    KEY mcp_audit_log_tenant (tenant_id, created_at),
    KEY mcp_audit_log_token (token_id, created_at),
    CONSTRAINT mcp_audit_log_tenant_fk FOREIGN KEY (tenant_id) REFERENCES tenants (id) ON DELETE CASCADE
  )`);
};

export const down: Migration = async ({ context: sql }) => {
  await sql('DROP TABLE mcp_audit_log');
};
