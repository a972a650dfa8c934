import type { Migration } from '../umzug';

/**
 * MCP clients registered (dynamic registration is open) before unused clients expired (src/oauth/adapter.ts,
 * UNUSED_CLIENT_TTL_S) have no expiry and stayed for ever. They get what a client registered now gets: seven days
 * from this migration, or as long as the latest of their grants lasts; a client holding a grant that never expires
 * keeps none. The purge of expired rows then removes those nobody uses.
 */
export const up: Migration = async ({ context: sql }) => {
  await sql(`UPDATE oauth_models c
      LEFT JOIN (
        SELECT JSON_UNQUOTE(JSON_EXTRACT(payload, '$.clientId')) AS client_id, MAX(expires_at) AS last_expiry,
               SUM(expires_at IS NULL) AS endless
          FROM oauth_models WHERE model = 'Grant' GROUP BY client_id
      ) g ON g.client_id = c.id
     SET c.expires_at = GREATEST(NOW(3) + INTERVAL 7 DAY, COALESCE(g.last_expiry, NOW(3)))
   WHERE c.model = 'Client' AND c.expires_at IS NULL AND COALESCE(g.endless, 0) = 0`);
};

/** Kept on the way down: the older code reads and purges by `expires_at` the same way. */
export const down: Migration = async () => {};
