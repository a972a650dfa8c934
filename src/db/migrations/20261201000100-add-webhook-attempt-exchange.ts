import type { Migration } from '../umzug';

/**
 * The delivery log shows each attempt's exchange (issue 15 item 7): the headers sent and the receiver's answer headers
 * (JSON objects, bounded in src/webhooks/delivery-log.ts; NULL when nothing was sent or no answer came, and on attempts
 * logged before this), and the first KB of the answer instead of 500 characters (1024 bytes of UTF-8 are at most 1024
 * characters).
 */
export const up: Migration = async ({ context: sql }) => {
  await sql(`ALTER TABLE webhook_attempts
    MODIFY response_excerpt VARCHAR(1024) NULL,
    ADD COLUMN request_headers MEDIUMTEXT NULL,
    ADD COLUMN response_headers MEDIUMTEXT NULL`);
};

export const down: Migration = async ({ context: sql }) => {
  await sql('UPDATE webhook_attempts SET response_excerpt = LEFT(response_excerpt, 500) WHERE CHAR_LENGTH(response_excerpt) > 500');
  await sql(`ALTER TABLE webhook_attempts
    DROP COLUMN response_headers,
    DROP COLUMN request_headers,
    MODIFY response_excerpt VARCHAR(500) NULL`);
};
