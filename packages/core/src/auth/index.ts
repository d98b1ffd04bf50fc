// Authentication and API keys: what other domains (and the gateway, through core's index.ts) use.
export * from './api-key.rules';
export { createAuthenticator, unauthenticated, type Authenticator } from './authenticate.service';
export { issueApiKey, revokeApiKey } from './api-key.service';
export { createApiKey, listApiKeys, revokeApiKeyOperation } from './api-key.operations';

// The operations of this domain, keyed as their tRPC procedures are (`apiKey.<key>`).
import { createApiKey, listApiKeys, revokeApiKeyOperation } from './api-key.operations';
export const apiKeyOperations = { list: listApiKeys, create: createApiKey, revoke: revokeApiKeyOperation } as const;
