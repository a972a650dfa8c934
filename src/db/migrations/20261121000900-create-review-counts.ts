import type { Migration } from '../umzug';

/**
 * Review counts per (integration, rating), kept by triggers in the same statement as every write to `reviews`
 * (the API, bulk imports and syncs alike). A page of reviews needs its exact `total`; COUNT(*) over a large
 * account costs tens of milliseconds per request, a SUM over this table well under one. Rows disappear with
 * their integration (FK cascade), as the reviews do, because cascaded deletes fire no triggers.
 */
/** Runs a CREATE TRIGGER, naming the usual cause when the server refuses it. */
async function createTrigger(sql: Parameters<Migration>[0]['context'], name: string, statement: string): Promise<void> {
  await sql(`DROP TRIGGER IF EXISTS ${name}`);
  try {
    await sql(statement);
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    throw new Error(
      `Creating trigger ${name} failed: ${message}. With binary logging on (MySQL 8's default) the migrating user needs ` +
        'the SUPER privilege or the server setting log_bin_trust_function_creators=1. The migration is safe to re-run.',
    );
  }
}

// Every step can run again after a failure part-way (MySQL commits each DDL statement on its own).
export const up: Migration = async ({ context: sql }) => {
  await sql(`CREATE TABLE IF NOT EXISTS review_counts (
    integration_id INT UNSIGNED NOT NULL,
    rating TINYINT UNSIGNED NOT NULL,
    tenant_id INT UNSIGNED NOT NULL,
    customer_id INT UNSIGNED NOT NULL,
    organization_id INT UNSIGNED NOT NULL,
    location_id INT UNSIGNED NOT NULL,
    n INT NOT NULL DEFAULT 0,
    PRIMARY KEY (integration_id, rating),
    KEY review_counts_tenant (tenant_id),
    KEY review_counts_customer (customer_id),
    KEY review_counts_location (location_id),
    CONSTRAINT review_counts_integration_fk FOREIGN KEY (integration_id) REFERENCES integrations (id) ON DELETE CASCADE
  )`);
  await createTrigger(sql, 'reviews_count_insert', `CREATE TRIGGER reviews_count_insert AFTER INSERT ON reviews FOR EACH ROW
    INSERT INTO review_counts (integration_id, rating, tenant_id, customer_id, organization_id, location_id, n)
    VALUES (NEW.integration_id, NEW.rating, NEW.tenant_id, NEW.customer_id, NEW.organization_id, NEW.location_id, 1)
    ON DUPLICATE KEY UPDATE n = n + 1`);
  await createTrigger(sql, 'reviews_count_delete', `CREATE TRIGGER reviews_count_delete AFTER DELETE ON reviews FOR EACH ROW
    UPDATE review_counts SET n = n - 1 WHERE integration_id = OLD.integration_id AND rating = OLD.rating`);
  await createTrigger(sql, 'reviews_count_update', `CREATE TRIGGER reviews_count_update AFTER UPDATE ON reviews FOR EACH ROW
    BEGIN
      IF NEW.integration_id <> OLD.integration_id OR NEW.rating <> OLD.rating THEN
        UPDATE review_counts SET n = n - 1 WHERE integration_id = OLD.integration_id AND rating = OLD.rating;
        INSERT INTO review_counts (integration_id, rating, tenant_id, customer_id, organization_id, location_id, n)
        VALUES (NEW.integration_id, NEW.rating, NEW.tenant_id, NEW.customer_id, NEW.organization_id, NEW.location_id, 1)
        ON DUPLICATE KEY UPDATE n = n + 1;
      END IF;
    END`);
  await sql('DELETE FROM review_counts');
  await sql(`INSERT INTO review_counts (integration_id, rating, tenant_id, customer_id, organization_id, location_id, n)
    SELECT integration_id, rating, MIN(tenant_id), MIN(customer_id), MIN(organization_id), MIN(location_id), COUNT(*)
    FROM reviews GROUP BY integration_id, rating`);
};

export const down: Migration = async ({ context: sql }) => {
  await sql('DROP TRIGGER IF EXISTS reviews_count_update');
  await sql('DROP TRIGGER IF EXISTS reviews_count_delete');
  await sql('DROP TRIGGER IF EXISTS reviews_count_insert');
  await sql('DROP TABLE IF EXISTS review_counts');
};
