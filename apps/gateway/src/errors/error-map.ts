import { GraphQLError } from 'graphql';
import { TRPCError } from '@trpc/server';
import type { TRPC_ERROR_CODE_KEY } from '@trpc/server/rpc';
import { toDomainError, type DomainError, type DomainErrorKind } from '@outreach/core';
import { RequestProblemError, type RequestProblem } from '../request-body';

/**
 * The one mapping from domain error kinds to every transport. `satisfies` makes the
 * compiler reject a kind that is added to core but not mapped here.
 */
const KIND_MAP = {
  invalid: { http: 400, trpc: 'BAD_REQUEST', graphql: 'BAD_USER_INPUT' },
  unauthenticated: { http: 401, trpc: 'UNAUTHORIZED', graphql: 'UNAUTHENTICATED' },
  forbidden: { http: 403, trpc: 'FORBIDDEN', graphql: 'FORBIDDEN' },
  not_found: { http: 404, trpc: 'NOT_FOUND', graphql: 'NOT_FOUND' },
  conflict: { http: 409, trpc: 'CONFLICT', graphql: 'CONFLICT' },
  // The vendor answers unmet preconditions (launching an incomplete campaign) with 400.
  precondition_failed: { http: 400, trpc: 'PRECONDITION_FAILED', graphql: 'PRECONDITION_FAILED' },
  rate_limited: { http: 429, trpc: 'TOO_MANY_REQUESTS', graphql: 'RATE_LIMITED' },
} as const satisfies Record<DomainErrorKind, { http: number; trpc: TRPC_ERROR_CODE_KEY; graphql: string }>;

export function httpStatusFor(kind: DomainErrorKind): number {
  return KIND_MAP[kind].http;
}

export type RestErrorShape = 'vendor' | 'message';

export interface RestError {
  status: number;
  body: Record<string, unknown>;
  headers: Record<string, string>;
}

/**
 * What every transport answers for an unknown failure (REST 500, tRPC
 * INTERNAL_SERVER_ERROR, GraphQL INTERNAL_SERVER_ERROR): nothing of the cause, only the
 * request id, under which the transport logs the details at error level.
 */
export function maskedInternalError(requestId: string): { message: string; request_id: string } {
  return { message: `Internal server error (request id ${requestId})`, request_id: requestId };
}

/** An unknown failure: masked, with the request id to find the logged details. */
export function internalRestError(requestId: string, shape: RestErrorShape = 'vendor'): RestError {
  const masked = maskedInternalError(requestId);
  return { status: 500, body: shape === 'message' ? masked : { status: 'error', ...masked }, headers: {} };
}

/**
 * REST bodies in the vendor's shape: `{ status: "error", message, errors? }`, or
 * `{ message }` for the operations whose spec says so (variation stats).
 */
export function restError(error: DomainError, shape: RestErrorShape = 'vendor'): RestError {
  const headers: Record<string, string> = {};
  if (error.kind === 'rate_limited' && error.retryAfter !== undefined) headers['Retry-After'] = String(error.retryAfter);
  const errors = error.fieldErrors.length ? { errors: error.fieldErrors } : {};
  const body =
    shape === 'message'
      ? { message: error.message, code: error.code, ...errors }
      : { status: 'error', message: error.message, code: error.code, ...errors };
  return { status: httpStatusFor(error.kind), body, headers };
}

export function trpcError(error: unknown): TRPCError {
  if (error instanceof TRPCError) return error;
  const domain = toDomainError(error);
  if (!domain) return new TRPCError({ code: 'INTERNAL_SERVER_ERROR', message: 'Internal server error', cause: error });
  return new TRPCError({ code: KIND_MAP[domain.kind].trpc, message: domain.message, cause: domain });
}

/**
 * Domain errors inside a GraphQL execution answer 200 with `errors[]` (GraphQL over
 * HTTP); `withHttpStatus` is for failures before execution (authentication, rate
 * limit), which answer with the HTTP status of their kind. `at`: the error graphql-js
 * located in the document (a resolver's), whose path and locations are kept.
 */
