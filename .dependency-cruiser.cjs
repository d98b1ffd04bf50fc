// Import rules of the monorepo, checked by dependency-cruiser (`npm run lint:imports`, part of `npm test`).
// See docs/architecture.md, "Import rules". Every rule is an error: a new violation fails the suite.
//
//   gateway → core → db      db imports neither core nor gateway; core never imports gateway
//   core is framework-free   no express, graphql, yoga, pothos, trpc in packages/core
//   domains                  packages/core/src/<domain>/ reaches another domain only through its index.ts;
//                            shared/ and testing/ are kernels any domain may import; shared/ imports no domain
//   no domain cycles         no import cycle between domain folders (production code; checked by the second
//                            pass, .dependency-cruiser.cycles.cjs)

/** Test code: test files, test helpers and the testing/ kernels. */
const TEST_CODE = ['\\.test\\.ts$', '\\.test-helpers\\.ts$', '/testing/'];
const CORE = '^packages/core/src/';
const KERNELS = `${CORE}(shared|testing)/`;
/** Frameworks of the transports, which belong to the gateway only. */
const TRANSPORT_FRAMEWORKS = '(express|graphql|graphql-yoga|@graphql-yoga/[^/]+|@pothos/[^/]+|@trpc/[^/]+|@escape\\.tech/graphql-armor[^/]*)';

const THROUGH_INDEX = 'domain-imports-other-domains-through-index';

/**
 * TEMPORARY. Known violations of the target state, tolerated until the moves that remove them land;
 * `npm run lint:imports` reports how many it ignored. Each entry is one import: the rule it breaks, the
 * importing file and the imported file (paths under packages/core/src/). Delete an entry as soon as its
 * import is gone, and never add one for new code: fix the import instead.
 */
