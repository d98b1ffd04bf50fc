// The installation settings of the OAuth mailboxes: each one given in the environment or stored
// with `outreach settings set <KEY> <value>` (installation_settings, encrypted). The environment
// wins: a variable that is set overrides the stored value (docs/operations.md).
import { GOOGLE_ISSUER, OAUTH_MAIL_SERVERS, microsoftIssuer, parseMailServer, type MailServer, type OAuthProvider } from './oauth.rules';
import { OAuthNotConfiguredError, type OAuthProviderConfig } from './oauth-client.service';

export interface InstallationSettingSpec {
  /** Shown by `settings get` as `(set)` only, never repeated in an error. */
  secret: boolean;
  description: string;
  /** Why `value` is refused, or null. */
  problem(value: string): string | null;
}

const httpUrlProblem = (value: string): string | null => {
  if (!/^https?:\/\//i.test(value)) return 'must be an http:// or https:// URL';
  try {
    const url = new URL(value);
    if (!url.hostname) return 'must be an http:// or https:// URL with a host';
    if (url.search || url.hash) return 'must have no query or fragment';
    return null;
  } catch {
    return 'must be an http:// or https:// URL';
  }
};
const clientIdProblem = (value: string) => (/^\S{1,512}$/.test(value) ? null : 'must be 1 to 512 characters without spaces');
const secretProblem = (value: string) => (value.length >= 1 && value.length <= 1024 && !/[\r\n]/.test(value) ? null : 'must be 1 to 1024 characters on one line');
const serverProblem = (value: string) => (parseMailServer(value) ? null : 'must be host:port, e.g. smtp.example.com:465');

/** Every installation setting, by its name (the same in the environment and in `settings set`). */
export const INSTALLATION_SETTINGS = {
  GOOGLE_OAUTH_CLIENT_ID: { secret: false, description: 'Google OAuth client id', problem: clientIdProblem },
  GOOGLE_OAUTH_CLIENT_SECRET: { secret: true, description: 'Google OAuth client secret', problem: secretProblem },
  GOOGLE_OAUTH_ISSUER: { secret: false, description: `Google's OpenID issuer (default ${GOOGLE_ISSUER}; tests point it at a local provider)`, problem: httpUrlProblem },
  MICROSOFT_OAUTH_CLIENT_ID: { secret: false, description: 'Microsoft Entra application (client) id', problem: clientIdProblem },
  MICROSOFT_OAUTH_CLIENT_SECRET: { secret: true, description: 'Microsoft Entra client secret (its value)', problem: secretProblem },
  MICROSOFT_OAUTH_TENANT: {
    secret: false,
    description: 'Microsoft tenant: common (default, any organization), organizations, or a tenant id or domain',
    problem: (value: string) => (/^[A-Za-z0-9][A-Za-z0-9.-]{0,254}$/.test(value) ? null : 'must be common, organizations, a tenant id or a domain'),
  },
  MICROSOFT_OAUTH_ISSUER: { secret: false, description: "Microsoft's OpenID issuer (default https://login.microsoftonline.com/<tenant>/v2.0)", problem: httpUrlProblem },
  GOOGLE_SMTP_SERVER: { secret: false, description: 'SMTP server of Google mailboxes (default smtp.gmail.com:465)', problem: serverProblem },
  GOOGLE_IMAP_SERVER: { secret: false, description: 'IMAP server of Google mailboxes (default imap.gmail.com:993)', problem: serverProblem },
  MICROSOFT_SMTP_SERVER: { secret: false, description: 'SMTP server of Microsoft mailboxes (default smtp.office365.com:587)', problem: serverProblem },
  MICROSOFT_IMAP_SERVER: { secret: false, description: 'IMAP server of Microsoft mailboxes (default outlook.office365.com:993)', problem: serverProblem },
  OAUTH_REDIRECT_ORIGINS: {
    secret: false,
    description: "Origins (comma-separated) an OAuth start's redirect_after may lead to, besides PUBLIC_URL's",
    problem: (value: string) => {
      for (const origin of splitList(value)) {
        const problem = httpUrlProblem(origin);
        if (problem) return `${JSON.stringify(origin)} ${problem}`;
        const url = new URL(origin);
        if (url.pathname !== '/' || origin.replace(/\/+$/, '') !== url.origin) return `${JSON.stringify(origin)} must be an origin (scheme://host[:port]), without a path`;
      }
      return null;
    },
  },
} as const satisfies Record<string, InstallationSettingSpec>;

export type InstallationSettingKey = keyof typeof INSTALLATION_SETTINGS;
export const INSTALLATION_SETTING_KEYS = Object.keys(INSTALLATION_SETTINGS) as InstallationSettingKey[];
export type InstallationSettingValues = Partial<Record<InstallationSettingKey, string>>;

export function isInstallationSettingKey(key: string): key is InstallationSettingKey {
  return Object.hasOwn(INSTALLATION_SETTINGS, key);
}

export function splitList(value: string): string[] {
  return value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

const PREFIX: Record<OAuthProvider, 'GOOGLE' | 'MICROSOFT'> = { GOOGLE_WORKSPACE: 'GOOGLE', MICROSOFT365: 'MICROSOFT' };

/** A provider's issuer and credentials from the settings; throws OAuthNotConfiguredError naming what is missing. */
export function oauthProviderConfig(provider: OAuthProvider, values: InstallationSettingValues): OAuthProviderConfig {
  const prefix = PREFIX[provider];
  const clientId = values[`${prefix}_OAUTH_CLIENT_ID`];
  const clientSecret = values[`${prefix}_OAUTH_CLIENT_SECRET`];
  const missing = [!clientId && `${prefix}_OAUTH_CLIENT_ID`, !clientSecret && `${prefix}_OAUTH_CLIENT_SECRET`].filter((x): x is string => !!x);
  if (missing.length) throw new OAuthNotConfiguredError(provider, missing);
  const issuer =
    provider === 'GOOGLE_WORKSPACE'
      ? (values.GOOGLE_OAUTH_ISSUER ?? GOOGLE_ISSUER)
      : (values.MICROSOFT_OAUTH_ISSUER ?? microsoftIssuer(values.MICROSOFT_OAUTH_TENANT ?? 'common'));
  return { issuer, clientId: clientId!, clientSecret: clientSecret! };
}

/** The SMTP and IMAP servers of a provider's mailboxes: the defaults, or the settings' overrides. */
export function oauthMailServers(provider: OAuthProvider, values: InstallationSettingValues): { smtp: MailServer; imap: MailServer } {
  const prefix = PREFIX[provider];
  const defaults = OAUTH_MAIL_SERVERS[provider];
  const smtp = values[`${prefix}_SMTP_SERVER`];
  const imap = values[`${prefix}_IMAP_SERVER`];
  return {
    smtp: (smtp && parseMailServer(smtp)) || defaults.smtp,
    imap: (imap && parseMailServer(imap)) || defaults.imap,
  };
}