export function graphqlError(domain: DomainError, options: { withHttpStatus?: boolean; at?: GraphQLError } = {}): GraphQLError {
  const headers: Record<string, string> = {};
  if (domain.retryAfter !== undefined) headers['Retry-After'] = String(domain.retryAfter);
  return new GraphQLError(domain.message, {
    ...locationOf(options.at),
    extensions: {
      code: KIND_MAP[domain.kind].graphql,
      domain_code: domain.code,
      kind: domain.kind,
      ...(domain.fieldErrors.length ? { errors: domain.fieldErrors } : {}),
      ...(options.withHttpStatus ? { http: { status: httpStatusFor(domain.kind), headers } } : {}),
    },
  });
}

const locationOf = (at: GraphQLError | undefined) =>
  at ? { nodes: at.nodes, source: at.source, positions: at.positions, path: at.path } : {};

/** A GraphQL error that is one already (validation, limits, refused requests), not wrapping a thrown value. */
function isOwnGraphqlError(error: unknown): error is GraphQLError {
  return error instanceof GraphQLError && (error.originalError == null || isOwnGraphqlError(error.originalError));
}

/**
 * Every error of a GraphQL answer goes through here (yoga's `maskError`): GraphQL's
 * own errors as they are, domain errors through the map above (thrown by a resolver:
 * 200 with `errors[]`; before execution, as authentication: their HTTP status), and
 * anything else masked with the request id (`unknown`: the caller logs `cause`).
 */
export function graphqlErrorOf(error: unknown, requestId: string): { error: GraphQLError; unknown: boolean; cause: unknown } {
  if (isOwnGraphqlError(error)) return { error, unknown: false, cause: error };
  const at = error instanceof GraphQLError ? error : undefined;
  const cause = at ? at.originalError : error;
  const domain = toDomainError(cause);
  if (domain) return { error: graphqlError(domain, { withHttpStatus: !at, at }), unknown: false, cause };
  const masked = maskedInternalError(requestId);
  const answer = new GraphQLError(masked.message, {
    ...locationOf(at),
    extensions: { code: 'INTERNAL_SERVER_ERROR', request_id: masked.request_id, ...(at ? {} : { http: { status: 500 } }) },
  });
  return { error: answer, unknown: true, cause };
}

/**
 * Requests that cannot be read (another charset, corrupt compression, malformed JSON, too
 * large), refused before any operation runs: their HTTP status on each transport.
 */
const REQUEST_PROBLEM_MAP = {
  400: { trpc: 'BAD_REQUEST', graphql: 'BAD_REQUEST' },
  413: { trpc: 'PAYLOAD_TOO_LARGE', graphql: 'REQUEST_ENTITY_TOO_LARGE' },
  415: { trpc: 'UNSUPPORTED_MEDIA_TYPE', graphql: 'UNSUPPORTED_MEDIA_TYPE' },
} as const satisfies Record<RequestProblem['status'], { trpc: TRPC_ERROR_CODE_KEY; graphql: string }>;

export function restRequestError(problem: RequestProblem): RestError {
  return { status: problem.status, body: { status: 'error', message: problem.message, code: problem.code }, headers: {} };
}

export function trpcRequestError(problem: RequestProblem): TRPCError {
  return new TRPCError({ code: REQUEST_PROBLEM_MAP[problem.status].trpc, message: problem.message, cause: new RequestProblemError(problem) });
}

/** A GraphQL-over-HTTP error answer, for requests refused before yoga reads them. */
export function graphqlRequestErrorResponse(problem: RequestProblem): { status: number; body: string } {
  const extensions = { code: REQUEST_PROBLEM_MAP[problem.status].graphql, domain_code: problem.code };
  return { status: problem.status, body: JSON.stringify({ errors: [{ message: problem.message, extensions }] }) };
}
