import type { Migration } from '../umzug';

/**
 * Auto-respond rules (issue 7): per organisation, optionally narrowed to one location. `ratings`, `source_names`
 * and `keywords` are JSON arrays in TEXT columns (see json-column.ts). Lower `priority` is evaluated first, then
 * `id`; the first matching rule answers. `auto_respond_runs` is the durable queue of answers: one row per review a
 * rule matched when the review arrived (UNIQUE review_id), written in the review's own transaction, so a review
 * whose workflow could not be started is found again. Every row cascades with its account, organisation,
 * location and review; a run keeps its row (rule_id NULL) when its rule is deleted.
 */
export const up: Migration = async ({ context: sql }) => {
  await sql(`CREATE TABLE auto_respond_rules (
    id INT UNSIGNED NOT NULL AUTO_INCREMENT PRIMARY KEY,
    tenant_id INT UNSIGNED NOT NULL,
    customer_id INT UNSIGNED NOT NULL,
    organization_id INT UNSIGNED NOT NULL,
    location_id INT UNSIGNED NULL,
    name VARCHAR(255) NOT NULL,
    ratings TEXT NOT NULL,
    source_names TEXT NOT NULL,
    keywords TEXT NOT NULL,
    keyword_match ENUM('any', 'none') NOT NULL DEFAULT 'any',
    use_ai TINYINT(1) NOT NULL DEFAULT 0,
    template TEXT NULL,
    paused TINYINT(1) NOT NULL DEFAULT 0,
    priority INT UNSIGNED NOT NULL DEFAULT 0,
    created_at DATETIME(3) NOT NULL,
    updated_at DATETIME(3) NOT NULL,
    KEY auto_respond_rules_org (organization_id, paused, priority, id),
    KEY auto_respond_rules_customer (customer_id, id),
    CONSTRAINT auto_respond_rules_customer_fk FOREIGN KEY (customer_id) REFERENCES customers (id) ON DELETE CASCADE,
    CONSTRAINT auto_respond_rules_org_fk FOREIGN KEY (organization_id) REFERENCES organizations (id) ON DELETE CASCADE,
    CONSTRAINT auto_respond_rules_location_fk FOREIGN KEY (location_id) REFERENCES locations (id) ON DELETE CASCADE
  )`);
  await sql(`CREATE TABLE auto_respond_runs (
    id INT UNSIGNED NOT NULL AUTO_INCREMENT PRIMARY KEY,
    tenant_id INT UNSIGNED NOT NULL,
    customer_id INT UNSIGNED NOT NULL,
    review_id INT UNSIGNED NOT NULL,
    rule_id INT UNSIGNED NULL,
    status ENUM('pending', 'replied', 'skipped', 'failed') NOT NULL DEFAULT 'pending',
    reason VARCHAR(1000) NULL,
    reply TEXT NULL,
    used_ai TINYINT(1) NOT NULL DEFAULT 0,
    created_at DATETIME(3) NOT NULL,
    updated_at DATETIME(3) NOT NULL,
    UNIQUE KEY auto_respond_runs_review (review_id),
    KEY auto_respond_runs_status (status, created_at),
    CONSTRAINT auto_respond_runs_customer_fk FOREIGN KEY (customer_id) REFERENCES customers (id) ON DELETE CASCADE,
    CONSTRAINT auto_respond_runs_review_fk FOREIGN KEY (review_id) REFERENCES reviews (id) ON DELETE CASCADE,
    CONSTRAINT auto_respond_runs_rule_fk FOREIGN KEY (rule_id) REFERENCES auto_respond_rules (id) ON DELETE SET NULL
  )`);
};

export const down: Migration = async ({ context: sql }) => {
  await sql('DROP TABLE auto_respond_runs');
  await sql('DROP TABLE auto_respond_rules');
};
