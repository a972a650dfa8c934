import type { Migration } from '../umzug';

/**
 * Reply drafts held for approval (issue 7, MCP draft_review_response): never sent on their own. `status` moves
 * pending -> approved (published through the reply path) or pending -> rejected (kept, with who and why).
 * Rows cascade with the account and the review; the users who drafted or decided are kept as ids (SET NULL when
 * a user is deleted).
 */
export const up: Migration = async ({ context: sql }) => {
  await sql(`CREATE TABLE reply_drafts (
    id INT UNSIGNED NOT NULL AUTO_INCREMENT PRIMARY KEY,
    tenant_id INT UNSIGNED NOT NULL,
    customer_id INT UNSIGNED NOT NULL,
    organization_id INT UNSIGNED NOT NULL,
    location_id INT UNSIGNED NOT NULL,
    review_id INT UNSIGNED NOT NULL,
    message TEXT NOT NULL,
    status ENUM('pending', 'approved', 'rejected') NOT NULL DEFAULT 'pending',
    created_by_user_id INT UNSIGNED NULL,
    created_via ENUM('customer', 'agency', 'ai') NOT NULL,
    decided_by_user_id INT UNSIGNED NULL,
    decided_at DATETIME(3) NULL,
    rejection_reason VARCHAR(1000) NULL,
    created_at DATETIME(3) NOT NULL,
    updated_at DATETIME(3) NOT NULL,
    KEY reply_drafts_queue (customer_id, status, created_at, id),
    KEY reply_drafts_review (review_id, status),
    CONSTRAINT reply_drafts_customer_fk FOREIGN KEY (customer_id) REFERENCES customers (id) ON DELETE CASCADE,
    CONSTRAINT reply_drafts_location_fk FOREIGN KEY (location_id) REFERENCES locations (id) ON DELETE CASCADE,
    CONSTRAINT reply_drafts_review_fk FOREIGN KEY (review_id) REFERENCES reviews (id) ON DELETE CASCADE,
    CONSTRAINT reply_drafts_creator_fk FOREIGN KEY (created_by_user_id) REFERENCES users (id) ON DELETE SET NULL,
    CONSTRAINT reply_drafts_decider_fk FOREIGN KEY (decided_by_user_id) REFERENCES users (id) ON DELETE SET NULL
  )`);
};

export const down: Migration = async ({ context: sql }) => {
  await sql('DROP TABLE reply_drafts');
};
