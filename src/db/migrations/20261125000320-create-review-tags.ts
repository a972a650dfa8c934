import type { Migration } from '../umzug';

/**
 * Tags on reviews (issue 7, MCP tag_reviews). Tags are normalised (trimmed, inner whitespace collapsed, lower
 * case) before they are stored, and compared byte for byte (utf8mb4_bin), so `Café` and `cafe` stay distinct while
 * `VIP` and `vip` are one tag. One row per review and tag (the primary key makes attaching idempotent).
 */
export const up: Migration = async ({ context: sql }) => {
  await sql(`CREATE TABLE review_tags (
    review_id INT UNSIGNED NOT NULL,
    tag VARCHAR(64) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL,
    tenant_id INT UNSIGNED NOT NULL,
    customer_id INT UNSIGNED NOT NULL,
    created_at DATETIME(3) NOT NULL,
    PRIMARY KEY (review_id, tag),
    KEY review_tags_tag (customer_id, tag, review_id),
    CONSTRAINT review_tags_customer_fk FOREIGN KEY (customer_id) REFERENCES customers (id) ON DELETE CASCADE,
    CONSTRAINT review_tags_review_fk FOREIGN KEY (review_id) REFERENCES reviews (id) ON DELETE CASCADE
  )`);
};

export const down: Migration = async ({ context: sql }) => {
  await sql('DROP TABLE review_tags');
};
