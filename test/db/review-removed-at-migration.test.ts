import { QueryTypes } from 'sequelize';
import { migrations } from '../../src/db/migrations';
import { createMigrator } from '../../src/db/umzug';
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
});
