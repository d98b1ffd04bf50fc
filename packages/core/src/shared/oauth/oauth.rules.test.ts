import { describe, expect, it } from 'vitest';
import { expectedIdTokenIssuer, idTokenIssuerProblem, mailboxAddressFromClaims, microsoftIssuer, oauthCallbackUrl, parseMailServer } from './oauth.rules';
import { oauthMailServers, oauthProviderConfig } from './oauth-settings';
import { OAuthNotConfiguredError } from './oauth-client.service';

const MULTI_TENANT = 'https://login.microsoftonline.com/{tenantid}/v2.0';
const TID = '72f988bf-86f1-41af-91ab-2d7cd011db47';

describe('the ID token issuer rule', () => {
  it("fills Microsoft's multi-tenant issuer with the token's tenant id, so iss and tid must agree", () => {
    expect(expectedIdTokenIssuer(MULTI_TENANT, { tid: TID })).toBe(`https://login.microsoftonline.com/${TID}/v2.0`);
    expect(idTokenIssuerProblem(MULTI_TENANT, { tid: TID, iss: `https://login.microsoftonline.com/${TID}/v2.0` })).toBeNull();
    const otherTenant = '9188040d-6c67-4c5b-b112-36a304b66dad';
    expect(idTokenIssuerProblem(MULTI_TENANT, { tid: TID, iss: `https://login.microsoftonline.com/${otherTenant}/v2.0` })).toMatch(/is not/);
  });

  it('refuses a multi-tenant token without a tenant id, or whose tid is not a tenant GUID', () => {
    expect(idTokenIssuerProblem(MULTI_TENANT, { iss: MULTI_TENANT })).toMatch(/tid/);
    expect(idTokenIssuerProblem(MULTI_TENANT, { tid: 'evil/v2.0?', iss: 'https://login.microsoftonline.com/evil/v2.0?/v2.0' })).toMatch(/tid/);
  });

  it('takes any other issuer as is (Google, a single tenant)', () => {
    expect(idTokenIssuerProblem('https://accounts.google.com', { iss: 'https://accounts.google.com' })).toBeNull();
    expect(idTokenIssuerProblem('https://accounts.google.com', { iss: 'https://evil.example' })).toMatch(/is not/);
    const single = microsoftIssuer(TID);
    expect(idTokenIssuerProblem(single, { iss: single, tid: TID })).toBeNull();
  });
});

describe('the mailbox address of an ID token', () => {
  it('is Google\'s verified email', () => {
    expect(mailboxAddressFromClaims('GOOGLE_WORKSPACE', { email: 'ann@corp.example', email_verified: true })).toBe('ann@corp.example');
    expect(mailboxAddressFromClaims('GOOGLE_WORKSPACE', { email: 'ann@corp.example', email_verified: false })).toBeNull();
    expect(mailboxAddressFromClaims('GOOGLE_WORKSPACE', { preferred_username: 'ann@corp.example' })).toBeNull();
  });

  it("is Microsoft's sign-in name when it is an address, else its email", () => {
    expect(mailboxAddressFromClaims('MICROSOFT365', { preferred_username: 'bob@contoso.example', email: 'b@x.example' })).toBe('bob@contoso.example');
    expect(mailboxAddressFromClaims('MICROSOFT365', { preferred_username: 'bob', email: 'bob@contoso.example' })).toBe('bob@contoso.example');
    expect(mailboxAddressFromClaims('MICROSOFT365', {})).toBeNull();
  });
});

describe('the provider settings', () => {
  it('default to the providers\' issuers, Microsoft\'s common tenant, and their mail servers', () => {
    const google = oauthProviderConfig('GOOGLE_WORKSPACE', { GOOGLE_OAUTH_CLIENT_ID: 'id', GOOGLE_OAUTH_CLIENT_SECRET: 's' });
    expect(google).toEqual({ issuer: 'https://accounts.google.com', clientId: 'id', clientSecret: 's' });
    const microsoft = { MICROSOFT_OAUTH_CLIENT_ID: 'id', MICROSOFT_OAUTH_CLIENT_SECRET: 's' };
    expect(oauthProviderConfig('MICROSOFT365', microsoft).issuer).toBe('https://login.microsoftonline.com/common/v2.0');
    expect(oauthProviderConfig('MICROSOFT365', { ...microsoft, MICROSOFT_OAUTH_TENANT: 'contoso.example' }).issuer).toBe(
      'https://login.microsoftonline.com/contoso.example/v2.0',
    );
    expect(oauthMailServers('GOOGLE_WORKSPACE', {})).toEqual({ smtp: { host: 'smtp.gmail.com', port: 465 }, imap: { host: 'imap.gmail.com', port: 993 } });
    expect(oauthMailServers('MICROSOFT365', {})).toEqual({ smtp: { host: 'smtp.office365.com', port: 587 }, imap: { host: 'outlook.office365.com', port: 993 } });
    expect(oauthMailServers('MICROSOFT365', { MICROSOFT_SMTP_SERVER: '127.0.0.1:2525' }).smtp).toEqual({ host: '127.0.0.1', port: 2525 });
  });

  it('name the missing client id and secret', () => {
    expect(() => oauthProviderConfig('GOOGLE_WORKSPACE', { GOOGLE_OAUTH_CLIENT_ID: 'id' })).toThrow(OAuthNotConfiguredError);
    expect(() => oauthProviderConfig('GOOGLE_WORKSPACE', { GOOGLE_OAUTH_CLIENT_ID: 'id' })).toThrow(/GOOGLE_OAUTH_CLIENT_SECRET/);
  });

  it('parse mail servers as host:port', () => {
    expect(parseMailServer('[::1]:993')).toEqual({ host: '::1', port: 993 });
    expect(parseMailServer('smtp.example.com')).toBeNull();
    expect(parseMailServer('smtp.example.com:70000')).toBeNull();
    expect(oauthCallbackUrl('https://outreach.example.com/', 'MICROSOFT365')).toBe('https://outreach.example.com/oauth/callback/microsoft');
  });
});
