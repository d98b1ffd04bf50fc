// The documents of the sequence editor's preview: a step composed for a lead by the sending
// engine's composer (campaign.preview), the campaign's leads to choose from, and a test send.
import { graphql, type ResultOf } from '../../graphql/graphql';

export const PreviewLeadsQuery = graphql(`
  query PreviewLeads($workspaceId: ID!, $campaignId: ID!) {
    workspace(id: $workspaceId) {
      id
      leads(first: 100, campaignId: $campaignId, sort: _id, direction: asc) {
        edges { node { id email firstName lastName } }
      }
      emailAccounts(first: 100) {
        edges { node { id email status } }
      }
    }
  }
`);
export type PreviewLead = NonNullable<ResultOf<typeof PreviewLeadsQuery>['workspace']>['leads']['edges'][number]['node'];

export const StepPreviewQuery = graphql(`
  query StepPreview($workspaceId: ID!, $id: ID!, $step: Int!, $variation: String!, $leadId: ID, $sample: Boolean) {
    campaign(workspaceId: $workspaceId, id: $id) {
      id
      preview(step: $step, variation: $variation, leadId: $leadId, sample: $sample) {
        subject
        html
        text
        missing
        leadId
        leadEmail
        senderEmail
      }
    }
  }
`);

export const SendCampaignTest = graphql(`
  mutation SendCampaignTest(
    $workspaceId: ID!
    $campaignId: ID!
    $step: Int!
    $variation: String!
    $leadId: ID
    $sample: Boolean
    $to: String!
    $emailAccountId: ID!
  ) {
    sendCampaignTest(
      workspaceId: $workspaceId
      campaignId: $campaignId
      step: $step
      variation: $variation
      leadId: $leadId
      sample: $sample
      to: $to
      emailAccountId: $emailAccountId
    ) {
      to
      from
      subject
      missing
    }
  }
`);
