// Second pass of `npm run lint:imports`: no import cycle between the domain folders of core
// (packages/core/src/<domain>/), two-way imports included. Folders are compared on production code
// only: test files and the testing/ kernel are leaves no production module imports, so they can close
// no cycle at run time (a workspace test using auth while auth uses workspace is not a cycle).
// The module rules are in .dependency-cruiser.cjs; this file reuses its resolution options.
const base = require('./.dependency-cruiser.cjs');

const DOMAIN = '^packages/core/src/(?!(shared|testing)$)[^/]+$';

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-cycles-between-domains',
      comment:
        'Domain folders of core form no import cycle (no A → B → A, however long the way round); share ' +
        'what both need through shared/, or let one of them call the other through its index.ts only.',
      severity: 'error',
      scope: 'folder',
      from: { path: DOMAIN },
      to: { path: DOMAIN, circular: true },
    },
  ],
  options: {
    ...base.options,
    exclude: { path: ['\\.test\\.ts$', '\\.test-helpers\\.ts$', '/testing/'] },
    metrics: true,
  },
};
