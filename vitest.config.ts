import { defineConfig } from 'vitest/config';

import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

const roots = ['packages/*/src/**', 'apps/*/src/**'];

export default defineConfig({
  resolve: {
    // graphql ships CJS and ESM builds; yoga loads the CJS one, so the suite's own
    // imports must too, or `instanceof GraphQLError` fails across the two copies.
    alias: { graphql: require.resolve('graphql') },
  },
  test: {
    testTimeout: 60_000,
    hookTimeout: 120_000,
    reporters: ['default'],
    // `npm run test:unit` and `npm run test:integration` run one project each; `npm test` both.
    projects: [
      {
        extends: true,
        test: {
          // Pure tests: no database, no global setup, each file in its own module graph.
          name: 'unit',
          include: roots.map((root) => `${root}/*.test.ts`),
          exclude: ['**/node_modules/**', '**/*.int.test.ts'],
          // testDatabase() refuses to run here: a test that needs the database is an *.int.test.ts.
          env: { OUTREACH_TEST_NO_DATABASE: '1' },
        },
      },
      {
        extends: true,
        test: {
          name: 'integration',
          include: roots.map((root) => `${root}/*.int.test.ts`),
          globalSetup: ['packages/db/src/testing/global-setup.ts'],
          // Each worker keeps one migrated database for all its files (PGlite takes seconds
          // to start); tests isolate themselves by creating their own organization.
          pool: 'forks',
          isolate: false,
        },
      },
    ],
  },
});
