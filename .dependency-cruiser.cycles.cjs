// Second pass of `npm run lint:imports`: no import cycle between the domain folders of core
// (packages/core/src/<domain>/), two-way imports included. Folders are compared on production code
// only: test files and the testing/ kernel are leaves no production module imports, so they can close
// no cycle at run time (a workspace test using auth while auth uses workspace is not a cycle).
// The module rules are in .dependency-cruiser.cjs; this file reuses its resolution options.
const base = require('./.dependency-cruiser.cjs');

const DOMAIN = '^packages/core/src/(?!(shared|testing)$)[^/]+$';

/**
 * TEMPORARY. Known folder edges that lie on a cycle today, as [from, to] domain pairs, tolerated until the code
 * moving out of them lands. dependency-cruiser's knownViolations do not cover folder rules, so each
 * pair is left out of its own folder's rule. Remove a pair as soon as the import behind it is gone.
 */
const KNOWN_CYCLE_EDGES = [
  ['auth', 'workspace'],
  ['lead', 'replies'],
  ['replies', 'lead'],
  ['replies', 'sending'],
  ['replies', 'unibox'],
  ['sending', 'lead'],
  ['sending', 'unibox'],
  ['unibox', 'lead'],
  ['workspace', 'auth'],
];

const folder = (name) => `^packages/core/src/${name}$`;
/** pathNot only when there is something to leave out (an empty list would leave out everything). */
const except = (names) => (names.length ? { pathNot: names.map(folder) } : {});
const tolerating = [...new Set(KNOWN_CYCLE_EDGES.map(([from]) => from))];

const rule = (from, to) => ({
  name: 'no-cycles-between-domains',
  comment:
    'Domain folders of core form no import cycle (no A → B → A, however long the way round); share ' +
    'what both need through shared/, or let one of them call the other through its index.ts only.',
  severity: 'error',
  scope: 'folder',
  from,
  to: { circular: true, ...to },
});

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    // Every domain folder without a known edge: no edge of it may lie on a cycle.
    rule({ path: DOMAIN, ...except(tolerating) }, { path: DOMAIN }),
    // A domain folder with known edges: no other edge of it may lie on a cycle.
    ...tolerating.map((from) => rule({ path: folder(from) }, { path: DOMAIN, ...except(KNOWN_CYCLE_EDGES.filter(([f]) => f === from).map(([, to]) => to)) })),
  ],
  options: {
    ...base.options,
    exclude: { path: ['\\.test\\.ts$', '\\.test-helpers\\.ts$', '/testing/'] },
    knownViolations: [],
    metrics: true,
  },
};
