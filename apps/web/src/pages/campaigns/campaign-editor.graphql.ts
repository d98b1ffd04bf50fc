// The documents of the campaign editor: one query for the campaign and the workspace's
// mailboxes, and the update mutation every section saves through.
import { graphql, type ResultOf } from '../../graphql/graphql';

export const CampaignEditorQuery = graphql(`
  query CampaignEditor($workspaceId: ID!, $id: ID!) {
    campaign(workspaceId: $workspaceId, id: $id) {
      id
      name
      status
      pausedReason
      dailyLimit
      intervalLimitInMin
      stopOnLeadReplied
      openTracking
      unsubscribeLink
      sendAsText
      pauseOnBounceRate
      bounceRateLimit
      emailAccounts
      sequences {
        step
        waitTime
        variations { variation name subject body }
      }
      schedule { days fromTime toTime timezone startDate endDate }
    }
    workspace(id: $workspaceId) {
      id
      emailAccounts(first: 100) {
        edges { node { id email status warmupStatus } }
      }
    }
  }
`);

export type EditedCampaign = NonNullable<ResultOf<typeof CampaignEditorQuery>['campaign']>;
export type Mailbox = NonNullable<ResultOf<typeof CampaignEditorQuery>['workspace']>['emailAccounts']['edges'][number]['node'];

/** Every section saves through the update operation: it answers the campaign again. */
export const UpdateCampaign = graphql(`
  mutation UpdateCampaign(
    $workspaceId: ID!
    $id: ID!
    $name: String
    $sequences: [SequenceStepInput!]
    $schedules: CampaignScheduleInput
    $emailAccounts: [String!]
    $dailyLimit: Int
    $intervalLimitInMin: Int
    $stopOnLeadReplied: Boolean
    $openTracking: Boolean
    $unsubscribeLink: Boolean
    $sendAsText: Boolean
    $pauseOnBounceRate: Boolean
    $bounceRateLimit: Float
  ) {
    updateCampaign(
      workspaceId: $workspaceId
      id: $id
      name: $name
      sequences: $sequences
      schedules: $schedules
      emailAccounts: $emailAccounts
      dailyLimit: $dailyLimit
      intervalLimitInMin: $intervalLimitInMin
      stopOnLeadReplied: $stopOnLeadReplied
      openTracking: $openTracking
      unsubscribeLink: $unsubscribeLink
      sendAsText: $sendAsText
      pauseOnBounceRate: $pauseOnBounceRate
      bounceRateLimit: $bounceRateLimit
    ) {
      id
      name
      status
      updatedAt
    }
  }
`);

export const LaunchFromEditor = graphql(`
  mutation LaunchFromEditor($workspaceId: ID!, $id: ID!) {
    launchCampaign(workspaceId: $workspaceId, id: $id) { id status pausedReason }
  }
`);
export const PauseFromEditor = graphql(`
  mutation PauseFromEditor($workspaceId: ID!, $id: ID!) {
    pauseCampaign(workspaceId: $workspaceId, id: $id) { id status pausedReason }
  }
`);
