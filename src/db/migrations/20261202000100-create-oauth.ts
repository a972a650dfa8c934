import type { Migration } from '../umzug';

/**
 * OAuth 2.1 for MCP (issue 16; docs/decisions/mcp.md "MCP sign-in with OAuth 2.1"): `oauth_models` is oidc-provider's store
 * (clients, grants, codes, access and refresh tokens, sessions, interactions: one row per model and id, the payload as
 * JSON); `mcp_authorizations` is what a user granted a client (its scopes and organisations), bound to the AI token
 * (`api_tokens`, kind `ai`) that the client's access tokens act as, so OAuth calls share the static tokens' scope,
 * limits, audit and revocation.
 */
export const up: Migration = async ({ context: sql }) => {
  await sql(`CREATE TABLE oauth_models (
    model VARCHAR(40) NOT NULL,
    id VARCHAR(255) NOT NULL,
    payload MEDIUMTEXT NOT NULL,
    grant_id VARCHAR(255) NULL,
    user_code VARCHAR(255) NULL,
    uid VARCHAR(255) NULL,
    expires_at DATETIME(3) NULL,
    consumed_at DATETIME(3) NULL,
    PRIMARY KEY (model, id),
    KEY oauth_models_grant (grant_id),
    KEY oauth_models_uid (uid),
    KEY oauth_models_expires (expires_at)
  )`);
  await sql(`CREATE TABLE mcp_authorizations (
    id INT UNSIGNED NOT NULL AUTO_INCREMENT PRIMARY KEY,
    tenant_id INT UNSIGNED NOT NULL,
    customer_id INT UNSIGNED NULL,
    user_id INT UNSIGNED NOT NULL,
    api_token_id INT UNSIGNED NOT NULL,
    grant_id VARCHAR(255) NOT NULL,
    client_id VARCHAR(255) NOT NULL,
    client_name VARCHAR(255) NOT NULL,
    scopes VARCHAR(255) NOT NULL,
    organization_ids TEXT NULL,
    created_at DATETIME(3) NOT NULL,
    last_used_at DATETIME(3) NULL,
    revoked_at DATETIME(3) NULL,
    UNIQUE KEY mcp_authorizations_grant (grant_id),
    UNIQUE KEY mcp_authorizations_token (api_token_id),
    KEY mcp_authorizations_user (tenant_id, user_id)
  )`);
};

export const down: Migration = async ({ context: sql }) => {
  await sql('DROP TABLE mcp_authorizations');
  await sql('DROP TABLE oauth_models');
};
