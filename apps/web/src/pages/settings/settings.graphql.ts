// The documents of the settings tabs: each lists what it shows and the writes it makes.
import { graphql } from '../../graphql/graphql';

export const WebhooksQuery = graphql(`
  query Webhooks($workspaceId: ID!) {
    workspace(id: $workspaceId) {
      id
      webhooks { id name url eventTypes campaignIds status hasSecret lastRun lastResponse createdAt }
      leadLabels { id key name }
      campaigns(first: 100, type: all, sort: camp_name, direction: asc) { edges { node { id name } } }
    }
  }
`);
export const AddWebhook = graphql(`
  mutation AddWebhook($workspaceId: ID!, $url: String!, $name: String, $secret: String, $eventTypes: [String!]!, $campaignIds: [ID!]!) {
    addWebhook(workspaceId: $workspaceId, url: $url, name: $name, secret: $secret, eventTypes: $eventTypes, campaignIds: $campaignIds) { id }
  }
`);
export const DeleteWebhooks = graphql(`
  mutation DeleteWebhooks($workspaceId: ID!, $ids: [ID!]!) { deleteWebhooks(workspaceId: $workspaceId, ids: $ids) }
`);
export const SendWebhookTestEvent = graphql(`
  mutation SendWebhookTestEvent($workspaceId: ID!, $id: ID!) { sendWebhookTestEvent(workspaceId: $workspaceId, id: $id) }
`);

export const BlocklistQuery = graphql(`
  query Blocklist($workspaceId: ID!, $search: String, $after: String) {
    workspace(id: $workspaceId) {
      id
      blocklist(search: $search, first: 100, after: $after) {
        totalCount
        pageInfo { hasNextPage endCursor }
        edges { node { id value createdAt createdByLabel } }
      }
    }
  }
`);
export const AddBlocklistEntries = graphql(`
  mutation AddBlocklistEntries($workspaceId: ID!, $entries: [String!]!) {
    addBlocklistEntries(workspaceId: $workspaceId, entries: $entries) { entriesAdded alreadyInBlocklist }
  }
`);
export const DeleteBlocklistEntries = graphql(`
  mutation DeleteBlocklistEntries($workspaceId: ID!, $entries: [String!]!) { deleteBlocklistEntries(workspaceId: $workspaceId, entries: $entries) }
`);

export const TagsQuery = graphql(`
  query Tags($workspaceId: ID!) {
    workspace(id: $workspaceId) { id tags(limit: 1000) { id name color description campaignCount accountCount } }
  }
`);
export const CreateTag = graphql(`
  mutation CreateTag($workspaceId: ID!, $name: String!, $color: String!, $description: String) {
    createTag(workspaceId: $workspaceId, name: $name, color: $color, description: $description) { id }
  }
`);
export const DeleteTags = graphql(`
  mutation DeleteTags($workspaceId: ID!, $ids: [ID!]!) { deleteTags(workspaceId: $workspaceId, ids: $ids) }
`);

export const LeadLabelsQuery = graphql(`
  query LeadLabels($workspaceId: ID!) {
    workspace(id: $workspaceId) { id leadLabels { id key name sentiment isSystem } }
  }
`);
export const AddLeadLabel = graphql(`
  mutation AddLeadLabel($workspaceId: ID!, $name: String!, $sentiment: LeadLabelSentiment!) {
    addLeadLabel(workspaceId: $workspaceId, name: $name, sentiment: $sentiment) { id }
  }
`);
export const DeleteLeadLabels = graphql(`
  mutation DeleteLeadLabels($workspaceId: ID!, $ids: [ID!]!) { deleteLeadLabels(workspaceId: $workspaceId, ids: $ids) }
`);

export const AdditionalFieldsQuery = graphql(`
  query AdditionalFields($workspaceId: ID!) {
    workspace(id: $workspaceId) { id additionalFields { name defaultValue } }
  }
`);
export const CreateAdditionalField = graphql(`
  mutation CreateAdditionalField($workspaceId: ID!, $name: String!, $defaultValue: String) {
    createAdditionalField(workspaceId: $workspaceId, name: $name, defaultValue: $defaultValue) { name }
  }
`);
export const DeleteAdditionalFields = graphql(`
  mutation DeleteAdditionalFields($workspaceId: ID!, $names: [String!]!) { deleteAdditionalFields(workspaceId: $workspaceId, names: $names) }
`);

export const ClientsQuery = graphql(`
  query Clients {
    clients { id email firstName lastName businessName status grants { workspaceId permissions } }
    workspaces { id name }
  }
`);
export const CreateClient = graphql(`
  mutation CreateClient($email: String!, $firstName: String, $lastName: String, $businessName: String, $permissions: [ClientGrantInput!]) {
    createClient(email: $email, firstName: $firstName, lastName: $lastName, businessName: $businessName, permissions: $permissions) { clientId apiKey }
  }
`);
export const UpdateClientGrants = graphql(`
  mutation UpdateClientGrants($clientId: ID!, $permissions: [ClientGrantInput!]) {
    updateClientPermissions(clientId: $clientId, permissions: $permissions)
  }
`);
export const SetClientStatus = graphql(`
  mutation SetClientStatus($clientId: ID!, $status: ClientStatus!) { setClientStatus(clientId: $clientId, status: $status) }
`);
export const DeleteClient = graphql(`
  mutation DeleteClient($clientId: ID!) { deleteClient(clientId: $clientId) }
`);

export const PeopleQuery = graphql(`
  query People { people { id name email role createdAt } }
`);
export const InviteUser = graphql(`
  mutation InviteUser($workspaceId: ID!, $email: String!, $role: WorkspaceRole!) {
    inviteUser(workspaceId: $workspaceId, email: $email, role: $role) { inviteId token expiresAt }
  }
`);
export const ChangePersonRole = graphql(`
  mutation ChangePersonRole($id: ID!, $role: PersonRole!) { changePersonRole(id: $id, role: $role) { id role } }
`);
export const RemovePerson = graphql(`
  mutation RemovePerson($id: ID!) { removePerson(id: $id) }
`);
