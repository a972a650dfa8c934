import type { CodegenConfig } from '@graphql-codegen/cli';

/**
 * The facades' GraphQL documents, typed from the emitted schema: `graphql(`...`)` in facades/** returns a
 * TypedDocumentNode whose result and variables types come from facades/shared/graphql/ (generated, committed;
 * `npm run codegen`, checked by `npm run codegen:check`). A document asking for a field the schema does not have
 * fails here, and its result type is what tsc checks the presenters against.
 */
const config: CodegenConfig = {
  schema: 'schema/schema.graphql',
  documents: ['facades/**/*.ts', 'facades/**/*.tsx', '!facades/shared/graphql/**'],
  ignoreNoDocuments: false,
  generates: {
    'facades/shared/graphql/': {
      preset: 'client',
      // Presenters read fragment fields directly: no masking.
      presetConfig: { fragmentMasking: false },
      config: {
        scalars: { DateTimeISO: 'string' },
        enumsAsTypes: true,
        skipTypename: true,
        useTypeImports: true,
        documentMode: 'documentNode',
      },
    },
  },
};

export default config;
