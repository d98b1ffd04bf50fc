import { defineConfig } from 'vitest/config';

import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';

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
    // Vitest's default (one fewer than the cores) is a single worker on a 2-core machine, and the
    // integration tests wait (browsers, child processes, mail servers) more than they compute:
    // two workers on 2 cores ran the PGlite pass in 402 s against 690 s. Each worker has its own
    // database on PGlite and on PostgreSQL (packages/db/src/testing/database.ts).
    maxWorkers: Math.max(2, availableParallelism() - 1),
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
