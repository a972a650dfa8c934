/** Each Jest worker gets its own MariaDB database (see test/support/global-setup.ts). */
// .swcrc holds TSX (Preact's JSX runtime) first, then everything else (the first entry whose `test` matches applies).
const swcrc = JSON.parse(require('fs').readFileSync(__dirname + '/.swcrc', 'utf8'));
const swcFor = (ext) => {
  const { test: _test, $schema: _schema, ...options } = swcrc.find((entry) => !entry.test || new RegExp(entry.test).test(`file.${ext}`));
  return ['@swc/jest', { ...options, swcrc: false }];
};
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  transform: {
    '^.+\\.tsx$': swcFor('tsx'),
    '^.+\\.ts$': swcFor('ts'),
    // ESM-only packages (oauth4webapi, oidc-provider, jose, the MCP Tasks extension client) are compiled to CommonJS for Jest's module system; Node loads them natively.
    '^.+\\.m?js$': ['@swc/jest', { jsc: { parser: { syntax: 'ecmascript' }, target: 'es2022' }, module: { type: 'commonjs' }, swcrc: false }],
  },
  transformIgnorePatterns: ['/node_modules/(?!(oauth4webapi|oidc-provider|jose|@modelcontextprotocol/ext-tasks)/)'],
  // The Tasks extension client exports ESM entry points only ("import" condition), which Jest's CommonJS resolver skips.
  moduleNameMapper: { '^@modelcontextprotocol/ext-tasks/(client|core/v2)$': '<rootDir>/node_modules/@modelcontextprotocol/ext-tasks/dist/$1/index.js' },
  setupFiles: ['reflect-metadata'],
  // The contract check after every test (REST answers against schema/openapi).
  setupFilesAfterEnv: ['<rootDir>/test/support/contract-hooks.ts'],
  globalSetup: '<rootDir>/test/support/global-setup.ts',
  globalTeardown: '<rootDir>/test/support/global-teardown.ts',
  maxWorkers: 2,
  // A worker whose heap stays above this after a test file is replaced by a fresh one (same JEST_WORKER_ID, so the
  // same database). Each file leaves 70-150 MB of heap behind (`npx jest -w 1 --logHeapUsage` shows it, before and
  // after issue 19 alike: Jest's module registries are not all collected), and the suite ran a worker out of memory
  // once it had grown past 140 files.
  workerIdleMemoryLimit: '1024MB',
  reporters: ['default', '<rootDir>/test/support/summary-reporter.js'],
  testTimeout: 30000,
};
