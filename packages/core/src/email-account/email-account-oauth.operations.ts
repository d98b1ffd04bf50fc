// Connecting Google Workspace and Microsoft 365 mailboxes over OAuth: the start operations. The
// callback (no API key; the state authorizes it) is completeOAuthCallback, served by the gateway.
import { defineOperation } from '../shared/operation';
import { OAuthProvidersInput, OAuthProvidersOutput, OAuthStartInput, OAuthStartOutput } from './email-account-oauth.schemas';
import { configuredOAuthProviders, startOAuth } from './email-account-oauth.service';

const START_DESCRIPTION = (who: string, callback: string, scopes: string) =>
  `Answers the ${who} authorization URL for a new mailbox of the workspace: open it in the mailbox owner's browser. With \`redirect=true\`, REST answers 302 to it instead. The URL carries a state (32 random bytes, stored hashed with the PKCE verifier, the nonce, the workspace and the calling key) that works once and for 10 minutes. Scopes: ${scopes}. The provider then sends the browser to \`<PUBLIC_URL>${callback}\`, which exchanges the code, reads the address from the ID token and creates the mailbox in this workspace (provider and hosts of ${who}, XOAUTH2, tokens encrypted, ACTIVE), or reconnects the workspace's mailbox of that address. 400 \`oauth.not_configured\` when the installation has no client id and secret for ${who} (docs/operations.md), 400 naming \`redirect_after\` when it is not allowed.`;

export const oauthGoogleStart = defineOperation({
  name: 'emailAccount.oauthGoogleStart',
  // It stores the authorization's state: a mutation on tRPC and GraphQL (REST keeps the vendor's GET).
  kind: 'mutation',
  summary: 'Start connecting a Google Workspace mailbox (OAuth)',
  description: START_DESCRIPTION('Google', '/oauth/callback/google', '`https://mail.google.com/ openid email profile`, with offline access and consent asked each time (so a refresh token is issued)'),
  input: OAuthStartInput,
  output: OAuthStartOutput,
  workspace: 'required',
  // Callable with a partner key (issue #14): a partner connects mailboxes in the workspaces that granted it.
  partner: true,
  permission: 'EMAILACCOUNT_CREATE',
  run: (ctx, input) => startOAuth(ctx, 'GOOGLE_WORKSPACE', input),
});

export const oauthMicrosoftStart = defineOperation({
  name: 'emailAccount.oauthMicrosoftStart',
  // It stores the authorization's state: a mutation on tRPC and GraphQL (REST keeps the vendor's GET).
  kind: 'mutation',
  summary: 'Start connecting a Microsoft 365 mailbox (OAuth)',
  description: START_DESCRIPTION(
    'Microsoft 365',
    '/oauth/callback/microsoft',
    '`https://outlook.office.com/SMTP.Send https://outlook.office.com/IMAP.AccessAsUser.All offline_access openid email profile`',
  ),
  input: OAuthStartInput,
  output: OAuthStartOutput,
  workspace: 'required',
  // Callable with a partner key (issue #14): a partner connects mailboxes in the workspaces that granted it.
  partner: true,
  permission: 'EMAILACCOUNT_CREATE',
  run: (ctx, input) => startOAuth(ctx, 'MICROSOFT365', input),
});

export const oauthProviders = defineOperation({
  name: 'emailAccount.oauthProviders',
  kind: 'query',
  summary: 'Which OAuth providers mailboxes can be connected with',
  description:
    'Whether the installation has an OAuth client (id and secret, from the environment or `outreach settings set`; docs/operations.md) for Google Workspace and for Microsoft 365: the start operations of a provider that is not configured answer 400 `oauth.not_configured`. Nothing is contacted; a stored setting the encryption key cannot open answers 400 `oauth.settings_unreadable`.',
  input: OAuthProvidersInput,
  output: OAuthProvidersOutput,
  workspace: 'required',
  run: (ctx) => configuredOAuthProviders(ctx),
});
