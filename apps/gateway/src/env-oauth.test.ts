import { describe, expect, it } from 'vitest';
import { EnvError, installationSettingsOf, loadEnv } from './env';

describe('the OAuth settings in the environment', () => {
  it('are optional, and handed to the installation settings when set', () => {
    expect(installationSettingsOf(loadEnv({}))).toEqual({});
    const env = loadEnv({ GOOGLE_OAUTH_CLIENT_ID: ' id.apps.googleusercontent.com ', MICROSOFT_OAUTH_TENANT: 'contoso.onmicrosoft.com', GOOGLE_OAUTH_CLIENT_SECRET: '' });
    expect(installationSettingsOf(env)).toEqual({ GOOGLE_OAUTH_CLIENT_ID: 'id.apps.googleusercontent.com', MICROSOFT_OAUTH_TENANT: 'contoso.onmicrosoft.com' });
  });

  it('are refused at start, one line each, naming the variable and never repeating a secret', () => {
    let error: unknown;
    try {
      loadEnv({ MICROSOFT_OAUTH_ISSUER: 'login.microsoftonline.com/common', GOOGLE_OAUTH_CLIENT_SECRET: 'line one\nline two', GOOGLE_SMTP_SERVER: 'smtp.gmail.com', OAUTH_REDIRECT_ORIGINS: 'https://app.example/path' });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(EnvError);
    const problems = (error as EnvError).problems;
    expect(problems).toEqual(
      expect.arrayContaining([
        'invalid setting MICROSOFT_OAUTH_ISSUER="login.microsoftonline.com/common": must be an http:// or https:// URL',
        'invalid setting GOOGLE_OAUTH_CLIENT_SECRET: must be 1 to 1024 characters on one line',
        'invalid setting GOOGLE_SMTP_SERVER="smtp.gmail.com": must be host:port, e.g. smtp.example.com:465',
        'invalid setting OAUTH_REDIRECT_ORIGINS="https://app.example/path": "https://app.example/path" must be an origin (scheme://host[:port]), without a path',
      ]),
    );
    expect(problems).toHaveLength(4);
  });
});
