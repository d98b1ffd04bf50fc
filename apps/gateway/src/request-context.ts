import { randomUUID, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { ANONYMOUS_ACTOR, authenticateSession, CSRF_HEADER, DomainError, forbidden, SESSION_COOKIE, type Actor, type Authenticator, type Ctx, type ServiceDeps, type SessionPrincipal } from '@outreach/core';
import type { AuthFailureLimiter, RateLimiter } from './rate-limit';
import type { Metrics } from './metrics';

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
  /** Prometheus metrics (METRICS_TOKEN); null: off, GET /metrics answers 404. */
  metrics: Metrics | null;
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

/** A cookie's value from the request's Cookie header (the first of that name). */
export function cookieOf(req: IncomingMessage, name: string): string | undefined {
  const header = req.headers.cookie;
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const at = part.indexOf('=');
    if (at > 0 && part.slice(0, at).trim() === name) return part.slice(at + 1).trim() || undefined;
  }
  return undefined;
}

/** How a request may authenticate: an API key (which wins when both are sent) or the session cookie with its CSRF header. */
export interface Credentials {
  apiKey: string | undefined;
  sessionToken: string | undefined;
  csrfToken: string | undefined;
}

export function credentialsOf(req: IncomingMessage, apiKey: string | undefined = headerApiKey(req)): Credentials {
  const csrf = req.headers[CSRF_HEADER];
  return { apiKey, sessionToken: cookieOf(req, SESSION_COOKIE), csrfToken: Array.isArray(csrf) ? csrf[0] : csrf };
}

function sameToken(given: string | undefined, expected: string): boolean {
  if (!given) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

function sessionCtx(deps: GatewayDeps, principal: SessionPrincipal, requestId: string): Ctx {
  // Each person has their own rate-limit bucket, whichever browser they use.
  deps.rateLimiter.take(`user:${principal.actor.userId}`);
  return {
    ...deps.service,
    actor: principal.actor,
    requestId,
    log: deps.service.log.child({ reqId: requestId, org: principal.actor.organizationId, user: principal.actor.userId }),
  };
}

/**
 * The cookie's session. Session tokens are 256 random bits, so unknown ones do not spend the
 * address's failure budget (a browser holding an ended session must still be able to sign in);
 * they take a token of the address's anonymous rate-limit bucket instead.
 */
async function lookupSession(options: { deps: GatewayDeps; token: string; clientAddress: string }): Promise<SessionPrincipal | null> {
  const { deps, token, clientAddress } = options;
  const principal = await authenticateSession({ db: deps.service.db, caches: deps.service.caches, clock: deps.service.ports.clock, token });
  if (!principal) deps.rateLimiter.take(`anonymous:${clientAddress}`);
  return principal;
}

/**
 * The context of an authenticated request: the API key's when one is sent (key behaviour as
 * before, see authenticatedContext), otherwise the session cookie's. A cookie-authenticated write
 * (`writes`: a GraphQL or tRPC mutation, a REST call other than GET) must carry the session's CSRF
 * token in `x-csrf-token` (403 `auth.csrf_failed`); keys are exempt, browsers do not send them on
 * their own. An ended or unknown session is 401 `auth.invalid_session`.
 */
export async function callerContext(options: { deps: GatewayDeps; credentials: Credentials; requestId: string; clientAddress: string; writes: boolean }): Promise<Ctx> {
  const { deps, credentials, requestId, clientAddress } = options;
  if (credentials.apiKey || !credentials.sessionToken) return authenticatedContext({ deps, apiKey: credentials.apiKey, requestId, clientAddress });
  const principal = await lookupSession({ deps, token: credentials.sessionToken, clientAddress });
  if (!principal) throw new DomainError({ kind: 'unauthenticated', code: 'auth.invalid_session', message: 'the session has ended or is unknown: sign in again' });
  if (options.writes && !sameToken(credentials.csrfToken, principal.csrfToken)) {
    throw forbidden('auth.csrf_failed', `a write made with the session cookie must carry the session's CSRF token in the ${CSRF_HEADER} header`);
  }
  return sessionCtx(deps, principal, requestId);
}

/** A public read (GraphQL `viewer`): the session's context when the cookie holds a live session, else the anonymous one. */
export async function optionalSessionContext(options: { deps: GatewayDeps; sessionToken: string | undefined; requestId: string; clientAddress: string }): Promise<Ctx> {
  const { deps, sessionToken, requestId, clientAddress } = options;
  const principal = sessionToken ? await lookupSession({ deps, token: sessionToken, clientAddress }) : null;
  return principal ? sessionCtx(deps, principal, requestId) : anonymousContext({ deps, requestId, clientAddress });
}
