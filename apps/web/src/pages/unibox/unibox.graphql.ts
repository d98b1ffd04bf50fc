// The unibox screen's GraphQL documents: the thread list (with its filters), one thread's
// conversation, what the filters and the composer choose from, and the actions.
import { graphql, type ResultOf } from '../../graphql/graphql';

export const ThreadsQuery = graphql(`
  query UniboxThreads($workspaceId: ID!, $first: Int, $isUnread: Boolean, $leadLabel: String, $campaignId: ID, $emailAccountId: ID) {
    uniboxThreads(
      workspaceId: $workspaceId
      first: $first
      previewOnly: true
      isUnread: $isUnread
      leadLabel: $leadLabel
      campaignId: $campaignId
      emailAccountId: $emailAccountId
    ) {
      pageInfo { hasNextPage }
      edges {
        node {
          id
          subject
          leadEmail
          eaccount
          lastMessageAt
          messageCount
          isUnread
          label
          lead { id label }
          lastMessage { id direction fromAddressEmail contentPreview }
        }
      }
    }
  }
`);
export type ThreadRow = ResultOf<typeof ThreadsQuery>['uniboxThreads']['edges'][number]['node'];

export const ThreadQuery = graphql(`
  query UniboxThread($workspaceId: ID!, $threadId: ID!) {
    uniboxThreads(workspaceId: $workspaceId, threadId: $threadId, first: 1) {
      edges {
        node {
          id
          subject
          leadEmail
          eaccount
          isUnread
          label
          campaign { id name }
          lead { id email label campaignId firstName lastName }
          emails(first: 100) {
            pageInfo { hasNextPage }
            edges {
              node {
                id
                direction
                isUnread
                fromAddressEmail
                from { address name }
                toAddressEmailList
                ccAddressEmailList
                subject
                timestampCreated
                contentPreview
                body { text }
                attachments { fileName contentType size }
              }
            }
          }
        }
      }
    }
  }
`);
export type ThreadDetail = ResultOf<typeof ThreadQuery>['uniboxThreads']['edges'][number]['node'];
export type ThreadEmail = ThreadDetail['emails']['edges'][number]['node'];

/** What the filters and the composer choose from: labels, campaigns, mailboxes. */
export const ChoicesQuery = graphql(`
  query UniboxChoices($workspaceId: ID!) {
    workspace(id: $workspaceId) {
      id
      leadLabels { key name }
      campaigns(first: 100, sort: camp_name, direction: asc) { edges { node { id name } } }
      emailAccounts(first: 100, sort: email, direction: asc) { edges { node { id email status } } }
    }
  }
`);

export const MarkRead = graphql(`
  mutation MarkUniboxThreadRead($workspaceId: ID!, $threadId: ID!) {
    markUniboxThreadRead(workspaceId: $workspaceId, threadId: $threadId)
  }
`);
export const MarkUnread = graphql(`
  mutation MarkUniboxThreadUnread($workspaceId: ID!, $threadId: ID!) {
    markUniboxThreadUnread(workspaceId: $workspaceId, threadId: $threadId)
  }
`);
export const SetLeadLabel = graphql(`
  mutation SetLeadLabel($workspaceId: ID!, $campaignId: ID, $email: String!, $label: String) {
    updateLeadData(workspaceId: $workspaceId, campaignId: $campaignId, email: $email, label: $label) { updated }
  }
`);
export const Reply = graphql(`
  mutation ReplyToUniboxEmail($workspaceId: ID!, $replyToId: ID!, $body: String!, $subject: String, $to: [String!], $cc: [String!], $attachments: [UniboxAttachmentInput!]) {
    replyToUniboxEmail(workspaceId: $workspaceId, replyToId: $replyToId, body: $body, subject: $subject, to: $to, cc: $cc, attachments: $attachments) { id threadId }
  }
`);
export const Forward = graphql(`
  mutation ForwardUniboxEmail($workspaceId: ID!, $replyToId: ID!, $body: String, $subject: String, $to: [String!]!, $cc: [String!]) {
    forwardUniboxEmail(workspaceId: $workspaceId, replyToId: $replyToId, body: $body, subject: $subject, to: $to, cc: $cc) { id threadId }
  }
`);
export const Send = graphql(`
  mutation SendUniboxEmail($workspaceId: ID!, $from: String!, $to: [String!]!, $cc: [String!], $subject: String!, $body: String!, $attachments: [UniboxAttachmentInput!]) {
    sendUniboxEmail(workspaceId: $workspaceId, from: $from, to: $to, cc: $cc, subject: $subject, body: $body, attachments: $attachments) { id threadId }
  }
`);
