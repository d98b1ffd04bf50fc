// The documents of a campaign's subsequences: the parent's subsequences with their triggers
// and counters, the workspace's lead labels to trigger on, and create / archive / delete.
import { graphql, type ResultOf } from '../../graphql/graphql';

export const SubsequencesQuery = graphql(`
  query Subsequences($workspaceId: ID!, $parentId: ID!) {
    campaign(workspaceId: $workspaceId, id: $parentId) {
      id
      type
      parent { id name }
      events { name val includeText excludeText }
    }
    workspace(id: $workspaceId) {
      id
      leadLabels { key name }
      campaigns(first: 100, type: subseq, parentId: $parentId, sort: created_at, direction: asc) {
        totalCount
        edges {
          node { id name status leadCount sentCount events { name val includeText excludeText } }
        }
      }
    }
  }
`);
export type SubsequenceRow = NonNullable<ResultOf<typeof SubsequencesQuery>['workspace']>['campaigns']['edges'][number]['node'];
export type Trigger = SubsequenceRow['events'][number];

export const CreateSubsequence = graphql(`
  mutation CreateSubsequence($workspaceId: ID!, $parentCampaignId: ID!, $name: String!, $events: [SubsequenceEventInput!]!) {
    createSubsequence(workspaceId: $workspaceId, parentCampaignId: $parentCampaignId, name: $name, events: $events) { id }
  }
`);
export const ArchiveSubsequence = graphql(`
  mutation ArchiveSubsequence($workspaceId: ID!, $id: ID!) {
    archiveCampaign(workspaceId: $workspaceId, id: $id) { id status }
  }
`);
export const DeleteSubsequence = graphql(`
  mutation DeleteSubsequence($workspaceId: ID!, $id: ID!) {
    deleteCampaign(workspaceId: $workspaceId, id: $id)
  }
`);
