import type { Migration } from '../umzug';

/**
 * oidc-provider's credentials at rest (docs/security.md "MCP sign-in"): the rows of access tokens, refresh tokens,
 * authorization codes, registration access tokens and pushed requests were keyed by the value a client presents, and
 * held it again as `jti` in the payload, so a dump or backup gave working refresh tokens. They are now keyed by the
 * value's SHA-256 (lower-case hex, what src/oauth/adapter.ts `hashOAuthId` computes) and stored without `jti`; this
 * rewrites the rows already there, so tokens issued before the upgrade keep working after it. The list is
 * `HASHED_MODELS` of the adapter as of this migration (written out: a later change of the adapter must not change what
 * this migration did).
 */
const MODELS = ['AccessToken', 'AuthorizationCode', 'RefreshToken', 'RegistrationAccessToken', 'PushedAuthorizationRequest'];

export const up: Migration = async ({ context: sql }) => {
  await sql(`UPDATE oauth_models SET id = SHA2(id, 256), payload = JSON_REMOVE(payload, '$.jti') WHERE model IN (${MODELS.map(() => '?').join(', ')})`, MODELS);
};

/** A hash cannot be turned back into the token: the older code would find none of these rows, so they go (clients sign in again). */
export const down: Migration = async ({ context: sql }) => {
  await sql(`DELETE FROM oauth_models WHERE model IN (${MODELS.map(() => '?').join(', ')})`, MODELS);
};
