import type { Migration } from '../umzug';

/**
 * Per-tenant Local Search Grid providers. No row = not configured (422 provider_not_configured).
 * `simulator` uses the built-in simulated market; `live` the DataForSEO and Google Geocoding credentials,
 * stored encrypted (src/crypto/secrets.ts). The base URLs override the providers' hosts (proxies, test servers).
 */
export const up: Migration = async ({ context: sql }) => {
  await sql(`CREATE TABLE grid_provider_settings (
    tenant_id INT UNSIGNED NOT NULL PRIMARY KEY,
    mode ENUM('simulator', 'live') NOT NULL,
    dataforseo_login VARCHAR(255) NULL,
    dataforseo_password TEXT NULL,
    google_maps_key TEXT NULL,
    dataforseo_base_url VARCHAR(500) NULL,
    google_maps_base_url VARCHAR(500) NULL,
    created_at DATETIME(3) NOT NULL,
    updated_at DATETIME(3) NOT NULL,
    CONSTRAINT grid_provider_settings_tenant_fk FOREIGN KEY (tenant_id) REFERENCES tenants (id) ON DELETE CASCADE
  )`);
};

export const down: Migration = async ({ context: sql }) => {
  await sql('DROP TABLE grid_provider_settings');
};
