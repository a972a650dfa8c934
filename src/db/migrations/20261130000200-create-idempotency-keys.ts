import type { Migration } from '../umzug';

/**
 * `Idempotency-Key` on REST POSTs (issue 15; docs/decisions/api-conventions.md "Idempotent writes"): one row per (token, key) for
 * 24 hours, holding what the first request was (method, path and a hash of its body) and, once it finished, its
 * answer (status and body) to give again.
 */
export const up: Migration = async ({ context: sql }) => {
  await sql(`CREATE TABLE idempotency_keys (
    id BIGINT UNSIGNED NOT NULL AUTO_INCREMENT PRIMARY KEY,
    token_id INT UNSIGNED NOT NULL,
    idem_key VARCHAR(255) NOT NULL,
    fingerprint CHAR(64) NOT NULL,
    state VARCHAR(16) NOT NULL,
    response_status SMALLINT UNSIGNED NULL,
    response_body MEDIUMTEXT NULL,
    created_at DATETIME(3) NOT NULL,
    finished_at DATETIME(3) NULL,
    UNIQUE KEY idempotency_keys_token_key (token_id, idem_key),
    KEY idempotency_keys_created (created_at)
  )`);
};

export const down: Migration = async ({ context: sql }) => {
  await sql('DROP TABLE idempotency_keys');
};
