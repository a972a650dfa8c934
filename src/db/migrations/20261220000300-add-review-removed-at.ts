import type { Migration } from '../umzug';

/**
 * Reviews removed on their platform (docs/decisions/review-platforms.md, "Reviews removed on the platform"): the row
 * stays, `removed_at` hides it from every list, detail, count and figure, and a review the platform lists again is
 * the same row again. `platform_seen_at` is the listing time of the last sync run that saw the review, and
 * `integrations.last_full_listing_at` the listing time of the last run that read the platform's whole list: a review
 * missing from two complete listings in a row is removed.
 *
 * `review_counts` counts only reviews without `removed_at`: the triggers are replaced so that a removal and a restore
 * move the count in the statement that writes them. Going up, no review is removed yet, so the counts stay as they are
 * (a rebuild would empty them for a moment under a running release, and a review inserted meanwhile would break it);
 * going down, they are rebuilt from every row.
 *
 * The four scope indexes the review lists walk, `(scope, published_at, id)`, end in `removed_at`: a page's ids are
 * still read from the index alone (`removed_at IS NULL` checked on the index entry), without touching the rows the
 * page skips.
 */
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

const INCREMENT = `INSERT INTO review_counts (integration_id, rating, tenant_id, customer_id, organization_id, location_id, n)
        VALUES (NEW.integration_id, NEW.rating, NEW.tenant_id, NEW.customer_id, NEW.organization_id, NEW.location_id, 1)
        ON DUPLICATE KEY UPDATE n = n + 1`;

/** The triggers of 20261121000900-create-review-counts, counting every row (the `down` puts them back). */
async function countingTriggers(sql: Parameters<Migration>[0]['context'], removedAware: boolean): Promise<void> {
  const counted = (row: 'NEW' | 'OLD') => (removedAware ? `${row}.removed_at IS NULL` : 'TRUE');
  await createTrigger(sql, 'reviews_count_insert', `CREATE TRIGGER reviews_count_insert AFTER INSERT ON reviews FOR EACH ROW
    BEGIN
      IF ${counted('NEW')} THEN
        ${INCREMENT};
      END IF;
    END`);
  await createTrigger(sql, 'reviews_count_delete', `CREATE TRIGGER reviews_count_delete AFTER DELETE ON reviews FOR EACH ROW
    BEGIN
      IF ${counted('OLD')} THEN
        UPDATE review_counts SET n = n - 1 WHERE integration_id = OLD.integration_id AND rating = OLD.rating;
      END IF;
    END`);
  await createTrigger(sql, 'reviews_count_update', `CREATE TRIGGER reviews_count_update AFTER UPDATE ON reviews FOR EACH ROW
    BEGIN
      IF NEW.integration_id <> OLD.integration_id OR NEW.rating <> OLD.rating OR (${counted('NEW')}) <> (${counted('OLD')}) THEN
        IF ${counted('OLD')} THEN
          UPDATE review_counts SET n = n - 1 WHERE integration_id = OLD.integration_id AND rating = OLD.rating;
        END IF;
        IF ${counted('NEW')} THEN
          ${INCREMENT};
        END IF;
      END IF;
    END`);
  if (removedAware) return;
  await sql('DELETE FROM review_counts');
  await sql(`INSERT INTO review_counts (integration_id, rating, tenant_id, customer_id, organization_id, location_id, n)
    SELECT integration_id, rating, MIN(tenant_id), MIN(customer_id), MIN(organization_id), MIN(location_id), COUNT(*)
    FROM reviews GROUP BY integration_id, rating`);
}

const SCOPES = ['tenant', 'customer', 'organization', 'location'] as const;
const scopeIndexes = (withRemoved: boolean): string =>
  SCOPES.map((s) => `DROP KEY reviews_${s}_published, ADD KEY reviews_${s}_published (${s}_id, published_at, id${withRemoved ? ', removed_at' : ''})`).join(', ');

export const up: Migration = async ({ context: sql }) => {
  await sql(`ALTER TABLE reviews
    ADD COLUMN removed_at DATETIME(3) NULL,
    ADD COLUMN platform_seen_at DATETIME(3) NULL`);
  await sql(`ALTER TABLE reviews ${scopeIndexes(true)}`);
  await sql('ALTER TABLE integrations ADD COLUMN last_full_listing_at DATETIME(3) NULL');
  await countingTriggers(sql, true);
};

export const down: Migration = async ({ context: sql }) => {
  await countingTriggers(sql, false);
  await sql('ALTER TABLE integrations DROP COLUMN last_full_listing_at');
  await sql(`ALTER TABLE reviews ${scopeIndexes(false)}`);
  await sql('ALTER TABLE reviews DROP COLUMN platform_seen_at, DROP COLUMN removed_at');
};
