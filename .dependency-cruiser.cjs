// Import rules of the monorepo, checked by dependency-cruiser (`npm run lint:imports`, part of `npm test`).
// See docs/architecture.md, "Import rules". Every rule is an error: a new violation fails the suite.
//
//   gateway → core → db      db imports neither core nor gateway; core never imports gateway
//   core is framework-free   no express, graphql, yoga, pothos, trpc in packages/core
//   domains                  packages/core/src/<domain>/ reaches another domain only through its index.ts;
//                            shared/ and testing/ are kernels any domain may import; shared/ imports no domain
//   web app                  apps/web imports nothing from packages/* or the gateway: it talks only GraphQL
//   no domain cycles         no import cycle between domain folders (production code; checked by the second
//                            pass, .dependency-cruiser.cycles.cjs)
//
// There are no exceptions (no known-violations list): new code follows the rules, and an import that
// breaks one is fixed, by importing through the other domain's index.ts or by moving the piece both
// need to shared/.

/** Test code: test files, test helpers and the testing/ kernels. */
const TEST_CODE = ['\\.test\\.ts$', '\\.test-helpers\\.ts$', '/testing/'];
const CORE = '^packages/core/src/';
const KERNELS = `${CORE}(shared|testing)/`;
/** Frameworks of the transports, which belong to the gateway only. */
const TRANSPORT_FRAMEWORKS = '(express|graphql|graphql-yoga|@graphql-yoga/[^/]+|@pothos/[^/]+|@trpc/[^/]+|@escape\\.tech/graphql-armor[^/]*)';

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'db-imports-no-core-or-gateway',
      comment: 'packages/db is the innermost layer: it imports neither @outreach/core nor the gateway.',
      severity: 'error',
      from: { path: '^packages/db/' },
      to: { path: '^(packages/core|apps)/' },
    },
    {
      name: 'core-imports-no-gateway',
      comment: 'Dependencies point inward (gateway → core → db): core never imports the gateway.',
      severity: 'error',
      from: { path: '^packages/core/' },
      to: { path: '^apps/' },
    },
    {
      name: 'core-imports-no-transport-framework',
      comment: 'Core is framework-free: express, GraphQL (yoga, pothos, armor) and tRPC belong to the gateway.',
      severity: 'error',
      from: { path: '^packages/core/' },
      to: { path: [`(^|/)node_modules/${TRANSPORT_FRAMEWORKS}/`, `^${TRANSPORT_FRAMEWORKS}(/|$)`] },
    },
    {
      name: 'packages-import-each-other-by-name',
      comment:
        'A workspace package reaches another one through its package name and exports (@outreach/core, ' +
        '@outreach/core/testing, @outreach/db), never through a relative path into its sources.',
      severity: 'error',
      from: { path: '^(packages|apps)/([^/]+)/' },
      to: { path: '^(packages|apps)/', pathNot: '^$1/$2/', dependencyTypes: ['local'] },
    },
    {
      name: 'domain-imports-other-domains-through-index',
      comment:
        'A domain folder of core (packages/core/src/<domain>/) reaches another domain only through that ' +
        "domain's index.ts; shared/ and testing/ are kernels anyone may import.",
      severity: 'error',
      from: { path: `${CORE}([^/]+)/`, pathNot: `${CORE}shared/` },
      to: { path: `${CORE}[^/]+/`, pathNot: [`${CORE}$1/`, KERNELS, `${CORE}[^/]+/index\\.ts$`] },
    },
    {
      name: 'shared-imports-no-domain',
      comment:
        'shared/ is the kernel every domain builds on: it imports no domain folder, nor the core root ' +
        '(its tests may use the testing/ kernel).',
      severity: 'error',
      from: { path: `${CORE}shared/` },
      to: { path: CORE, pathNot: KERNELS },
    },
    {
      name: 'domain-imports-not-the-core-root',
      comment:
        "core's index.ts and operations.ts (the registry) sit above the domains and import them all; a " +
        'domain importing them would close a cycle. Tests may use the registry.',
      severity: 'error',
      from: { path: `${CORE}[^/]+/`, pathNot: TEST_CODE },
      to: { path: `${CORE}[^/]+\\.ts$` },
    },
    {
      name: 'web-talks-only-graphql',
      comment:
        'apps/web is a browser app that reaches the server only over GraphQL (/graphql), so the UI proves ' +
        'the schema and nothing bypasses core: it imports nothing from packages/* or the gateway (its types ' +
        'come from the checked-in schema through gql.tada).',
      severity: 'error',
      from: { path: '^apps/web/' },
      to: { path: ['^packages/', '^apps/gateway/', '(^|/)node_modules/@outreach/'] },
    },
    {
      name: 'production-imports-no-test-code',
      comment: 'Test files, test helpers and testing/ kernels are for the tests only.',
      severity: 'error',
      from: { path: '^(packages|apps)/', pathNot: TEST_CODE },
      to: { path: TEST_CODE },
    },
    {
      name: 'not-to-unresolvable',
      comment: 'Every import resolves (a typo, or a package missing from package.json).',
      severity: 'error',
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: ['node_modules', '^packages/db/src/generated/'] },
    // The web app's build output (bundles, not sources).
    exclude: { path: '^apps/web/dist/' },
    tsConfig: { fileName: 'tsconfig.json' },
    tsPreCompilationDeps: true,
    enhancedResolveOptions: {
      // The workspace packages (@outreach/*) are symlinked into node_modules and expose their
      // TypeScript sources through package.json "exports".
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.tsx', '.mts', '.js', '.mjs', '.cjs', '.json'],
      mainFields: ['module', 'main', 'types'],
    },
  },
};
