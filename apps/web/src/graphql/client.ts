// The one GraphQL client: POST JSON to /graphql with the session cookie, and the CSRF token
// the viewer query answers on every request once known (cookie-authenticated mutations need it).
import { Client, cacheExchange, fetchExchange, mapExchange } from 'urql';

const PUBLIC_PAGES = /^\/(sign-in|setup|invite)\/?$/;

let csrfToken: string | null = null;

/** Set from `viewer.csrfToken` after the viewer loads or a sign-in; cleared on sign-out. */
export function setCsrfToken(token: string | null): void {
  csrfToken = token;
}

// A session that ended (expired, signed out elsewhere) sends the person to the sign-in page,
// except on the pages before sign-in, whose own errors are shown beside their fields.
const sessionEnded = mapExchange({
  onError(error) {
    const ended = error.response?.status === 401 || error.graphQLErrors.some((e) => e.extensions['code'] === 'UNAUTHENTICATED');
    if (ended && !PUBLIC_PAGES.test(window.location.pathname)) window.location.assign('/sign-in');
  },
});

const fetchOptions = (): RequestInit => {
  const headers: Record<string, string> = {};
  if (csrfToken) headers['x-csrf-token'] = csrfToken;
  return { credentials: 'same-origin', headers };
};

export const client = new Client({
  url: '/graphql',
  exchanges: [sessionEnded, cacheExchange, fetchExchange],
  preferGetMethod: false,
  requestPolicy: 'cache-and-network',
  fetchOptions,
});

/**
 * For lists read page by page that keep (and forget) their own pages, such as the lead table:
 * the same requests, without the document cache, which would keep every page ever read.
 */
export const pagingClient = new Client({
  url: '/graphql',
  exchanges: [sessionEnded, fetchExchange],
  preferGetMethod: false,
  requestPolicy: 'network-only',
  fetchOptions,
});
