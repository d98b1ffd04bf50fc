/**
 * Query parameters whose values are never logged (compared case-insensitively, also as a
 * bracketed part of a name: `user[password]`). Credentials and one-time values, plus the
 * parameters that carry a whole operation input: GraphQL over GET sends `variables`, tRPC
 * GET sends `input`, and either may hold a password. The GraphQL `query` itself is kept:
 * it is what one needs to read a log, and values belong in `variables`.
 */
export const REDACTED_QUERY_PARAMETERS: ReadonlySet<string> = new Set([
  'api_key',
  'apikey',
  'key',
  'password',
  'token',
  'access_token',
  'refresh_token',
  'secret',
  'code',
  'state',
  'signature',
  'variables',
  'input',
]);

const REDACTED = '[redacted]';

function decoded(name: string): string {
  try {
    return decodeURIComponent(name.replace(/\+/g, ' '));
  } catch {
    return name;
  }
}

function isSecretName(rawName: string): boolean {
  // `a[b][c]` (the extended query parser's nesting) and `a.b`: any part may name a secret.
  return decoded(rawName)
    .toLowerCase()
    .split(/[[\].]+/)
    .some((part) => REDACTED_QUERY_PARAMETERS.has(part.trim()));
}

/**
 * A request URL as it may be logged: values of secret query parameters replaced by
 * `[redacted]` (names and order kept), and the token of tracking and unsubscribe links,
 * which acts for a recipient, taken out of the path.
 */
export function loggableUrl(url: string): string {
  const q = url.indexOf('?');
  const path = (q === -1 ? url : url.slice(0, q)).replace(/^(\/t\/[ou]\/)[^/?]+/, `$1${REDACTED}`);
  if (q === -1) return path;
  const query = url
    .slice(q + 1)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      const name = eq === -1 ? pair : pair.slice(0, eq);
      return eq !== -1 && isSecretName(name) ? `${name}=${REDACTED}` : pair;
    })
    .join('&');
  return `${path}?${query}`;
}
