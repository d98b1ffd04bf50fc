// The pure rules of the OAuth mailbox providers: who they are, what we ask them for, which
// issuer an ID token must carry, and which address it names.

/** The providers whose mailboxes connect over OAuth (the email account's `provider`). */
export const OAUTH_PROVIDERS = ['GOOGLE_WORKSPACE', 'MICROSOFT365'] as const;
export type OAuthProvider = (typeof OAUTH_PROVIDERS)[number];

export function isOAuthProvider(value: string): value is OAuthProvider {
  return (OAUTH_PROVIDERS as readonly string[]).includes(value);
}

/** The scopes asked for, exactly (issue #14). */
export const OAUTH_SCOPES: Record<OAuthProvider, readonly string[]> = {
  GOOGLE_WORKSPACE: ['https://mail.google.com/', 'openid', 'email', 'profile'],
  MICROSOFT365: [
    'https://outlook.office.com/SMTP.Send',
    'https://outlook.office.com/IMAP.AccessAsUser.All',
    'offline_access',
    'openid',
    'email',
    'profile',
  ],
};

/** The path segment of each provider's callback: `<PUBLIC_URL>/oauth/callback/<segment>`. */
export const OAUTH_CALLBACK_SEGMENT: Record<OAuthProvider, 'google' | 'microsoft'> = {
  GOOGLE_WORKSPACE: 'google',
  MICROSOFT365: 'microsoft',
};

export function oauthCallbackUrl(publicUrl: string, provider: OAuthProvider): string {
  return `${publicUrl.replace(/\/+$/, '')}/oauth/callback/${OAUTH_CALLBACK_SEGMENT[provider]}`;
}

export const GOOGLE_ISSUER = 'https://accounts.google.com';

/** Microsoft's v2.0 endpoint for a tenant: `common` (any organization), `organizations`, or a tenant id or domain. */
export function microsoftIssuer(tenant: string): string {
  return `https://login.microsoftonline.com/${tenant}/v2.0`;
}

export interface MailServer {
  host: string;
  port: number;
}

/** The SMTP and IMAP servers of each provider (XOAUTH2 on both). */
export const OAUTH_MAIL_SERVERS: Record<OAuthProvider, { smtp: MailServer; imap: MailServer }> = {
  GOOGLE_WORKSPACE: { smtp: { host: 'smtp.gmail.com', port: 465 }, imap: { host: 'imap.gmail.com', port: 993 } },
  MICROSOFT365: { smtp: { host: 'smtp.office365.com', port: 587 }, imap: { host: 'outlook.office365.com', port: 993 } },
};

/** `host:port` (a bracketed IPv6 literal allowed) → the server, or null when it is not one. */
export function parseMailServer(value: string): MailServer | null {
  const match = /^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+):(\d{1,5})$/.exec(value.trim());
  if (!match) return null;
  const port = Number(match[2]);
  if (port < 1 || port > 65_535) return null;
  return { host: match[1]!.replace(/^\[|\]$/g, ''), port };
}

const TENANT_PLACEHOLDER = '{tenantid}';
const TENANT_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The `iss` an ID token must carry. Microsoft's multi-tenant endpoints (`common`,
 * `organizations`) publish the issuer `https://login.microsoftonline.com/{tenantid}/v2.0`,
 * and each token names its real tenant: then the token's `tid` (a tenant GUID) fills the
 * placeholder, so the token's `iss` and `tid` must agree. Any other issuer is taken as is.
 * Returns null when the token cannot be checked (placeholder without a valid `tid`).
 */
export function expectedIdTokenIssuer(metadataIssuer: string, claims: Record<string, unknown>): string | null {
  if (!metadataIssuer.includes(TENANT_PLACEHOLDER)) return metadataIssuer;
  const tid = claims['tid'];
  if (typeof tid !== 'string' || !TENANT_ID.test(tid)) return null;
  return metadataIssuer.replace(TENANT_PLACEHOLDER, tid);
}

/** Why an ID token's issuer is refused, or null when it is the expected one. */
export function idTokenIssuerProblem(metadataIssuer: string, claims: Record<string, unknown>): string | null {
  const expected = expectedIdTokenIssuer(metadataIssuer, claims);
  if (expected === null) return 'the ID token carries no valid tenant id (tid) for the multi-tenant issuer';
  if (claims['iss'] !== expected) return `the ID token's issuer ${JSON.stringify(claims['iss'])} is not ${JSON.stringify(expected)}`;
  return null;
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/**
 * The mailbox address an ID token names, or null. Google: `email`, which must be verified.
 * Microsoft: `preferred_username` (the sign-in name, which Exchange Online logs in with)
 * when it is an address, else `email`.
 */
export function mailboxAddressFromClaims(provider: OAuthProvider, claims: Record<string, unknown>): string | null {
  const asAddress = (value: unknown) => (typeof value === 'string' && EMAIL.test(value.trim()) ? value.trim() : null);
  if (provider === 'GOOGLE_WORKSPACE') {
    if (claims['email_verified'] === false || claims['email_verified'] === 'false') return null;
    return asAddress(claims['email']);
  }
  return asAddress(claims['preferred_username']) ?? asAddress(claims['email']);
}
