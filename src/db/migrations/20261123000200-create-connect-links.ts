import type { Migration } from '../umzug';

/**
 * Single-use, location-scoped links a customer opens to sign in to Google or Facebook (spec: Connect link).
 * `status` is not stored: it is derived from the lifecycle timestamps and the clock. The OAuth state, PKCE
 * verifier and the encrypted provider tokens between the callback and the business selection live on the link.
 */
export const up: Migration = async ({ context: sql }) => {
  await sql(`CREATE TABLE connect_links (
    token CHAR(36) NOT NULL PRIMARY KEY,
    tenant_id INT UNSIGNED NOT NULL,
    customer_id INT UNSIGNED NOT NULL,
    location_id INT UNSIGNED NOT NULL,
    provider ENUM('google', 'facebook') NOT NULL,
    expires_at DATETIME(3) NOT NULL,
    last_started_at DATETIME(3) NULL,
    completed_oauth_at DATETIME(3) NULL,
    used_at DATETIME(3) NULL,
    revoked_at DATETIME(3) NULL,
    oauth_state VARCHAR(128) NULL,
    pkce_verifier VARCHAR(128) NULL,
    selection_nonce VARCHAR(128) NULL,
    pending_credentials TEXT NULL,
    integration_id INT UNSIGNED NULL,
    created_at DATETIME(3) NOT NULL,
    updated_at DATETIME(3) NOT NULL,
    KEY connect_links_tenant_created (tenant_id, created_at, token),
    KEY connect_links_location_provider (location_id, provider),
    UNIQUE KEY connect_links_oauth_state (oauth_state),
    CONSTRAINT connect_links_location_fk FOREIGN KEY (location_id) REFERENCES locations (id) ON DELETE CASCADE,
    CONSTRAINT connect_links_integration_fk FOREIGN KEY (integration_id) REFERENCES integrations (id) ON DELETE SET NULL
  )`);
};

export const down: Migration = async ({ context: sql }) => {
  await sql('DROP TABLE connect_links');
};
