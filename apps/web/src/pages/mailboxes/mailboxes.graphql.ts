// The documents of the mailbox screens: the list (with health and today's counts), one mailbox,
// the add operations (one or many, logins checked), the actions, domain vitals and warmup stats.
import { graphql, type ResultOf } from '../../graphql/graphql';

export const MailboxFields = graphql(`
  fragment MailboxFields on EmailAccount @_unmask {
    id
    email
    status
    warmupStatus
    provider
    lastError
    disconnectReason
    payload {
      name { firstName lastName }
      dailyLimit
      sendingGap
      smtpHost
      smtpPort
      imapHost
      imapPort
      warmup { limit increment replyRate warmupCustomWords warmupSignature startDate }
      analytics {
        dailyCounters { emailSentToday warmupEmailSentToday }
        healthScores {
          healthScore
          healthInputs {
            status imapFailures sent7d replied7d bounced7d complaints7d
            warmupInbox7d warmupSpam7d warmupPromotions7d warmupMissing7d
            spf dkim dmarc dnsCheckedAt
          }
        }
      }
    }
  }
`);
export type Mailbox = ResultOf<typeof MailboxFields>;

export const MailboxesQuery = graphql(
  `
    query Mailboxes($workspaceId: ID!, $status: EmailAccountStatusInput, $email: String, $first: Int) {
      workspace(id: $workspaceId) {
        id
        oauthProviders { google microsoft }
        emailAccounts(first: $first, status: $status, email: $email, sort: created_at, direction: asc) {
          totalCount
          pageInfo { hasNextPage }
          edges { node { ...MailboxFields } }
        }
      }
    }
  `,
  [MailboxFields],
);

export const MailboxQuery = graphql(
  `
    query Mailbox($workspaceId: ID!, $id: ID!, $startDate: String!, $endDate: String!) {
      workspace(id: $workspaceId) {
        id
        emailAccounts(first: 1, emailAccountId: $id) {
          edges { node { ...MailboxFields } }
        }
        warmupStats(emailAccountId: $id, startDate: $startDate, endDate: $endDate) {
          inboxPercent spamPercent promotionPercent totalWarmupSent totalInboxes
          chartData { date sent inbox spam promotion }
        }
      }
    }
  `,
  [MailboxFields],
);

export const AddMailboxes = graphql(`
  mutation AddMailboxes($workspaceId: ID!, $accounts: [NewEmailAccountInput!]!, $enableWarmup: Boolean) {
    addEmailAccounts(workspaceId: $workspaceId, accounts: $accounts, enableWarmup: $enableWarmup) {
      added { id email }
      failed { email error }
    }
  }
`);

export const SetSending = graphql(`
  mutation SetMailboxesSending($workspaceId: ID!, $ids: [ID!]!, $status: EmailAccountSendingStatus!) {
    setEmailAccountsSending(workspaceId: $workspaceId, ids: $ids, status: $status) { updatedCount }
  }
`);

export const SetWarmup = graphql(`
  mutation SetMailboxesWarmup($workspaceId: ID!, $ids: [ID!]!, $warmupStatus: EmailAccountWarmupStatus!) {
    setEmailAccountsWarmup(workspaceId: $workspaceId, ids: $ids, warmupStatus: $warmupStatus)
  }
`);

export const Reconnect = graphql(`
  mutation ReconnectMailboxes($workspaceId: ID!, $ids: [ID!]!) {
    reconnectEmailAccounts(workspaceId: $workspaceId, ids: $ids) { id email status error url }
  }
`);

export const DeleteMailbox = graphql(`
  mutation DeleteMailbox($workspaceId: ID!, $email: String!) {
    deleteEmailAccount(workspaceId: $workspaceId, email: $email)
  }
`);

export const UpdateMailboxes = graphql(`
  mutation UpdateMailboxes(
    $workspaceId: ID!
    $ids: [ID!]!
    $dailyLimit: Int
    $sendingGap: Int
    $warmupLimit: Int
    $warmupIncrement: Int
    $warmupReplyRate: Int
    $warmupCustomWords: String
    $warmupSignature: String
  ) {
    updateEmailAccounts(
      workspaceId: $workspaceId
      ids: $ids
      dailyLimit: $dailyLimit
      sendingGap: $sendingGap
      warmupLimit: $warmupLimit
      warmupIncrement: $warmupIncrement
      warmupReplyRate: $warmupReplyRate
      warmupCustomWords: $warmupCustomWords
      warmupSignature: $warmupSignature
    ) {
      updatedCount
    }
  }
`);

export const CheckVitals = graphql(`
  mutation CheckDomainVitals($workspaceId: ID!, $accounts: [String!]!) {
    testDomainVitals(workspaceId: $workspaceId, accounts: $accounts) {
      successList { domain allPass spf dkim dmarc mx }
      failureList { domain error }
    }
  }
`);

export const StartGoogle = graphql(`
  mutation StartGoogleOAuth($workspaceId: ID!, $redirectAfter: String) {
    startGoogleOAuth(workspaceId: $workspaceId, redirectAfter: $redirectAfter)
  }
`);
export const StartMicrosoft = graphql(`
  mutation StartMicrosoftOAuth($workspaceId: ID!, $redirectAfter: String) {
    startMicrosoftOAuth(workspaceId: $workspaceId, redirectAfter: $redirectAfter)
  }
`);
