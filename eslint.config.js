// @ts-check
const js = require('@eslint/js');
const tseslint = require('typescript-eslint');

module.exports = tseslint.config(
  { ignores: ['test/support/summary-reporter.js', 'facades/shared/graphql/**', 'dist/**', 'node_modules/**', 'data/**', 'coverage/**', 'clients/*/dist/**', 'jest.config.js', 'eslint.config.js'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-console': 'error',
    },
  },
  {
    // Rule 1 of the house: facades reach the business only through the GraphQL schema.
    files: ['facades/**/*.ts', 'facades/**/*.tsx'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['**/src/models', '**/src/models/*'], message: 'Facades go through the GraphQL schema, never models.' },
            { group: ['**/src/services', '**/src/services/*'], message: 'Facades execute GraphQL operations, never services.' },
          ],
        },
      ],
    },
  },
  {
    // Rule 7 of the house: workflows are deterministic. No Node built-ins, no models, services or providers:
    // activities do all I/O, and workflows know them by type only.
    files: ['workflows/**/*.workflow.ts', 'workflows/index.ts'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: __dirname } },
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['node:*', 'fs', 'path', 'http', 'https', 'crypto', 'net', 'child_process', 'os'], message: 'Workflows do no I/O.' },
            { group: ['**/src/**', '**/activities/*', '@temporalio/activity', '@temporalio/client', '@temporalio/worker'], allowTypeImports: true, message: 'Workflows import activities by type only.' },
          ],
        },
      ],
      // A promise a workflow forgets is a command it never awaits: nondeterminism waiting to happen.
      '@typescript-eslint/no-floating-promises': 'error',
    },
  },
  {
    // The typed client is for integrators: it stands alone, nothing of the server reaches it.
    files: ['clients/**/*.ts', 'clients/**/*.mjs'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ regex: '^(\\.\\./){3,}(src|facades|workflows|scripts|test)(/|$)', message: 'The client must not import the server.' }] }],
    },
  },
  {
    files: ['test/**/*.ts', 'scripts/**/*.ts'],
    rules: { 'no-console': 'off' },
  },
);
