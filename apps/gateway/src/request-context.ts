import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { ANONYMOUS_ACTOR, type Actor, type Authenticator, type Ctx, type ServiceDeps } from '@outreach/core';
import type { RateLimiter } from './rate-limit';

/** What every transport needs to turn a request into an operation context. */
export interface GatewayDeps {
  service: ServiceDeps;
  authenticator: Authenticator;
  rateLimiter: RateLimiter;
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

/** Authenticates the key, charges its rate-limit bucket and builds the context. */
export async function authenticatedContext(options: {
  deps: GatewayDeps;
  apiKey: string | undefined;
  requestId: string;
}): Promise<Ctx> {
  const { deps, requestId } = options;
  const actor: Actor = await deps.authenticator.authenticate(options.apiKey);
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
