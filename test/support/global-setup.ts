import 'reflect-metadata';
import { createSequelize, dropDatabase, ensureDatabase } from '../../src/db/connection';
import { migrate } from '../../src/db/umzug';
import { databaseUrlFor, WORKERS } from './env';
import { startTestTemporal } from './temporal-server';

/** A fresh, migrated database for each Jest worker of this run: the tests use the real MariaDB. */
export default async function globalSetup(): Promise<void> {
  process.env.REVIEWGRID_TEST_RUN = `${process.pid}`;
  const temporal = startTestTemporal();
  await Promise.all(
    Array.from({ length: WORKERS }, async (_, i) => {
      const url = databaseUrlFor(i + 1);
      await dropDatabase(url);
      await ensureDatabase(url);
      const sequelize = createSequelize({ url, poolMax: 2 });
      try {
        await migrate(sequelize);
      } finally {
        await sequelize.close();
      }
    }),
  );
  await temporal;
}
