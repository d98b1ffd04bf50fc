// Authentication and API keys: what other domains (and the gateway, through core's index.ts) use.
export * from './api-key.rules';
export { createAuthenticator, unauthenticated, type Authenticator } from './authenticate.service';
export { issueApiKey, revokeApiKey } from './api-key.service';
