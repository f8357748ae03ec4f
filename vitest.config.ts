import { defineConfig } from 'vitest/config';

export default defineConfig({
  // One copy of graphql-js: some dependencies require() its CommonJS build,
  // so ESM imports must resolve to the same files ("another realm" otherwise).
  resolve: { alias: [{ find: /^graphql$/, replacement: 'graphql/index.js' }] },
  test: {
    include: ['tests/**/*.test.ts'],
    globalSetup: ['tests/setup/servers.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // The AWS SDK's notice that its releases after January 2027 need Node 22
    // would otherwise be printed once per test file; the service still prints it.
    env: { NODE_ENV: 'test', AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' },
  },
});
