import type { CodegenConfig } from '@graphql-codegen/cli';

// Types the REST adapter's named operations (graphql/operations) against the
// printed schema. Output is committed; CI regenerates and fails on drift.
const config: CodegenConfig = {
  schema: 'graphql/schema.graphql',
  documents: 'graphql/operations/**/*.graphql',
  generates: {
    'graphql/generated/operations.ts': {
      plugins: ['typescript-operations', 'typed-document-node'],
      config: {
        useTypeImports: true,
        enumsAsTypes: true,
        avoidOptionals: false,
        scalars: { Date: 'string', DateTime: 'string', ID: 'string', Upload: 'unknown' },
      },
    },
  },
  hooks: {},
};

export default config;
