import { dropDatabase } from '../../src/db/connection';
import { databaseUrlFor, WORKERS } from './env';
import { stopTestTemporal } from './temporal-server';
import { removeTestWorkflowBundle } from './workflow-bundle';

/** Drops this run's databases (set KEEP_TEST_DATABASES=1 to inspect them after a failure). */
export default async function globalTeardown(): Promise<void> {
  await stopTestTemporal();
  removeTestWorkflowBundle();
  if (process.env.KEEP_TEST_DATABASES === '1') return;
  await Promise.all(Array.from({ length: WORKERS }, (_, i) => dropDatabase(databaseUrlFor(i + 1))));
}
