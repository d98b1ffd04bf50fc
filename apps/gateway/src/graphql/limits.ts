import { GraphQLError, type ValidationContext } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { costLimitPlugin } from '@escape.tech/graphql-armor-cost-limit';
import { maxAliasesPlugin } from '@escape.tech/graphql-armor-max-aliases';
import { maxDepthPlugin } from '@escape.tech/graphql-armor-max-depth';
import { maxDirectivesPlugin } from '@escape.tech/graphql-armor-max-directives';
import { maxTokensPlugin } from '@escape.tech/graphql-armor-max-tokens';

/**
 * Bounds on one GraphQL document, checked while it is parsed and validated, before
 * authentication and before anything runs (docs/api.md, "Limits: GraphQL", has the
 * measurements): every root field with its whole selection fits (limits.int.test.ts).
 */
export const GRAPHQL_LIMITS = {
  /** Field nesting; fragments do not add levels. Only Campaign.parent recurses. */
  maxDepth: 12,
  /** Aliased fields in one operation (`__typename` is free). */
  maxAliases: 15,
  /** 1 per scalar, 2 per object, a connection's selection times its literal `first`/`last` (a variable counts as 1). */
  maxCost: 100_000,
  /** Lexical tokens of the document; bulk input (addLeads) belongs in variables. */
  maxTokens: 10_000,
  maxDirectives: 50,
} as const;

/** The errors of the limits, told apart from yoga's own in `keepStatus`. */
const limitErrors = new WeakSet<GraphQLError>();

/**
 * The plugins report a limit as `Syntax Error: <limit> exceeded…`. A limit is the client's
 * fault whatever it accepts: 400, the message naming the limit, a `domain_code` as our other
 * errors. Validation rules report it through the context, so every limit a document breaks is
 * listed; the token count runs in the parser, which has none: its error is thrown.
 */
function refuse(limit: 'max_depth' | 'max_aliases' | 'cost_limit' | 'max_tokens' | 'max_directives') {
  const onReject = (context: ValidationContext | null, error: GraphQLError) => {
    const refused = new GraphQLError(`Query refused: ${error.message.replace(/^Syntax Error: /, '')}`, {
      extensions: { code: 'GRAPHQL_VALIDATION_FAILED', domain_code: `graphql.${limit}`, kind: 'invalid', http: { status: 400 } },
    });
    limitErrors.add(refused);
    if (!context) throw refused;
    context.reportError(refused);
  };
  return { propagateOnRejection: false, onReject: [onReject] };
}

/**
 * Yoga marks parse and validation errors `http.spec` (its own plugins run after ours), and a
 * spec error answers 200 to an application/json client: the limit errors lose the mark just
 * before the answer is written, so their 400 stands.
 */
const keepStatus: Plugin = {
  onResultProcess({ result }) {
    for (const error of 'errors' in result && Array.isArray(result.errors) ? (result.errors as GraphQLError[]) : []) {
      const http = error.extensions?.['http'] as { spec?: boolean } | undefined;
      if (limitErrors.has(error) && http) http.spec = false;
    }
  },
};

export function queryLimitPlugins(): Plugin[] {
  return [
    keepStatus,
    maxTokensPlugin({ n: GRAPHQL_LIMITS.maxTokens, ...refuse('max_tokens') }),
    maxDepthPlugin({ n: GRAPHQL_LIMITS.maxDepth, flattenFragments: true, ...refuse('max_depth') }),
    maxAliasesPlugin({ n: GRAPHQL_LIMITS.maxAliases, ...refuse('max_aliases') }),
    costLimitPlugin({ maxCost: GRAPHQL_LIMITS.maxCost, objectCost: 2, scalarCost: 1, depthCostFactor: 1, flattenFragments: true, ...refuse('cost_limit') }),
    maxDirectivesPlugin({ n: GRAPHQL_LIMITS.maxDirectives, ...refuse('max_directives') }),
  ];
}
