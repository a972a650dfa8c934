/** Where the tests find MariaDB: one database per Jest worker and per run, so parallel runs never collide. */
export const TEST_SERVER_URL = process.env.TEST_DATABASE_SERVER ?? 'mysql://root@127.0.0.1:3306';
export const WORKERS = 2;

/** Set by global setup in the parent process; Jest workers inherit it. */
export const runId = (): string => process.env.REVIEWGRID_TEST_RUN ?? 'local';

export const databaseUrlFor = (worker: number | string, run = runId()): string =>
  `${TEST_SERVER_URL}/reviewgrid_test_${run}_${worker}`;

/**
 * Sets `values` in process.env before the tests of a describe block and, after them, puts back what each key of
 * `values` and `restore` held before (a test may change them in between); `before(key)` is that earlier value.
 */
export function useEnv(values: Record<string, string>, restore: string[] = []): { before: (key: string) => string | undefined } {
  const saved: Record<string, string | undefined> = {};
  const put = (key: string, value: string | undefined) => {
    if (value === undefined) delete process.env[key];
    else process.env[key] = value;
  };
  beforeAll(() => {
    for (const key of [...Object.keys(values), ...restore]) saved[key] = process.env[key];
    for (const [key, value] of Object.entries(values)) process.env[key] = value;
  });
  afterAll(() => {
    for (const [key, value] of Object.entries(saved)) put(key, value);
  });
  return { before: (key) => saved[key] };
}
