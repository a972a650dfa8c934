import type { Migration } from '../umzug';

/**
 * The provider sign-in behind a synced integration: access and refresh tokens, encrypted with AES-256-GCM
 * (src/crypto/secrets.ts), one row per integration.
 */
export const up: Migration = async ({ context: sql }) => {
  await sql(`CREATE TABLE provider_connections (
    integration_id INT UNSIGNED NOT NULL PRIMARY KEY,
    tenant_id INT UNSIGNED NOT NULL,
    provider ENUM('google', 'facebook') NOT NULL,
    access_token_enc TEXT NOT NULL,
    refresh_token_enc TEXT NULL,
    expires_at DATETIME(3) NULL,
    scope VARCHAR(1024) NULL,
    created_at DATETIME(3) NOT NULL,
    updated_at DATETIME(3) NOT NULL,
    KEY provider_connections_tenant (tenant_id),
    CONSTRAINT provider_connections_integration_fk FOREIGN KEY (integration_id) REFERENCES integrations (id) ON DELETE CASCADE
  )`);
};

export const down: Migration = async ({ context: sql }) => {
  await sql('DROP TABLE provider_connections');
};
