import type { Migration, Sql } from '../umzug';

/**
 * Reviews removed on their platform (docs/decisions/review-platforms.md, "Reviews removed on the platform"): the row
 * stays, `removed_at` hides it from every list, detail, count and figure, and a review the platform lists again is
 * the same row again. `platform_seen_at` is the listing time of the last sync run that saw the review, and
 * `integrations.last_full_listing_at` the listing time of the last run that read the platform's whole list: a review
 * missing from two complete listings in a row is removed.
 *
 * `review_counts` counts only reviews without `removed_at`: the triggers are replaced so that a removal and a restore
 * move the count in the statement that writes them. A trigger is dropped and created again (MySQL 8 has no CREATE OR
 * REPLACE TRIGGER), so a review the running release writes in between, or while a failed creation waits for a re-run,
 * is not counted: once the triggers are in place, every count is set again from the rows in two statements
 * (`reconcileCounts`), never emptied (a rebuild from empty would answer 0 to the running release meanwhile). Going
 * up, the counts leave out removed reviews; going down, every row counts again, the removed ones included.
 *
 * Re-runnable both ways: DDL commits on its own, so a run that stopped part-way (a trigger refused for want of
 * privilege, the process killed) left some steps done; each step is taken only when information_schema says it is
 * still to do, and the counts are set again on every run.
 *
 * The four scope indexes the review lists walk, `(scope, published_at, id)`, end in `removed_at`: a page's ids are
 * still read from the index alone (`removed_at IS NULL` checked on the index entry), without touching the rows the
 * page skips.
 */
