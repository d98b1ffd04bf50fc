import { defineConfig } from 'vitest/config';

import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

export default defineConfig({
  resolve: {
    // graphql ships CJS and ESM builds; yoga loads the CJS one, so the suite's own
    // imports must too, or `instanceof GraphQLError` fails across the two copies.
    alias: { graphql: require.resolve('graphql') },
  },
  test: {
    include: ['packages/*/src/**/*.test.ts', 'apps/*/src/**/*.test.ts'],
    globalSetup: ['packages/core/src/testing/global-setup.ts'],
    // Each worker keeps one migrated database for all its files (PGlite takes seconds
    // to start); tests isolate themselves by creating their own organization.
    pool: 'forks',
    isolate: false,
    testTimeout: 60_000,
    hookTimeout: 120_000,
    reporters: ['default'],
  },
});
