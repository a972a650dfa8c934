import 'reflect-metadata';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { createSequelize, dropDatabase, ensureDatabase } from '../../src/db/connection';
import { migrate } from '../../src/db/umzug';
import { databaseUrlFor, WORKERS } from './env';
import { startTestTemporal } from './temporal-server';
import { buildTestWorkflowBundle } from './workflow-bundle';

/** A fresh, migrated database for each Jest worker of this run: the tests use the real MariaDB. */
export default async function globalSetup(): Promise<void> {
  process.env.REVIEWGRID_TEST_RUN = `${process.pid}`;
  const temporal = startTestTemporal();
  // Every test worker (and worker process) loads this one bundle of the current workflow code.
  const bundle = buildTestWorkflowBundle();
  // The browser tests drive Debian's Chromium and the PDF layout tests poppler's pdftoppm: on a fresh machine of this
  // kind, install what is missing (each script returns at once when its tool is there).
  for (const script of ['ensure-chromium.sh', 'ensure-poppler.sh']) {
    execFileSync('bash', [path.join(__dirname, '../../scripts', script)], { stdio: 'inherit' });
  }
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
  await Promise.all([temporal, bundle]);
}