async function createTrigger(sql: Sql, name: string, statement: string): Promise<void> {
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

const TRIGGERS = ['reviews_count_insert', 'reviews_count_delete', 'reviews_count_update'] as const;
type TriggerName = (typeof TRIGGERS)[number];

/**
 * The count triggers, counting rows without `removed_at` (`removedAware`) or, as those of
 * 20261121000900-create-review-counts did, every row (the `down` puts them back); `only` names the ones to replace.
 */
async function countingTriggers(sql: Sql, removedAware: boolean, only: readonly TriggerName[] = TRIGGERS): Promise<void> {
  const counted = (row: 'NEW' | 'OLD') => (removedAware ? `${row}.removed_at IS NULL` : 'TRUE');
  const replace = async (name: TriggerName, statement: string) => {
    if (only.includes(name)) await createTrigger(sql, name, statement);
  };
  await replace('reviews_count_insert', `CREATE TRIGGER reviews_count_insert AFTER INSERT ON reviews FOR EACH ROW
    BEGIN
      IF ${counted('NEW')} THEN
        ${INCREMENT};
      END IF;
    END`);
  await replace('reviews_count_delete', `CREATE TRIGGER reviews_count_delete AFTER DELETE ON reviews FOR EACH ROW
    BEGIN
      IF ${counted('OLD')} THEN
        UPDATE review_counts SET n = n - 1 WHERE integration_id = OLD.integration_id AND rating = OLD.rating;
      END IF;
    END`);
  await replace('reviews_count_update', `CREATE TRIGGER reviews_count_update AFTER UPDATE ON reviews FOR EACH ROW
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
}

/**
 * The count triggers that are missing (a creation refused) or that do not count the way `removedAware` says yet (a
 * removed-aware trigger reads `removed_at`, one counting every row does not).
 */
async function triggersToReplace(sql: Sql, removedAware: boolean): Promise<TriggerName[]> {
  const found = await rows<{ name: string; body: string }>(
    sql,
    "SELECT trigger_name AS name, action_statement AS body FROM information_schema.triggers WHERE trigger_schema = DATABASE() AND event_object_table = 'reviews'",
  );
  const ready = new Set(found.filter((t) => t.body.includes('removed_at') === removedAware).map((t) => t.name));
  return TRIGGERS.filter((name) => !ready.has(name));
}

const SCOPES = ['tenant', 'customer', 'organization', 'location'] as const;
const scopeIndexes = (scopes: readonly string[], withRemoved: boolean): string =>
  scopes.map((s) => `DROP KEY reviews_${s}_published, ADD KEY reviews_${s}_published (${s}_id, published_at, id${withRemoved ? ', removed_at' : ''})`).join(', ');

async function rows<T>(sql: Sql, statement: string, replacements: unknown[] = []): Promise<T[]> {
  const [result] = (await sql(statement, replacements)) as [T[], unknown];
  return result;
}

async function hasColumn(sql: Sql, table: string, column: string): Promise<boolean> {
  const found = await rows(sql, 'SELECT 1 FROM information_schema.columns WHERE table_schema = DATABASE() AND table_name = ? AND column_name = ?', [table, column]);
  return found.length > 0;
}

/** The scope indexes that end in `removed_at`. */
async function widenedScopeIndexes(sql: Sql): Promise<string[]> {
  const widened = await rows<{ name: string }>(
    sql,
    "SELECT index_name AS name FROM information_schema.statistics WHERE table_schema = DATABASE() AND table_name = 'reviews' AND column_name = 'removed_at'",
  );
  const names = new Set(widened.map((w) => w.name));
  return SCOPES.filter((s) => names.has(`reviews_${s}_published`));
}

/** The scope indexes that do not end in `removed_at` yet. */
async function narrowScopeIndexes(sql: Sql): Promise<string[]> {
  const widened = await widenedScopeIndexes(sql);
  return SCOPES.filter((s) => !widened.includes(s));
}

/**
 * Every count set again from the rows (those without `removed_at` when `removedAware`, else every row) while the
 * triggers keep counting: the existing rows in one UPDATE (a pair whose reviews are all gone goes to 0), then every
 * pair with reviews in one INSERT ... ON DUPLICATE KEY UPDATE, which overwrites what the UPDATE or a trigger wrote
 * meanwhile with the count of the rows it read. Under REPEATABLE READ (InnoDB's default) a statement that writes from a
 * read locks the rows and gaps it reads, so a review written meanwhile waits for it and is then counted by its trigger,
 * once.
 */
async function reconcileCounts(sql: Sql, removedAware: boolean): Promise<void> {
  // Counting every row names no `removed_at`: a down that stopped after dropping the column runs this again.
  const counted = removedAware ? 'r.removed_at IS NULL' : 'TRUE';
  await sql(`UPDATE review_counts c SET c.n = (SELECT COUNT(*) FROM reviews r
    WHERE r.integration_id = c.integration_id AND r.rating = c.rating AND ${counted})`);
  await sql(`INSERT INTO review_counts (integration_id, rating, tenant_id, customer_id, organization_id, location_id, n)
    SELECT integration_id, rating, MIN(tenant_id), MIN(customer_id), MIN(organization_id), MIN(location_id), COUNT(*)
    FROM reviews r WHERE ${counted}
    GROUP BY integration_id, rating
    ON DUPLICATE KEY UPDATE n = VALUES(n)`);
}

export const up: Migration = async ({ context: sql }) => {
  const columns = [
    ...((await hasColumn(sql, 'reviews', 'removed_at')) ? [] : ['ADD COLUMN removed_at DATETIME(3) NULL']),
    ...((await hasColumn(sql, 'reviews', 'platform_seen_at')) ? [] : ['ADD COLUMN platform_seen_at DATETIME(3) NULL']),
  ];
  if (columns.length) await sql(`ALTER TABLE reviews ${columns.join(', ')}`);
  const narrow = await narrowScopeIndexes(sql);
  if (narrow.length) await sql(`ALTER TABLE reviews ${scopeIndexes(narrow, true)}`);
  if (!(await hasColumn(sql, 'integrations', 'last_full_listing_at'))) await sql('ALTER TABLE integrations ADD COLUMN last_full_listing_at DATETIME(3) NULL');
  await countingTriggers(sql, true);
  await reconcileCounts(sql, true);
};

/**
 * Every row counts again: the triggers first (the removed-aware ones read `removed_at`, so every write to `reviews`
 * would fail once the column is gone), then the counts, set from every row without emptying the table, then the
 * columns and indexes. The scope indexes and both columns go in one ALTER, so that table is rebuilt once.
 */
export const down: Migration = async ({ context: sql }) => {
  await countingTriggers(sql, false, await triggersToReplace(sql, false));
  await reconcileCounts(sql, false);
  if (await hasColumn(sql, 'integrations', 'last_full_listing_at')) await sql('ALTER TABLE integrations DROP COLUMN last_full_listing_at');
  const widened = await widenedScopeIndexes(sql);
  const changes = [
    ...(widened.length ? [scopeIndexes(widened, false)] : []),
    ...((await hasColumn(sql, 'reviews', 'platform_seen_at')) ? ['DROP COLUMN platform_seen_at'] : []),
    ...((await hasColumn(sql, 'reviews', 'removed_at')) ? ['DROP COLUMN removed_at'] : []),
  ];
  if (changes.length) await sql(`ALTER TABLE reviews ${changes.join(', ')}`);
};
