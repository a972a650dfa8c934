import type { Migration } from '../umzug';

/**
 * Invites are their own send queue (issue 17 item 2): the invite dispatcher claims due work from the rows instead of
 * one workflow per invite. `next_step_index`/`next_step_at`: the campaign step a sent invite sends next and when
 * (NULL: no step left); `retry_at`/`send_attempts`: a step the provider could not take (nothing accepted) waits
 * until `retry_at`, and after the last attempt is recorded failed.
 */
export const up: Migration = async ({ context: sql }) => {
  await sql(`ALTER TABLE invites
    ADD COLUMN next_step_index INT NULL,
    ADD COLUMN next_step_at DATETIME(3) NULL,
    ADD COLUMN retry_at DATETIME(3) NULL,
    ADD COLUMN send_attempts INT NOT NULL DEFAULT 0,
    ADD KEY invites_next_step (status, next_step_at)`);
  await sql('ALTER TABLE invite_messages ADD KEY invite_messages_sending (status, sent_at)');
};

export const down: Migration = async ({ context: sql }) => {
  await sql('ALTER TABLE invite_messages DROP KEY invite_messages_sending');
  await sql(`ALTER TABLE invites
    DROP KEY invites_next_step,
    DROP COLUMN send_attempts,
    DROP COLUMN retry_at,
    DROP COLUMN next_step_at,
    DROP COLUMN next_step_index`);
};
