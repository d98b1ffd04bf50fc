// The leads screens' GraphQL documents.
import { graphql, type ResultOf } from '../../graphql/graphql';

/** One page of the workspace's leads (100 at most, the connection's page) from any row; the count with the first page only. */
export const LeadsPageQuery = graphql(`
  query LeadsPage(
    $workspaceId: ID!
    $first: Int!
    $offset: Int!
    $campaignId: ID
    $status: LeadStatus
    $label: String
    $email: String
    $sort: LeadSort
    $direction: LeadDirection
    $withCount: Boolean!
  ) {
    workspace(id: $workspaceId) {
      id
      leads(first: $first, offset: $offset, campaignId: $campaignId, status: $status, label: $label, email: $email, sort: $sort, direction: $direction) {
        totalCount @include(if: $withCount)
        pageInfo { hasNextPage }
        edges {
          node { id email firstName lastName companyName campaignName status label createdAt }
        }
      }
    }
  }
`);
export type LeadRow = NonNullable<ResultOf<typeof LeadsPageQuery>['workspace']>['leads']['edges'][number]['node'];

/** What the filters and the import choose from: the campaigns (subsequences too) and the lead labels. */
export const LeadChoicesQuery = graphql(`
  query LeadChoices($workspaceId: ID!) {
    workspace(id: $workspaceId) {
      id
      campaigns(first: 100, type: all, sort: camp_name, direction: asc) {
        edges { node { id name status type } }
      }
      leadLabels { key name }
    }
  }
`);

export const AddLeads = graphql(`
  mutation AddLeads(
    $workspaceId: ID!
    $campaignId: ID!
    $leads: [LeadInput!]!
    $skipIfInWorkspace: Boolean
    $skipLeadInActivePauseCamp: Boolean
    $skipLeadForActiveOnlyCamp: Boolean
    $isOverwrite: Boolean
    $resumeCampIfCompleted: Boolean
  ) {
    addLeads(
      workspaceId: $workspaceId
      campaignId: $campaignId
      leads: $leads
      skipIfInWorkspace: $skipIfInWorkspace
      skipLeadInActivePauseCamp: $skipLeadInActivePauseCamp
      skipLeadForActiveOnlyCamp: $skipLeadForActiveOnlyCamp
      isOverwrite: $isOverwrite
      resumeCampIfCompleted: $resumeCampIfCompleted
    ) {
      totalSent
      leadsUploaded
      duplicateEmailCount
      alreadyInCampaign
      invalidEmailCount
      skipped
      overflowedLeadCount
    }
  }
`);

export const LeadQuery = graphql(`
  query Lead($workspaceId: ID!, $id: ID!) {
    lead(workspaceId: $workspaceId, id: $id) {
      id
      email
      firstName
      lastName
      companyName
      companyWebsite
      jobTitle
      phoneNumber
      networkPersonUrl
      networkCompanyUrl
      addressLine
      city
      state
      country
      countryCode
      notes
      customVariables
      status
      label
      campaignId
      campaignName
      emailAccountName
      sentStep
      totalSteps
      createdAt
      updatedAt
      lastSentAt
      bounceMsg
      messages {
        id
        step
        variationLabel
        subject
        body
        isText
        sentAt
        openedAt
        repliedAt
        bouncedAt
        unsubscribedAt
        events { id type occurredAt isMachine }
      }
    }
    workspace(id: $workspaceId) {
      id
      leadLabels { key name }
    }
  }
`);
export type LeadDetail = NonNullable<ResultOf<typeof LeadQuery>['lead']>;

export const SetLeadLabel = graphql(`
  mutation SetLeadLabel($workspaceId: ID!, $campaignId: ID!, $email: String!, $label: String) {
    updateLeadData(workspaceId: $workspaceId, campaignId: $campaignId, email: $email, label: $label) { updated }
  }
`);
