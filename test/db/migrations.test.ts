import countries from 'i18n-iso-countries';
import { QueryTypes } from 'sequelize';
import { createMigrator } from '../../src/db/umzug';
import { migrations } from '../../src/db/migrations';
import { SOURCE_CATALOGUE } from '../../src/db/migrations/20261121000700-seed-review-sources';
import { useScratchDatabase } from '../support/db';

describe('migrations (umzug)', () => {
  const { sequelize } = useScratchDatabase('migrations');
  const tables = async () =>
    (await sequelize.query<{ t: string }>('SELECT table_name AS t FROM information_schema.tables WHERE table_schema = DATABASE()', { type: QueryTypes.SELECT }))
      .map((r) => r.t)
      .sort();

  it('lists the migrations in the order of their names, each name once (schema_migrations reads like the folder)', () => {
    const names = migrations.map((m) => m.name);
    expect(names).toEqual([...names].sort());
    expect(new Set(names).size).toBe(names.length);
  });

  it('migrates an empty database up, seeds countries from the ISO 3166 package and the source catalogue, and back down', async () => {
    const migrator = createMigrator(sequelize);
    const applied = await migrator.up();
    expect(applied.length).toBeGreaterThanOrEqual(8);
    expect(await tables()).toEqual(
      expect.arrayContaining(['tenants', 'users', 'api_tokens', 'customers', 'plans', 'organizations', 'locations', 'reviews', 'integrations', 'review_sources', 'countries', 'outbox_events', 'stored_files', 'schema_migrations']),
    );

    const [{ n }] = await sequelize.query<{ n: number }>('SELECT COUNT(*) AS n FROM countries', { type: QueryTypes.SELECT });
    expect(Number(n)).toBe(Object.keys(countries.getAlpha2Codes()).length);
    const sources = await sequelize.query<{ slug: string; kind: string }>('SELECT slug, kind FROM review_sources ORDER BY id', { type: QueryTypes.SELECT });
    expect(sources).toEqual(SOURCE_CATALOGUE.map((s) => ({ slug: s.slug, kind: s.kind })));

    expect(await migrator.up()).toEqual([]); // idempotent: nothing pending

    await migrator.down({ to: 0 });
    expect(await tables()).toEqual(['schema_migrations']);
    expect((await migrator.up()).length).toBe(applied.length);
  });
});