const KNOWN_VIOLATIONS = [
  // auth/ has no index.ts yet: its services are imported by path.
  [THROUGH_INDEX, 'campaign/subsequence.int.test.ts', 'auth/authenticate.service.ts'],
  [THROUGH_INDEX, 'client/client.int.test.ts', 'auth/authenticate.service.ts'],
  [THROUGH_INDEX, 'workspace/workspace-copy.int.test.ts', 'auth/authenticate.service.ts'],
  [THROUGH_INDEX, 'workspace/workspace-invite.int.test.ts', 'auth/authenticate.service.ts'],
  [THROUGH_INDEX, 'workspace/workspace.int.test.ts', 'auth/authenticate.service.ts'],
  [THROUGH_INDEX, 'campaign/subsequence.int.test.ts', 'auth/organization.service.ts'],
  [THROUGH_INDEX, 'client/client.operations.ts', 'auth/organization.service.ts'],
  [THROUGH_INDEX, 'email-account/email-account.int.test.ts', 'auth/organization.service.ts'],
  [THROUGH_INDEX, 'testing/factories.ts', 'auth/organization.service.ts'],
  [THROUGH_INDEX, 'workspace/workspace-copy.int.test.ts', 'auth/organization.service.ts'],
  [THROUGH_INDEX, 'workspace/workspace-invite.service.ts', 'auth/organization.service.ts'],
  [THROUGH_INDEX, 'workspace/workspace.int.test.ts', 'auth/organization.service.ts'],
  // Webhook emission and payload builders are imported by path (from lead, replies, sending, unibox).
  [THROUGH_INDEX, 'lead/label-change.service.ts', 'webhook/webhook-outbox.service.ts'],
  [THROUGH_INDEX, 'replies/ingest.service.ts', 'webhook/webhook-outbox.service.ts'],
  [THROUGH_INDEX, 'replies/mailbox-sync.service.ts', 'webhook/webhook-outbox.service.ts'],
  [THROUGH_INDEX, 'sending/send-delivery.service.ts', 'webhook/webhook-outbox.service.ts'],
  [THROUGH_INDEX, 'unibox/unibox-send.service.ts', 'webhook/webhook-outbox.service.ts'],
  [THROUGH_INDEX, 'lead/label-change.service.ts', 'webhook/webhook-payload.rules.ts'],
  [THROUGH_INDEX, 'replies/ingest.service.ts', 'webhook/webhook-payload.rules.ts'],
  [THROUGH_INDEX, 'replies/mailbox-sync.service.ts', 'webhook/webhook-payload.rules.ts'],
  [THROUGH_INDEX, 'sending/send-delivery.service.ts', 'webhook/webhook-payload.rules.ts'],
  [THROUGH_INDEX, 'unibox/unibox-send.service.ts', 'webhook/webhook-payload.rules.ts'],
  [THROUGH_INDEX, 'lead/label-change.service.ts', 'webhook/webhook.rules.ts'],
  // lead's label-change and enrolment services and its column list are imported by path.
  [THROUGH_INDEX, 'replies/ingest.service.ts', 'lead/label-change.service.ts'],
  [THROUGH_INDEX, 'sending/send-delivery.service.ts', 'lead/label-change.service.ts'],
  [THROUGH_INDEX, 'unibox/unibox-send.service.ts', 'lead/label-change.service.ts'],
  [THROUGH_INDEX, 'additional-field/additional-field.rules.ts', 'lead/lead-add.rules.ts'],
  [THROUGH_INDEX, 'replies/ingest.service.ts', 'lead/subsequence-enrolment.service.ts'],
  // lead's subsequence enrolment imports replies' content matching by path.
  [THROUGH_INDEX, 'lead/subsequence-enrolment.service.ts', 'replies/incoming.rules.ts'],
  // unibox's thread SQL is imported by path (by the engine and reply ingestion).
  [THROUGH_INDEX, 'replies/ingest.service.ts', 'unibox/unibox.queries.ts'],
  [THROUGH_INDEX, 'sending/send-delivery.service.ts', 'unibox/unibox.queries.ts'],
  // The sending engine (and its test) import tracking by path.
  [THROUGH_INDEX, 'sending/scheduler.service.ts', 'tracking/tracking-token.ts'],
  [THROUGH_INDEX, 'sending/scheduler.int.test.ts', 'tracking/tracking.service.ts'],
  // analytics imports campaign's queries and rules by path.
  [THROUGH_INDEX, 'analytics/analytics.operations.ts', 'campaign/campaign.queries.ts'],
  [THROUGH_INDEX, 'analytics/analytics.operations.ts', 'campaign/campaign.rules.ts'],
  [THROUGH_INDEX, 'analytics/analytics.operations.ts', 'campaign/variation-stats.queries.ts'],
  // assertNotClientKey is imported from workspace-settings.rules by path.
  [THROUGH_INDEX, 'additional-field/additional-field.operations.ts', 'workspace-settings/workspace-settings.rules.ts'],
  [THROUGH_INDEX, 'lead-label/lead-label.operations.ts', 'workspace-settings/workspace-settings.rules.ts'],
  [THROUGH_INDEX, 'workspace/workspace-copy.operations.ts', 'workspace-settings/workspace-settings.rules.ts'],
  [THROUGH_INDEX, 'workspace/workspace-invite.operations.ts', 'workspace-settings/workspace-settings.rules.ts'],
  // auth creates an organization's first workspace through workspace.service by path.
  [THROUGH_INDEX, 'auth/organization.service.ts', 'workspace/workspace.service.ts'],
  // A workspace-settings test imports account's vitals rules by path.
  [THROUGH_INDEX, 'workspace-settings/workspace-settings.int.test.ts', 'account/vitals.rules.ts'],
];

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
    tsConfig: { fileName: 'tsconfig.json' },
    tsPreCompilationDeps: true,
    enhancedResolveOptions: {
      // The workspace packages (@outreach/*) are symlinked into node_modules and expose their
      // TypeScript sources through package.json "exports".
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.mts', '.js', '.mjs', '.cjs', '.json'],
      mainFields: ['module', 'main', 'types'],
    },
    knownViolations: KNOWN_VIOLATIONS.map(([rule, from, to]) => ({
      type: 'dependency',
      rule: { name: rule, severity: 'error' },
      from: `packages/core/src/${from}`,
      to: `packages/core/src/${to}`,
    })),
  },
};
