// GraphQL fields of the organization's API keys (Settings → API keys): list, create, revoke.
import { operations } from '@outreach/core';
import { operationField } from './operation-field';

const ops = operations.apiKey;

operationField('apiKeys', ops.list, { result: 'api_keys', type: 'ApiKey', description: "The organization's API keys, newest first (OWNER and ADMIN only); never the key itself" });
operationField('createApiKey', ops.create, { type: 'CreateApiKeyResult', types: { key: 'ApiKey' } });
operationField('revokeApiKey', ops.revoke, { result: 'key', type: 'ApiKey' });
