/** Where the tests find MariaDB: one database per Jest worker and per run, so parallel runs never collide. */
export const TEST_SERVER_URL = process.env.TEST_DATABASE_SERVER ?? 'mysql://root@127.0.0.1:3306';
export const WORKERS = 2;

/** Set by global setup in the parent process; Jest workers inherit it. */
export const runId = (): string => process.env.REVIEWGRID_TEST_RUN ?? 'local';

export const databaseUrlFor = (worker: number | string, run = runId()): string =>
  `${TEST_SERVER_URL}/reviewgrid_test_${run}_${worker}`;
