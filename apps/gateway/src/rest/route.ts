import type { Operation } from '@outreach/core';
import type { RestErrorShape } from '../errors/error-map';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface Route {
  method: HttpMethod;
  /** Relative to /api/v1, Express syntax (`/unibox/threads/:thread_id/mark-as-read`). */
  path: string;
  op: Operation;
  /** Error body shape; the spec's variation-stats operation answers `{ message }`. */
  errorShape?: RestErrorShape;
  deprecated?: boolean;
  /** Answered without an API key (accepting an invitation); the operation runs as ANONYMOUS_ACTOR. */
  public?: boolean;
  /**
   * When it answers a URL, REST answers 302 to it instead of the JSON (the OAuth starts with
   * `redirect=true`); given the request's input and the operation's output.
   */
  redirect?: (input: Record<string, unknown>, output: unknown) => string | undefined;
}

export function route(method: HttpMethod, path: string, op: Operation, extra: Omit<Route, 'method' | 'path' | 'op'> = {}): Route {
  return { method, path, op, ...extra };
}
