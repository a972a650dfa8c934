/** Each Jest worker gets its own MariaDB database (see test/support/global-setup.ts). */
const swc = JSON.parse(require('fs').readFileSync(__dirname + '/.swcrc', 'utf8'));
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  transform: { '^.+\\.ts$': ['@swc/jest', { ...swc, swcrc: false }] },
  setupFiles: ['reflect-metadata'],
  globalSetup: '<rootDir>/test/support/global-setup.ts',
  globalTeardown: '<rootDir>/test/support/global-teardown.ts',
  maxWorkers: 2,
  reporters: ['default', '<rootDir>/test/support/summary-reporter.js'],
  testTimeout: 30000,
};
