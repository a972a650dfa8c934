import { QueryTypes } from 'sequelize';
import { migrations } from '../../src/db/migrations';
import * as createReviewCounts from '../../src/db/migrations/20261121000900-create-review-counts';
import { down } from '../../src/db/migrations/20261220000300-add-review-removed-at';
import { createMigrator, type Sql } from '../../src/db/umzug';
import { rowInserter, useScratchDatabase } from '../support/db';

const MIGRATION = '20261220000300-add-review-removed-at';
const BEFORE = migrations[migrations.findIndex((m) => m.name === MIGRATION) - 1].name;
const SCOPES = ['tenant', 'customer', 'organization', 'location'];

/**
 * The migration runs while the previous release still writes reviews (docker compose's migrate job during a rolling
 * upgrade), and it can stop part-way: a trigger refused for want of privilege (MySQL 8 with binary logging), the process
 * killed. DDL commits on its own, so a second run must finish what the first left, and the reviews written while a
 * trigger was missing must be counted in `review_counts` after it.
 */
describe(`migration ${MIGRATION}: re-runnable, counts set again`, () => {
  const { sequelize } = useScratchDatabase('review_removed_at');
  const select = <T extends object>(sql: string, replacements: unknown[] = []) => sequelize.query<T>(sql, { replacements, type: QueryTypes.SELECT });
  const run = (sql: string) => sequelize.query(sql, { type: QueryTypes.RAW });
  const insert = rowInserter(sequelize);
  /** A migration's SQL runner outside umzug (a migration's step run by hand). */
  const direct: Sql = (statement, replacements) => sequelize.query(statement, { replacements, type: QueryTypes.RAW, logging: false });

  async function migratedToBefore() {
    const migrator = createMigrator(sequelize);
    if ((await migrator.pending()).some((m) => m.name === BEFORE)) await migrator.up({ to: BEFORE });
    expect((await migrator.executed()).map((m) => m.name).pop()).toBe(BEFORE);
    return migrator;
  }

  /** A synced integration's world: answers a writer of its reviews. */
  async function integrationWorld() {
    const tenant = await insert('tenants', {});
    const customer = await insert('customers', { tenant_id: tenant, plan_id: null });
    const org = await insert('organizations', { tenant_id: tenant, customer_id: customer });
    const location = await insert('locations', { tenant_id: tenant, customer_id: customer, organization_id: org });
    const [{ id: source }] = await select<{ id: number }>('SELECT id FROM review_sources ORDER BY id LIMIT 1');
    const integration = await insert('integrations', { tenant_id: tenant, customer_id: customer, organization_id: org, location_id: location, source_id: source });
    const review = (rating: number) =>
      insert('reviews', { tenant_id: tenant, customer_id: customer, organization_id: org, location_id: location, integration_id: integration, rating });
    const counts = async () => {
      const rows = await select<{ rating: number; n: number }>('SELECT rating, n FROM review_counts WHERE integration_id = ? AND n <> 0 ORDER BY rating', [integration]);
      return Object.fromEntries(rows.map((r) => [r.rating, Number(r.n)]));
    };
    return { integration, review, counts };
  }

  async function migrated() {
    const migrator = createMigrator(sequelize);
    if ((await migrator.pending()).some((m) => m.name === MIGRATION)) await migrator.up({ to: MIGRATION });
    expect((await migrator.executed()).map((m) => m.name).pop()).toBe(MIGRATION);
    return migrator;
  }

  /** A migrated integration's reviews: 5, 5, 4, 3 and 1, of which one 5 and the only 3 removed, and a 2 written removed. */
  async function worldWithRemovedReviews() {
    const w = await integrationWorld();
    for (const rating of [5, 5, 4, 3, 1]) await w.review(rating);
    await run(`UPDATE reviews SET removed_at = NOW(3) WHERE integration_id = ${w.integration} AND rating = 3`);
    await run(`UPDATE reviews SET removed_at = NOW(3) WHERE integration_id = ${w.integration} AND rating = 5 ORDER BY id LIMIT 1`);
    const removed = await w.review(2);
    await run(`UPDATE reviews SET removed_at = NOW(3) WHERE id = ${removed}`);
    expect(await w.counts()).toEqual({ 1: 1, 4: 1, 5: 1 });
    return w;
  }

  /** Every pair's count in review_counts (0 left out) against a count of the rows, over the whole table. */
  async function expectCountsFromRows() {
    const counted = await select<{ integration_id: number; rating: number; n: number }>(
      'SELECT integration_id, rating, n FROM review_counts WHERE n <> 0 ORDER BY integration_id, rating',
    );
    const fromRows = await select<{ integration_id: number; rating: number; n: number }>(
      'SELECT integration_id, rating, COUNT(*) AS n FROM reviews GROUP BY integration_id, rating ORDER BY integration_id, rating',
    );
    const plain = (list: { integration_id: number; rating: number; n: number }[]) => list.map((r) => [r.integration_id, r.rating, Number(r.n)]);
    expect(plain(counted)).toEqual(plain(fromRows));
  }

  /** The schema as 20261121000900's triggers and the release before this migration had it. */
  async function expectSchemaBefore() {
    const columns = await select<{ name: string }>(
      "SELECT CONCAT(table_name, '.', column_name) AS name FROM information_schema.columns WHERE table_schema = DATABASE() AND column_name IN ('removed_at', 'platform_seen_at', 'last_full_listing_at')",
    );
    expect(columns).toEqual([]);
    for (const scope of SCOPES) {
      const indexed = await select<{ name: string }>(
        "SELECT column_name AS name FROM information_schema.statistics WHERE table_schema = DATABASE() AND table_name = 'reviews' AND index_name = ? ORDER BY seq_in_index",
        [`reviews_${scope}_published`],
      );
      expect([scope, indexed.map((c) => c.name)]).toEqual([scope, [`${scope}_id`, 'published_at', 'id']]);
    }
    const triggers = await select<{ name: string; body: string }>(
      "SELECT trigger_name AS name, action_statement AS body FROM information_schema.triggers WHERE trigger_schema = DATABASE() AND event_object_table = 'reviews' ORDER BY trigger_name",
    );
    expect(triggers.map((t) => [t.name, t.body.includes('removed_at')])).toEqual([
      ['reviews_count_delete', false],
      ['reviews_count_insert', false],
      ['reviews_count_update', false],
    ]);
  }

  /** Up again after a down: the columns back, and a removal leaves the count once more. */
  async function expectUpAgain(migrator: Awaited<ReturnType<typeof migrated>>, w: Awaited<ReturnType<typeof integrationWorld>>) {
    expect((await migrator.up({ to: MIGRATION })).map((m) => m.name)).toEqual([MIGRATION]);
    await expectCountsFromRows();
    const before = await w.counts();
    await run(`UPDATE reviews SET removed_at = NOW(3) WHERE integration_id = ${w.integration} AND rating = 5 ORDER BY id LIMIT 1`);
    expect(await w.counts()).toEqual({ ...before, 5: before[5] - 1 });
  }

  it('finishes a run that stopped at the triggers and counts the reviews written while one was missing', async () => {
    const migrator = await migratedToBefore();
    const w = await integrationWorld();
    for (const rating of [5, 5, 3]) await w.review(rating);
    expect(await w.counts()).toEqual({ 3: 1, 5: 2 });

    // What a first run left: the columns added, one scope index widened, the insert trigger dropped and its creation refused.
    await run('ALTER TABLE reviews ADD COLUMN removed_at DATETIME(3) NULL, ADD COLUMN platform_seen_at DATETIME(3) NULL');
    await run('ALTER TABLE reviews DROP KEY reviews_tenant_published, ADD KEY reviews_tenant_published (tenant_id, published_at, id, removed_at)');
    await run('DROP TRIGGER reviews_count_insert');
    // The running release goes on writing reviews, which nothing counts.
    await w.review(5);
    await w.review(1);
    expect(await w.counts()).toEqual({ 3: 1, 5: 2 });

    expect((await migrator.up({ to: MIGRATION })).map((m) => m.name)).toEqual([MIGRATION]);
    expect(await w.counts()).toEqual({ 1: 1, 3: 1, 5: 3 });
    for (const scope of SCOPES) {
      const columns = await select<{ name: string }>(
        "SELECT column_name AS name FROM information_schema.statistics WHERE table_schema = DATABASE() AND table_name = 'reviews' AND index_name = ? ORDER BY seq_in_index",
        [`reviews_${scope}_published`],
      );
      expect([scope, columns.map((c) => c.name)]).toEqual([scope, [`${scope}_id`, 'published_at', 'id', 'removed_at']]);
    }
    const [{ n }] = await select<{ n: number }>("SELECT COUNT(*) AS n FROM information_schema.columns WHERE table_schema = DATABASE() AND table_name = 'integrations' AND column_name = 'last_full_listing_at'");
    expect(Number(n)).toBe(1);

    // The triggers in place count a new review, a removal and a restore.
    await w.review(1);
    await run(`UPDATE reviews SET removed_at = NOW(3) WHERE integration_id = ${w.integration} AND rating = 5`);
    expect(await w.counts()).toEqual({ 1: 2, 3: 1 });
    await run(`UPDATE reviews SET removed_at = NULL WHERE integration_id = ${w.integration} AND rating = 5`);
    expect(await w.counts()).toEqual({ 1: 2, 3: 1, 5: 3 });

    // Down: every row counted again, as before the migration.
    await run(`UPDATE reviews SET removed_at = NOW(3) WHERE integration_id = ${w.integration} AND rating = 3`);
    expect(await w.counts()).toEqual({ 1: 2, 5: 3 });
    await migrator.down({ to: MIGRATION });
    expect(await w.counts()).toEqual({ 1: 2, 3: 1, 5: 3 });
  });

  it('counts the removed reviews again going down, never reading fewer than the kept ones meanwhile, and runs down twice', async () => {
    const migrator = await migrated();
    const w = await worldWithRemovedReviews();

    // What a running release reads between any two statements of the down: never less than the kept reviews (a table
    // emptied and filled again answers 0 meanwhile), never more than every review.
    const kept = { 1: 1, 4: 1, 5: 1 };
    const every = { 1: 1, 2: 1, 3: 1, 4: 1, 5: 2 };
    const seen: Record<number, number>[] = [];
    const observed: Sql = async (statement, replacements) => {
      const result = await direct(statement, replacements);
      seen.push(await w.counts());
      return result;
    };
    await down({ name: MIGRATION, context: observed });
    await run(`DELETE FROM schema_migrations WHERE name = '${MIGRATION}'`);
    expect(seen.length).toBeGreaterThan(0);
    for (const [i, counts] of seen.entries()) {
      for (const [rating, n] of Object.entries(every)) {
        const read = counts[Number(rating)] ?? 0;
        expect([i, rating, read >= (kept[Number(rating) as keyof typeof kept] ?? 0) && read <= n]).toEqual([i, rating, true]);
      }
    }
    expect(await w.counts()).toEqual(every);
    await expectCountsFromRows();
    await expectSchemaBefore();

    // A second down (its first run's record lost, or run by hand) finds everything done and changes nothing.
    await down({ name: MIGRATION, context: direct });
    expect(await w.counts()).toEqual(every);
    await expectCountsFromRows();
    await expectSchemaBefore();

    await expectUpAgain(migrator, w);
  });

  it.each([
    [
      'integrations.last_full_listing_at dropped and the tenant index restored',
      async () => {
        await run('ALTER TABLE integrations DROP COLUMN last_full_listing_at');
        await run('ALTER TABLE reviews DROP KEY reviews_tenant_published, ADD KEY reviews_tenant_published (tenant_id, published_at, id)');
      },
    ],
    [
      'the insert trigger dropped (its creation refused) and a review written meanwhile, reviews.platform_seen_at dropped',
      async (w: Awaited<ReturnType<typeof integrationWorld>>) => {
        await run('DROP TRIGGER reviews_count_insert');
        await w.review(5);
        await run('ALTER TABLE reviews DROP COLUMN platform_seen_at');
      },
    ],
    [
      'every trigger counting every row, reviews.removed_at already dropped',
      async () => {
        // The triggers of the migration before, which count every row and set every count from the rows.
        await createReviewCounts.up({ name: '20261121000900-create-review-counts', context: direct });
        await run('ALTER TABLE reviews DROP COLUMN removed_at');
      },
    ],
  ])('finishes a down that stopped part-way (%s), counting every review', async (_state, stoppedDown) => {
    const migrator = await migrated();
    const w = await worldWithRemovedReviews();
    await stoppedDown(w);

    expect((await migrator.down({ to: MIGRATION })).map((m) => m.name)).toEqual([MIGRATION]);
    await expectCountsFromRows();
    await expectSchemaBefore();
    await expectUpAgain(migrator, w);
  });
});
