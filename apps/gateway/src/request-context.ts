import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { ANONYMOUS_ACTOR, DomainError, type Actor, type Authenticator, type Ctx, type ServiceDeps } from '@outreach/core';
import type { AuthFailureLimiter, RateLimiter } from './rate-limit';

/** What every transport needs to turn a request into an operation context. */
export interface GatewayDeps {
  service: ServiceDeps;
  authenticator: Authenticator;
  rateLimiter: RateLimiter;
  /** Failed authentications per client address (AUTH_FAILURE_BURST, AUTH_FAILURES_PER_MINUTE). */
  authFailures: AuthFailureLimiter;
  /** Whether GraphQL answers introspection (GRAPHQL_INTROSPECTION). */
  graphqlIntrospection: boolean;
  /** Whether GET /graphql from a browser answers GraphiQL (GRAPHIQL). */
  graphiql: boolean;
}

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** Honours a sane incoming `x-request-id`, otherwise makes one. */
export function requestIdOf(req: IncomingMessage): string {
  const given = req.headers['x-request-id'];
  return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
}

export function headerApiKey(req: IncomingMessage): string | undefined {
  const value = req.headers['x-api-key'];
  return Array.isArray(value) ? value[0] : value;
}

/**
 * Authenticates the key, charges its rate-limit bucket and builds the context.
 *
 * Failed authentications are budgeted per client address (rate-limit.ts), so that
 * guessing keys, or flooding us with unknown ones, costs the sender and not the
 * database. The budget is charged only when a key fails a database lookup, and checked
 * only before a lookup: an address that has spent it gets 429 (`auth.too_many_failures`,
 * `Retry-After`) for any key this process has not looked up in the last 5 s, without a
 * query. Keys the in-process cache holds are still answered, valid ones served, so that
 * a client already working from that address (a neighbour behind the same NAT) is not
 * locked out by someone else's failures; a missing or malformed key still gets its 401.
 * The trade-off: a valid key seen for the first time from a throttled address waits with
 * the rest (docs/api.md, "Failed authentication").
 */
export async function authenticatedContext(options: {
  deps: GatewayDeps;
  apiKey: string | undefined;
  requestId: string;
  /** The client's address (`req.ip`), the key of the failed-authentication budget. */
  clientAddress: string;
}): Promise<Ctx> {
  const { deps, requestId, apiKey, clientAddress } = options;
  const lookup = deps.authenticator.needsLookup(apiKey);
  if (lookup) deps.authFailures.check(clientAddress);
  let actor: Actor;
  try {
    actor = await deps.authenticator.authenticate(apiKey);
  } catch (error) {
    if (lookup && error instanceof DomainError && error.kind === 'unauthenticated') deps.authFailures.charge(clientAddress);
    throw error;
  }
  deps.rateLimiter.take(actor.apiKeyId);
  return {
    ...deps.service,
    actor,
    requestId,
    log: deps.service.log.child({ reqId: requestId, org: actor.organizationId }),
  };
}

/** The context of a public operation: no key, no workspace; rate-limited per client address. */
export function anonymousContext(options: { deps: GatewayDeps; requestId: string; clientAddress: string }): Ctx {
  options.deps.rateLimiter.take(`anonymous:${options.clientAddress}`);
  return {
    ...options.deps.service,
    actor: ANONYMOUS_ACTOR,
    requestId: options.requestId,
    log: options.deps.service.log.child({ reqId: options.requestId }),
  };
}
