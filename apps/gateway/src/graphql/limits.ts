import { GraphQLError, type ValidationContext } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { costLimitPlugin } from '@escape.tech/graphql-armor-cost-limit';
import { maxAliasesPlugin } from '@escape.tech/graphql-armor-max-aliases';
import { maxDepthPlugin } from '@escape.tech/graphql-armor-max-depth';
import { maxDirectivesPlugin } from '@escape.tech/graphql-armor-max-directives';
import { maxTokensPlugin } from '@escape.tech/graphql-armor-max-tokens';

/**
 * Bounds on one GraphQL document, checked while it is parsed and validated, before
 * authentication and before anything runs (docs/api.md, "GraphQL limits"). Measured on
 * our schema: selecting every field of every root field once (connections at
 * `first: 100`, a connection inside another one's page, `Lead.emails` in
 * `Workspace.leads`, at `first: 1`) needs depth 9, 531 tokens and cost 37,065 at most,
 * so each legitimate query fits (graphql/limits.int.test.ts checks every root field);
 * pages of pages (100 leads with 100 e-mails each: 611,265) do not.
 */
export const GRAPHQL_LIMITS = {
  /** Field nesting; fragments do not add levels. Only Campaign.parent recurses. */
  maxDepth: 12,
  /** Aliased fields in one operation (`__typename` is free). */
  maxAliases: 15,
  /**
   * Roughly the number of values the answer can hold: 1 per scalar, 2 per object, a
   * connection's selection times its literal `first`/`last`. The plugin reads literals
   * only: a page size given by a variable (or left to the default) counts as 1, and the
   * alias and depth limits are what bound such documents.
   */
  maxCost: 50_000,
  /** Lexical tokens of the document; bulk input (addLeads) belongs in variables. */
  maxTokens: 10_000,
  /** Directives in one operation. */
  maxDirectives: 50,
} as const;

type LimitName = 'max_depth' | 'max_aliases' | 'cost_limit' | 'max_tokens' | 'max_directives';

/** The errors limitError made, to be told apart from yoga's own in `keepStatus`. */
const limitErrors = new WeakSet<GraphQLError>();

/**
 * The plugins report the limit as `Syntax Error: <limit> exceeded…` and leave the status
 * to yoga, which answers parse and validation errors 200 to a client accepting only
 * application/json (GraphQL over HTTP). A limit is the client's fault whatever it
 * accepts: 400, with the message naming the limit and a `domain_code` like our other errors.
 */
function limitError(limit: LimitName, error: GraphQLError): GraphQLError {
  const refused = new GraphQLError(`Query refused: ${error.message.replace(/^Syntax Error: /, '')}`, {
    extensions: { code: 'GRAPHQL_VALIDATION_FAILED', domain_code: `graphql.${limit}`, kind: 'invalid', http: { status: 400 } },
  });
  limitErrors.add(refused);
  return refused;
}

/**
 * Yoga marks parse and validation errors `http.spec` (its own plugins, which run after
 * ours), and a spec error answers 200 to an application/json client. Just before the
 * answer is written, the limit errors lose the mark, so their 400 stands.
 */
const keepStatus: Plugin = {
  onResultProcess({ result }) {
    const errors = 'errors' in result && Array.isArray(result.errors) ? (result.errors as GraphQLError[]) : [];
    for (const error of errors) {
      const http = error.extensions?.['http'] as { spec?: boolean } | undefined;
      if (limitErrors.has(error) && http) http.spec = false;
    }
  },
};

/** Validation rules report through the context, so every limit a document breaks is listed. */
function reportTo(limit: LimitName) {
  return {
    propagateOnRejection: false,
    onReject: [(context: ValidationContext | null, error: GraphQLError) => context?.reportError(limitError(limit, error))],
  };
}

export function queryLimitPlugins(): Plugin[] {
  return [
    keepStatus,
    // The token count runs in the parser (no validation context): the error is thrown.
    maxTokensPlugin({
      n: GRAPHQL_LIMITS.maxTokens,
      propagateOnRejection: false,
      onReject: [
        (_context, error) => {
          throw limitError('max_tokens', error);
        },
      ],
    }),
    maxDepthPlugin({ n: GRAPHQL_LIMITS.maxDepth, flattenFragments: true, ...reportTo('max_depth') }),
    maxAliasesPlugin({ n: GRAPHQL_LIMITS.maxAliases, ...reportTo('max_aliases') }),
    costLimitPlugin({ maxCost: GRAPHQL_LIMITS.maxCost, objectCost: 2, scalarCost: 1, depthCostFactor: 1, flattenFragments: true, ...reportTo('cost_limit') }),
    maxDirectivesPlugin({ n: GRAPHQL_LIMITS.maxDirectives, ...reportTo('max_directives') }),
  ];
}
