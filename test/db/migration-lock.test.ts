import { QueryTypes } from 'sequelize';
import { createSequelize } from '../../src/db/connection';
import { migrations } from '../../src/db/migrations';
import { migrate } from '../../src/db/umzug';
import { useScratchDatabase } from '../support/db';

/**
 * Processes that start together (two API replicas, an API and `db:migrate`) migrate one after the other under the
 * database's migration lock: before it, both ran the first migration and one failed with "Table already exists".
 */
describe('migrations under the migration lock', () => {
  const { url, sequelize } = useScratchDatabase('migration_lock');

  it('two processes migrating an empty database at once: both succeed, each migration runs and is recorded once', async () => {
    const [a, b] = [createSequelize({ url, poolMax: 1 }), createSequelize({ url, poolMax: 1 })];
    try {
      const [first, second] = await Promise.all([migrate(a), migrate(b)]);
      expect([...first, ...second].sort()).toEqual(migrations.map((m) => m.name).sort());
      expect(Math.min(first.length, second.length)).toBe(0);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
    const recorded = await sequelize.query<{ name: string; n: number }>('SELECT name, COUNT(*) AS n FROM schema_migrations GROUP BY name', { type: QueryTypes.SELECT });
    expect(recorded).toHaveLength(migrations.length);
    expect(recorded.every((r) => Number(r.n) === 1)).toBe(true);
    // The lock is free again: a later run (the next deploy) takes it and finds nothing to do.
    expect(await migrate(sequelize)).toEqual([]);
  });
});
