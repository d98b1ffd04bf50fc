// The documents of the API keys tab: the organization's keys, and making or revoking one.
import { graphql } from '../../graphql/graphql';

export const ApiKeysQuery = graphql(`
  query ApiKeys {
    apiKeys { id name keyPrefix workspaceId role partnerName clientId createdAt lastUsedAt revokedAt }
    workspaces { id name }
  }
`);
export const CreateApiKey = graphql(`
  mutation CreateApiKey($name: String!, $workspaceId: ID, $role: ApiKeyRole) {
    createApiKey(name: $name, workspaceId: $workspaceId, role: $role) { apiKey key { id name } }
  }
`);
export const RevokeApiKey = graphql(`
  mutation RevokeApiKey($id: ID!) { revokeApiKey(id: $id) { id revokedAt } }
`);
